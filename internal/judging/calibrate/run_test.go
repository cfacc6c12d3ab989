package calibrate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// TestRunStarterSetWiring judges the shipped starter set with a scripted
// jury that passes everything: every diff applies to its files in the
// judges' working directory, --jobs keeps file order, and the figures are
// those of a rubber stamp (agreement = share of accept labels, κ n/a as
// the decisions never vary, catch rate 0, false interventions 0), each
// rate with its Wilson interval.
func TestRunStarterSetWiring(t *testing.T) {
	if testing.Short() {
		t.Skip("materialises 42 working directories; skipped with -short")
	}
	home := t.TempDir()
	vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker")}
	var mu sync.Mutex
	dirs := map[string]bool{}
	runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
		if c.Role == "judge" {
			// The change is applied: the tree differs from the committed base.
			mu.Lock()
			dirs[c.Dir] = true
			mu.Unlock()
			if _, err := os.Stat(filepath.Join(c.Dir, ".git")); err != nil {
				t.Errorf("judge directory %s is not a repository", c.Dir)
			}
		}
		if c.Role == "meta" {
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		}
		return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true}`)}, nil
	})
	tmp := t.TempDir()
	rep, err := Run(context.Background(), Options{CasesPath: filepath.Join(starterDir, "cases.jsonl"), Jobs: 4, Dir: home}, Deps{
		Env: env.Env{
			Getenv:  func(k string) string { return vars[k] },
			Home:    home,
			Claude:  runner,
			Git:     projectkey.ExecGit("git", append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")),
			TempDir: tmp,
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.N != 42 || rep.Decided != 42 || len(rep.Results) != 42 {
		t.Fatalf("n %d, decided %d, results %d", rep.N, rep.Decided, len(rep.Results))
	}
	cases := readStarter(t)
	for i, r := range rep.Results {
		if r.ID != cases[i].ID {
			t.Fatalf("result %d is %s, want %s (file order)", i, r.ID, cases[i].ID)
		}
		if r.Note != "" {
			t.Errorf("%s: %s", r.ID, r.Note)
		}
	}
	if len(dirs) != 42 {
		t.Errorf("judges ran in %d distinct directories, want one per case", len(dirs))
	}
	near(t, "agreement", rep.Agreement, 14.0/42)
	if rep.Kappa != nil || rep.KappaCI != nil {
		t.Errorf("kappa = %v %v, want n/a: every decision is pass", rep.Kappa, rep.KappaCI)
	}
	// Wilson at 14/42: [0.2101, 0.4845].
	if iv := rep.AgreementCI; iv == nil || iv.Low < 0.2101 || iv.Low > 0.2102 || iv.High < 0.4844 || iv.High > 0.4845 {
		t.Errorf("agreement interval = %+v, want [0.2101, 0.4845]", iv)
	}
	near(t, "catch", rep.CatchRate, 0)
	near(t, "fir", rep.FalseInterventionRate, 0)
	// The working directories are gone.
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind in the temporary directory: %v", left)
	}
}

func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil || *got-want > 1e-9 || want-*got > 1e-9 {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}
