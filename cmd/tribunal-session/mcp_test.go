package main

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestMCPServerNotLinked: the MCP server is the program tribunal-mcp, so
// that no other command pays the init of its SDK and JSON Schema library;
// tribunal-session only starts it (`mcp`).
func TestMCPServerNotLinked(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list; skipped with -short")
	}
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/modelcontextprotocol/go-sdk") || strings.HasPrefix(pkg, "github.com/google/jsonschema-go") ||
			pkg == "github.com/tribunal-cc/tribunal/internal/mcpserver" {
			t.Errorf("tribunal-session links %s", pkg)
		}
	}
}

// TestMCPWithoutTheServer: `mcp` starts tribunal-mcp from this binary's
// own directory only; where it is missing (here: the test binary's
// directory) the command says where it looked and what to do, and exits
// 2 with nothing on stdout, the protocol's stream.
func TestMCPWithoutTheServer(t *testing.T) {
	// This binary alone in a directory: selfPath is where helpers are
	// looked for beside.
	self := filepath.Join(t.TempDir(), "tribunal-session")
	testkit.WriteFileMode(t, self, "#!/bin/sh\n", 0o755)
	saved := selfPath
	selfPath = func() string { return self }
	t.Cleanup(func() { selfPath = saved })
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"mcp"}, func(string) string { return "" }, strings.NewReader(""), &stdout, &stderr, func(io.Writer) (bool, int) { return false, 0 })
	want := "tribunal: error: mcp: tribunal-mcp is not installed in " + proc.HelperDir(self) + "\n" +
		"tribunal: hint: reinstall tribunal (make install) so that all its programs are in one directory\n"
	if code != exitUsage || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("mcp without tribunal-mcp: exit %d, stdout %q, stderr\n%s\nwant exit 2 and\n%s", code, stdout.String(), stderr.String(), want)
	}
}
