package stophook

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc/procid"
)

// unrelated starts a process that has nothing to do with any lock: the
// process a recycled pid now names.
func unrelated(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// reaped returns the pid of a process that has exited and been waited for.
func reaped(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	return cmd.Process.Pid
}

// A lock kept by a process that is not the judge its info names — the
// judge is gone, its pid free or recycled — is taken over at once, even
// with no time left to wait, and nothing is signalled: neither the process
// keeping the lock (a descendant of the dead judge) nor the one that now
// has the judge's pid.
func TestAcquireTakesOverAnAbandonedLock(t *testing.T) {
	now := time.Now()
	me := lockInfo{PID: os.Getpid(), PIDStart: procid.Self().Start, Fingerprint: "new", Queued: now, Deadline: now.Add(time.Minute)}
	other := unrelated(t)
	otherID := procid.Of(other.Process.Pid)
	if otherID.Start == 0 {
		t.Skip("no process start times on this platform")
	}
	recycled := procid.ID{PID: otherID.PID, Start: otherID.Start + 1}
	for _, tc := range []struct {
		name string
		dead procid.ID
		// older makes the dead judge's state an older one, which a live
		// judge would be signalled for; otherwise it is this very state,
		// which a live judge would be left to finish.
		older bool
	}{
		{"pid recycled by a live process, older state", recycled, true},
		{"pid recycled by a live process, same state", recycled, false},
		{"pid reaped", procid.ID{PID: reaped(t), Start: 1}, true},
		{"pid no process can have", procid.ID{PID: 999999999, Start: 1}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "judges", "s.lock")
			keeper := holder(t, path, func(procid.ID) lockInfo {
				i := lockInfo{PID: tc.dead.PID, PIDStart: tc.dead.Start, Fingerprint: "new",
					Queued: now.Add(-time.Second), Deadline: now.Add(time.Hour)}
				if tc.older {
					i.Fingerprint = "old"
				}
				return i
			})
			f, err := acquire(path, me, time.Now(), time.Now)
			if err != nil {
				t.Errorf("acquire = %v, want the abandoned lock taken over", err)
			} else {
				defer f.Close()
				if info, ok := readInfo(f); !ok || info.holder() != me.holder() || !names(path, f) {
					t.Errorf("after the takeover the lock at the path says %+v (%v)", info, ok)
				}
			}
			if procid.Check(procid.Of(keeper.Process.Pid)) != procid.Alive {
				t.Error("the process keeping the old lock was signalled")
			}
			if procid.Check(otherID) != procid.Alive {
				t.Error("the process that has the recycled pid was signalled")
			}
		})
	}
}

// A holder whose info has no start time (a lock written by an older
// tribunal) cannot be proven to be the process with that pid now: it is
// waited for, never signalled, however old the state it judges.
func TestAcquireNeverSignalsAnUnprovenHolder(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.lock")
	now := time.Now()
	keeper := holder(t, path, func(p procid.ID) lockInfo {
		return lockInfo{PID: p.PID, Fingerprint: "old", Queued: now.Add(-time.Hour), Deadline: now.Add(-time.Hour)}
	})
	_, err := acquire(path, lockInfo{PID: os.Getpid(), Fingerprint: "new", Queued: now}, now.Add(300*time.Millisecond), time.Now)
	if err == nil {
		t.Fatal("acquire took a lock a live process holds")
	}
	if procid.Check(procid.Of(keeper.Process.Pid)) != procid.Alive {
		t.Fatal("the unproven holder was signalled")
	}
}

// A process that took the flock of a lock file just as a takeover removed
// it does not hold the session lock: its claim finds the path naming
// another file.
func TestClaimRefusesAReplacedFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "judges", "s.lock")
	old, err := openLock(path)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := flockNB(old); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	fresh, held, err := tryLock(path, lockInfo{PID: 1}, time.Now().Add(time.Minute), time.Now)
	if err != nil || held != nil {
		t.Fatalf("tryLock of the fresh file: held %v, %v", held != nil, err)
	}
	defer fresh.Close()
	me := lockInfo{PID: os.Getpid()}
	if ok, err := claim(old, path, me, time.Now().Add(time.Minute), time.Now); ok || err != nil {
		t.Fatalf("claim of the replaced file = %v, %v; want false, nil", ok, err)
	}
	if info, ok := readInfo(fresh); !ok || info.PID != 1 {
		t.Fatalf("the fresh lock's info was overwritten: %+v", info)
	}
}
