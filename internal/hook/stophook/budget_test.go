package stophook

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// gitRepo makes a repository with one commit and one untracked file, with
// the Stop hook enabled in fix mode.
func gitRepo(t *testing.T) string {
	t.Helper()
	r := testkit.GitRepo(t)
	r.WriteFile("a.txt", "a\n")
	r.Commit("one")
	r.WriteFile(".claude/settings.local.json", `{"tribunal":{"stop_hook":{"enabled":true,"mode":"fix"}}}`)
	r.WriteFile("new.txt", "new\n")
	return r.Dir
}

// One budget for the whole hook: with the events log and the ledger locked
// by someone else, every wait draws from the budget, the hook ends within
// it, keeps what it could write and says so in one line.
func TestHookBudgetBoundsEveryWait(t *testing.T) {
	home := t.TempDir()
	onlooker := filepath.Join(home, "onlooker")
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com"}
	repo := gitRepo(t)
	vars := map[string]string{"ONLOOKER_DIR": onlooker, "HOME": home}
	getenv := func(k string) string { return vars[k] }

	res, err := projectkey.Resolve(context.Background(), repo, projectkey.ExecGit("git", env))
	if err != nil {
		t.Fatal(err)
	}
	project := store.ForKey(onlooker, res.Key)
	os.MkdirAll(project.Dir, 0o700)
	unlockEvents, err := store.LockFile(filepath.Join(onlooker, ".event-sequence.lock"), true, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlockEvents()
	unlockLedger, err := store.LockFile(ledger.PathFor(project.Dir)+".lock", true, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlockLedger()

	runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
		tokens := 120
		return claude.Result{Envelope: true, Tokens: &tokens, Structured: json.RawMessage(`{"score":0.2,"passed":false,"judge_type":"standard","feedback_summary":"No test."}`)}, nil
	})
	in, _ := json.Marshal(map[string]any{"session_id": "b", "cwd": repo, "hook_event_name": "Stop", "last_assistant_message": "done"})
	var stderr bytes.Buffer
	var problems, others []string
	collect := func(to *[]string) func(string, ...any) {
		return func(format string, args ...any) { *to = append(*to, fmt.Sprintf(format, args...)) }
	}
	const budget = 3 * time.Second
	start := time.Now()
	code := Run(context.Background(), Deps{
		Getenv: getenv, Environ: env, Stdin: bytes.NewReader(in), Stderr: &stderr,
		Home: home, Claude: runner, Budget: budget,
		Warnf: collect(&problems), JudgeWarnf: collect(&others), Errorf: collect(&others),
		Warn: func(s string) { others = append(others, s) },
	})
	took := time.Since(start)
	if took > budget+time.Second {
		t.Errorf("the hook took %v, beyond its %v budget", took, budget)
	}
	if code != 0 {
		t.Errorf("exit %d, want 0: a rewake whose record was lost is not made", code)
	}
	if len(problems) != 1 || len(others) != 0 || stderr.Len() != 0 || !strings.Contains(problems[0], "out of time: kept the verdict's stop file and its history record") ||
		!strings.Contains(problems[0], "6 of 6 events were not recorded") || !strings.Contains(problems[0], "the ledger was not extended") ||
		!strings.Contains(problems[0], "not handed back to the model") {
		t.Errorf("want one out-of-time line naming what was kept and lost, got %q, other diagnostics %q, stderr %q", problems, others, stderr.String())
	}
	if _, err := os.Stat(records.StopPath(project.Dir, "b")); err != nil {
		t.Errorf("the stop file was not kept: %v", err)
	}
	_, logPath := events.ResolvePaths(getenv, home)
	if data, _ := os.ReadFile(logPath); len(data) > 0 {
		t.Errorf("events were written past a held lock: %s", data)
	}
}
