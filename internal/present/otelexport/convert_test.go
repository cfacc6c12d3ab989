package otelexport

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/oklog/ulid/v2"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current conversion")

// chain records a three-iteration task (blocked, blocked, passed; two
// judges, the adversarial one with two reps) through the real emitter
// with a fixed clock and entropy, and returns the log's path.
func chain(t *testing.T) (logPath string, calls map[string][]Call) {
	t.Helper()
	dir := t.TempDir()
	clock := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	em := &events.Emitter{Dir: dir, LogPath: filepath.Join(dir, "events.jsonl"), SessionID: "sess-1",
		Now:  func() time.Time { clock = clock.Add(1500 * time.Millisecond); return clock },
		Rand: rand.New(rand.NewSource(1))}
	emit := func(p events.Payload, opts ...events.Option) {
		if err := em.Emit(p, opts...); err != nil {
			t.Fatal(err)
		}
	}
	const task = "01JQ0000000000000000000000"
	iters := []string{"01JQ0000000000000000000001", "01JQ0000000000000000000002", "01JQ0000000000000000000003"}
	judges := []string{"01JQ00000000000000000000J1", "01JQ00000000000000000000J2"}
	emit(events.SessionStart{TaskID: task, JudgeTypes: []string{"standard", "adversarial"}, GatePolicy: rules.Majority,
		ScoreThreshold: events.Ptr(0.75), MaxIterations: events.Ptr(3), ActorModelID: "claude-sonnet-4-6", MetaModelID: "claude-opus-4-7"})
	calls = map[string][]Call{}
	for n, it := range iters {
		trigger := "gate_blocked"
		if n == 0 {
			trigger = "initial"
		}
		emit(events.IterationStart{TaskID: task, IterationID: it, IterationNumber: n, Trigger: trigger})
		emit(events.ActorStart{TaskID: task, IterationID: it, IterationNumber: events.Ptr(n), ActorModelID: "claude-sonnet-4-6"})
		emit(events.ActorComplete{TaskID: task, Success: true, DurationMS: events.Ptr(1400), IterationID: it,
			IterationNumber: events.Ptr(n), ArtifactKind: "patch", ActorModelID: "claude-sonnet-4-6"},
			events.WithCost(0.01), events.WithTokens(1500))
		emit(events.JuryEmpaneled{TaskID: task, IterationID: it, PanelSize: events.Ptr(2), Judges: []events.JuryMember{
			{JudgeID: judges[0], JudgeType: "standard", ModelID: "claude-opus-4-7"},
			{JudgeID: judges[1], JudgeType: "adversarial", ModelID: "claude-opus-4-7"}}})
		score := 0.5 + 0.15*float64(n)
		for k, j := range judges {
			jt := []string{"standard", "adversarial"}[k]
			emit(events.JudgeStart{TaskID: task, IterationID: it, JudgeID: j, JudgeType: jt, JudgeModelID: "claude-opus-4-7"})
		}
		for k, j := range judges {
			jt := []string{"standard", "adversarial"}[k]
			emit(events.Verdict{TaskID: task, Score: score, Passed: score >= 0.75, JudgeType: jt, IterationID: it,
				JudgeID: j, JudgeModelID: "claude-opus-4-7", CriterionScores: map[string]float64{"correctness": score, "safety": 0.9}},
				events.WithCost(0.02))
		}
		emit(events.ConsensusReached{TaskID: task, IterationID: it, AggregatedScore: score, Passed: score >= 0.75,
			AggregationMethod: rules.WeightedMean, Judges: []events.ConsensusJudge{{JudgeID: judges[0], Score: score}, {JudgeID: judges[1], Score: score}}})
		emit(events.MetaStart{TaskID: task, IterationID: it, MetaModelID: "claude-opus-4-7", VerdictsReviewed: events.Ptr(2)})
		emit(events.MetaComplete{TaskID: task, VerdictQuality: "sound", IterationID: it, MetaModelID: "claude-opus-4-7"},
			events.WithCost(0.005), events.WithTokens(700))
		if n < 2 {
			emit(events.GateBlocked{TaskID: task, IterationID: it, Reason: rules.ReasonLowScore, FinalScore: events.Ptr(score),
				IterationNumber: events.Ptr(n), WillRetry: events.Ptr(true), RetryIterationNumber: events.Ptr(n + 1)})
		} else {
			emit(events.GatePassed{TaskID: task, IterationID: it, FinalScore: score, IterationNumber: events.Ptr(n), JudgesConsulted: events.Ptr(2)})
		}
		calls[it] = []Call{
			{Call: records.Call{CallMeta: records.CallMeta{Role: "actor", Provider: "claude", Attempt: 1}, Model: "claude-sonnet-4-6",
				Usage: records.CallUsage{Tokens: events.Ptr(1500), InputTokens: events.Ptr(1200), OutputTokens: events.Ptr(300), DurationMS: 1400}, CostUSD: events.Ptr(0.01)},
				File: "iteration-" + it + "/calls/01-actor.json"},
			{Call: records.Call{CallMeta: records.CallMeta{Role: "judge", Provider: "claude", JudgeID: judges[0], JudgeType: "standard"}, Model: "claude-opus-4-7",
				Usage: records.CallUsage{Tokens: events.Ptr(900), InputTokens: events.Ptr(800), OutputTokens: events.Ptr(100), DurationMS: 1000}}},
			{Call: records.Call{CallMeta: records.CallMeta{Role: "judge", Provider: "openai", JudgeID: judges[1], JudgeType: "adversarial", Rep: events.Ptr(0)}, Model: "gpt-5",
				Usage: records.CallUsage{DurationMS: 1200}}},
			{Call: records.Call{CallMeta: records.CallMeta{Role: "judge", Provider: "openai", JudgeID: judges[1], JudgeType: "adversarial", Rep: events.Ptr(1)}, Model: "gpt-5",
				Usage: records.CallUsage{DurationMS: 1300, ExitCode: 1}}},
			{Call: records.Call{CallMeta: records.CallMeta{Role: "meta", Provider: "claude"}, Model: "claude-opus-4-7",
				Usage: records.CallUsage{Tokens: events.Ptr(700), DurationMS: 1100}}},
		}
		calls[it][3].Error = "rate limited"
	}
	emit(events.SessionComplete{TaskID: task, Outcome: "accepted", FinalScore: events.Ptr(0.8), IterationsUsed: events.Ptr(3),
		TotalCostUSD: events.Ptr(0.165), TotalDurationMS: events.Ptr(60000)})
	return em.LogPath, calls
}

func loadChain(t *testing.T) []Trace {
	t.Helper()
	logPath, calls := chain(t)
	traces, skipped, err := Load(Source{LogPath: logPath, OnlookerDir: t.TempDir()})
	if err != nil || skipped != 0 || len(traces) != 1 {
		t.Fatalf("Load: %d traces, %d skipped, %v", len(traces), skipped, err)
	}
	traces[0].Calls = calls
	return traces
}

// dump writes spans as an indented tree with their attributes: the
// golden form of a conversion.
func dump(spans []sdktrace.ReadOnlySpan) string {
	kids := map[trace.SpanID][]sdktrace.ReadOnlySpan{}
	var roots []sdktrace.ReadOnlySpan
	for _, s := range spans {
		if s.Parent().IsValid() {
			kids[s.Parent().SpanID()] = append(kids[s.Parent().SpanID()], s)
		} else {
			roots = append(roots, s)
		}
	}
	var b strings.Builder
	var walk func(s sdktrace.ReadOnlySpan, depth int, t0 time.Time)
	walk = func(s sdktrace.ReadOnlySpan, depth int, t0 time.Time) {
		ind := strings.Repeat("  ", depth)
		fmt.Fprintf(&b, "%s%s [%s/%s] %s +%s %s %s\n", ind, s.Name(), s.SpanContext().TraceID(), s.SpanContext().SpanID(),
			s.SpanKind(), s.StartTime().Sub(t0), s.EndTime().Sub(s.StartTime()), s.Status().Code)
		if s.Status().Description != "" {
			fmt.Fprintf(&b, "%s  status: %s\n", ind, s.Status().Description)
		}
		var lines []string
		for _, kv := range s.Attributes() {
			lines = append(lines, fmt.Sprintf("%s  %s=%s", ind, kv.Key, kv.Value.String()))
		}
		sort.Strings(lines)
		for _, l := range lines {
			b.WriteString(l + "\n")
		}
		for _, e := range s.Events() {
			fmt.Fprintf(&b, "%s  event %s +%s\n", ind, e.Name, e.Time.Sub(t0))
		}
		for _, k := range kids[s.SpanContext().SpanID()] {
			walk(k, depth+1, t0)
		}
	}
	for _, r := range roots {
		walk(r, 0, r.StartTime())
	}
	return b.String()
}

func TestConvertThreeIterations(t *testing.T) {
	spans, warnings := Convert(loadChain(t), map[string]string{"service.name": "tribunal", "service.version": "test"})
	if len(warnings) > 0 {
		t.Fatalf("warnings: %v", warnings)
	}
	got := dump(spans)
	// 1 task + 3 × (iteration + actor + 1 call + 2 judges + 3 calls + meta + 1 call + gate)
	if len(spans) != 1+3*11 {
		t.Errorf("%d spans, want %d", len(spans), 1+3*11)
	}
	golden := filepath.Join("testdata", "three-iterations.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("spans differ from %s (go test -update rewrites it):\n%s", golden, got)
	}
	if r := spans[0].Resource(); r == nil || !strings.Contains(r.String(), "service.name=tribunal") {
		t.Errorf("resource = %v", r)
	}
}

// TestConvertDeterministic: the same events give the same ids, so a
// backfill after a live export overwrites rather than duplicates.
func TestConvertDeterministic(t *testing.T) {
	traces := loadChain(t)
	a, _ := Convert(traces, nil)
	b, _ := Convert(traces, nil)
	for i := range a {
		if !a[i].SpanContext().Equal(b[i].SpanContext()) || !a[i].Parent().Equal(b[i].Parent()) {
			t.Fatalf("span %d: %v/%v differs from %v/%v", i, a[i].SpanContext(), a[i].Parent(), b[i].SpanContext(), b[i].Parent())
		}
	}
	id := ulid.MustParseStrict(traces[0].TaskID)
	if got := a[0].SpanContext().TraceID(); !bytes.Equal(got[:], id[:]) {
		t.Errorf("trace id %s is not the task's ULID %s", got, traces[0].TaskID)
	}
}

// TestConvertBadEvents: a payload the schema refuses is left out, named
// once, and the rest of the trace still converts.
func TestConvertBadEvents(t *testing.T) {
	traces := loadChain(t)
	evs := traces[0].Events
	evs[3].Payload = []byte(`{"task_id":"01JQ0000000000000000000000","success":"yes"}`)
	evs[5].Payload = []byte(`{"task_id":"01JQ0000000000000000000000","score":7}`)
	spans, warnings := Convert(traces, nil)
	if len(warnings) != 1 || !strings.Contains(warnings[0], "2 event(s) left out") {
		t.Errorf("warnings = %q, want one naming 2 events", warnings)
	}
	if len(spans) < 30 {
		t.Errorf("only %d spans after two bad events", len(spans))
	}
}

// TestConvertAdvisory: the Stop hook's chain is a judgement of its own
// kind, with a judge span and a gate span.
func TestConvertAdvisory(t *testing.T) {
	dir := t.TempDir()
	em := &events.Emitter{Dir: dir, LogPath: filepath.Join(dir, "log.jsonl"), Rand: rand.New(rand.NewSource(2))}
	const task, it, j = "01JQ1000000000000000000000", "01JQ1000000000000000000001", "01JQ1000000000000000000002"
	for _, p := range []events.Payload{
		events.SessionStart{TaskID: task, JudgeTypes: []string{"standard"}, GatePolicy: rules.Strict, MaxIterations: events.Ptr(1)},
		events.IterationStart{TaskID: task, IterationID: it, Trigger: "initial"},
		events.JudgeStart{TaskID: task, IterationID: it, JudgeID: j, JudgeType: "standard", JudgeModelID: "claude-opus-4-7"},
		events.Verdict{TaskID: task, Score: 0.4, JudgeType: "standard", IterationID: it, JudgeID: j},
		events.GateBlocked{TaskID: task, IterationID: it, Reason: rules.ReasonLowScore, FinalScore: events.Ptr(0.4)},
		events.SessionComplete{TaskID: task, Outcome: "rejected"},
	} {
		if err := em.Emit(p); err != nil {
			t.Fatal(err)
		}
	}
	traces, _, err := Load(Source{LogPath: em.LogPath, TaskIDs: []string{task}})
	if err != nil {
		t.Fatal(err)
	}
	spans, _ := Convert(traces, nil)
	var names []string
	for _, s := range spans {
		names = append(names, s.Name())
	}
	sort.Strings(names)
	want := "gate,invoke_agent judge standard,iteration 1,tribunal advisory judgement"
	if strings.Join(names, ",") != want {
		t.Errorf("spans %q, want %q", strings.Join(names, ","), want)
	}
}

// TestLoadSkipsDamage: a torn line and another plugin's line do not hide
// the rest of the log.
func TestLoadSkipsDamage(t *testing.T) {
	logPath, _ := chain(t)
	data, _ := os.ReadFile(logPath)
	data = append([]byte(`{"id":"x","plugin":"other","payload":{}}`+"\n"+`{"id":"torn","plu`+"\n"), data...)
	if err := os.WriteFile(logPath, data, 0o600); err != nil {
		t.Fatal(err)
	}
	traces, skipped, err := Load(Source{LogPath: logPath})
	if err != nil || skipped != 1 || len(traces) != 1 || len(traces[0].Events) != 38 {
		t.Errorf("Load = %d traces, %d skipped, %v", len(traces), skipped, err)
	}
	if _, _, err := Load(Source{LogPath: filepath.Join(t.TempDir(), "none")}); err != nil {
		t.Errorf("a missing log: %v, want no traces and no error", err)
	}
}

// TestConvertReview: a task directory whose manifest is a review's makes
// a trace of that kind.
func TestConvertReview(t *testing.T) {
	traces := loadChain(t)
	traces[0].Manifest = &records.Manifest{Kind: records.KindReview, RubricID: "default"}
	spans, _ := Convert(traces, nil)
	root := spans[len(spans)-1]
	if root.Name() != "tribunal review" || root.Parent().IsValid() {
		t.Errorf("root span %q (parent %v), want the review's", root.Name(), root.Parent())
	}
	for _, kv := range root.Attributes() {
		if kv.Key == keyKind && kv.Value.AsString() != KindReview {
			t.Errorf("%s = %s", keyKind, kv.Value.String())
		}
	}
}
