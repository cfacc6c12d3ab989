package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// localHookConfig is the README's `repo: local` form: tribunal-session
// already on PATH (language: system), gated by its args.
const localHookConfig = `repos:
  - repo: local
    hooks:
      - id: tribunal-review
        name: tribunal review
        entry: tribunal-session hook run pre-commit --gate
        language: system
        pass_filenames: false
        verbose: true
`

// TestPreCommitFramework runs the real pre-commit framework on a staged
// change with the real claude CLI and a fake Messages API: through this
// repository's .pre-commit-hooks.yaml (pre-commit try-repo builds the Go
// module, offline from the host's module cache), the advisory
// tribunal-review shows the review and lets the commit go on; through the
// README's `repo: local` config with --gate, the finding fails the hook.
// Needs pre-commit on PATH (.ci/run installs the Debian package).
func TestPreCommitFramework(t *testing.T) {
	t.Parallel()
	w, root, _, _ := reviewWorld(t)
	bin, err := exec.LookPath("pre-commit")
	if err != nil {
		testtier.Missing(t, testtier.E2E, "pre-commit (the pre-commit framework)", "apt-get install pre-commit (.ci/run does)")
	}
	w.writeFile("retry.go", "package retry\n\nfunc Retry() {\n\tfor {\n\t}\n}\n")
	w.git("add", "retry.go")
	// The judges' finding is major; the hooks gate at TRIBUNAL_FAIL_ON.
	env := append(w.environ(), "TRIBUNAL_FAIL_ON=major", "PRE_COMMIT_HOME="+t.TempDir(),
		"GOMODCACHE="+goEnv(t, "GOMODCACHE"), "GOCACHE="+goEnv(t, "GOCACHE"), "GOFLAGS=-mod=mod", "GOPROXY=off")
	preCommit := func(args ...string) (bool, string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir = w.repo
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		return err == nil, string(out)
	}

	ok, out := preCommit("try-repo", root, "tribunal-review")
	if !ok || !strings.Contains(out, "✗ rejected") || !strings.Contains(out, "E2E-REVIEW-FLAW") ||
		!strings.Contains(out, "the review above is advisory: the commit goes ahead") {
		t.Fatalf("try-repo tribunal-review: ok=%v, want the advisory review shown and the hook passing:\n%s", ok, out)
	}

	if err := os.WriteFile(filepath.Join(w.repo, ".pre-commit-config.yaml"), []byte(localHookConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	w.git("add", ".pre-commit-config.yaml")
	ok, out = preCommit("run", "tribunal-review")
	if ok || !strings.Contains(out, "commit blocked by the review above") {
		t.Fatalf("repo: local with --gate: ok=%v, want the hook failing on the major finding:\n%s", ok, out)
	}
}
