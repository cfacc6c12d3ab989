package otelexport

import (
	"context"
	"crypto/sha256"

	"github.com/oklog/ulid/v2"
	"go.opentelemetry.io/otel/trace"
)

// TraceID is the trace of a task or judgement: its ULID's 128 bits, so a
// trace found in a backend names its task (tribunal-session show) and
// the same task always gives the same trace, live or backfilled. An id
// that is not a ULID (a hand-edited log) is hashed instead.
func TraceID(taskID string) trace.TraceID {
	var t trace.TraceID
	if id, err := ulid.ParseStrict(taskID); err == nil {
		copy(t[:], id[:])
		return t
	}
	sum := sha256.Sum256([]byte("tribunal/trace/" + taskID))
	copy(t[:], sum[:16])
	return t
}

// SpanID is one span's id, derived from its trace and a key naming the
// span within it (the iteration, judge, rep or call it stands for).
func SpanID(t trace.TraceID, key string) trace.SpanID {
	h := sha256.New()
	h.Write(t[:])
	h.Write([]byte(key))
	var s trace.SpanID
	copy(s[:], h.Sum(nil))
	if !s.IsValid() {
		s[7] = 1 // all zero is invalid; a 2^-64 case, kept deterministic
	}
	return s
}

type idKey struct{}

// fixedIDs makes the SDK use the ids the converter chose, carried in the
// context of each Start, rather than random ones.
type fixedIDs struct{}

type chosen struct {
	trace trace.TraceID
	span  trace.SpanID
}

func withIDs(ctx context.Context, t trace.TraceID, s trace.SpanID) context.Context {
	return context.WithValue(ctx, idKey{}, chosen{t, s})
}

func (fixedIDs) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	c, _ := ctx.Value(idKey{}).(chosen)
	return c.trace, c.span
}

func (fixedIDs) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	c, _ := ctx.Value(idKey{}).(chosen)
	return c.span
}
