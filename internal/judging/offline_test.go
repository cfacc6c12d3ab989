package judging

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging/heuristic"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
)

// TestSuspectAnswersStayOutOfTheGate: an answer with no usage from a
// client that always reports it is a failed, suspect seat; a panel of
// only such answers is no verdict, however well they score; one seat with
// usage still judges, and the suspect one does not vote.
func TestSuspectAnswersStayOutOfTheGate(t *testing.T) {
	cases := []struct {
		name    string
		usage   func(judgeType string) *int
		noVerd  bool
		suspect []bool
	}{
		{"every seat a stub", func(string) *int { return nil }, true, []bool{true, true}},
		{"zero tokens is none", func(string) *int { return new(0) }, true, []bool{true, true}},
		{"one stub", func(t string) *int {
			if t == "adversarial" {
				return nil
			}
			return new(90)
		}, false, []bool{false, true}},
		{"usage reported", func(string) *int { return new(90) }, false, []bool{false, false}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := claude.RunnerFunc(func(_ context.Context, call claude.Call) (claude.Result, error) {
				if call.Role == "meta" {
					return claude.Result{Envelope: true, Tokens: new(50), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
				}
				jt := "standard"
				if strings.Contains(call.Prompt, "adversarial") {
					jt = "adversarial"
				}
				return claude.Result{Envelope: true, Tokens: c.usage(jt), Structured: json.RawMessage(`{"score":0.95,"passed":true}`)}, nil
			})
			j := loadJury(t, run)
			it := &Round{Report: IterationReport{IterationID: "01J00000000000000000000ITR"}}
			err := j.Judge(context.Background(), Input{TaskID: "T", Task: "t", Dir: t.TempDir(), Diff: "d", Isolated: true, ArtifactDir: "i", Label: "[1/2]"}, it, &tape{})
			if errors.Is(err, ErrNoVerdict) != c.noVerd {
				t.Fatalf("err = %v, want no-verdict %v", err, c.noVerd)
			}
			for i, v := range it.Verdicts {
				if v.Suspect != c.suspect[i] || it.Report.Judges[i].Suspect != c.suspect[i] || v.Suspect && (!v.Failed || !strings.HasPrefix(v.Error, "suspect: ")) {
					t.Errorf("seat %s: verdict %+v, report suspect %v; want suspect %v", v.JudgeType, v, it.Report.Judges[i].Suspect, c.suspect[i])
				}
			}
			for i, jr := range it.Report.Judges {
				if c.suspect[i] && jr.Score != nil {
					t.Errorf("suspect seat %s kept its score %v", jr.Type, *jr.Score)
				}
			}
		})
	}
}

// TestHeuristicPanelJudgesWithoutAModel: a panel and meta-judge declared
// heuristic in the user's settings judge the change's files with no call
// to any model, no suspect flag, the same verdicts twice, labelled.
func TestHeuristicPanelJudgesWithoutAModel(t *testing.T) {
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(`{"tribunal":{"session":{"judge_types":["standard","security"]},
		"judges":{"standard":{"provider":"heuristic"},"security":{"provider":"heuristic"}},"meta_judge":{"provider":"heuristic"}}}`), 0o644)
	run := claude.RunnerFunc(func(context.Context, claude.Call) (claude.Result, error) {
		t.Error("a model was called")
		return claude.Result{}, errors.New("no model")
	})
	j, err := Load(Options{}, env.Env{Home: home, Claude: run, Sandbox: func() claude.SandboxSupport { return claude.SandboxSupport{OK: true} }})
	if err != nil {
		t.Fatal(err)
	}
	diff := "diff --git a/app.js b/app.js\nnew file mode 100644\n--- /dev/null\n+++ b/app.js\n@@ -0,0 +1,2 @@\n+const x = 1;\n+console.log(x);\n"
	judge := func() *Round {
		it := &Round{Report: IterationReport{IterationID: "01J00000000000000000000ITR"}}
		files := unidiff.Parse([]byte(diff))
		if err := j.Judge(context.Background(), Input{TaskID: "T", Task: "t", Dir: t.TempDir(), Diff: BoundedDiff(diff), Files: files, Isolated: true, ArtifactDir: "i", Label: "[1/1]"}, it, &tape{}); err != nil {
			t.Fatal(err)
		}
		return it
	}
	a, b := judge(), judge()
	if a.Aggregate != b.Aggregate || a.Aggregate <= 0.5 || a.Aggregate >= 1 || a.Gate.Passed != b.Gate.Passed {
		t.Errorf("aggregates %.4f and %.4f, want one value in (0.5, 1) twice", a.Aggregate, b.Aggregate)
	}
	for _, jr := range a.Report.Judges {
		if jr.Provider != provider.Heuristic || jr.Model != provider.HeuristicModel || jr.Suspect {
			t.Errorf("judge report %+v, want the heuristic provider and model, not suspect", jr)
		}
	}
	if a.Report.Meta.Provider != provider.Heuristic || a.Report.Meta.Failed || a.Report.Meta.Quality != "questionable" || a.Report.Meta.Bias {
		// Both seats scored inside 0.70–0.80: the narrow-band probe fires.
		t.Errorf("meta %+v, want a questionable heuristic review without bias", a.Report.Meta)
	}
	var cited bool
	for _, f := range a.Findings {
		cited = cited || f.File == "app.js" && f.Line == 2 && strings.Contains(f.Message, "[debug-print]")
	}
	if !cited {
		t.Errorf("findings %+v, want debug-print at app.js:2", a.Findings)
	}
}

// TestHeuristicModelNamesTheRules: the model id every record carries is
// the heuristic package's rule-set version.
func TestHeuristicModelNamesTheRules(t *testing.T) {
	if provider.HeuristicModel != "heuristic/"+heuristic.Version {
		t.Errorf("provider.HeuristicModel %q, heuristic.Version %q", provider.HeuristicModel, heuristic.Version)
	}
}

// TestSuspectMetaIsTheFailureDefault: a meta-answer without usage is the
// meta failure default, marked suspect; garbage without usage stays a
// plain failure, as it was before the flag.
func TestSuspectMetaIsTheFailureDefault(t *testing.T) {
	for _, c := range []struct {
		meta    string
		suspect bool
	}{
		{`{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"accept"}`, true},
		{`not json`, false},
	} {
		run := claude.RunnerFunc(func(_ context.Context, call claude.Call) (claude.Result, error) {
			if call.Role == "meta" {
				return claude.Result{Envelope: true, Text: c.meta}, nil
			}
			return claude.Result{Envelope: true, Tokens: new(90), Structured: json.RawMessage(`{"score":0.9,"passed":true}`)}, nil
		})
		j := loadJury(t, run)
		it := &Round{Report: IterationReport{IterationID: "01J00000000000000000000ITR"}}
		if err := j.Judge(context.Background(), Input{TaskID: "T", Task: "t", Dir: t.TempDir(), Diff: "d", Isolated: true, ArtifactDir: "i", Label: "[1/2]"}, it, &tape{}); err != nil {
			t.Fatal(err)
		}
		m := it.Report.Meta
		if !m.Failed || m.Suspect != c.suspect || it.Meta.Override != "" {
			t.Errorf("meta answer %s: report %+v, override %q; want failed, suspect %v, no override", c.meta, m, it.Meta.Override, c.suspect)
		}
	}
}
