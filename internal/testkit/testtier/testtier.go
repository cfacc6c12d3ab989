// Package testtier is test support: it keeps the slow test tiers (the real
// CLIs, the browser, the calibration sets, the stress runs) out of
// the default `go test ./...` and gives every skip one line that says what
// was skipped and how to run it.
//
// A tier runs when $TRIBUNAL_TIERS names it (a comma-separated list, or
// "all"); the Makefile's test-<tier> targets set it. A tier that runs but
// lacks a prerequisite (no claude, no chromium) skips outside CI and fails
// when $CI is set, so a green CI run has run everything.
package testtier

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// Tier is one slow tier of the suite.
type Tier struct {
	Name   string // as $TRIBUNAL_TIERS spells it
	What   string // what its tests exercise, for the skip line
	Target string // the make target that runs it
}

// The tiers. `make check` (what CI runs) selects them all.
var (
	E2E         = Tier{"e2e", "end-to-end tests against the real Claude Code, Codex and Gemini CLIs and the SARIF validator", "make test-e2e"}
	Browser     = Tier{"browser", "report page tests in headless Chromium", "make test-browser"}
	Calibration = Tier{"calibration", "the calibration sets' labels (starter, QuixBugs) re-derived by running each program's tests", "make test-calibration"}
	Stress      = Tier{"stress", "stress runs of many concurrent and randomly killed hook and session processes", "make test-stress"}
	OTel        = Tier{"otel", "OpenTelemetry export to a real Jaeger (OTLP/HTTP in, its query API read back)", "make test-otel"}
	Bench       = Tier{"bench", "the benchmark scripts of make bench, run once on small inputs", "make test-bench"}
)

// All lists every tier, in the order `make check` runs them.
var All = []Tier{E2E, Browser, Calibration, Stress, OTel, Bench}

// Env is the variable that selects tiers; CIEnv, when non-empty, turns a
// missing prerequisite into a failure.
const (
	Env   = "TRIBUNAL_TIERS"
	CIEnv = "CI"
)

// SkipPrefix starts every skip line this package writes; `make test`
// collects the lines that start with it and prints each once.
const SkipPrefix = "skipped: "

// NotePrefix starts a line a test logs for `make test` to show once: a
// fact about what ran, such as a CLI that is not the pinned version.
const NotePrefix = "note: "

// Selected reports whether list (the value of $TRIBUNAL_TIERS) selects
// tier: by its name or by "all".
func Selected(list, tier string) bool {
	for _, f := range strings.Split(list, ",") {
		f = strings.TrimSpace(f)
		if f == tier || f == "all" {
			return true
		}
	}
	return false
}

// Require skips t unless $TRIBUNAL_TIERS selects tier. It is the first
// call of every test of a slow tier.
func Require(t testing.TB, tier Tier) {
	t.Helper()
	if !Selected(os.Getenv(Env), tier.Name) {
		t.Skip(NotSelected(tier))
	}
}

// NotSelected is the skip line of a tier that was not asked for.
func NotSelected(tier Tier) string {
	return fmt.Sprintf("%s%s (run: %s)", SkipPrefix, tier.What, tier.Target)
}

// Missing is what a test of tier does when a prerequisite is absent:
// what names it, hint says how to install it. Outside CI the test skips
// with one line; under CI it fails.
func Missing(t testing.TB, tier Tier, what, hint string) {
	t.Helper()
	msg := MissingLine(tier, what, hint)
	if os.Getenv(CIEnv) != "" {
		t.Fatal(strings.TrimPrefix(msg, SkipPrefix) + " ($" + CIEnv + " is set: a missing prerequisite fails the suite)")
		return
	}
	t.Skip(msg)
}

// MissingLine is the skip line of a selected tier whose prerequisite is
// absent.
func MissingLine(tier Tier, what, hint string) string {
	return fmt.Sprintf("%s%s: %s not found (%s)", SkipPrefix, tier.What, what, hint)
}
