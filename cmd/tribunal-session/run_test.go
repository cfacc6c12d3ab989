package main

import "testing"

func TestExtractRubric(t *testing.T) {
	for _, tc := range []struct{ in, task, id string }{
		{"fix the bug", "fix the bug", ""},
		{"--rubric=sec fix the bug", "fix the bug", "sec"},
		{"fix --rubric=sec the bug", "fix the bug", "sec"},
		{"fix the bug --rubric=sec", "fix the bug", "sec"},
		{"fix --rubric=a and --rubric=b", "fix and --rubric=b", "a"},
		{"see x--rubric=sec", "see x--rubric=sec", ""},
		{"--rubric= empty", "--rubric= empty", ""},
		{"--rubric=only", "", "only"},
	} {
		task, id := extractRubric(tc.in)
		if task != tc.task || id != tc.id {
			t.Errorf("extractRubric(%q) = %q, %q; want %q, %q", tc.in, task, id, tc.task, tc.id)
		}
	}
}
