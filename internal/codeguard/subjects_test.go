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

// subjectRule: "pkg: what changed" (one or more lower-case package or area
// names, comma-separated), or git's own merge subject.
var subjectRule = regexp.MustCompile(`^([a-z0-9_./{}-]+(, ?[a-z0-9_./{}-]+)*: \S.*|Merge (branch|remote-tracking branch) .*)$`)

// TestCommitSubjects keeps commit subjects to one `pkg: what changed` line
// of at most 72 characters; the why goes in the body. It needs the
// repository's history and skips without it (a shallow or exported tree).
func TestCommitSubjects(t *testing.T) {
	root := filepath.Join("..", "..")
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
