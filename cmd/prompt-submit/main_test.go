package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/hook/stophook"
	"github.com/tribunal-cc/tribunal/internal/hook/surface"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakeclaude"
	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
)

var update = flag.Bool("u", false, "update testscript golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"prompt-submit": func() {
			os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
		},
		// The real Stop hook and SessionStart hook around it: what the
		// prompt shows is what the judge wrote, and what it showed the
		// next session does not show again.
		"stop-gate": func() {
			warnf, warn := testcmds.HookLines(os.Stderr)
			os.Exit(stophook.Run(context.Background(), stophook.Deps{
				Warnf: warnf, JudgeWarnf: warnf, Errorf: warnf, Warn: warn,
				Getenv: os.Getenv, Environ: os.Environ(), Stdin: os.Stdin, Stderr: os.Stderr,
				Home: os.Getenv("HOME"), Args: os.Args[1:], SelfName: "stop-gate",
			}))
		},
		"session-start": func() {
			warnf, warn := testcmds.HookLines(os.Stderr)
			os.Exit(surface.Run(context.Background(), surface.Deps{
				Warnf: warnf, Warn: warn,
				Getenv: os.Getenv, Environ: os.Environ(), Stdin: os.Stdin, Stdout: os.Stdout,
				Home: os.Getenv("HOME"),
			}))
		},
		// Registered here so that no script can reach a real claude.
		"claude": func() { os.Exit(fakeclaude.Main()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testcmds.Params("testdata", *update))
}

// TestRunWiresDiagnostics: run gives the hook both of its stderr lines,
// named for this binary: a problem of the hook (a pending verdict that is
// not JSON) and a warning about a file it read (one that is not a file).
func TestRunWiresDiagnostics(t *testing.T) {
	dir := t.TempDir()
	env := map[string]string{"HOME": dir, "ONLOOKER_DIR": dir}
	getenv := func(k string) string { return env[k] }
	pending := records.PendingPath(dir, "s1")
	for _, tt := range []struct {
		name  string
		plant func() error
		want  string
	}{
		{"not JSON", func() error { return os.WriteFile(pending, []byte("{"), 0o600) },
			"tribunal: prompt-submit: ignoring the pending verdict "},
		{"not a file", func() error { return os.Mkdir(pending, 0o700) },
			"tribunal: warning: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.MkdirAll(filepath.Dir(pending), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := tt.plant(); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), nil, getenv, strings.NewReader(`{"session_id":"s1"}`), &stdout, &stderr)
			if code != 0 || stdout.Len() != 0 || !strings.HasPrefix(stderr.String(), tt.want) || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want 0, nothing, one line starting %q", code, stdout.String(), stderr.String(), tt.want)
			}
		})
	}
}
