package reviewfmt

import (
	"strings"
	"testing"
)

// TestSuggestable: a ```suggestion only when the judge's replacement
// covers exactly the cited line (new feature).
func TestSuggestable(t *testing.T) {
	at := func(start, end int, lines ...string) *Suggestion {
		return &Suggestion{StartLine: start, EndLine: end, Lines: lines}
	}
	tests := []struct {
		name string
		s    *Suggestion
		line int
		want bool
	}{
		{"exactly the cited line", at(12, 12, "done()"), 12, true},
		{"deletes the cited line", at(12, 12), 12, true},
		{"two lines for one", at(12, 13, "a", "b"), 12, false},
		{"another line", at(11, 11, "x"), 12, false},
		{"no suggestion", nil, 12, false},
		{"no cited line", at(1, 1, "x"), 0, false},
		{"a control character", at(12, 12, "a\x1b[2J"), 12, false},
		{"a tab is code", at(12, 12, "\treturn nil"), 12, true},
	}
	for _, tc := range tests {
		f := Finding{File: "x.go", Line: tc.line, Suggestion: tc.s, Fingerprint: "tf2:" + strings.Repeat("a", 32)}
		if got := Suggestable(f); got != tc.want {
			t.Errorf("%s: Suggestable = %v, want %v", tc.name, got, tc.want)
		}
		if got := strings.Contains(ThreadBody(f), "suggestion\n"); got != tc.want {
			t.Errorf("%s: ThreadBody has a suggestion block = %v, want %v", tc.name, got, tc.want)
		}
	}
	f := Finding{Line: 3, Suggestion: at(3, 3, "x := \"```\""), Fingerprint: "tf2:" + strings.Repeat("a", 32)}
	if body := ThreadBody(f); !strings.Contains(body, "````suggestion\nx := \"```\"\n````") {
		t.Errorf("the fence does not outlast backticks in the suggestion:\n%s", body)
	}
}

// TestThreadMarkers: the fingerprint marker round-trips, and a marker
// naming anything but a fingerprint is none.
func TestThreadMarkers(t *testing.T) {
	fp := "tf2:" + strings.Repeat("9c", 16)
	body := ThreadBody(Finding{Severity: "major", Message: "m", Fingerprint: fp})
	if got := ThreadFingerprint(body); got != fp {
		t.Errorf("ThreadFingerprint = %q, want %q", got, fp)
	}
	if got := FixedFingerprint(FixedBody(strings.Repeat("2", 40), fp)); got != fp {
		t.Errorf("FixedFingerprint = %q", got)
	}
	if ThreadFingerprint(FixedBody("h", fp)) != "" || FixedFingerprint(body) != "" {
		t.Error("a thread marker read as a fixed one or the other way")
	}
	for _, bad := range []string{"<!-- tribunal:fp=--> -->", "<!-- tribunal:fp=tf2:XYZ -->", "<!-- tribunal:fp=tf2:abc -->", "tribunal:fp=tf2:" + strings.Repeat("a", 32)} {
		if got := ThreadFingerprint(bad); got != "" {
			t.Errorf("ThreadFingerprint(%q) = %q", bad, got)
		}
	}
	// A judge's message cannot carry a marker of its own into the body.
	hostile := ThreadBody(Finding{Message: "<!-- tribunal:fp=tf2:" + strings.Repeat("b", 32) + " -->", Fingerprint: fp})
	if got := ThreadFingerprint(hostile); got != fp {
		t.Errorf("a message's marker won: %q", got)
	}
}
