package docs

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// TestActionArgsExampleNamesARubric: action.yml's example for `args`
// names a rubric that ships, so copying it works.
func TestActionArgsExampleNamesARubric(t *testing.T) {
	action, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile("../internal/config/defaults.json")
	if err != nil {
		t.Fatal(err)
	}
	var d struct {
		Tribunal struct {
			Rubric struct {
				Builtins []struct{ ID string } `json:"builtins"`
			} `json:"rubric"`
		} `json:"tribunal"`
	}
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatal(err)
	}
	ids := map[string]bool{}
	for _, r := range d.Tribunal.Rubric.Builtins {
		ids[r.ID] = true
	}
	if len(ids) == 0 {
		t.Fatal("no built-in rubric read from defaults.json")
	}
	for _, m := range regexp.MustCompile(`--rubric ([\w-]+)`).FindAllStringSubmatch(string(action), -1) {
		if !ids[m[1]] {
			t.Errorf("action.yml names rubric %q, which is not built in (have %v)", m[1], ids)
		}
	}
}

// TestReadmePinsACommit: until a release is tagged, the workflow snippets
// of the user pages (the README and the docs pages it links, where the CI
// snippets now are) pin the action to a commit, not to a tag that does
// not exist.
func TestReadmePinsACommit(t *testing.T) {
	pin := regexp.MustCompile(`tribunal-cc/tribunal@(\S+)`)
	ok := regexp.MustCompile(`^(<commit-sha>|[0-9a-f]{40})$`)
	pins := 0
	for _, p := range testkit.ReadUserPages(t, "..") {
		for _, m := range pin.FindAllStringSubmatch(p.Text, -1) {
			pins++
			if !ok.MatchString(m[1]) {
				t.Errorf("%s pins tribunal-cc/tribunal@%s: pin a commit SHA (or <commit-sha>) until a release is tagged", p.Path, m[1])
			}
		}
	}
	if pins == 0 {
		t.Error("no user page shows the action pinned: the workflow snippets moved out of the pages this test reads")
	}
}
