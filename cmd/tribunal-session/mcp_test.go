package main

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestMCPWithoutTheServer: `mcp` starts tribunal-mcp from this binary's
// own directory only; where it is missing (here: a lone binary's
// directory) the command says where it looked and what to do, and exits
// 2 with nothing on stdout, the protocol's stream.
func TestMCPWithoutTheServer(t *testing.T) {
	// This binary alone in a directory: selfPath is where helpers are
	// looked for beside.
	dir := t.TempDir()
	useSelf(t, dir)
	self := selfPath()
	testkit.WriteFileMode(t, self, "#!/bin/sh\n", 0o755)
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"mcp"}, func(string) string { return "" }, strings.NewReader(""), &stdout, &stderr, func(io.Writer) (bool, int) { return false, 0 })
	want := "tribunal: error: mcp: tribunal-mcp is not installed in " + proc.HelperDir(self) + "\n" +
		"tribunal: hint: reinstall tribunal (make install) so that all its programs are in one directory\n"
	if code != exitUsage || stderr.String() != want || stdout.Len() != 0 {
		t.Errorf("mcp without tribunal-mcp: exit %d, stdout %q, stderr\n%s\nwant exit 2 and\n%s", code, stdout.String(), stderr.String(), want)
	}
}
