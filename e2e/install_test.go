package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestInstallSurvivesCleanAndMove: scripts/install.sh (what `make install`
// runs) leaves an install that still loads after the built marketplace is
// deleted — `make clean`, or the clone moved. Claude Code reads a directory
// marketplace from where it was added, so an install pointing into dist/
// showed "failed to load: cache-miss" after `make clean`.
func TestInstallSurvivesCleanAndMove(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	clone := filepath.Join(t.TempDir(), "clone", "dist", "marketplace")
	if err := os.MkdirAll(filepath.Dir(clone), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-R", w.plugin.Market, clone).CombinedOutput(); err != nil {
		t.Fatalf("copy the marketplace: %v\n%s", err, out)
	}
	install := exec.Command(filepath.Join(root, "scripts", "install.sh"), w.claude, clone)
	install.Env = w.environ()
	out, err := install.CombinedOutput()
	if err != nil {
		t.Fatalf("install.sh: %v\n%s", err, out)
	}
	stable := filepath.Join(w.home, ".local", "share", "tribunal", "marketplace")
	if !strings.Contains(string(out), `export PATH="`+stable+`/tribunal/bin:$PATH"`) {
		t.Errorf("install.sh does not say how to put tribunal-session on PATH:\n%s", out)
	}
	// The validator's report is advice for plugin-directory authors, not
	// for someone installing tribunal (issue 22): one line says it passed.
	if strings.Contains(string(out), "network.hosts") || strings.Contains(string(out), "Provides:") ||
		!strings.Contains(string(out), "tribunal: the built plugin passed 'claude plugin validate'") {
		t.Errorf("install.sh shows the validator's report for plugin authors:\n%s", out)
	}
	if err := os.RemoveAll(filepath.Dir(filepath.Dir(clone))); err != nil {
		t.Fatal(err)
	}
	res := w.claudeRun(time.Minute, "", "plugin", "list")
	if res.Code != 0 {
		t.Fatalf("claude plugin list exited %d\n%s", res.Code, res.Stderr)
	}
	list := res.Stdout + res.Stderr
	if !strings.Contains(list, "tribunal@tribunal-local") || strings.Contains(list, "failed to load") ||
		!strings.Contains(list, "Read from: "+stable+"/tribunal") {
		t.Errorf("after deleting the built marketplace, plugin list says:\n%s", list)
	}
	version, err := exec.Command(filepath.Join(stable, "tribunal", "bin", "tribunal-session"), "--version").Output()
	if err != nil || !strings.HasPrefix(string(version), "tribunal-session ") {
		t.Errorf("the installed tribunal-session --version: %q, %v", version, err)
	}

	uninstall := exec.Command(filepath.Join(root, "scripts", "install.sh"), "--uninstall", w.claude)
	uninstall.Env = w.environ()
	if out, err := uninstall.CombinedOutput(); err != nil {
		t.Fatalf("install.sh --uninstall: %v\n%s", err, out)
	}
	if _, err := os.Stat(stable); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s: %v", stable, err)
	}
	res = w.claudeRun(time.Minute, "", "plugin", "list")
	if strings.Contains(res.Stdout+res.Stderr, "tribunal@tribunal-local") {
		t.Errorf("after uninstall, plugin list still has tribunal:\n%s", res.Stdout)
	}
}
