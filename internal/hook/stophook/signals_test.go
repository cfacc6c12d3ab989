package stophook

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// The hook watches the termination signals only once it has work to stop,
// and before its first child: a disabled, nested or idle turn never pays
// for the watcher (a goroutine and a thread), and an enabled one never runs
// git unprotected.
func TestSignalsWatchedOnlyForWork(t *testing.T) {
	home := t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com"}
	enabled := gitRepo(t)
	disabled := gitRepo(t)
	os.Remove(filepath.Join(disabled, ".claude", "settings.local.json"))
	noRepo := t.TempDir()

	cases := []struct {
		name    string
		cwd     string
		args    []string
		nested  bool
		active  bool
		watched bool
	}{
		{name: "disabled", cwd: disabled},
		{name: "not a repository", cwd: noRepo},
		{name: "no cwd"},
		{name: "nested", cwd: enabled, nested: true},
		{name: "continued by a Stop hook", cwd: enabled, active: true},
		{name: "enabled", cwd: enabled, watched: true},
		{name: "judge command", args: []string{JudgeCommand, filepath.Join(t.TempDir(), "missing.json")}, watched: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker"), "HOME": home}
			if tc.nested {
				vars["TRIBUNAL_NESTED"] = "1"
			}
			watched, gitBeforeWatch := 0, false
			git := projectkey.ExecGit("git", env)
			in, _ := json.Marshal(map[string]any{"session_id": "s", "cwd": tc.cwd, "hook_event_name": "Stop",
				"last_assistant_message": "done", "stop_hook_active": tc.active})
			Run(context.Background(), Deps{
				Getenv: func(k string) string { return vars[k] }, Environ: env,
				Stdin: bytes.NewReader(in), Stderr: &bytes.Buffer{}, Home: home, Args: tc.args,
				Claude: claude.RunnerFunc(func(context.Context, claude.Call) (claude.Result, error) {
					return claude.Result{Envelope: true, Structured: json.RawMessage(`{"score":0.9,"passed":true}`)}, nil
				}),
				Git: func(ctx context.Context, dir string, args ...string) ([]byte, error) {
					if watched == 0 {
						gitBeforeWatch = true
					}
					return git(ctx, dir, args...)
				},
				Signals: func(ctx context.Context) (context.Context, context.CancelFunc) {
					watched++
					return context.WithCancel(ctx)
				},
			})
			want := 0
			if tc.watched {
				want = 1
			}
			if watched != want {
				t.Errorf("signals watched %d time(s), want %d", watched, want)
			}
			if gitBeforeWatch {
				t.Error("git ran before the signals were watched")
			}
		})
	}
}
