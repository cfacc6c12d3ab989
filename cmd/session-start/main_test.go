package main

import (
	"context"
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/hook/stophook"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakeclaude"
	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
)

var update = flag.Bool("u", false, "update testscript golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"session-start": func() {
			os.Exit(run(context.Background(), os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
		},
		// The real Stop hook writes the stop files these scripts surface,
		// so the fixtures are exactly what production writes.
		"stop-gate": func() {
			home, _ := os.UserHomeDir()
			warnf, warn := testcmds.HookLines(os.Stderr)
			os.Exit(stophook.Run(context.Background(), stophook.Deps{
				Warnf: warnf, JudgeWarnf: warnf, Errorf: warnf, Warn: warn,
				Getenv: os.Getenv, Environ: os.Environ(), Stdin: os.Stdin, Stderr: os.Stderr, Home: home,
				Args: os.Args[1:], SelfName: "stop-gate",
			}))
		},
		// Registered here so that no script can reach a real claude.
		"claude": func() { os.Exit(fakeclaude.Main()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testcmds.Params("testdata", *update))
}
