// Package otelconf decides whether and where tribunal sends traces (the
// standard OTEL_* variables over the user's setting) and words the export
// command, with no OpenTelemetry code: tribunal-session links it to decide
// whether to start tribunal-otel, the program that links the SDK.
package otelconf

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Standard OpenTelemetry variables tribunal honours (the SDK's
// environment specification); cmd/ reads them and passes them in.
const (
	EnvEndpoint       = "OTEL_EXPORTER_OTLP_ENDPOINT"
	EnvTracesEndpoint = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"
	EnvHeaders        = "OTEL_EXPORTER_OTLP_HEADERS"
	EnvTracesHeaders  = "OTEL_EXPORTER_OTLP_TRACES_HEADERS"
	EnvProtocol       = "OTEL_EXPORTER_OTLP_PROTOCOL"
	EnvTracesProtocol = "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
	EnvServiceName    = "OTEL_SERVICE_NAME"
	EnvResourceAttrs  = "OTEL_RESOURCE_ATTRIBUTES"
	EnvSDKDisabled    = "OTEL_SDK_DISABLED"
	EnvTracesExporter = "OTEL_TRACES_EXPORTER"
)

// Variables lists every variable Resolve reads, for a caller that builds
// the environment map.
var Variables = []string{EnvEndpoint, EnvTracesEndpoint, EnvHeaders, EnvTracesHeaders, EnvProtocol,
	EnvTracesProtocol, EnvServiceName, EnvResourceAttrs, EnvSDKDisabled, EnvTracesExporter}

// Protocols the exporter speaks. The gRPC exporter is not linked: every
// OTLP collector also listens on HTTP, and one transport is one code path
// to test against a real receiver (ADR-014).
const (
	ProtocolProtobuf = "http/protobuf"
	ProtocolJSON     = "http/json"
)

// DefaultServiceName is service.name when OTEL_SERVICE_NAME and
// OTEL_RESOURCE_ATTRIBUTES name none.
const DefaultServiceName = "tribunal"

// Config is where and how traces are sent. The zero value is disabled.
type Config struct {
	// Enabled is false when nothing asks for export, or the standard
	// switches turn it off.
	Enabled bool
	// URL is the full traces URL (…/v1/traces); Source names the variable
	// or setting it came from, for messages.
	URL, Source string
	Protocol    string
	Headers     map[string]string
	// Resource is the resource's attributes, service.name among them.
	Resource map[string]string
}

// Resolve reads the standard OTEL_* variables through getenv and the
// user-level tribunal.telemetry.otlp_endpoint setting (setting; "" when
// unset — a repository's settings never reach here, config drops them).
// The variables win over the setting, as they win over a program's own
// defaults in every OpenTelemetry SDK. Disabled, not an error, when
// neither names an endpoint or OTEL_SDK_DISABLED / OTEL_TRACES_EXPORTER
// say no; an error names a variable whose value cannot be used.
func Resolve(getenv func(string) string, setting string) (Config, error) {
	var c Config
	if strings.EqualFold(strings.TrimSpace(getenv(EnvSDKDisabled)), "true") {
		return c, nil
	}
	if strings.TrimSpace(getenv(EnvTracesExporter)) == "none" {
		return c, nil
	}
	if err := c.endpoint(getenv, setting); err != nil || c.URL == "" {
		return Config{}, err
	}
	c.Protocol = ProtocolProtobuf
	for _, name := range []string{EnvTracesProtocol, EnvProtocol} {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			continue
		}
		if v != ProtocolProtobuf && v != ProtocolJSON {
			return Config{}, fmt.Errorf("%s=%q: tribunal exports OTLP over HTTP only (%s or %s)", name, v, ProtocolProtobuf, ProtocolJSON)
		}
		c.Protocol = v
		break
	}
	var err error
	if c.Headers, err = headers(getenv); err != nil {
		return Config{}, err
	}
	if c.Resource, err = resourceAttrs(getenv); err != nil {
		return Config{}, err
	}
	c.Enabled = true
	return c, nil
}

// endpoint sets URL and Source: the traces variable as given, else the
// base variable or the setting with /v1/traces appended (the
// specification's rule for the signal-less endpoint).
func (c *Config) endpoint(getenv func(string) string, setting string) error {
	if v := strings.TrimSpace(getenv(EnvTracesEndpoint)); v != "" {
		c.URL, c.Source = v, EnvTracesEndpoint
	} else {
		base, source := strings.TrimSpace(getenv(EnvEndpoint)), EnvEndpoint
		if base == "" {
			base, source = strings.TrimSpace(setting), "tribunal.telemetry.otlp_endpoint"
		}
		if base == "" {
			return nil
		}
		c.URL, c.Source = strings.TrimRight(base, "/")+"/v1/traces", source
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("%s=%q is not an http:// or https:// URL", c.Source, c.URL)
	}
	return nil
}

// headers reads the W3C-baggage-style key=value list of the headers
// variables; the traces one adds to (and overrides) the general one.
func headers(getenv func(string) string) (map[string]string, error) {
	h := map[string]string{}
	for _, name := range []string{EnvHeaders, EnvTracesHeaders} {
		if err := pairs(name, getenv(name), h); err != nil {
			return nil, err
		}
	}
	return h, nil
}

// resourceAttrs is OTEL_RESOURCE_ATTRIBUTES with OTEL_SERVICE_NAME over
// its service.name, and the default name when neither gives one.
func resourceAttrs(getenv func(string) string) (map[string]string, error) {
	attrs := map[string]string{}
	if err := pairs(EnvResourceAttrs, getenv(EnvResourceAttrs), attrs); err != nil {
		return nil, err
	}
	if v := strings.TrimSpace(getenv(EnvServiceName)); v != "" {
		attrs["service.name"] = v
	}
	if attrs["service.name"] == "" {
		attrs["service.name"] = DefaultServiceName
	}
	return attrs, nil
}

// pairs parses "k1=v1,k2=v2" with percent-encoded values into into.
func pairs(name, v string, into map[string]string) error {
	for item := range strings.SplitSeq(v, ",") {
		if strings.TrimSpace(item) == "" {
			continue
		}
		k, val, ok := strings.Cut(item, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return fmt.Errorf("%s: %q is not key=value", name, strings.TrimSpace(item))
		}
		dec, err := url.PathUnescape(strings.TrimSpace(val))
		if err != nil {
			return fmt.Errorf("%s: the value of %q is not percent-encoded correctly: %w", name, k, err)
		}
		into[k] = dec
	}
	return nil
}

// LiveTimeout bounds the export at the end of a task or an advisory
// judgement, connection and all: the verdict is already written, and a
// collector that is down or slow may delay the process's exit by this
// much and no more.
const LiveTimeout = 2 * time.Second

// ParseSince reads export's --since: a duration back from now ("24h",
// "90m") or an RFC 3339 time.
func ParseSince(v string, now time.Time) (time.Time, error) {
	if d, err := time.ParseDuration(v); err == nil {
		if d < 0 {
			return time.Time{}, fmt.Errorf("--since %q: a duration back from now must not be negative", v)
		}
		return now.Add(-d), nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, nil
	}
	if n, err := strconv.Atoi(strings.TrimSuffix(v, "d")); err == nil && strings.HasSuffix(v, "d") && n >= 0 {
		return now.AddDate(0, 0, -n), nil
	}
	return time.Time{}, fmt.Errorf("--since %q is neither a duration (24h, 7d) nor an RFC 3339 time", v)
}
