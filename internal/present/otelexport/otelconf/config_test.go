package otelconf

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name    string
		env     map[string]string
		setting string
		want    Config
		err     string
	}{
		{name: "nothing configured"},
		{name: "the setting", setting: "http://collector:4318/",
			want: Config{Enabled: true, URL: "http://collector:4318/v1/traces", Source: "tribunal.telemetry.otlp_endpoint"}},
		{name: "the variable wins over the setting", env: map[string]string{EnvEndpoint: "https://otel.example"}, setting: "http://other",
			want: Config{Enabled: true, URL: "https://otel.example/v1/traces", Source: EnvEndpoint}},
		{name: "the traces endpoint is used as given", env: map[string]string{EnvEndpoint: "http://a", EnvTracesEndpoint: "http://b:9/custom"},
			want: Config{Enabled: true, URL: "http://b:9/custom", Source: EnvTracesEndpoint}},
		{name: "disabled by the SDK switch", env: map[string]string{EnvEndpoint: "http://a", EnvSDKDisabled: "TRUE"}},
		{name: "disabled by the exporter switch", env: map[string]string{EnvEndpoint: "http://a", EnvTracesExporter: "none"}},
		{name: "headers, the traces ones over the general ones", env: map[string]string{EnvEndpoint: "http://a",
			EnvHeaders: "api-key=one, x-team = review%20board", EnvTracesHeaders: "api-key=two"},
			want: Config{Enabled: true, URL: "http://a/v1/traces", Source: EnvEndpoint, Headers: map[string]string{"api-key": "two", "x-team": "review board"}}},
		{name: "resource: the service name variable over the attribute", env: map[string]string{EnvEndpoint: "http://a",
			EnvResourceAttrs: "service.name=x,deployment.environment=ci", EnvServiceName: "tribunal-ci"},
			want: Config{Enabled: true, URL: "http://a/v1/traces", Source: EnvEndpoint, Resource: map[string]string{"service.name": "tribunal-ci", "deployment.environment": "ci"}}},
		{name: "json", env: map[string]string{EnvEndpoint: "http://a", EnvProtocol: "http/json"},
			want: Config{Enabled: true, URL: "http://a/v1/traces", Source: EnvEndpoint, Protocol: ProtocolJSON}},
		{name: "grpc refused", env: map[string]string{EnvEndpoint: "http://a", EnvTracesProtocol: "grpc"}, err: "OTLP over HTTP only"},
		{name: "not a URL", env: map[string]string{EnvEndpoint: "localhost:4318"}, err: "is not an http:// or https:// URL"},
		{name: "a header without a value", env: map[string]string{EnvEndpoint: "http://a", EnvHeaders: "k"}, err: `"k" is not key=value`},
		{name: "a bad escape", env: map[string]string{EnvEndpoint: "http://a", EnvResourceAttrs: "k=%zz"}, err: "not percent-encoded"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Resolve(func(k string) string { return tc.env[k] }, tc.setting)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want.Enabled {
				if tc.want.Protocol == "" {
					tc.want.Protocol = ProtocolProtobuf
				}
				if tc.want.Headers == nil {
					tc.want.Headers = map[string]string{}
				}
				if tc.want.Resource == nil {
					tc.want.Resource = map[string]string{"service.name": DefaultServiceName}
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Resolve = %+v\nwant      %+v", got, tc.want)
			}
		})
	}
}

func TestParseSince(t *testing.T) {
	now := time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"90m":                  now.Add(-90 * time.Minute),
		"7d":                   now.AddDate(0, 0, -7),
		"2026-12-01T00:00:00Z": time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
	} {
		if got, err := ParseSince(in, now); err != nil || !got.Equal(want) {
			t.Errorf("ParseSince(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"yesterday", "-1h", "d", ""} {
		if _, err := ParseSince(bad, now); err == nil {
			t.Errorf("ParseSince(%q) accepted", bad)
		}
	}
}
