package stophook

import (
	"strings"
	"testing"
)

func TestRefuse(t *testing.T) {
	st := fixState{Rounds: map[string]int{"a": 1, "b": 2}, Critiques: []string{"c1"}}
	tests := []struct {
		name      string
		fp, crit  string
		maxRounds int
		want      string // a substring of the reason; "" = allowed
	}{
		{"new state, new critique", "z", "c2", 1, ""},
		{"state at its limit", "a", "c2", 1, "already handed back 1 time(s)"},
		{"state below a higher limit", "a", "c2", 2, ""},
		{"state at a higher limit", "b", "c2", 2, "already handed back 2 time(s)"},
		{"same critique, new state", "z", "c1", 3, "same critique"},
	}
	for _, tt := range tests {
		got := st.refuse(tt.fp, tt.crit, tt.maxRounds)
		if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
			t.Errorf("%s: refuse = %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestCritiqueTextIsOneSafeLine(t *testing.T) {
	got := critiqueText(advisory{Score: 0.3, Feedback: "line one\nline two \x1b]52;c;Zm9v\x07 end"}, 0.75)
	if strings.ContainsAny(got, "\n\x1b\x07") {
		t.Errorf("critique %q is not one plain line", got)
	}
	if !strings.Contains(got, "0.30, below the bar of 0.75") || !strings.Contains(got, "line one line two") {
		t.Errorf("critique %q", got)
	}
	if got := critiqueText(advisory{Score: 0.1}, 0.75); !strings.Contains(got, "(the judge gave no details)") {
		t.Errorf("empty feedback: %q", got)
	}
}
