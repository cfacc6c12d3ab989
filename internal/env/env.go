// Package env is the one environment the cmd layer hands to
// tribunal-session's packages: variables, home, clock, entropy, child
// environment, model and git runners, and the diagnostics sinks.
//
// internal/ never reads the process environment: cmd/tribunal-session
// fills an Env from os.Getenv, os.Environ and the terminal, and session,
// judging, calibrate and rejudge take it (embedded in their Deps where
// they need more). The hook binaries keep their own small Deps, so that
// they link nothing beyond their paths (internal/testkit/codeguard's hookLinks).
package env

import (
	"crypto/rand"
	"io"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/redact"
)

// Env is what a command touches outside memory.
type Env struct {
	Getenv func(string) string
	Home   string
	// Environ is the base environment of children: model CLIs and command
	// judges (their PATH comes from here, never from the repository).
	Environ []string
	// TempDir holds working directories a command makes ("" → the
	// system's).
	TempDir string
	Now     func() time.Time
	Rand    io.Reader
	// Claude runs claude children; Git runs git.
	Claude claude.Runner
	Git    projectkey.GitRunner
	// Progress receives one line per step, for a person watching; Warn
	// each warning of the run and of the settings it loads; Note a line
	// that is neither (a leftover cleaned up); Relay the warnings of the
	// decision packages (aggregate, verdict, severity, jury, gate), which
	// name their source themselves ("tribunal-gate: …"). All get plain
	// text: the binary adds the prefixes and prints them.
	Progress func(string)
	Warn     func(string)
	Note     func(string)
	Relay    func(string)
	// Heartbeat is how often a long phase (the actor, the jury, the
	// meta-judge) says it is still going: 0 means every 30 seconds, a
	// negative value never.
	Heartbeat time.Duration
	// Sandbox says whether Claude Code's Bash sandbox can run for a judge
	// (docs/security.md §2.4); nil checks this machine.
	Sandbox func() claude.SandboxSupport
	// Redact scrubs the configured credentials from everything stored or
	// printed; nil means it is built from the loaded settings.
	Redact *redact.Redactor
	// Schemas compiles and validates the JSON Schemas of json_schema
	// evaluators: the tribunal-schema helper beside the running binary
	// (schemaproto.Helper). nil refuses a rubric that has one, as a
	// missing helper does.
	Schemas schemaproto.Validator
}

// WithDefaults fills what a caller left unset: the real clock and
// entropy, an empty environment, and sinks that discard.
func (e Env) WithDefaults() Env {
	if e.Getenv == nil {
		e.Getenv = func(string) string { return "" }
	}
	if e.Now == nil {
		e.Now = time.Now
	}
	if e.Rand == nil {
		e.Rand = rand.Reader
	}
	for _, f := range []*func(string){&e.Progress, &e.Warn, &e.Note, &e.Relay} {
		if *f == nil {
			*f = func(string) {}
		}
	}
	return e
}
