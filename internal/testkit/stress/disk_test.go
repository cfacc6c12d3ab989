//go:build linux

package stress

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// diskCase is a world whose Onlooker directory already holds one advisory
// verdict and one accepted /tribunal task, recorded before the fault.
type diskCase struct {
	*world
	stopRepo, sessionRepo, script, transcript string
	turn                                      int
}

func newDiskCase(t *testing.T, onlooker string) *diskCase {
	w := newWorld(t)
	if onlooker != "" {
		w.onlooker = onlooker
	}
	c := &diskCase{world: w, stopRepo: w.mkrepo("stop", true), sessionRepo: w.mkrepo("session", false)}
	c.script = filepath.Join(w.root, "script.json")
	testkit.WriteFile(t, c.script, sessionScript)
	c.transcript = filepath.Join(w.root, "transcript.jsonl")
	testkit.WriteFile(t, c.transcript, `{"type":"user","message":{"role":"user","content":"add files please"}}`+"\n")
	return c
}

func (c *diskCase) dirty() {
	c.turn++
	testkit.WriteFile(c.t, filepath.Join(c.stopRepo, "f"+string(rune('a'+c.turn))+".txt"), "x\n")
}

// record runs one hook turn and one session while the disk is healthy.
func (c *diskCase) record() {
	c.t.Helper()
	c.dirty()
	if p := c.stopGate("before", c.stopRepo, c.transcript, 0); p.code != 0 || p.stderr != "" {
		c.t.Fatalf("stop-gate before the fault: exit %d, stderr %q", p.code, p.stderr)
	}
	if p := c.session(c.sessionRepo, c.script, 0); p.code != 0 {
		c.t.Fatalf("tribunal-session before the fault: exit %d\n%s", p.code, p.stderr)
	}
	if _, err := os.Stat(c.logPath()); err != nil {
		c.t.Fatal(err)
	}
}

// faulted runs a hook turn (same session, so its stop file is at stake)
// and a session under the fault and checks what the protocol demands:
// stop-gate exits 0, prints nothing on stdout and explains itself on
// stderr; tribunal-session still reaches and reports its verdict with the
// verdict's exit status, warning that the record is incomplete. want is a
// fragment of the system error every message must carry.
func (c *diskCase) faulted(want string, extraEnv ...string) {
	t := c.t
	t.Helper()
	c.dirty()
	p := c.stopGate("before", c.stopRepo, c.transcript, 0, extraEnv...)
	t.Logf("stop-gate under the fault: exit %d, %d stderr line(s):\n%s", p.code, len(lines(p.stderr)), p.stderr)
	if p.code != 0 || p.stdout != "" {
		t.Errorf("stop-gate: exit %d, stdout %q; want 0 and nothing", p.code, p.stdout)
	}
	checkMessages(t, "stop-gate", p.stderr, "tribunal: stop-gate: ", want)

	s := c.session(c.sessionRepo, c.script, 0, extraEnv...)
	t.Logf("tribunal-session under the fault: exit %d, %d stderr line(s):\n%s", s.code, len(lines(s.stderr)), s.stderr)
	if s.code != 0 || !strings.Contains(s.stdout, "accepted") {
		t.Errorf("tribunal-session: exit %d, stdout %q; want 0 and the accepted summary", s.code, s.stdout)
	}
	checkMessages(t, "tribunal-session", warnings(s.stderr), "tribunal: warning: ", want)
}

// warnings keeps the warning lines of a session's stderr (the rest is
// progress).
func warnings(stderr string) string {
	var out []string
	for _, l := range lines(stderr) {
		if strings.HasPrefix(l, "tribunal: warning: ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// checkMessages: at least one line, each with the prefix and the cause.
func checkMessages(t *testing.T, who, text, prefix, want string) {
	t.Helper()
	ls := lines(text)
	if len(ls) == 0 {
		t.Errorf("%s said nothing about the fault", who)
	}
	for _, l := range ls {
		if !strings.HasPrefix(l, prefix) || !strings.Contains(l, want) {
			t.Errorf("%s: unclear message %q (want prefix %q and %q)", who, l, prefix, want)
		}
	}
}

// TestFullLogDevice points ONLOOKER_EVENTS_LOG at /dev/full, where every
// append fails with ENOSPC.
func TestFullLogDevice(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("no /dev/full")
	}
	c := newDiskCase(t, "")
	c.record()
	before := snapshot(t, c.onlooker)
	c.faulted("no space left on device", "ONLOOKER_EVENTS_LOG=/dev/full")
	if _, err := validateLog(c.logPath()); err != nil {
		t.Error(err)
	}
	// Only the log is full: the stop file takes the new verdict, the
	// project manifest its new last_task_at, the ledger heads their new
	// entries, the Stop judge's spend of the day its new call, and the
	// counter moves on (a failed append leaves a gap, never a duplicate).
	unchangedExcept(t, before, c.onlooker, "tribunal/*/stop-before.json", "tribunal/*/manifest.json",
		"tribunal/*/ledger.jsonl.head", "tribunal/*/advisory-spend.json", "event-sequence")
	c.verifyLedgers()
}

// TestStopGateReportsFaultInOneLine: a hook's stderr reaches the user
// after every turn, so one storage fault must read as one line, not one per
// event and file the fault prevented. Both faults below stop every write.
func TestStopGateReportsFaultInOneLine(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		under      bool
		env        []string
	}{
		{name: "log on a full device", want: "no space left on device", env: []string{"ONLOOKER_EVENTS_LOG=/dev/full"}},
		{name: "onlooker dir below a file", want: "not a directory", under: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := ""
			if tc.under {
				dir = filepath.Join(t.TempDir(), "file", "onlooker")
				testkit.WriteFile(t, filepath.Dir(dir), "")
			}
			c := newDiskCase(t, dir)
			c.dirty()
			p := c.stopGate("s", c.stopRepo, c.transcript, 0, tc.env...)
			if p.code != 0 || p.stdout != "" {
				t.Fatalf("exit %d, stdout %q", p.code, p.stdout)
			}
			checkMessages(t, "stop-gate", p.stderr, "tribunal: stop-gate: ", tc.want)
			if n := len(lines(p.stderr)); n != 1 {
				t.Errorf("stop-gate reported one fault in %d lines; want one:\n%s", n, p.stderr)
			}
		})
	}
}

// TestOnlookerDirUnderFile makes ONLOOKER_DIR a path below a regular file,
// so creating anything in it fails with ENOTDIR, as root too.
func TestOnlookerDirUnderFile(t *testing.T) {
	w := newWorld(t)
	blocker := filepath.Join(w.root, "not-a-dir")
	testkit.WriteFile(t, blocker, "")
	c := newDiskCase(t, filepath.Join(blocker, "onlooker"))
	c.faulted("not a directory")
}

// TestReadOnlyOnlookerDir makes a populated Onlooker directory read-only:
// a read-only remount of a tmpfs when running as root (root ignores
// permission bits), else permission bits.
func TestReadOnlyOnlookerDir(t *testing.T) {
	if os.Geteuid() == 0 {
		mnt := filepath.Join(t.TempDir(), "mnt")
		if !mountTmpfs(t, mnt, "size=8m") {
			t.Skip("cannot mount a tmpfs")
		}
		c := newDiskCase(t, filepath.Join(mnt, "onlooker"))
		c.record()
		before := snapshot(t, c.onlooker)
		if out, err := exec.Command("mount", "-o", "remount,ro", mnt).CombinedOutput(); err != nil {
			t.Skipf("cannot remount read-only: %v %s", err, out)
		}
		c.faulted("read-only file system")
		unchanged(t, before, c.onlooker)
		c.verifyLedgers()
		return
	}
	c := newDiskCase(t, "")
	c.record()
	before := snapshot(t, c.onlooker)
	setWritable(t, c.onlooker, false)
	t.Cleanup(func() { setWritable(t, c.onlooker, true) })
	c.faulted("permission denied")
	unchanged(t, before, c.onlooker)
	c.verifyLedgers()
}

// TestFullDisk fills the tmpfs holding a populated Onlooker directory to
// the last byte, runs both commands, then frees space and runs them again.
func TestFullDisk(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs root")
	}
	mnt := filepath.Join(t.TempDir(), "mnt")
	if !mountTmpfs(t, mnt, "size=4m") {
		t.Skip("cannot mount a tmpfs")
	}
	c := newDiskCase(t, filepath.Join(mnt, "onlooker"))
	c.record()
	before := snapshot(t, c.onlooker)
	filler := filepath.Join(mnt, "filler")
	fill(t, filler)
	c.faulted("no space left on device")
	unchanged(t, before, c.onlooker)
	if _, err := validateLog(c.logPath()); err != nil {
		t.Error(err)
	}
	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	c.record()
	readLog(t, c.logPath())
	scanTree(t, c.onlooker)
	if n, _ := c.verifyLedgers(); n == 0 {
		t.Error("no ledger was written")
	}
}

// mountTmpfs mounts a tmpfs at dir for the test; false when this sandbox
// does not allow it.
func mountTmpfs(t *testing.T, dir, opts string) bool {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", dir).CombinedOutput(); err != nil {
		t.Logf("mount: %v %s", err, out)
		return false
	}
	// Registered after newWorld's cleanup would be too late: cleanups run
	// last-in first-out, so this one runs before the orphan reaper. The
	// lazy unmount cannot fail on a busy mount.
	t.Cleanup(func() {
		if out, err := exec.Command("umount", "-l", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v %s", dir, err, out)
		}
	})
	return true
}

// fill writes to path until the filesystem is full to the byte.
func fill(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, size := range []int{1 << 16, 4096, 1} {
		buf := make([]byte, size)
		for {
			if _, err := f.Write(buf); err != nil {
				if !errors.Is(err, syscall.ENOSPC) {
					t.Fatal(err)
				}
				break
			}
		}
	}
}

// setWritable removes or restores write permission throughout dir.
func setWritable(t *testing.T, dir string, writable bool) {
	t.Helper()
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		mode := fs.FileMode(0o400)
		if d.IsDir() {
			mode = 0o500
		}
		if writable {
			mode |= 0o200
		}
		os.Chmod(path, mode)
		return nil
	})
}

// unchangedExcept is unchanged for all files but those whose path below
// dir matches one of the patterns (filepath.Match syntax).
func unchangedExcept(t *testing.T, before map[string]string, dir string, patterns ...string) {
	t.Helper()
	kept := map[string]string{}
	for path, content := range before {
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			t.Fatal(err)
		}
		skip := false
		for _, p := range patterns {
			if ok, _ := filepath.Match(p, rel); ok {
				skip = true
			}
		}
		if !skip {
			kept[path] = content
		}
	}
	if len(kept) == len(before) {
		t.Fatalf("no file matched %q: the exceptions are stale", patterns)
	}
	unchanged(t, kept, dir)
}
