package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
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
		testkit.WriteFileMode(t, filepath.Join(dst, f), string(data), fi.Mode().Perm())
	}
	r := testkit.NewGit(t).Init(dst)
	r.Git("symbolic-ref", "HEAD", "refs/heads/e2e")
	r.Commit("snapshot")
	return dst
}

// glDiffs is GET …/diffs of base..head: per file, the hunks without the
// git header, as GitLab answers.
func glDiffs(t *testing.T, r *testkit.Repo, base, head string) []fakegitlab.Diff {
	t.Helper()
	var out []fakegitlab.Diff
	for _, f := range strings.Fields(r.Git("diff", "--name-only", base, head)) {
		d := r.Git("diff", "--no-color", base, head, "--", f) + "\n"
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
