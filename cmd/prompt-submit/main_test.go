package main

import (
	"context"
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/fakeclaude"
	"github.com/tribunal-cc/tribunal/internal/stophook"
	"github.com/tribunal-cc/tribunal/internal/surface"
	"github.com/tribunal-cc/tribunal/internal/testcmds"
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
