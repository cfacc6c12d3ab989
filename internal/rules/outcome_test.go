package rules

import "testing"

func TestOutcomeWordsAndGlyphs(t *testing.T) {
	for _, tc := range []struct{ outcome, words, glyph string }{
		{OutcomeAccepted, "accepted", "✓"},
		{OutcomeExhausted, "not accepted", "✗"},
		{OutcomeAborted, "aborted", "⚠"},
		{OutcomeRejected, "rejected", "✗"},
		{OutcomeFailed, "failed", "⚠"},
		{OutcomeCancelled, "cancelled", "–"},
		{OutcomeIncomplete, "incomplete", "…"},
		{"something new", "something new", "⚠"},
	} {
		if got := OutcomeWords(tc.outcome); got != tc.words {
			t.Errorf("OutcomeWords(%q) = %q, want %q", tc.outcome, got, tc.words)
		}
		if got := Glyph(tc.outcome); got != tc.glyph {
			t.Errorf("Glyph(%q) = %q, want %q", tc.outcome, got, tc.glyph)
		}
	}
}
