package stophook

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
)

// holder starts a process that holds the lock at path (it inherits the
// locked descriptor) and sleeps; the lock is released when it dies. info
// gets the holder's own identity and returns what the lock file says.
func holder(t *testing.T, path string, info func(self procid.ID) lockInfo) *exec.Cmd {
	t.Helper()
	f, held, err := tryLock(path, lockInfo{PID: os.Getpid()}, time.Now().Add(time.Minute), time.Now)
	if err != nil || held != nil {
		t.Fatalf("tryLock: held %v, %v", held != nil, err)
	}
	cmd := exec.Command("sleep", "300")
	cmd.ExtraFiles = []*os.File{f}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if err := writeInfo(f, info(procid.Of(cmd.Process.Pid))); err != nil {
		t.Fatal(err)
	}
	f.Close()
	// A holder that died is a zombie until this Wait: its descriptors,
	// and so the lock, are gone already.
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// as describes holder p with the fields of i.
func as(i lockInfo) func(procid.ID) lockInfo {
	return func(p procid.ID) lockInfo { i.PID, i.PIDStart = p.PID, p.Start; return i }
}

// alive reports whether pid runs (a zombie does not).
func alive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return syscall.Kill(pid, 0) == nil
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func TestAcquire(t *testing.T) {
	now := time.Now()
	old := now.Add(-time.Minute)
	me := lockInfo{PID: os.Getpid(), Fingerprint: "new", Queued: now, Deadline: now.Add(time.Minute)}
	tests := []struct {
		name string
		// held describes the holder, nil for a free lock.
		held    *lockInfo
		wantErr error
	}{
		{"free", nil, nil},
		{"same state still running", &lockInfo{Fingerprint: "new", Queued: old, Deadline: now.Add(time.Minute)}, errDuplicate},
		{"newer Stop holds it", &lockInfo{Fingerprint: "newer", Queued: now.Add(time.Second), Deadline: now.Add(time.Minute)}, errSuperseded},
		{"older state is superseded", &lockInfo{Fingerprint: "old", Queued: old, Deadline: now.Add(time.Minute)}, nil},
		{"same state past its deadline", &lockInfo{Fingerprint: "new", Queued: old, Deadline: old}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "judges", "s.lock")
			var h *exec.Cmd
			if tt.held != nil {
				h = holder(t, path, as(*tt.held))
			}
			f, err := acquire(path, me, time.Now().Add(20*time.Second), time.Now)
			if err != tt.wantErr {
				t.Fatalf("acquire = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				if h != nil && !alive(h.Process.Pid) {
					t.Error("a holder that keeps the lock was signalled")
				}
				return
			}
			defer f.Close()
			info, ok := readInfo(f)
			if !ok || info.Fingerprint != "new" || info.PID != me.PID {
				t.Errorf("lock info after acquire = %+v, %v", info, ok)
			}
		})
	}
}

// A holder that ignores SIGTERM is killed once termGrace has passed.
func TestAcquireKillsAStubbornHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.lock")
	f, _, err := tryLock(path, lockInfo{PID: os.Getpid()}, time.Now().Add(time.Minute), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("sh", "-c", "trap '' TERM; while :; do sleep 1; done")
	cmd.ExtraFiles = []*os.File{f}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	now := time.Now()
	writeInfo(f, lockInfo{PID: cmd.Process.Pid, PIDStart: procid.Of(cmd.Process.Pid).Start, Fingerprint: "old", Queued: now.Add(-time.Minute), Deadline: now.Add(time.Minute)})
	f.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	// A clock that runs fast makes termGrace pass at once.
	var calls time.Duration
	clock := func() time.Time { calls++; return now.Add(calls * time.Second) }
	g, err := acquire(path, lockInfo{PID: os.Getpid(), Fingerprint: "new", Queued: now, Deadline: now.Add(time.Hour)}, now.Add(time.Hour), clock)
	if err != nil {
		t.Fatalf("acquire: %v", err)
	}
	g.Close()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the stubborn holder is still running")
	}
}

func TestTryLockRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, nil, 0o600)
	link := filepath.Join(dir, "judges", "s.lock")
	os.MkdirAll(filepath.Dir(link), 0o700)
	os.Symlink(target, link)
	if _, _, err := tryLock(link, lockInfo{PID: os.Getpid()}, time.Now().Add(time.Minute), time.Now); err == nil {
		t.Fatal("a symlinked lock was followed")
	}
}

// A holder whose description names pid 0 (a damaged or hostile lock file)
// is waited for, never signalled: kill(0, SIGTERM) would end this
// process's whole group — the hook and Claude Code with it.
func TestAcquireNeverSignalsADamagedHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.lock")
	cmd := holder(t, path, func(procid.ID) lockInfo {
		return lockInfo{PID: 0, Deadline: time.Now().Add(-time.Hour), Fingerprint: "old"}
	})
	_, err := acquire(path, lockInfo{PID: os.Getpid(), Fingerprint: "new", Queued: time.Now()}, time.Now().Add(300*time.Millisecond), time.Now)
	if err == nil {
		t.Fatal("acquire took a lock another process holds")
	}
	if !alive(cmd.Process.Pid) {
		t.Fatal("the holder was signalled")
	}
}
