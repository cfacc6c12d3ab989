package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakegitlab"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// gitlabCILocal finds the pinned gitlab-ci-local (package.json, installed
// by scripts/install-claude.sh): $GITLAB_CI_LOCAL_BIN, the repository's
// node_modules, else PATH. It also needs rsync (.ci/run installs it).
func gitlabCILocal(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("GITLAB_CI_LOCAL_BIN")
	if bin == "" {
		if p, err := filepath.Abs("../../node_modules/.bin/gitlab-ci-local"); err == nil {
			if _, err := os.Stat(p); err == nil {
				bin = p
			}
		}
	}
	if bin == "" {
		bin, _ = exec.LookPath("gitlab-ci-local")
	}
	if bin == "" || exec.Command(bin, "--version").Run() != nil {
		testtier.Missing(t, testtier.E2E, "gitlab-ci-local (npm, pinned in package.json)", "scripts/install-claude.sh installs it; or set GITLAB_CI_LOCAL_BIN")
	}
	if _, err := exec.LookPath("rsync"); err != nil {
		testtier.Missing(t, testtier.E2E, "rsync (gitlab-ci-local copies the project with it)", "apt-get install rsync")
	}
	return bin
}

// glSourceSnapshot commits this checkout's files (tracked and untracked,
// not ignored: the code under test, edits included) to a new repository
// at dst on branch e2e, which the job clones as TRIBUNAL_REPO.
func glSourceSnapshot(t *testing.T, root, dst string) string {
	t.Helper()
	out, err := exec.Command("git", "-C", root, "ls-files", "-co", "--exclude-standard", "-z").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		fi, err := os.Lstat(filepath.Join(root, f))
		if err != nil || !fi.Mode().IsRegular() {
			continue // deleted in the work tree, or a link
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, f), data, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	glGit(t, "", "init", "-q", "-b", "e2e", dst)
	glCommit(t, dst, "snapshot")
	return dst
}

func glGit(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %v: %v", args, err)
	}
	return strings.TrimSpace(string(out))
}

func glCommit(t *testing.T, dir, msg string) string {
	t.Helper()
	glGit(t, dir, "add", "-A")
	glGit(t, dir, "commit", "-q", "--no-verify", "-m", msg)
	return glGit(t, dir, "rev-parse", "HEAD")
}

func glWrite(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// glDiffs is GET …/diffs of base..head: per file, the hunks without the
// git header, as GitLab answers.
func glDiffs(t *testing.T, dir, base, head string) []fakegitlab.Diff {
	t.Helper()
	var out []fakegitlab.Diff
	for _, f := range strings.Fields(glGit(t, dir, "diff", "--name-only", base, head)) {
		d := glGit(t, dir, "diff", "--no-color", base, head, "--", f) + "\n"
		if i := strings.Index(d, "\n@@"); i >= 0 {
			d = d[i+1:]
		}
		out = append(out, fakegitlab.Diff{OldPath: f, NewPath: f, Diff: d})
	}
	return out
}

func glGoEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}
