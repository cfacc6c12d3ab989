package reviewfmt

import (
	"strings"
	"testing"
)

// TestReceiptMarkdown pins the comment a receipt check leaves: the marker
// first (so the one PR comment is kept), what decided, and a receipt's
// untrusted text — a forged line says whatever its writer wanted —
// carried inert.
func TestReceiptMarkdown(t *testing.T) {
	hostile := "signature bad : tribunal: accepted @octocat <img src=x onerror=alert(1)> ```\n## Approved"
	for _, tc := range []struct {
		name string
		c    ReceiptCheck
		want []string
	}{
		{"valid", ReceiptCheck{Head: strings.Repeat("a", 40), SignersFrom: strings.Repeat("b", 40), Ref: "refs/notes/tribunal",
			Status: "valid", Valid: true, Principal: "alice@example.com"},
			[]string{"## tribunal receipt: valid", "`aaaaaaaaaaaa`", "`alice@example.com`", "`bbbbbbbbbbbb`", "No review was run"}},
		{"required", ReceiptCheck{Head: "c1", Ref: "refs/notes/tribunal", Status: "signature bad", Detail: []string{hostile}},
			[]string{"## tribunal receipt: signature bad", "This job requires one.", "git push origin refs/notes/tribunal"}},
		{"review follows", ReceiptCheck{Head: "c1", Ref: "refs/notes/tribunal", Status: "missing", ReviewFollows: true},
			[]string{"A fresh review decides instead."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := ReceiptMarkdown(tc.c)
			if !strings.HasPrefix(md, Marker+"\n") {
				t.Errorf("no marker first:\n%s", md)
			}
			for _, w := range tc.want {
				if !strings.Contains(md, w) {
					t.Errorf("lacks %q:\n%s", w, md)
				}
			}
			if strings.Contains(md, "<img") {
				t.Errorf("untrusted HTML is live:\n%s", md)
			}
			fenced := false
			for _, l := range strings.Split(md, "\n") {
				if strings.HasPrefix(l, "````") {
					fenced = !fenced
				}
				if !fenced && (strings.Contains(l, "Approved") || strings.Contains(l, "@octocat")) {
					t.Errorf("untrusted text outside the fenced block: %q", l)
				}
			}
		})
	}
}
