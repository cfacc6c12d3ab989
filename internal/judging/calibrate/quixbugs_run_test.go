package calibrate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// TestRunQuixBugsSetWiring judges the shipped QuixBugs set with scripted
// juries: every case's files reach the judges' working directory with its
// diff applied, and the figures are those the script forces — a rubber
// stamp agrees on the accept half and catches nothing; a jury that fails
// everything agrees on the reject half, catches every defect and
// intervenes on every fix.
func TestRunQuixBugsSetWiring(t *testing.T) {
	// It materialises 80 working directories twice (a minute on two
	// busy cores): the calibration tier's, not the default tier's.
	testtier.Require(t, testtier.Calibration)
	cases := readCasesFile(t, filepath.Join(quixbugsDir, "cases.jsonl"))
	for _, tc := range []struct {
		name          string
		passed        bool
		catch, interv float64
	}{
		{"rubber stamp", true, 0, 0},
		{"fails everything", false, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			home := t.TempDir()
			vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker")}
			var mu sync.Mutex
			dirs := map[string]bool{}
			verdict := json.RawMessage(`{"score":0.9,"passed":true}`)
			if !tc.passed {
				verdict = json.RawMessage(`{"score":0.1,"passed":false}`)
			}
			runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
				if c.Role == "meta" {
					return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
				}
				if c.Role == "judge" {
					mu.Lock()
					dirs[c.Dir] = true
					mu.Unlock()
					if py, _ := filepath.Glob(filepath.Join(c.Dir, "*.py")); len(py) == 0 {
						t.Errorf("judge directory %s holds no program", c.Dir)
					}
				}
				return claude.Result{Envelope: true, Tokens: new(120), Structured: verdict}, nil
			})
			rep, err := Run(context.Background(), Options{CasesPath: filepath.Join(quixbugsDir, "cases.jsonl"), Jobs: 4, Dir: home}, Deps{
				Env: env.Env{
					Getenv:  func(k string) string { return vars[k] },
					Home:    home,
					Claude:  runner,
					Git:     projectkey.ExecGit("git", append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")),
					TempDir: t.TempDir(),
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if rep.N != len(cases) || rep.Decided != len(cases) || len(dirs) != len(cases) {
				t.Fatalf("n %d, decided %d, judged in %d directories; want %d each", rep.N, rep.Decided, len(dirs), len(cases))
			}
			for _, r := range rep.Results {
				if r.Note != "" {
					t.Errorf("%s: %s", r.ID, r.Note)
				}
			}
			near(t, "agreement", rep.Agreement, 0.5)
			near(t, "catch", rep.CatchRate, tc.catch)
			near(t, "fir", rep.FalseInterventionRate, tc.interv)
			if rep.Kappa != nil && *rep.Kappa != 0 {
				t.Errorf("kappa = %v; a jury that never varies is worth nothing", *rep.Kappa)
			}
			if !strings.Contains(rep.Text(), "80 case(s)") {
				t.Errorf("report:\n%s", rep.Text())
			}
		})
	}
}
