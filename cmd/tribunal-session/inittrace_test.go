package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// initBudget is the most a tribunal package's init may allocate: a few
// error values and small tables (the largest, 2 KiB, are history's and
// heuristic's). Compiling a pattern, building a word set, parsing
// templates or a schema costs 4 to 15 KiB and more, so it waits for
// first use (sync.OnceValue).
const initBudget = 4 << 10

// TestStartDoesNoWork holds the start-up line: every command pays the
// init of every package linked, so the binary, run with
// GODEBUG=inittrace=1, must show no tribunal package allocating more
// than initBudget at init. It reads allocations, which are the same on
// every run, not times. A dependency's own init is held by what is
// linked: the heavy ones (the JSON Schema validator compiling its
// metaschemas, the OpenTelemetry and MCP SDKs) are in helper programs,
// and docs/design.md's never-rule on cmd/tribunal-session keeps them out.
func TestStartDoesNoWork(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "tribunal-session")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("--version: %v\n%s", err, stderr.String())
	}
	inits := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init PKG @T ms, C ms clock, B bytes, N allocs
		f := strings.Fields(sc.Text())
		if len(f) < 11 || f[0] != "init" {
			continue
		}
		inits++
		pkg := f[1]
		bytesAlloc, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("unreadable inittrace line %q", sc.Text())
		}
		switch {
		case strings.HasPrefix(pkg, "github.com/tribunal-cc/tribunal/") && bytesAlloc > initBudget:
			t.Errorf("%s allocates %d bytes at init (budget %d): build it on first use (sync.OnceValue)", pkg, bytesAlloc, initBudget)
		}
	}
	if inits == 0 {
		t.Fatalf("no inittrace lines on stderr:\n%s", stderr.String())
	}
}
