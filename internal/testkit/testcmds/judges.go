package testcmds

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Commands for the detached Stop-hook judge, registered in Cmds:
//
//	judges-idle [DURATION]     wait (default 60s) until no detached judge is queued or running:
//	                           no job file left and every session lock free
//	judge-pid VAR              set VAR to the pid recorded in the single session lock
//	signal SIG PID             send SIG (TERM, INT, HUP, KILL) to PID
//	ppid VAR FILE              set VAR to the parent pid of the first pid listed in FILE (Linux /proc)
//	attempts                   print every session's judge records (stop-<sid>/*.json), one compact line each, oldest first
//	holdlock LOCK VAR          start a process that holds the flock of LOCK (created) until the script ends; VAR is its pid
//	strays FILE VAR            the pids listed in FILE are killed when the script ends; VAR is the first
//	running PID...             each PID names a running process (not a zombie)
func init() {
	Cmds["holdlock"] = holdLock
	Cmds["strays"] = straysCmd
	Cmds["running"] = runningCmd
	Cmds["attempts"] = attemptsCmd
	Cmds["ppid"] = ppidCmd
	Cmds["judges-idle"] = judgesIdle
	Cmds["judge-pid"] = judgePid
	Cmds["signal"] = signalCmd
}

func judgesIdle(ts *testscript.TestScript, neg bool, args []string) {
	limit := 60 * time.Second
	if len(args) > 0 {
		d, err := time.ParseDuration(args[0])
		ts.Check(err)
		limit = d
	}
	deadline := time.Now().Add(limit)
	for {
		busy := BusyJudge(ts.Getenv("ONLOOKER_DIR"))
		if (busy == "") != neg {
			return
		}
		if time.Now().After(deadline) {
			if neg {
				ts.Fatalf("no judge is running")
			}
			ts.Fatalf("a judge is still busy after %v: %s", limit, busy)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// BusyJudge names a detached Stop-hook judge still queued (its job file)
// or running (its held session lock) under the Onlooker directory, or "".
func BusyJudge(onlooker string) string {
	root := filepath.Join(onlooker, "tribunal")
	if jobs, _ := filepath.Glob(filepath.Join(root, "*", "judges", "*.job")); len(jobs) > 0 {
		return jobs[0]
	}
	locks, _ := filepath.Glob(filepath.Join(root, "*", "judges", "*.lock"))
	for _, l := range locks {
		if LockHeld(l) {
			return l
		}
	}
	return ""
}

// LockHeld reports whether someone holds the flock on path.
func LockHeld(path string) bool {
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return false
	}
	return errors.Is(err, syscall.EWOULDBLOCK)
}

func judgePid(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: judge-pid VAR")
	}
	locks, _ := filepath.Glob(filepath.Join(ts.Getenv("ONLOOKER_DIR"), "tribunal", "*", "judges", "*.lock"))
	if len(locks) != 1 {
		ts.Fatalf("want exactly one session lock, found %v", locks)
	}
	data, err := os.ReadFile(locks[0])
	ts.Check(err)
	s := string(data)
	i := strings.Index(s, `"pid":`)
	if i < 0 {
		ts.Fatalf("no pid in %s: %s", locks[0], s)
	}
	s = s[i+len(`"pid":`):]
	end := strings.IndexAny(s, ",}")
	pid, err := strconv.Atoi(strings.TrimSpace(s[:end]))
	ts.Check(err)
	ts.Setenv(args[0], strconv.Itoa(pid))
}

func signalCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: signal SIG PID")
	}
	sigs := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "INT": syscall.SIGINT, "HUP": syscall.SIGHUP, "KILL": syscall.SIGKILL}
	sig, ok := sigs[args[0]]
	if !ok {
		ts.Fatalf("signal: unknown signal %q", args[0])
	}
	pid, err := strconv.Atoi(args[1])
	ts.Check(err)
	ts.Check(syscall.Kill(pid, sig))
}

func attemptsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: attempts")
	}
	files, _ := filepath.Glob(filepath.Join(ts.Getenv("ONLOOKER_DIR"), "tribunal", "*", records.StopPrefix+"*", "*"+records.JSONExt))
	sort.Slice(files, func(i, j int) bool { return filepath.Base(files[i]) < filepath.Base(files[j]) })
	for _, f := range files {
		data, err := os.ReadFile(f)
		ts.Check(err)
		var buf bytes.Buffer
		ts.Check(json.Compact(&buf, data))
		fmt.Fprintln(ts.Stdout(), buf.String())
	}
}

func ppidCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: ppid VAR FILE")
	}
	fields := strings.Fields(ts.ReadFile(args[1]))
	if len(fields) == 0 {
		ts.Fatalf("ppid: no pid in %s", args[1])
	}
	stat, err := os.ReadFile("/proc/" + fields[0] + "/stat")
	ts.Check(err)
	// The fields after the command name, which is in parentheses and may
	// hold spaces: state, then the parent pid.
	rest := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	if len(rest) < 2 {
		ts.Fatalf("ppid: cannot parse /proc/%s/stat", fields[0])
	}
	ts.Setenv(args[0], rest[1])
}

func holdLock(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: holdlock LOCK VAR")
	}
	path := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(path), 0o700))
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	ts.Check(err)
	defer f.Close()
	ts.Check(syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
	// The sleeper shares the locked open file; this process lets go of
	// its own descriptor, so the lock is the sleeper's alone.
	cmd := exec.Command("sleep", "300")
	cmd.ExtraFiles = []*os.File{f}
	ts.Check(cmd.Start())
	ts.Defer(func() { cmd.Process.Kill(); cmd.Wait() })
	ts.Setenv(args[1], strconv.Itoa(cmd.Process.Pid))
}

func straysCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: strays FILE VAR")
	}
	pids := strings.Fields(ts.ReadFile(args[0]))
	if len(pids) == 0 {
		ts.Fatalf("strays: no pid in %s", args[0])
	}
	ts.Defer(func() {
		for _, p := range pids {
			if pid, err := strconv.Atoi(p); err == nil && pid > 1 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	ts.Setenv(args[1], pids[0])
}

func runningCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: running PID...")
	}
	for _, p := range args {
		pid, err := strconv.Atoi(p)
		ts.Check(err)
		if pid <= 1 || syscall.Kill(pid, 0) != nil || zombie(pid) {
			ts.Fatalf("process %d is not running", pid)
		}
	}
}
