package judging

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// tape is a Recorder that keeps what a round hands it.
type tape struct {
	mu      sync.Mutex
	events  []string
	writes  []string
	ledger  int
	budget  error
	ids     int
	lines   []string
	charged float64
}

func (t *tape) Emit(p events.Payload, _ ...events.Option) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.events = append(t.events, strings.TrimPrefix(p.EventType(), "tribunal."))
}
func (t *tape) Write(rel string, _ any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.writes = append(t.writes, filepath.ToSlash(rel))
}
func (t *tape) Progress(format string, _ ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.lines = append(t.lines, format)
}
func (t *tape) LongPhase(string, string) func() { return func() {} }
func (t *tape) Budget(string, int) error        { return t.budget }
func (t *tape) BashNote(string)                 {}
func (t *tape) Ledger(string, any)              { t.ledger++ }
func (t *tape) AddCost(_ string, r claude.Result) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if r.CostUSD != nil {
		t.charged += *r.CostUSD
	}
}
func (t *tape) NewID() (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.ids++
	return "01J0000000000000000000000" + string(rune('A'+t.ids)), nil
}

// loadJury loads a two-seat jury from a user settings file that blocks
// on a critical finding.
func loadJury(t *testing.T, run claude.Runner) *Jury {
	t.Helper()
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{"tribunal":{"session":{"judge_types":["standard","adversarial"],"max_iterations":2},"severity":{"fail_at_or_above":"critical"}}}`), 0o644)
	j, err := Load(Options{}, env.Env{Home: home, Claude: run, Sandbox: func() claude.SandboxSupport { return claude.SandboxSupport{OK: true} }})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// TestJudgeHandsTheRoundToItsRecorder: one round's events reach the
// Recorder in the order of spec §B.2 whatever order the judges answer
// in, with its artifacts, costs and one ledger entry; the round's state
// says what the gate decided.
func TestJudgeHandsTheRoundToItsRecorder(t *testing.T) {
	cost := 0.5
	run := claude.RunnerFunc(func(_ context.Context, c claude.Call) (claude.Result, error) {
		if c.Role == "meta" {
			return claude.Result{Envelope: true, CostUSD: &cost, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		}
		return claude.Result{Envelope: true, CostUSD: &cost, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true}`)}, nil
	})
	j := loadJury(t, run)
	rec := &tape{}
	it := &Round{Report: IterationReport{IterationID: "01J00000000000000000000ITR"}, ActorOutput: "done"}
	err := j.Judge(context.Background(), Input{TaskID: "T", Task: "t", Dir: t.TempDir(), Diff: "d", Isolated: true, ArtifactDir: "iteration-x", Label: "[1/2]"}, it, rec)
	if err != nil {
		t.Fatal(err)
	}
	want := "jury.empaneled judge.start judge.start verdict verdict consensus.reached meta.start meta.complete gate.passed"
	if got := strings.Join(rec.events, " "); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	if !it.Gate.Passed || !it.Report.Gate.Passed || len(it.Verdicts) != 2 || it.Calls != 3 {
		t.Errorf("round: gate %+v, %d verdicts, %d calls", it.Gate, len(it.Verdicts), it.Calls)
	}
	if rec.ledger != 1 || rec.charged != 1.5 {
		t.Errorf("ledger entries %d, cost %v; want 1 and 1.5", rec.ledger, rec.charged)
	}
	for _, w := range rec.writes {
		if !strings.HasPrefix(w, "iteration-x/") {
			t.Errorf("artifact %q outside the round's directory", w)
		}
	}
}

// TestJudgeStopsAtTheBudget: a refusal of the Recorder's budget stops the
// round before any judge is asked.
func TestJudgeStopsAtTheBudget(t *testing.T) {
	asked := 0
	j := loadJury(t, claude.RunnerFunc(func(context.Context, claude.Call) (claude.Result, error) {
		asked++
		return claude.Result{}, nil
	}))
	refused := errors.New("over budget")
	err := j.Judge(context.Background(), Input{TaskID: "T", Task: "t", Dir: t.TempDir()}, &Round{}, &tape{budget: refused})
	if !errors.Is(err, refused) || asked != 0 {
		t.Errorf("err %v after %d call(s); want the budget's refusal before any call", err, asked)
	}
}

// TestKeepFiltersFindingsBeforeTheGate: a finding that Keep drops is
// neither counted nor weighed; without Keep the same critical finding
// blocks the gate.
func TestKeepFiltersFindingsBeforeTheGate(t *testing.T) {
	run := claude.RunnerFunc(func(_ context.Context, c claude.Call) (claude.Result, error) {
		if c.Role == "meta" {
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		}
		return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true,"findings":[{"severity":"critical","message":"injects SQL"}]}`)}, nil
	})
	j := loadJury(t, run)
	for _, tc := range []struct {
		name   string
		keep   func([]severity.Finding) []severity.Finding
		passed bool
	}{
		{"kept", nil, false},
		{"dismissed", func([]severity.Finding) []severity.Finding { return nil }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := &Round{Report: IterationReport{IterationID: "01J00000000000000000000ITR"}}
			err := j.Judge(context.Background(), Input{TaskID: "T", Task: "t", Dir: t.TempDir(), Keep: tc.keep}, it, &tape{})
			if err != nil {
				t.Fatal(err)
			}
			if it.Gate.Passed != tc.passed || (len(it.Findings) == 0) != tc.passed {
				t.Errorf("gate passed %v with %d finding(s) (%s); want passed %v", it.Gate.Passed, len(it.Findings), it.Report.WorstSeverity, tc.passed)
			}
		})
	}
}

// TestFindingsNameTheirJudge: each finding reaches Keep (a review's
// dismissal filter) and the round naming the judge type that reported it,
// with the criterion the judge gave.
func TestFindingsNameTheirJudge(t *testing.T) {
	run := claude.RunnerFunc(func(_ context.Context, c claude.Call) (claude.Result, error) {
		if c.Role == "meta" {
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		}
		return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true,"findings":[{"severity":"minor","message":"m","criterion":"safety"}]}`)}, nil
	})
	j := loadJury(t, run)
	var seen []string
	keep := func(fs []severity.Finding) []severity.Finding {
		for _, f := range fs {
			seen = append(seen, f.Judge+"/"+f.Criterion)
		}
		return fs
	}
	it := &Round{Report: IterationReport{IterationID: "01J00000000000000000000ITR"}}
	if err := j.Judge(context.Background(), Input{TaskID: "T", Task: "t", Dir: t.TempDir(), Keep: keep}, it, &tape{}); err != nil {
		t.Fatal(err)
	}
	want := "standard/safety adversarial/safety"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("Keep saw %q; want %q", got, want)
	}
	if len(it.Findings) != 2 || it.Findings[0].Judge != "standard" || it.Findings[1].Judge != "adversarial" {
		t.Errorf("round's findings %+v; want one per judge, each named", it.Findings)
	}
}
