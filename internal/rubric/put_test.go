package rubric

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPut(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".claude", "tribunal.json")
	a := json.RawMessage(`{"id":"a","criteria":[{"name":"x","weight":1,"min_pass":0}]}`)
	prev, err := Put(path, a)
	if err != nil || prev != nil {
		t.Fatalf("new file: %v, %q", err, prev)
	}
	if err := os.WriteFile(path, []byte(`{"note":"mine","rubrics":[{"id":"b","criteria":[]},{"id":"a","criteria":[]}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	prev, err = Put(path, a)
	if err != nil || !strings.Contains(string(prev), `"note":"mine"`) {
		t.Fatalf("replace: %v, %q", err, prev)
	}
	var top struct {
		Note    string            `json:"note"`
		Rubrics []json.RawMessage `json:"rubrics"`
	}
	data, _ := os.ReadFile(path)
	if err := json.Unmarshal(data, &top); err != nil || top.Note != "mine" || len(top.Rubrics) != 2 || !strings.Contains(string(top.Rubrics[1]), `"x"`) {
		t.Fatalf("file after Put: %s", data)
	}
	if _, err := Put(path, json.RawMessage(`{"criteria":[]}`)); err == nil {
		t.Error("a rubric without an id was put")
	}
	if err := os.WriteFile(path, []byte(`[1]`), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Put(path, a); err == nil {
		t.Error("a file that is not an object was overwritten")
	}
}
