package scripts

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// installWorld is a home directory, a stub claude that accepts every
// `plugin` command, and a built marketplace whose tribunal-session
// prints its arguments: enough for install.sh, offline, in seconds.
type installWorld struct {
	t                   *testing.T
	home, stubs, market string
}

func newInstallWorld(t *testing.T) installWorld {
	t.Helper()
	dir := t.TempDir()
	w := installWorld{t: t, home: filepath.Join(dir, "home"), stubs: filepath.Join(dir, "stubs"), market: filepath.Join(dir, "dist", "marketplace")}
	for path, body := range map[string]string{
		filepath.Join(w.stubs, "claude"):                               "#!/bin/sh\nexit 0\n",
		filepath.Join(w.market, "tribunal", "bin", "tribunal-session"): "#!/bin/sh\necho \"tribunal-session $*\"\n",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(w.home, 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

// sh runs script with sh -c in the world: its HOME, no XDG_DATA_HOME or
// TRIBUNAL_DATA_DIR, the stubs then path on PATH.
func (w installWorld) sh(path, script string) string {
	w.t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Env = []string{"HOME=" + w.home, "PATH=" + w.stubs + ":" + path}
	out, err := cmd.CombinedOutput()
	if err != nil {
		w.t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return string(out)
}

// quickStartExport is the `export PATH=` line of README.md's Quick start
// block.
func quickStartExport(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)## Quick start\n\n```sh\n(.*?)```").FindSubmatch(data)
	if m == nil {
		t.Fatal("README.md has no ```sh block right under ## Quick start")
	}
	for _, line := range strings.Split(string(m[1]), "\n") {
		if strings.HasPrefix(line, "export PATH=") {
			return line
		}
	}
	t.Fatalf("README.md's Quick start block has no export PATH= line:\n%s", m[1])
	return ""
}

// TestQuickStartPutsTribunalSessionOnPath: after install.sh, the Quick
// start's next line finds tribunal-session either way — through the
// README's export line, or, when ~/.local/bin is on PATH, through the link
// install.sh makes there (removed again by --uninstall).
func TestQuickStartPutsTribunalSessionOnPath(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	install := filepath.Join(root, "scripts", "install.sh")
	installed := "/.local/share/tribunal/marketplace/tribunal/bin/tribunal-session"

	w := newInstallWorld(t)
	out := w.sh("/usr/bin:/bin", install+" claude "+w.market)
	if !strings.Contains(out, "export PATH=") {
		t.Errorf("install.sh without ~/.local/bin on PATH does not print the export line:\n%s", out)
	}
	if _, err := os.Lstat(filepath.Join(w.home, ".local", "bin", "tribunal-session")); err == nil {
		t.Error("install.sh linked into ~/.local/bin, which is not on PATH")
	}
	got := w.sh("/usr/bin:/bin", quickStartExport(t)+"\ncommand -v tribunal-session && tribunal-session doctor")
	if !strings.Contains(got, w.home+installed+"\ntribunal-session doctor") {
		t.Errorf("the Quick start's export line does not put the installed tribunal-session on PATH:\n%s", got)
	}

	w = newInstallWorld(t)
	userBin := filepath.Join(w.home, ".local", "bin")
	out = w.sh(userBin+":/usr/bin:/bin", install+" claude "+w.market)
	if !strings.Contains(out, "tribunal-session is on PATH") {
		t.Errorf("install.sh with ~/.local/bin on PATH does not say it linked tribunal-session:\n%s", out)
	}
	got = w.sh(userBin+":/usr/bin:/bin", "command -v tribunal-session && tribunal-session doctor")
	if !strings.Contains(got, userBin+"/tribunal-session\ntribunal-session doctor") {
		t.Errorf("tribunal-session is not found through ~/.local/bin after install:\n%s", got)
	}
	if target, err := os.Readlink(filepath.Join(userBin, "tribunal-session")); err != nil || target != w.home+installed {
		t.Errorf("~/.local/bin/tribunal-session links to %q (%v), want the installed copy", target, err)
	}
	w.sh(userBin+":/usr/bin:/bin", install+" --uninstall claude")
	if _, err := os.Lstat(filepath.Join(userBin, "tribunal-session")); err == nil {
		t.Error("install.sh --uninstall left the ~/.local/bin link")
	}
}

// TestUninstallSaysWhatItLeaves: `make uninstall` leaves the store (records,
// ledgers, keys) and Claude Code's copy of the plugin — the pinned CLI
// 2.1.332 keeps plugins/cache/<marketplace>/<plugin>/<version> after
// `plugin uninstall`, only marked orphaned — and says so, naming each
// path that exists with the command that removes it; those commands work.
// Nothing else of the store is touched.
func TestUninstallSaysWhatItLeaves(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	install := filepath.Join(root, "scripts", "install.sh")
	w := newInstallWorld(t)
	w.sh("/usr/bin:/bin", install+" claude "+w.market)
	left := []string{
		filepath.Join(w.home, ".onlooker", "tribunal", "0123456789ab", "ledger.jsonl"),
		filepath.Join(w.home, ".onlooker", "keys", "tribunal-ledger.key"),
		filepath.Join(w.home, ".claude", "plugins", "cache", "tribunal-local", "tribunal", "0.1.0", ".orphaned_at"),
	}
	shared := filepath.Join(w.home, ".onlooker", "logs", "onlooker-events.jsonl")
	for _, p := range append(left, shared) {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out := w.sh("/usr/bin:/bin", install+" --uninstall claude")
	var cmds []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  rm -rf ") {
			cmds = append(cmds, strings.TrimSpace(line))
		}
	}
	for _, want := range []string{"Left in place", filepath.Join(w.home, ".onlooker", "tribunal"), filepath.Join(w.home, ".claude", "plugins", "cache", "tribunal-local"), "refs/tribunal/"} {
		if !strings.Contains(out, want) {
			t.Errorf("make uninstall does not name %q:\n%s", want, out)
		}
	}
	if len(cmds) != 3 {
		t.Fatalf("want 3 rm commands (store, key, plugin cache), got %q:\n%s", cmds, out)
	}
	w.sh("/usr/bin:/bin", strings.Join(cmds, "\n"))
	for _, p := range left {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s is still there after the printed commands", p)
		}
	}
	if _, err := os.Stat(shared); err != nil {
		t.Errorf("the shared events log went: %v", err)
	}
	if out := w.sh("/usr/bin:/bin", install+" --uninstall claude"); !strings.Contains(out, "nothing of it is left") {
		t.Errorf("a second uninstall does not say nothing is left:\n%s", out)
	}
}
