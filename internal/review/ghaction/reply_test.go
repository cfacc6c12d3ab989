package ghaction

import (
	"strings"
	"testing"
)

// TestCanDismiss is the permission rule: write or higher, as the API says
// (new feature).
func TestCanDismiss(t *testing.T) {
	for perm, want := range map[string]bool{
		"admin": true, "maintain": true, "write": true, "Write": true,
		"triage": false, "read": false, "none": false, "": false, "owner": false,
	} {
		if got := CanDismiss(perm); got != want {
			t.Errorf("CanDismiss(%q) = %v, want %v", perm, got, want)
		}
	}
}

func TestParseCommand(t *testing.T) {
	tests := []struct {
		body, verb, rest string
		ok               bool
	}{
		{"/tribunal dismiss the caller bounds it", "dismiss", "the caller bounds it", true},
		{"  /tribunal wrong  not a bug\r\nsee #12", "wrong", "not a bug\nsee #12", true},
		{"/tribunal dismiss", "dismiss", "", true},
		{"/tribunal dismissal nope", "", "", false},
		{"please /tribunal dismiss x", "", "", false},
		{"/tribunal approve x", "", "", false},
		{"LGTM", "", "", false},
	}
	for _, tc := range tests {
		verb, rest, ok := ParseCommand(tc.body)
		if verb != tc.verb || rest != tc.rest || ok != tc.ok {
			t.Errorf("ParseCommand(%q) = %q, %q, %v; want %q, %q, %v", tc.body, verb, rest, ok, tc.verb, tc.rest, tc.ok)
		}
	}
}

// TestDismissalMarker: a record survives its round trip, a reason cannot
// close the hidden comment, and a malformed record is none.
func TestDismissalMarker(t *testing.T) {
	d := Dismissal{Fingerprint: "tf2:" + strings.Repeat("0f", 16), By: "alice", Reason: "ends here --> <b>x</b>", At: "2026-12-03T10:00:00Z", File: "x.go", Line: 2}
	body := DismissalBody(d)
	if strings.Count(body, "-->") != 1 {
		t.Fatalf("the reason closed the marker early:\n%s", body)
	}
	got, ok := ParseDismissal(body)
	if !ok || got != d {
		t.Errorf("ParseDismissal = %+v, %v; want %+v", got, ok, d)
	}
	for _, bad := range []string{
		"no marker",
		`<!-- tribunal:dismissed {"fp":"sha:x","by":"a","reason":"r"} -->`,
		`<!-- tribunal:dismissed {"fp":"tf2:0123456789abcdef","reason":"r"} -->`,
		`<!-- tribunal:dismissed {"fp": -->`,
	} {
		if _, ok := ParseDismissal(bad); ok {
			t.Errorf("ParseDismissal(%q) accepted it", bad)
		}
	}
}

func TestReadCommentEvent(t *testing.T) {
	if _, err := ReadCommentEvent([]byte(`{"action":"created","issue":{"number":3},"comment":{"id":1,"body":"x","user":{"login":"a"}}}`)); err != ErrNotPRComment {
		t.Errorf("a plain issue's comment: err = %v, want ErrNotPRComment", err)
	}
	ev, err := ReadCommentEvent([]byte(`{"action":"created","issue":{"number":3,"pull_request":{"url":"u"}},"comment":{"id":1,"body":"x","user":{"login":"a"}}}`))
	if err != nil || ev.Number != 3 || ev.Review {
		t.Errorf("issue_comment on a PR = %+v, %v", ev, err)
	}
	ev, err = ReadCommentEvent([]byte(`{"action":"created","pull_request":{"number":7},"comment":{"id":5,"in_reply_to_id":4,"body":"x","user":{"login":"a"}}}`))
	if err != nil || ev.Number != 7 || !ev.Review || ev.InReplyTo != 4 {
		t.Errorf("pull_request_review_comment = %+v, %v", ev, err)
	}
}
