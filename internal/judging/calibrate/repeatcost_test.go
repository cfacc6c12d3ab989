package calibrate

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// TestRepeatCountsEveryRollout: --repeat K pays for K judgings of each
// case, and the report's cost and time count all of them, not only the
// first rollout's (which understated the spend K times); a rerun takes
// every one of them from the cache.
func TestRepeatCountsEveryRollout(t *testing.T) {
	home := t.TempDir()
	vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker")}
	var lines []string
	for _, id := range []string{"a", "b", "c", "d"} {
		lines = append(lines, `{"id":"`+id+`","task":"add `+id+`","label":"accept","diff":"diff --git a/`+id+` b/`+id+`\nnew file mode 100644\n--- /dev/null\n+++ b/`+id+`\n@@ -0,0 +1 @@\n+`+id+`\n"}`)
	}
	cases := filepath.Join(home, "cases.jsonl")
	if err := os.WriteFile(cases, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
		calls.Add(1)
		return claude.Result{Envelope: true, Tokens: new(120), CostUSD: new(0.01),
			Structured: json.RawMessage(`{"score":0.9,"passed":true,"judge_type":"standard"}`)}, nil
	})
	deps := Deps{Env: env.Env{Getenv: func(k string) string { return vars[k] }, Home: home, Claude: runner,
		Git: projectkey.ExecGit("git", os.Environ()), TempDir: t.TempDir()}}
	opts := Options{CasesPath: cases, Stop: true, Dir: home, Repeat: 3}

	rep, err := Run(context.Background(), opts, deps)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 12 || rep.Cost.Judged != 12 || rep.Cost.Cached != 0 {
		t.Fatalf("first run: calls %d, judged %d, cached %d; want 12, 12, 0", calls.Load(), rep.Cost.Judged, rep.Cost.Cached)
	}
	if rep.Cost.PaidUSD == nil || math.Abs(*rep.Cost.PaidUSD-0.12) > 1e-9 {
		t.Errorf("paid = %v, want 0.12 (12 judgings at $0.01)", rep.Cost.PaidUSD)
	}
	calls.Store(0)
	rep, err = Run(context.Background(), opts, deps)
	if err != nil {
		t.Fatal(err)
	}
	if calls.Load() != 0 || rep.Cost.Judged != 0 || rep.Cost.Cached != 12 {
		t.Fatalf("rerun: calls %d, judged %d, cached %d; want 0, 0, 12", calls.Load(), rep.Cost.Judged, rep.Cost.Cached)
	}
}
