package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// mutateRun runs --mutate over cases with a scripted jury whose seats
// score 0.3 a change that shows an inverted Go condition ("if !(") and
// 0.9 anything else: it catches invert-condition mutants and no other.
func mutateRun(t *testing.T, cases []Case) (*Report, error) {
	t.Helper()
	home := t.TempDir()
	path := filepath.Join(home, "cases.jsonl")
	var lines []string
	for _, c := range cases {
		b, _ := json.Marshal(c)
		lines = append(lines, string(b))
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker")}
	runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
		if c.Role == "meta" {
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		}
		if strings.Contains(c.Prompt, "+\tif !(") {
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.3,"passed":false}`)}, nil
		}
		return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true}`)}, nil
	})
	return Run(context.Background(), Options{CasesPath: path, Mutate: true, Jobs: 2, Dir: home}, Deps{
		Env: env.Env{
			Getenv:  func(k string) string { return vars[k] },
			Home:    home,
			Claude:  runner,
			Git:     projectkey.ExecGit("git", append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")),
			TempDir: t.TempDir(),
		},
	})
}

func starterCase(t *testing.T, id string) Case {
	t.Helper()
	for _, c := range readStarter(t) {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no starter case %s", id)
	return Case{}
}

// TestMutateReport: only accepted cases are mutated; each kind that
// applies makes one mutant, judged and compared with its original; a kind
// with nothing to break is skipped and counted with its reason.
func TestMutateReport(t *testing.T) {
	ring := starterCase(t, "ring-correct")
	bad := starterCase(t, "ring-missed-case")
	rep, err := mutateRun(t, []Case{ring, bad})
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Mutation
	if m == nil || m.Accepted != 1 {
		t.Fatalf("mutation = %+v", m)
	}
	// The figures above cover the accepted original only.
	if rep.N != 1 || len(rep.Results) != 1 || rep.Results[0].ID != "ring-correct" {
		t.Fatalf("n %d, results %+v", rep.N, rep.Results)
	}
	got := map[string]KindFigures{}
	for _, f := range m.Kinds {
		got[f.Kind] = f
	}
	want := map[string]KindFigures{
		"drop-hunk":        {Made: 1, Compared: 1},
		"invert-condition": {Made: 1, Compared: 1, Caught: 1, GateFailed: 1},
		"delete-test":      {Skipped: 1},
		"off-by-one":       {Made: 1, Compared: 1},
	}
	for k, w := range want {
		g := got[k]
		if g.Made != w.Made || g.Compared != w.Compared || g.Caught != w.Caught || g.GateFailed != w.GateFailed || g.Skipped != w.Skipped {
			t.Errorf("%s: %+v, want %+v", k, g, w)
		}
	}
	near(t, "invert share", got["invert-condition"].Share, 1)
	near(t, "drop share", got["drop-hunk"].Share, 0)
	near(t, "all share", m.All.Share, 1.0/3)
	if len(m.Skipped) != 1 || m.Skipped[0] != (MutantSkip{Case: "ring-correct", Kind: "delete-test", Reason: "the diff changes no test file"}) {
		t.Errorf("skipped = %+v", m.Skipped)
	}
	text := rep.Text()
	for _, s := range []string{
		"Mutation check: 3 mutant(s) of 1 accepted case(s)",
		"| invert-condition | 1 | 1 | 1 | 100.0% [20.7, 100.0] | 1 | 0 |",
		"| all | 3 | 3 | 1 | 33.3% [6.1, 79.2] | 1 | 1 |",
		"- delete-test: the diff changes no test file — 1 case(s): ring-correct",
		`- ring-correct~off-by-one: score 0.90, original 0.90 — ring.go:53: "for i := 0; i < r.n; i++ {" → "for i := 0; i <= r.n; i++ {"`,
	} {
		if !strings.Contains(text, s) {
			t.Errorf("report lacks %q:\n%s", s, text)
		}
	}
}

// TestMutateNothingToMutate: a set without an accepted case, or whose
// accepted cases no mutation applies to, is an input error naming why.
func TestMutateNothingToMutate(t *testing.T) {
	bad := starterCase(t, "ring-missed-case")
	_, err := mutateRun(t, []Case{bad})
	var in *InputError
	if !errors.As(err, &in) || !errors.Is(err, ErrNothingToMutate) || !strings.Contains(err.Error(), "has no accepted case") {
		t.Fatalf("err = %v", err)
	}
	doc := Case{ID: "doc", Task: "document", Label: "accept",
		Diff: "diff --git a/README.md b/README.md\n--- a/README.md\n+++ b/README.md\n@@ -1 +1 @@\n-a\n+b\n"}
	_, err = mutateRun(t, []Case{doc})
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "no mutation applies to any accepted case") ||
		!strings.Contains(err.Error(), "drop-hunk: the diff has a single hunk") {
		t.Fatalf("err = %v", err)
	}
}

// TestMutationReportNotCompared: a mutant whose diff did not apply, or
// whose original or own judging got no score, counts neither way; an
// equal score is not a catch.
func TestMutationReportNotCompared(t *testing.T) {
	score := func(s float64) *float64 { return &s }
	done := func(d string, s *float64, note string) outcome {
		return outcome{Judgement: Judgement{Decision: d, Score: s, Note: note}, done: true}
	}
	c := &calibration{
		cases: []Case{{ID: "a"}, {ID: "b"}, {ID: "a~drop-hunk"}, {ID: "a~off-by-one"}, {ID: "b~drop-hunk"}, {ID: "a~invert-condition"}},
		results: []outcome{
			done("pass", score(0.9), ""), done("failed", nil, ""),
			done("fail", score(0.2), "the diff does not apply to the case's files"),
			done("pass", score(0.9), ""),
			done("fail", score(0.1), ""),
			done("failed", nil, ""),
		},
	}
	m := &mutation{origs: 2, of: []mutantOf{{orig: 0, kind: "drop-hunk"}, {orig: 0, kind: "off-by-one"}, {orig: 1, kind: "drop-hunk"}, {orig: 0, kind: "invert-condition"}}}
	r := m.report(c)
	var why []string
	for _, o := range r.Mutants {
		why = append(why, o.ID+": "+o.NotCompared)
	}
	want := []string{
		"a~drop-hunk: the mutated diff does not apply to the case's files",
		"a~off-by-one: ",
		"b~drop-hunk: the original got no score",
		"a~invert-condition: the mutant got no score",
	}
	if strings.Join(why, "\n") != strings.Join(want, "\n") {
		t.Errorf("not compared:\n%s", strings.Join(why, "\n"))
	}
	if r.All.Made != 4 || r.All.Compared != 1 || r.All.Caught != 0 || r.All.Share == nil || *r.All.Share != 0 {
		t.Errorf("all = %+v", r.All)
	}
}
