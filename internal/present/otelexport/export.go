package otelexport

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/tribunal-cc/tribunal/internal/present/otelexport/otelconf"
)

// batchSize is how many spans go in one request: a backfill of a long
// history is sent in requests a collector's default body limit accepts.
const batchSize = 1000

// Options bound one export.
type Options struct {
	// Timeout is the whole export's deadline, connections, retries and
	// all; 0 means otelconf.LiveTimeout.
	Timeout time.Duration
	// Retry lets a failed request be retried (with back-off) while the
	// deadline allows: a backfill may wait out a collector's restart; a
	// live export does not wait.
	Retry bool
}

// ExportError is a failed export: how many spans went before it, and the
// first failure. It is returned once for the whole export, never per span
// or per batch.
type ExportError struct {
	Sent, Total int
	URL         string
	Err         error
}

func (e *ExportError) Error() string {
	return fmt.Sprintf("%d of %d span(s) not sent to %s: %v", e.Total-e.Sent, e.Total, e.URL, e.Err)
}

func (e *ExportError) Unwrap() error { return e.Err }

// Export sends spans to cfg's collector within o.Timeout and returns how
// many were sent. It stops at the first failed request: a collector that
// refused one batch refuses the next.
func Export(ctx context.Context, cfg otelconf.Config, spans []sdktrace.ReadOnlySpan, o Options) (int, error) {
	if !cfg.Enabled {
		return 0, errors.New("no OTLP endpoint is configured")
	}
	if len(spans) == 0 {
		return 0, nil
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = otelconf.LiveTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	opts := []otlptracehttp.Option{
		otlptracehttp.WithEndpointURL(cfg.URL),
		otlptracehttp.WithHeaders(cfg.Headers),
		otlptracehttp.WithTimeout(timeout),
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: o.Retry,
			InitialInterval: 250 * time.Millisecond, MaxInterval: 2 * time.Second, MaxElapsedTime: timeout}),
	}
	if cfg.Protocol == otelconf.ProtocolJSON {
		opts = append(opts, otlptracehttp.WithEncoding(otlptracehttp.EncodingJSON))
	}
	exp, err := otlptracehttp.New(ctx, opts...)
	if err != nil {
		return 0, &ExportError{Total: len(spans), URL: cfg.URL, Err: err}
	}
	// Shutdown only releases the client here (the exporter keeps no
	// queue); it must not outlive the deadline either.
	defer exp.Shutdown(ctx)
	sent := 0
	for sent < len(spans) {
		n := min(batchSize, len(spans)-sent)
		if err := exp.ExportSpans(ctx, spans[sent:sent+n]); err != nil {
			if ctx.Err() != nil {
				// The SDK's chain of wrappers says the same three times.
				err = fmt.Errorf("no answer within %s: %w", timeout, ctx.Err())
			}
			return sent, &ExportError{Sent: sent, Total: len(spans), URL: cfg.URL, Err: err}
		}
		sent += n
	}
	return sent, nil
}
