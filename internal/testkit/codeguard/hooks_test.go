package codeguard

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// hookLinks is, for each hook binary, every internal package it may link.
// Hooks start on every turn of every session: a package outside its list
// (a model client, the process runner, the loop) costs start-up time on a
// path that only reads settings and verdicts. The list is exact, so that
// it shrinks when the code does: a package no longer linked must leave it.
var hookLinks = map[string][]string{
	"session-start": {"config", "store/events", "hook/hookio", "nesting", "output", "proc/childenv", "git/projectkey", "store/records",
		"redact", "rubric", "rules", "safetext", "git/secretfiles", "severity", "store", "hook/surface", "trust",
		"verdict", "warncap"},
	"prompt-submit": {"config", "store/events", "hook/hookio", "nesting", "output", "proc/childenv", "git/projectkey", "store/records",
		"redact", "rubric", "rules", "safetext", "git/secretfiles", "severity", "store", "hook/surface", "trust",
		"verdict", "warncap"},
	// judging/stopjudge is the advisory judge's call and verdict check,
	// split out of stophook (moved, not new code) so that calibrate --stop
	// asks the same judge without linking the hook. stop-gate's judge
	// (stop-gate judge JOB) tells the model what people dismissed:
	// internal/dismiss, read only when a judge runs. gitindex is the index
	// reader gitstate.ProvenClean uses (moved out of gitstate, not new
	// code, so that worktree reads the same format).
	"stop-gate": {"llm/claude", "config", "dismiss", "store/events", "judging/gate", "git/gitindex", "git/gitstate", "hook/hookio", "jcs", "judging/stopjudge", "store/ledger",
		"nesting", "output", "proc", "proc/childenv", "proc/procid", "git/projectkey", "llm/prompts", "llm/provider", "store/records", "redact",
		"rubric", "rules", "safetext", "llm/secretenv", "git/secretfiles", "severity", "hook/stophook", "store", "hook/transcript",
		"trust", "git/unidiff", "verdict", "warncap"},
}

// TestHookBinariesLinkOnlyTheirPath holds each hook binary to its list.
func TestHookBinariesLinkOnlyTheirPath(t *testing.T) {
	const prefix = "github.com/tribunal-cc/tribunal/internal/"
	for bin, allowed := range hookLinks {
		t.Run(bin, func(t *testing.T) {
			cmd := exec.Command("go", "list", "-deps", "./cmd/"+bin)
			cmd.Dir = filepath.Join("..", "..", "..")
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("go list -deps ./cmd/%s: %v", bin, err)
			}
			var linked []string
			for _, pkg := range strings.Fields(string(out)) {
				if name, ok := strings.CutPrefix(pkg, prefix); ok {
					linked = append(linked, name)
					if !slices.Contains(allowed, name) {
						t.Errorf("%s links internal/%s, which is not on its path (hookLinks)", bin, name)
					}
				}
			}
			for _, name := range allowed {
				if !slices.Contains(linked, name) {
					t.Errorf("%s no longer links internal/%s: remove it from hookLinks", bin, name)
				}
			}
		})
	}
}
