package mutate

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// TestStarterMutantsApply makes every mutant of the starter set's accepted
// cases and checks with git that it still applies to the case's files: a
// mutant the judges could not see applied would measure nothing.
func TestStarterMutantsApply(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	f, err := os.Open("../../../../testdata/calibration/cases.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	made := map[Kind]int{}
	for sc.Scan() {
		var c struct {
			ID, Diff, Label string
			Files           map[string]string
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		if c.Label != "accept" {
			continue
		}
		dir := t.TempDir()
		for p, content := range c.Files {
			if err := os.WriteFile(filepath.Join(dir, p), []byte(content), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		for _, k := range Kinds {
			m, err := Apply(k, unidiff.Parse([]byte(c.Diff)))
			var na *NotApplicable
			if errors.As(err, &na) {
				continue
			}
			if err != nil {
				t.Fatalf("%s %s: %v", c.ID, k, err)
			}
			made[k]++
			cmd := exec.Command("git", "apply", "--check", "-")
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CEILING_DIRECTORIES="+filepath.Dir(dir))
			cmd.Stdin = strings.NewReader(m.Diff)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s %s (%s) does not apply: %s", c.ID, k, m.Change, out)
			}
		}
	}
	// The starter set's changes hold conditions, bounds and several hunks,
	// and no test file.
	for _, k := range []Kind{DropHunk, InvertCondition, OffByOne} {
		if made[k] == 0 {
			t.Errorf("no %s mutant of the starter set", k)
		}
	}
	if made[DeleteTest] != 0 {
		t.Errorf("%d delete-test mutants of a set whose diffs change no test", made[DeleteTest])
	}
	t.Logf("mutants made: %v", made)
}
