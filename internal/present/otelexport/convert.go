// Package otelexport turns tribunal's recorded events (and a task's call
// records) into OpenTelemetry traces and sends them to an OTLP/HTTP
// collector.
package otelexport

import (
	"context"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/tribunal-cc/tribunal/internal/present/otelexport/otelconf"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/version"
)

// Trace is what one trace is made from: the events of one task or
// advisory judgement (one task_id), in log order, and what the task's
// directory still holds about it (nil/empty when it is gone, and always
// for an advisory judgement, which keeps no call records).
type Trace struct {
	TaskID   string
	Events   []events.Record
	Manifest *records.Manifest
	// RubricDigest is the hex SHA-256 of the manifest's rubric in
	// canonical JSON (jcs.SHA256, as a receipt pins it), "" without one.
	RubricDigest string
	// Calls are the task's call records by iteration id, in call order.
	Calls map[string][]Call
}

// Call is one model call's record and its file's path in the task's
// directory (tribunal.call.record: where the prompt and answer are).
type Call struct {
	records.Call
	File string
}

// Kinds of trace (tribunal.kind).
const (
	KindTask     = "task"
	KindReview   = "review"
	KindAdvisory = "advisory"
)

// Convert makes the spans of every trace: one root span per task or
// judgement, a span per iteration, per model invocation (actor, each
// judge, the meta-judge) with a child per recorded model call (each rep
// and attempt), and one per gate decision. It never fails: an event the
// schema refuses is left out and named in the returned warnings (one per
// trace), and the rest of the trace still converts.
func Convert(traces []Trace, resourceAttrs map[string]string) ([]sdktrace.ReadOnlySpan, []string) {
	col := &collector{}
	tp := sdktrace.NewTracerProvider(
		sdktrace.WithResource(Resource(resourceAttrs)),
		sdktrace.WithIDGenerator(fixedIDs{}),
		sdktrace.WithSampler(sdktrace.AlwaysSample()),
		sdktrace.WithSpanProcessor(col),
	)
	tracer := tp.Tracer("github.com/tribunal-cc/tribunal/internal/present/otelexport", trace.WithInstrumentationVersion(version.Version))
	var warnings []string
	for _, t := range traces {
		b := &builder{tracer: tracer, t: t, tid: TraceID(t.TaskID)}
		b.build()
		if b.bad > 0 {
			warnings = append(warnings, fmt.Sprintf("task %s: %d event(s) left out of its trace; the first: %v", t.TaskID, b.bad, b.firstBad))
		}
	}
	return col.spans, warnings
}

// Resource is the trace's resource: service.name and the
// OTEL_RESOURCE_ATTRIBUTES pairs, with tribunal's version as
// service.version unless the user set one.
func Resource(given map[string]string) *resource.Resource {
	var a attrs
	if given["service.version"] == "" {
		a.str("service.version", version.Version)
	}
	if given["service.name"] == "" {
		a.str("service.name", otelconf.DefaultServiceName)
	}
	for _, k := range sortedKeys(given) {
		a.str(k, given[k])
	}
	return resource.NewSchemaless(a...)
}

// collector keeps every ended span, so that the spans go out in one
// export whose failure is reported once (a batching processor reports
// each failed batch through the global error handler instead).
type collector struct{ spans []sdktrace.ReadOnlySpan }

func (c *collector) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (c *collector) OnEnd(s sdktrace.ReadOnlySpan)                   { c.spans = append(c.spans, s) }
func (c *collector) Shutdown(context.Context) error                  { return nil }
func (c *collector) ForceFlush(context.Context) error                { return nil }

// ev is a decoded event.
type ev struct {
	rec *events.Record
	p   events.Payload
}

// builder makes one trace's spans.
type builder struct {
	tracer   trace.Tracer
	t        Trace
	tid      trace.TraceID
	evs      []ev
	bad      int
	firstBad error
}

func (b *builder) build() {
	for i := range b.t.Events {
		r := &b.t.Events[i]
		p, err := r.Decode()
		if err != nil {
			b.bad++
			if b.firstBad == nil {
				b.firstBad = err
			}
			continue
		}
		b.evs = append(b.evs, ev{rec: r, p: p})
	}
	if len(b.evs) == 0 {
		return
	}
	iters := b.iterations()
	start, end := b.evs[0].rec.Timestamp, b.evs[len(b.evs)-1].rec.Timestamp
	kind, name := b.kind()
	var a attrs
	a.str(keyTaskID, b.t.TaskID)
	a.str(keyKind, kind)
	a.str(keySession, b.evs[0].rec.SessionID)
	a.str(keyMachine, b.evs[0].rec.MachineID)
	if m := b.t.Manifest; m != nil {
		a.str(keyRubricID, m.RubricID)
	}
	a.str(keyRubricDigest, b.t.RubricDigest)
	var complete *events.SessionComplete
	for _, e := range b.evs {
		switch p := e.p.(type) {
		case events.SessionStart:
			a.str(keyEventID, e.rec.ID)
			a.str(keyPolicy, string(p.GatePolicy))
			a.num(keyThreshold, p.ScoreThreshold)
			a.int(keyMaxIter, p.MaxIterations)
			a.strs(keyJudgeTypes, p.JudgeTypes)
		case events.SessionComplete:
			complete = &p
		}
	}
	if complete != nil {
		a.str(keyOutcome, complete.Outcome)
		a.num(keyFinalScore, complete.FinalScore)
		a.int(keyIterations, complete.IterationsUsed)
		a.num(keyCost, complete.TotalCostUSD)
		a.int(keyDuration, complete.TotalDurationMS)
	}
	ctx, root := b.start(context.Background(), "task", name, start, trace.SpanKindInternal, a)
	if complete == nil {
		root.SetStatus(codes.Error, "no tribunal.session.complete recorded: the run ended without finishing")
	} else if complete.Outcome == "aborted" {
		root.SetStatus(codes.Error, "aborted")
	}
	for _, it := range iters {
		b.iteration(ctx, it)
	}
	root.End(trace.WithTimestamp(end))
}

// kind tells a /tribunal task from a review (its manifest says so) and an
// advisory judgement: the Stop hook's chain has a judge but no actor and no
// jury.
func (b *builder) kind() (kind, name string) {
	if m := b.t.Manifest; m != nil && m.Kind == records.KindReview {
		return KindReview, "tribunal review"
	}
	var judge, loop bool
	for _, e := range b.evs {
		switch e.p.(type) {
		case events.JudgeStart:
			judge = true
		case events.ActorStart, events.JuryEmpaneled:
			loop = true
		}
	}
	if judge && !loop {
		return KindAdvisory, "tribunal advisory judgement"
	}
	return KindTask, "tribunal task"
}

// start begins a span with the ids derived from key.
func (b *builder) start(parent context.Context, key, name string, at time.Time, kind trace.SpanKind, a attrs) (context.Context, trace.Span) {
	ctx := withIDs(parent, b.tid, SpanID(b.tid, key))
	opts := []trace.SpanStartOption{trace.WithTimestamp(at), trace.WithSpanKind(kind), trace.WithAttributes(a...)}
	if key == "task" {
		opts = append(opts, trace.WithNewRoot())
	}
	return b.tracer.Start(ctx, name, opts...)
}
