package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// TestJudgeDiffJudgesWithoutSideEffects: a Work goes through the same
// jury, meta-judge and gate as an iteration, the judges see its diff and
// run in its directory, and nothing is written or emitted anywhere.
func TestJudgeDiffJudgesWithoutSideEffects(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, `{"tribunal":{"session":{"judge_types":["standard","adversarial"],"score_threshold":0.7}}}`)
	vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker")}
	var mu sync.Mutex
	var calls []claude.Call
	runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
		mu.Lock()
		calls = append(calls, c)
		mu.Unlock()
		cost := 0.25
		switch roleOf(c) {
		case "meta-judge":
			return claude.Result{Envelope: true, CostUSD: &cost, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		case "adversarial":
			return claude.Result{Envelope: true, CostUSD: &cost, Tokens: new(120), Structured: json.RawMessage(`{"score":0.4,"passed":false}`)}, nil
		default:
			return claude.Result{Envelope: true, CostUSD: &cost, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true}`)}, nil
		}
	})
	sandboxed := func() claude.SandboxSupport { return claude.SandboxSupport{OK: true} }
	j, err := LoadJury(judging.Options{WorktreeRoot: repo}, Deps{Env: env.Env{Getenv: func(k string) string { return vars[k] }, Home: home, Claude: runner, Sandbox: sandboxed}})
	if err != nil {
		t.Fatal(err)
	}
	if got := j.Params().ScoreThreshold; got != 0.7 {
		t.Fatalf("threshold from the repository layer = %v", got)
	}
	work := t.TempDir()
	w := judging.Work{Task: "fix the bound", Files: unidiff.Parse([]byte("diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n")), ActorOutput: "done", Iteration: 2, Dir: work}
	got, err := j.JudgeDiff(context.Background(), w)
	if err != nil {
		t.Fatal(err)
	}
	if got.Usable != 2 || len(got.Verdicts) != 2 || got.Iteration.Consensus == nil {
		t.Fatalf("judgement = %+v", got)
	}
	if a := got.Iteration.Consensus.Aggregate; a < 0.64 || a > 0.66 {
		t.Errorf("aggregate = %v, want the mean 0.65", a)
	}
	if got.Iteration.Gate.Passed {
		t.Errorf("gate passed at 0.65 < 0.7")
	}
	if got.CostUSD == nil || *got.CostUSD != 0.75 {
		t.Errorf("cost = %v, want 0.75 (two judges and the meta-judge)", got.CostUSD)
	}
	if len(calls) != 3 {
		t.Fatalf("%d calls, want 2 judges + meta", len(calls))
	}
	for _, c := range calls {
		if c.Dir != work {
			t.Errorf("%s ran in %q, want the work's directory", roleOf(c), c.Dir)
		}
		if c.Role == "judge" && (!strings.Contains(c.Prompt, "+b") || !strings.Contains(c.Prompt, "iteration 2")) {
			t.Errorf("judge prompt lacks the diff or the iteration:\n%s", c.Prompt)
		}
		// Reads are served unapproved only in c.Dir; pre-approving them
		// would open the user's whole disk to the judge (spec §4). The
		// adversarial judge's Bash is not pre-approved either: it runs in
		// Claude Code's sandbox, which approves what it confines.
		if got := strings.Join(c.AllowedTools, ","); got != "" {
			t.Errorf("%s pre-approves %q (tools %q), want nothing", roleOf(c), got, c.Tools)
		}
		if adv := roleOf(c) == "adversarial"; c.SandboxBash != adv || slices.Contains(c.Tools, "Bash") != adv {
			t.Errorf("%s: sandboxed Bash %v, tools %q", roleOf(c), c.SandboxBash, c.Tools)
		}
		if !slices.Contains(c.Tools, "Read") {
			t.Errorf("%s is not offered Read: %q", roleOf(c), c.Tools)
		}
	}
	if _, err := os.Stat(vars["ONLOOKER_DIR"]); !os.IsNotExist(err) {
		t.Errorf("JudgeDiff wrote under ONLOOKER_DIR: %v", err)
	}
	// The fingerprint moves with the work and the configuration, not with
	// the call.
	if a, b := j.Fingerprint(w), j.Fingerprint(w); a != b {
		t.Error("fingerprint is not stable")
	}
	w2 := w
	w2.Files = unidiff.Parse([]byte("diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+c\n"))
	if j.Fingerprint(w) == j.Fingerprint(w2) {
		t.Error("fingerprint ignores the diff")
	}
	j2, err := LoadJury(judging.Options{}, Deps{Env: env.Env{Getenv: func(k string) string { return vars[k] }, Home: home, Claude: runner}})
	if err != nil {
		t.Fatal(err)
	}
	if j.Fingerprint(w) == j2.Fingerprint(w) {
		t.Error("fingerprint ignores the configuration (threshold 0.7 vs default)")
	}
}
