package projectkey

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeGit writes an executable shell script standing in for git.
func fakeGit(t *testing.T, body string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("shell-script fake git needs a POSIX shell")
	}
	p := filepath.Join(t.TempDir(), "git")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExecGitArgumentsEnvironmentAndStdin(t *testing.T) {
	bin := fakeGit(t, `for a in "$@"; do printf 'arg:%s\n' "$a"; done
printf 'pwd:%s\n' "$(pwd -P)"
env | grep -E '^(GIT_|KEEP|TRIBUNAL_)' | sort | sed 's/^/env:/'
if IFS= read -r line; then echo "stdin:$line"; else echo "stdin:eof"; fi
`)
	dir := physical(t, t.TempDir())
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"KEEP=1",
		"GIT_DIR=/elsewhere/.git",
		"GIT_WORK_TREE=/elsewhere",
		"GIT_INDEX_FILE=/elsewhere/index",
		"GIT_COMMON_DIR=/elsewhere/common",
		"GIT_OBJECT_DIRECTORY=/elsewhere/objects",
		"GIT_ALTERNATE_OBJECT_DIRECTORIES=/elsewhere/alt",
		"GIT_NAMESPACE=ns",
		"GIT_PREFIX=sub/",
		"GIT_TERMINAL_PROMPT=1",
		"GIT_OPTIONAL_LOCKS=1",
		"TRIBUNAL_NESTED=",
		"GIT_CONFIG_NOSYSTEM=1",
	}
	out, err := ExecGit(bin, env)(context.Background(), dir, "status", "--porcelain=v2", "a b")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	want := []string{
		"arg:-c", "arg:core.fsmonitor=false", "arg:-c", "arg:core.hooksPath=" + os.DevNull, "arg:--no-optional-locks",
		"arg:status", "arg:--porcelain=v2", "arg:a b",
		"pwd:" + dir,
		"env:GIT_CONFIG_NOSYSTEM=1",
		"env:GIT_OPTIONAL_LOCKS=0",
		"env:GIT_TERMINAL_PROMPT=0",
		"env:KEEP=1",
		"env:TRIBUNAL_NESTED=1",
		"stdin:eof",
	}
	if !slices.Equal(got, want) {
		t.Errorf("child saw\n %q\nwant\n %q", got, want)
	}
}

func TestExecGitFailureCarriesStderr(t *testing.T) {
	bin := fakeGit(t, "echo partial\necho 'fatal: not a git repository' >&2\nexit 3\n")
	out, err := ExecGit(bin, nil)(context.Background(), t.TempDir(), "remote", "get-url", "origin")
	if err == nil {
		t.Fatal("want an error for exit status 3")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 3 {
		t.Errorf("error %v does not wrap exit status 3", err)
	}
	for _, part := range []string{"git remote get-url origin", "fatal: not a git repository"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %q", err, part)
		}
	}
	if string(out) != "partial\n" {
		t.Errorf("stdout = %q, want the partial output", out)
	}
}

func TestExecGitLongStderrKeepsTail(t *testing.T) {
	bin := fakeGit(t, "i=0; while [ $i -lt 300 ]; do echo 'noise line' >&2; i=$((i+1)); done\necho 'fatal: the real reason' >&2\nexit 1\n")
	_, err := ExecGit(bin, nil)(context.Background(), t.TempDir(), "status")
	if err == nil || !strings.Contains(err.Error(), "the real reason") {
		t.Fatalf("error %v lost the last stderr line", err)
	}
	if len(err.Error()) > 2*maxStderrInError {
		t.Errorf("error is %d bytes; stderr was not capped", len(err.Error()))
	}
}

func TestExecGitHonoursContextDeadline(t *testing.T) {
	bin := fakeGit(t, "exec sleep 30\n")
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := ExecGit(bin, []string{"PATH=" + os.Getenv("PATH")})(ctx, t.TempDir(), "status")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("error = %v, want it to wrap context.DeadlineExceeded", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("runner returned after %v; the child was not killed", d)
	}
}

func TestExecGitNeverRunsRepositoryFsmonitor(t *testing.T) {
	g := newTGit(t)
	repo := g.initRepo(physical(t, t.TempDir()), "r")
	marker := filepath.Join(t.TempDir(), "fsmonitor-ran")
	hook := filepath.Join(t.TempDir(), "fsmonitor-hook")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\ntouch '"+marker+"'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.run(repo, "config", "core.fsmonitor", hook)

	// Control: plain git runs the configured program, so the check below can fail.
	g.run(repo, "status", "--porcelain")
	if _, err := os.Stat(marker); err != nil {
		t.Fatalf("control: plain git status did not run the fsmonitor hook: %v", err)
	}
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}

	if _, err := g.runner()(context.Background(), repo, "status", "--porcelain"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("ExecGit let the repository's core.fsmonitor program run")
	}
}

func TestExecGitDoesNotRewriteIndex(t *testing.T) {
	g := newTGit(t)
	repo := g.initRepo(physical(t, t.TempDir()), "r")
	index := filepath.Join(repo, ".git", "index")
	readme := filepath.Join(repo, "README")
	old := time.Now().Add(-time.Hour)

	// Stale stat data with unchanged content: a status that may take locks
	// refreshes and rewrites the index.
	if err := os.Chtimes(readme, old, old); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := g.runner()(context.Background(), repo, "status", "--porcelain"); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("ExecGit's status rewrote .git/index")
	}

	// Control: plain git status does rewrite it, so the check above can fail.
	g.run(repo, "status", "--porcelain")
	control, err := os.ReadFile(index)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(before, control) {
		t.Fatal("control: plain git status left the index untouched; test proves nothing")
	}
}
