package docs

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"
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

// TestReadmePinsACommit: until a release is tagged, the README's workflow
// snippets pin the action to a commit, not to a tag that does not exist.
func TestReadmePinsACommit(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	pin := regexp.MustCompile(`tribunal-cc/tribunal@(\S+)`)
	ok := regexp.MustCompile(`^(<commit-sha>|[0-9a-f]{40})$`)
	for _, m := range pin.FindAllStringSubmatch(string(readme), -1) {
		if !ok.MatchString(m[1]) {
			t.Errorf("README pins tribunal-cc/tribunal@%s: pin a commit SHA (or <commit-sha>) until a release is tagged", m[1])
		}
	}
}
