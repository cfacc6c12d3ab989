package codeguard

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// subjectsSince is the last commit before the rule on commit subjects was
// enforced: history before it is what it is; every later commit is held to
// the rule.
const subjectsSince = "6eec9ada2a9869ac325b837209b084e9541ab3a0"

// subjectRule: "pkg: what changed" (one or more package, area or file
// names, comma-separated — "session", "cmd/stop-gate", "README", ".ci"),
// or the subjects git itself writes for merges and reverts.
var subjectRule = regexp.MustCompile(`^([A-Za-z0-9_./{}-]+(, ?[A-Za-z0-9_./{}-]+)*: \S.*|Merge (branch|remote-tracking branch|commit|pull request) .*|Revert ".*")$`)

// TestCommitSubjects keeps commit subjects to one `pkg: what changed` line
// of at most 72 characters; the why goes in the body. It needs the
// repository's history and skips without it (a shallow or exported tree).
func TestCommitSubjects(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	if err := exec.Command("git", "-C", root, "cat-file", "-e", subjectsSince+"^{commit}").Run(); err != nil {
		t.Skipf("the history since %s is not here (shallow clone or no git)", subjectsSince)
	}
	out, err := exec.Command("git", "-C", root, "log", "--format=%h %s", subjectsSince+"..HEAD").Output()
	if err != nil {
		t.Fatalf("git log: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		hash, subject, _ := strings.Cut(line, " ")
		if len(subject) > 72 {
			t.Errorf("%s: subject is %d characters, over 72: %q", hash, len(subject), subject)
		}
		if !subjectRule.MatchString(subject) {
			t.Errorf("%s: subject %q is not `pkg: what changed`", hash, subject)
		}
	}
}

// TestSubjectRule pins what the rule accepts, so a loosened or broken
// pattern shows here rather than in a rejected submission.
func TestSubjectRule(t *testing.T) {
	for _, tc := range []struct {
		subject string
		ok      bool
	}{
		{"session: keep task refs out of refs/heads", true},
		{"cmd/stop-gate, stophook: close the lock on exec", true},
		{"README: a quick start that fits a screen", true},
		{".ci: install jaeger before the otel tier", true},
		{"Merge branch 'h/calib'", true},
		{`Revert "session: pool"`, true},
		{"fix stuff", false},
		{"session:no space after the colon", false},
		{"session: ", false},
		{"WIP", false},
		{"two words: not a package", false},
	} {
		if got := subjectRule.MatchString(tc.subject); got != tc.ok {
			t.Errorf("subjectRule(%q) = %v, want %v", tc.subject, got, tc.ok)
		}
	}
}
