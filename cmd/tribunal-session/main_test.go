package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/fakeclaude"
	"github.com/tribunal-cc/tribunal/internal/testcmds"
)

var update = flag.Bool("u", false, "update testscript golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"tribunal-session": func() {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			code := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr, stdTerminal)
			stop()
			os.Exit(code)
		},
		"claude": func() { os.Exit(fakeclaude.Main()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testcmds.Params("testdata", *update))
}
