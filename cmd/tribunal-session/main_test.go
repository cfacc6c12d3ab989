package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/hook/stophook"
	"github.com/tribunal-cc/tribunal/internal/hook/surface"
	"github.com/tribunal-cc/tribunal/internal/judging/schemaengine"
	"github.com/tribunal-cc/tribunal/internal/mcpserver"
	"github.com/tribunal-cc/tribunal/internal/present/otelexport/otelcli"
	"github.com/tribunal-cc/tribunal/internal/proc"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakeclaude"
	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
	"github.com/tribunal-cc/tribunal/internal/version"
)

var update = flag.Bool("u", false, "update testscript golden files")

func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) != "tribunal-session" {
		// The tests that call run in process find the helper programs
		// beside testscript's link of this binary, as the real binary
		// finds them beside itself (set before any test runs).
		selfPath = func() string { p, _ := exec.LookPath("tribunal-session"); return p }
	}
	testscript.Main(m, map[string]func(){
		"tribunal-session": func() {
			os.Exit(runWithSignals(os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr))
		},
		// export's helper (the OpenTelemetry SDK), found beside
		// tribunal-session in testscript's directory of links.
		"tribunal-otel": func() {
			os.Exit(otelcli.Main(context.Background(), os.Args[1:], otelcli.Deps{Getenv: os.Getenv, Environ: os.Environ(),
				Home: os.Getenv("HOME"), Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now}))
		},
		"claude": func() { os.Exit(fakeclaude.Main()) },
		// The JSON Schema helper, found beside tribunal-session in the
		// one bin directory, as installed.
		"tribunal-schema": func() { os.Exit(schemaengine.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
		// The Go SDK's client driving `tribunal-session mcp` (mcpclient_test.go).
		"mcp-client": func() { os.Exit(mcpClient(os.Args[1:])) },
		// The MCP server, beside tribunal-session as installed: `mcp` runs
		// it, and it runs each tool as a child tribunal-session. As
		// cmd/tribunal-mcp's main.
		"tribunal-mcp": func() {
			ctx, stop := signal.NotifyContext(context.Background(), terminationSignals...)
			code := mcpserver.Main(ctx, mcpserver.Program{Args: os.Args[1:], Version: version.Version, Self: proc.Self(),
				Getenv: os.Getenv, Environ: os.Environ(), Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
			stop()
			os.Exit(code)
		},
		// The real UserPromptSubmit hook, for the daily budget's notice.
		"prompt-submit": func() {
			warnf, warn := testcmds.HookLines(os.Stderr)
			os.Exit(surface.RunPrompt(context.Background(), surface.Deps{Getenv: os.Getenv, Stdin: os.Stdin, Stdout: os.Stdout,
				Home: os.Getenv("HOME"), Warnf: warnf, Warn: warn}))
		},
		// The real Stop hook, for the scripts about advisory history.
		"stop-gate": func() {
			warnf, warn := testcmds.HookLines(os.Stderr)
			// The sibling tribunal-session makes the openai calls, as
			// beside the real binary.
			sessionBin, _ := exec.LookPath("tribunal-session")
			os.Exit(stophook.Run(context.Background(), stophook.Deps{
				Warnf: warnf, JudgeWarnf: warnf, Errorf: warnf, Warn: warn,
				Getenv: os.Getenv, Environ: os.Environ(), Stdin: os.Stdin, Stderr: os.Stderr,
				Home: os.Getenv("HOME"), Args: os.Args[1:], SelfName: "stop-gate", SessionBin: sessionBin,
			}))
		},
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testcmds.Params("testdata", *update))
}
