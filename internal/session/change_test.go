package session

import (
	"context"
	"encoding/json"
	"github.com/tribunal-cc/tribunal/internal/env"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// TestJudgeChangeJudgesAGivenChangeRecorded: JudgeChange judges a change with no
// actor but with everything an iteration has: the judges see the given
// diff and run, with the command judges, in the given directory; the
// task's events, artifacts, report and ledger entry are recorded.
func TestJudgeChangeJudgesAGivenChangeRecorded(t *testing.T) {
	home := t.TempDir()
	repo := newRepo(t, `{"tribunal":{"session":{"judge_types":["standard","adversarial"]}}}`)
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"),
		[]byte(`{"tribunal":{"command_judges":{"where":{"command":["sh","-c","pwd > where.txt"],"timeout_seconds":20}}}}`), 0o644)
	vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker"), "PATH": os.Getenv("PATH")}
	var mu sync.Mutex
	var calls []claude.Call
	runner := claude.RunnerFunc(func(_ context.Context, c claude.Call) (claude.Result, error) {
		mu.Lock()
		calls = append(calls, c)
		mu.Unlock()
		switch roleOf(c) {
		case "meta-judge":
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		case "adversarial":
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.6,"passed":false}`)}, nil
		}
		return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true}`)}, nil
	})
	const diff = "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-old line\n+new line\n"
	rep, err := JudgeChange(context.Background(), ChangeOptions{Task: "rename the line", Dir: repo, Diff: diff, ActorOutput: "renamed"}, Deps{
		Env: env.Env{
			Getenv:  func(k string) string { return vars[k] },
			Home:    home,
			Claude:  runner,
			Git:     projectkey.ExecGit("git", os.Environ()),
			Environ: os.Environ(),
			Sandbox: func() claude.SandboxSupport { return claude.SandboxSupport{OK: true} },
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Outcome != Exhausted || len(rep.Iterations) != 1 || rep.Iterations[0].Gate.Passed {
		t.Fatalf("outcome %s, %d iteration(s), gate %+v; want one blocked iteration", rep.Outcome, len(rep.Iterations), rep.Iterations[0].Gate)
	}
	if sum := Summary(rep); !strings.Contains(sum, "✗ not accepted") || !strings.Contains(sum, "Iterations 1 of 1") {
		t.Errorf("summary:\n%s", sum)
	}
	roles := map[string]int{}
	for _, c := range calls {
		roles[c.Role]++
		if c.Dir != repo {
			t.Errorf("%s call ran in %q, want %q", c.Role, c.Dir, repo)
		}
		if c.Role == "judge" && !strings.Contains(c.Prompt, "+new line") {
			t.Errorf("a judge's prompt lacks the given diff:\n%s", c.Prompt)
		}
	}
	if roles["actor"] != 0 || roles["judge"] != 2 || roles["meta"] != 1 {
		t.Errorf("calls by role %v, want no actor, 2 judges, 1 meta-judge", roles)
	}
	if where, _ := os.ReadFile(filepath.Join(repo, "where.txt")); strings.TrimSpace(string(where)) != repo {
		t.Errorf("the command judge ran in %q, want %q", where, repo)
	}
	if cmds := rep.Iterations[0].Commands; len(cmds) != 1 || !cmds[0].Passed {
		t.Errorf("command judges %+v", cmds)
	}
	iterDir := filepath.Join(rep.ArtifactDir, records.IterationDir(rep.Iterations[0].IterationID))
	for _, f := range []string{filepath.Join(rep.ArtifactDir, records.ReportFile), filepath.Join(rep.ArtifactDir, records.ManifestFile), filepath.Join(iterDir, records.GateFile), filepath.Join(iterDir, records.MetaFile)} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("artifact missing: %v", err)
		}
	}
	log, _ := os.ReadFile(filepath.Join(home, "onlooker", "logs", "onlooker-events.jsonl"))
	for _, ev := range []string{"session.start", "iteration.start", "jury.empaneled", "meta.complete", "gate.blocked", "session.complete"} {
		if !strings.Contains(string(log), `"tribunal.`+ev+`"`) {
			t.Errorf("no %s event in the log", ev)
		}
	}
	if strings.Contains(string(log), "actor.start") {
		t.Error("judging a given change emitted actor events")
	}
	project := filepath.Dir(rep.ArtifactDir)
	if got, err := ledger.Verify(ledger.PathFor(project)); err != nil || got.Entries != 1 {
		t.Errorf("ledger: %d entries, %v; want the one gate decision", got.Entries, err)
	}
}
