package main

import (
	"flag"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeclaude"
	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
)

var update = flag.Bool("u", false, "update testscript golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"stop-gate": main,
		// Registered here so that no script can reach a real claude.
		"claude": func() { os.Exit(fakeclaude.Main()) },
	})
}

func TestScripts(t *testing.T) {
	testscript.Run(t, testcmds.Params("testdata", *update))
}
