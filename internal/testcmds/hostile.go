package testcmds

import (
	"bytes"
	"os"
	"strconv"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// Hostile-input commands:
//
//	repeat FILE N TEXT   write TEXT repeated N times to FILE (N may end in k or M: ×1024, ×1024²)
//	mkfifo FILE          create a named pipe at FILE
func init() {
	Cmds["repeat"] = repeatCmd
	Cmds["mkfifo"] = mkfifoCmd
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
