package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakeapi"
)

// TestRecursionGuardControl is the control experiment for the "no nested
// session ran hooks" assertions elsewhere: with a claude on PATH that drops
// the --settings '{"disableAllHooks":true}' guard, the nested children
// tribunal starts do run hooks, the probe sees them, and they carry the
// second guard, TRIBUNAL_NESTED=1. Without this, a probe that could never
// see a nested session would make those assertions pass vacuously.
func TestRecursionGuardControl(t *testing.T) {
	t.Parallel()
	t.Run("stop hook judge", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, stopEnabled)
		w.withPluginEverywhere()
		w.dropSettingsGuard()
		scriptUser(w.api)
		judge := w.api.Add(fakeapi.Rule{Name: "stop judge", Match: isStopJudge, Replies: []fakeapi.Reply{fakeapi.Structured(advisoryVerdict)}})
		sid, _, _ := w.editTurn()
		calls := w.api.ByRule(judge)
		if len(calls) != 1 {
			t.Fatalf("want one judge call, got %d", len(calls))
		}
		nestedRanHooks(t, w, sid, calls[0].SessionID())
	})
	t.Run("tribunal children", func(t *testing.T) {
		t.Parallel()
		w := newWorld(t, `{"tribunal":{"session":{"max_iterations":1}}}`)
		w.withPluginEverywhere()
		w.dropSettingsGuard()
		scriptTribunalUser(t, w.api)
		roles := scriptRoles(w.api, func() {}, "", judgeVerdict(0.9, true, "Fine."))
		res := w.claudeRun(3*time.Minute, "", streamArgs("/tribunal "+tribunalTask)...)
		if res.Code != 0 {
			t.Fatalf("claude exited %d\n%s", res.Code, res.Stderr)
		}
		sid := str(parseStream(t, res.Stdout).result(t)["session_id"])
		var nested []string
		for _, rule := range roles {
			for _, c := range w.api.ByRule(rule) {
				// The actor's session makes two requests (its Bash call
				// and its report); count sessions, not requests.
				if !slices.Contains(nested, c.SessionID()) {
					nested = append(nested, c.SessionID())
				}
			}
		}
		if len(nested) != 4 {
			t.Fatalf("want 4 nested calls (actor, 2 judges, meta), got %d\n%s", len(nested), w.api.Summary())
		}
		nestedRanHooks(t, w, sid, nested...)
	})
}

// dropSettingsGuard puts a claude first on PATH that removes every
// --settings argument before running the real CLI, as a tribunal that
// forgot that guard would.
func (w *world) dropSettingsGuard() {
	w.t.Helper()
	script := `#!/bin/sh
# Drops --settings <value> from the arguments, then runs the real claude.
n=$#
i=0
skip=
while [ "$i" -lt "$n" ]; do
	a=$1
	shift
	i=$((i + 1))
	if [ -n "$skip" ]; then skip=; continue; fi
	if [ "$a" = --settings ]; then skip=1; continue; fi
	set -- "$@" "$a"
done
exec '` + w.claude + `' "$@"
`
	path := filepath.Join(w.pathDir, "claude")
	if err := os.Remove(path); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		w.t.Fatal(err)
	}
}

// nestedRanHooks checks that every nested session ran its hooks with
// TRIBUNAL_NESTED=1 and the user's session without it.
func nestedRanHooks(t *testing.T, w *world, user string, nested ...string) {
	t.Helper()
	runs := w.probeRuns()
	byID := map[string][]probeRun{}
	for _, r := range runs {
		byID[r.Session] = append(byID[r.Session], r)
	}
	for _, r := range byID[user] {
		if r.Nested != "" {
			t.Errorf("the user's own session ran hooks with TRIBUNAL_NESTED=%q", r.Nested)
		}
	}
	if len(byID[user]) == 0 {
		t.Errorf("the user's session ran no hooks; probe log %v", runs)
	}
	for _, id := range nested {
		got := byID[id]
		if len(got) == 0 {
			t.Errorf("nested session %s ran no hooks even without --settings; probe log %v", id, runs)
			continue
		}
		for _, r := range got {
			if r.Nested != "1" {
				t.Errorf("nested session %s ran its %s hook without TRIBUNAL_NESTED=1 (got %q)", id, r.Event, r.Nested)
			}
		}
	}
	if t.Failed() {
		t.Logf("probe log:\n%s", strings.Join(func() []string {
			var l []string
			for _, r := range runs {
				l = append(l, r.Event+" "+r.Session+" nested="+r.Nested)
			}
			return l
		}(), "\n"))
	}
}
