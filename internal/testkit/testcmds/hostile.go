package testcmds

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Hostile-input commands:
//
//	repeat FILE N TEXT   write TEXT repeated N times to FILE (N may end in k or M: ×1024, ×1024²)
//	mkfifo FILE          create a named pipe at FILE
//	fiforeader FILE [VAR]  wait (30s) until a process has FILE open for reading, then hold
//	                       it open for writing until the script ends, so the reader
//	                       stays blocked in read(2) instead of seeing end of file; VAR
//	                       is set to the reader's pid (Linux: found through /proc)
func init() {
	Cmds["repeat"] = repeatCmd
	Cmds["mkfifo"] = mkfifoCmd
	Cmds["fiforeader"] = fifoReaderCmd
}

func repeatCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: repeat FILE N TEXT")
	}
	n, unit := args[1], 1
	switch {
	case len(n) > 0 && n[len(n)-1] == 'k':
		n, unit = n[:len(n)-1], 1<<10
	case len(n) > 0 && n[len(n)-1] == 'M':
		n, unit = n[:len(n)-1], 1<<20
	}
	count, err := strconv.Atoi(n)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), bytes.Repeat([]byte(args[2]), count*unit), 0o644))
}

func mkfifoCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo FILE")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
}

func fifoReaderCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: fiforeader FILE [VAR]")
	}
	path := ts.MkAbs(args[0])
	deadline := time.Now().Add(30 * time.Second)
	for {
		// A non-blocking open for writing fails with ENXIO exactly while
		// nobody has the FIFO open for reading.
		fd, err := syscall.Open(path, syscall.O_WRONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == nil {
			ts.Defer(func() { syscall.Close(fd) })
			if len(args) == 2 {
				ts.Setenv(args[1], strconv.Itoa(fifoReader(ts, path)))
			}
			return
		}
		if err != syscall.ENXIO {
			ts.Fatalf("fiforeader: open %s: %v", path, err)
		}
		if time.Now().After(deadline) {
			ts.Fatalf("fiforeader: nobody opened %s for reading within 30s", path)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// fifoReader is the pid of the process, other than this one, with path
// open.
func fifoReader(ts *testscript.TestScript, path string) int {
	fds, _ := filepath.Glob("/proc/[0-9]*/fd/*")
	for _, fd := range fds {
		if target, err := os.Readlink(fd); err != nil || target != path {
			continue
		}
		pid, _ := strconv.Atoi(strings.Split(fd, "/")[2])
		if pid != os.Getpid() {
			return pid
		}
	}
	ts.Fatalf("fiforeader: no process has %s open (is /proc mounted?)", path)
	return 0
}
