package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// readToolsWorld is a world whose user settings give the Stop judge the
// read tools, with a judge that first reads target and then answers.
func readToolsWorld(t *testing.T, target string) (*world, int) {
	t.Helper()
	w := newWorld(t, stopEnabled)
	if err := os.MkdirAll(filepath.Join(w.home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.home, ".claude", "settings.json"), []byte(`{"tribunal":{"stop_hook":{"tools":"read"}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	w.withPluginEverywhere()
	scriptUser(w.api)
	if !filepath.IsAbs(target) {
		target = filepath.Join(w.repo, target)
	}
	judge := w.api.Add(fakeapi.Rule{
		Name:  "stop judge with tools",
		Match: isStopJudge,
		Respond: func(r *fakeapi.Request) fakeapi.Reply {
			if len(r.ToolResults()) == 0 {
				return fakeapi.ToolUse("", "Read", map[string]any{"file_path": target})
			}
			return fakeapi.Structured(advisoryVerdict)
		},
	})
	return w, judge
}

// judgeRead runs the user's turn and returns the judge's requests and the
// result of its one Read.
func judgeRead(t *testing.T, w *world, judge int) ([]fakeapi.Request, fakeapi.Block) {
	t.Helper()
	_, s, _ := w.editTurn()
	if stderr := stopHookStderr(t, s); stderr != "" {
		t.Errorf("Stop hook stderr: %q", stderr)
	}
	calls := w.api.ByRule(judge)
	if len(calls) != 2 {
		t.Fatalf("want two judge requests (Read, then the answer), got %d\n%s", len(calls), w.api.Summary())
	}
	results := calls[1].ToolResults()
	if len(results) != 1 {
		t.Fatalf("want one tool result, got %+v", results)
	}
	return calls, results[0]
}

// TestStopHookReadTools: with stop_hook.tools "read" in the user's own
// settings, the real CLI offers the judge Read, Grep and Glob and no other
// built-in tool, a Read of a worktree file is served, and the verdict
// still lands.
func TestStopHookReadTools(t *testing.T) {
	t.Parallel()
	w, judge := readToolsWorld(t, "README.md")
	calls, result := judgeRead(t, w, judge)
	names := calls[0].ToolNames()
	for _, want := range []string{"Read", "Grep", "Glob"} {
		if !slices.Contains(names, want) {
			t.Errorf("judge tools %v lack %s", names, want)
		}
	}
	for _, banned := range []string{"Bash", "Write", "Edit", "WebFetch"} {
		if slices.Contains(names, banned) {
			t.Errorf("judge was offered %s: tools %v", banned, names)
		}
	}
	if !strings.Contains(calls[0].LastUserText(), "You may use the Read, Grep and Glob tools") {
		t.Error("judge prompt does not mention its read tools")
	}
	if result.IsError || !strings.Contains(result.Content.Text(), "# project") {
		t.Errorf("the judge's Read of README.md was not served: %+v", result)
	}
	files := w.stopFiles()
	if len(files) != 1 {
		t.Fatalf("stop files %v, want one", files)
	}
	if v, _ := readJSON(t, files[0])["verdict"].(map[string]any); v["feedback_summary"] != advisoryFeedback {
		t.Errorf("stop file verdict %v", v)
	}
}

// TestStopHookReadToolsStayInTheWorktree: the same judge reading a file
// outside the worktree (in the user's home) is refused by the CLI, because
// the tools are not pre-approved.
func TestStopHookReadToolsStayInTheWorktree(t *testing.T) {
	t.Parallel()
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("TOP-SECRET-4411\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w, judge := readToolsWorld(t, secret)
	_, result := judgeRead(t, w, judge)
	if strings.Contains(result.Content.Text(), "TOP-SECRET-4411") {
		t.Fatalf("the judge read a file outside the worktree: %+v", result)
	}
	if !result.IsError && !strings.Contains(result.Content.Text(), "permission") {
		t.Errorf("the Read outside the worktree was neither an error nor a permission refusal: %+v", result)
	}
}
