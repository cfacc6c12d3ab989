package scripts

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// launcherWorld is a release bin/ directory: the launcher installed as
// bin/<name> for every binary, a fake bin/linux-amd64/<name> that records
// how it was called, and a PATH holding only a fake uname that counts its
// calls and names the platform in $FAKE_UNAME.
type launcherWorld struct {
	t              *testing.T
	bin, fakes     string
	calls, execLog string
}

func newLauncherWorld(t *testing.T, names []string) launcherWorld {
	t.Helper()
	launcher, err := os.ReadFile(filepath.Join("..", "plugin", "launcher.sh"))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	w := launcherWorld{t: t, bin: filepath.Join(root, "plugin", "bin"), fakes: filepath.Join(root, "path"),
		calls: filepath.Join(root, "uname-calls"), execLog: filepath.Join(root, "exec-log")}
	for _, d := range []string{filepath.Join(w.bin, "linux-amd64"), w.fakes} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Builtins only: PATH holds nothing but uname.
	writeExec(t, filepath.Join(w.fakes, "uname"), "#!/bin/sh\necho \"$*\" >>\""+w.calls+"\"\n"+
		"case $1 in\n-sm) echo \"$FAKE_UNAME\" ;;\n-s) echo \"${FAKE_UNAME% *}\" ;;\n-m) echo \"${FAKE_UNAME#* }\" ;;\n*) exit 1 ;;\nesac\n")
	for _, n := range names {
		writeExec(t, filepath.Join(w.bin, n), string(launcher))
		writeExec(t, filepath.Join(w.bin, "linux-amd64", n), "#!/bin/sh\nprintf '%s' \"$0\" >>\""+w.execLog+"\"\n"+
			"for a in \"$@\"; do printf ' [%s]' \"$a\" >>\""+w.execLog+"\"; done\necho >>\""+w.execLog+"\"\nexit 7\n")
	}
	return w
}

func writeExec(t *testing.T, p, text string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
		t.Fatal(err)
	}
}

// run runs bin/<name> with args on the platform uname names; it returns
// the exit code, stderr and uname's calls.
func (w launcherWorld) run(name, platform string, args ...string) (int, string, []string) {
	w.t.Helper()
	_ = os.Remove(w.calls)
	_ = os.Remove(w.execLog)
	cmd := exec.Command(filepath.Join(w.bin, name), args...)
	cmd.Env = []string{"PATH=" + w.fakes, "FAKE_UNAME=" + platform}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		w.t.Fatalf("%s: %v", name, err)
	}
	calls, _ := os.ReadFile(w.calls)
	return code, stderr.String(), strings.Fields(strings.TrimSpace(string(calls)))
}

// hookBinaries are the binaries hooks/hooks.json runs: the ones that must
// never fail loudly.
func hookBinaries(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "hooks", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string } `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, groups := range doc.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				names = append(names, path.Base(strings.Trim(h.Command, `"`)))
			}
		}
	}
	if len(names) < 3 {
		t.Fatalf("hooks.json names %d hook commands, want stop-gate, prompt-submit and session-start: %v", len(names), names)
	}
	return names
}

// TestLauncherExecsThePlatformBinary: the launcher runs on every hook
// call of a release install, so it must fork nothing but one uname, and
// exec the binary of this platform with the arguments unchanged.
func TestLauncherExecsThePlatformBinary(t *testing.T) {
	names := append(hookBinaries(t), "tribunal-session")
	w := newLauncherWorld(t, names)
	for _, name := range names {
		for _, platform := range []string{"Linux x86_64", "Linux amd64"} {
			code, stderr, calls := w.run(name, platform, "review", "--base", "a b", "")
			if code != 7 {
				t.Errorf("%s on %s: exit %d, want the binary's 7; stderr:\n%s", name, platform, code, stderr)
			}
			if len(calls) != 1 || calls[0] != "-sm" {
				t.Errorf("%s on %s: uname called as %q, want once, as uname -sm", name, platform, calls)
			}
			got, _ := os.ReadFile(w.execLog)
			want := filepath.Join(w.bin, "linux-amd64", name) + " [review] [--base] [a b] []\n"
			if string(got) != want {
				t.Errorf("%s on %s: ran\n%q\nwant\n%q", name, platform, got, want)
			}
		}
	}
}

// TestLauncherUnknownPlatform: with no binary for the machine, a hook
// says so and exits 0 (a hook never breaks Claude Code); the CLI exits 2.
func TestLauncherUnknownPlatform(t *testing.T) {
	hooks := hookBinaries(t)
	w := newLauncherWorld(t, append(append([]string{}, hooks...), "tribunal-session"))
	for _, name := range append(hooks, "tribunal-session") {
		code, stderr, calls := w.run(name, "Plan9 mips", "x")
		want := 0
		if name == "tribunal-session" {
			want = 2
		}
		if code != want {
			t.Errorf("%s on Plan9/mips: exit %d, want %d", name, code, want)
		}
		lines := "tribunal: error: no " + name + " binary for Plan9/mips in " + w.bin + "\n" +
			"tribunal: hint: build from source with 'make install' (needs Go 1.26)\n"
		if stderr != lines {
			t.Errorf("%s on Plan9/mips: stderr\n%q\nwant\n%q", name, stderr, lines)
		}
		if len(calls) != 1 {
			t.Errorf("%s on Plan9/mips: uname called %d times (%q), want once", name, len(calls), calls)
		}
		if _, err := os.Stat(w.execLog); err == nil {
			t.Errorf("%s on Plan9/mips ran a binary", name)
		}
	}
}

// TestLauncherFollowsALinkToIt: tribunal-session linked onto PATH (under
// its own name or another, by an absolute or a relative link, or a link
// to a link) runs the platform binary beside the launcher, not one
// beside the link; the plain path still forks only uname.
func TestLauncherFollowsALinkToIt(t *testing.T) {
	w := newLauncherWorld(t, []string{"tribunal-session"})
	readlink, err := exec.LookPath("readlink")
	if err != nil {
		t.Skip("no readlink on this machine")
	}
	if err := os.Symlink(readlink, filepath.Join(w.fakes, "readlink")); err != nil {
		t.Fatal(err)
	}
	links := t.TempDir()
	launcher := filepath.Join(w.bin, "tribunal-session")
	rel, err := filepath.Rel(links, launcher)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ name, target string }{
		{"tribunal-session", launcher},
		{"ts", rel},
		{"ts2", filepath.Join(links, "ts")},
	} {
		if err := os.Symlink(l.target, filepath.Join(links, l.name)); err != nil {
			t.Fatal(err)
		}
		_ = os.Remove(w.execLog)
		cmd := exec.Command(filepath.Join(links, l.name), "--version")
		cmd.Env = []string{"PATH=" + w.fakes, "FAKE_UNAME=Linux x86_64"}
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 7 {
			t.Errorf("link %s → %s: %v, want the binary's exit 7\n%s", l.name, l.target, err, out)
		}
		got, _ := os.ReadFile(w.execLog)
		ran, args, _ := strings.Cut(strings.TrimSpace(string(got)), " ")
		if want := filepath.Join(w.bin, "linux-amd64", "tribunal-session"); filepath.Clean(ran) != want || args != "[--version]" {
			t.Errorf("link %s: ran %q, want %s [--version]", l.name, got, want)
		}
	}
}
