package rubric

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/nesting"
)

// builtinDefault is the shipped built-in rubric (spec §2.8), the one an overlay
// must never be able to wipe out by being malformed (spec §A.22).
const builtinDefault = `[{"id":"default","criteria":[{"name":"correctness","weight":0.4,"min_pass":0.7},{"name":"completeness","weight":0.3,"min_pass":0.7},{"name":"safety","weight":0.2,"min_pass":0.8},{"name":"clarity","weight":0.1,"min_pass":0.5}]}]`

// FuzzRubricJSON feeds arbitrary bytes to the JSON side of the rubric
// loader, both as one rubric object (Parse, then Validate) and as a whole
// repository overlay file (.claude/tribunal.json) on top of the built-ins.
// Nothing may panic; Parse accepts exactly the JSON objects (nested no
// deeper than nesting.Max); a rubric that
// validates has values every later stage can use; and a bad overlay costs
// at most its own entries, never the built-in default, with each problem
// reported as one warning line.
func FuzzRubricJSON(f *testing.F) {
	f.Add([]byte(`{"rubrics":[{"id":"docs","criteria":[{"name":"a","weight":1,"min_pass":0.5}]}]}`))
	overlay := filepath.Join(fuzzDir(f), "tribunal.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		checkParse(t, data)

		if err := os.WriteFile(overlay, data, 0o600); err != nil {
			t.Fatal(err)
		}
		var warnings []string
		set := LoadSet(LoadOptions{
			Builtins: json.RawMessage(builtinDefault),
			RepoJSON: overlay,
			Warn:     func(s string) { warnings = append(warnings, s) },
		})
		for _, w := range warnings {
			if w == "" || strings.HasPrefix(w, "tribunal:") || strings.ContainsAny(w, "\r\n") {
				t.Fatalf("malformed warning %q", w)
			}
		}
		if _, ok := set.Lookup("default"); !ok {
			t.Fatalf("the overlay removed the built-in default rubric; set: %q", set.IDs())
		}
		for _, id := range set.IDs() {
			r, ok := set.Lookup(id)
			if !ok || id == "" || r.ID != id || !json.Valid(r.Raw) {
				t.Fatalf("set entry %q is broken: %+v", id, r)
			}
			checkValid(t, r)
		}
	})
}

// checkParse holds Parse to its contract on one value.
func checkParse(t *testing.T, data []byte) {
	t.Helper()
	r, err := Parse(data)
	trimmed := bytes.TrimSpace(data)
	var obj map[string]json.RawMessage
	isObject := len(trimmed) > 0 && trimmed[0] == '{' && json.Unmarshal(trimmed, &obj) == nil &&
		nesting.JSON(trimmed) == nil
	if (err == nil) != isObject {
		t.Fatalf("Parse error = %v for %q (an object: %v)", err, data, isObject)
	}
	if err != nil {
		return
	}
	if !bytes.Equal(r.Raw, trimmed) {
		t.Fatalf("Raw %q is not the input %q", r.Raw, trimmed)
	}
	var id string
	if raw := bytes.TrimSpace(obj["id"]); len(raw) > 0 && raw[0] == '"' {
		_ = json.Unmarshal(raw, &id)
	}
	if r.ID != id {
		t.Fatalf("ID = %q, want %q", r.ID, id)
	}
	for _, p := range [][]byte{r.ScoreThreshold, r.MaxIterations, r.JudgeTypes, r.GatePolicy, r.AggregationMethod} {
		if p != nil && (string(p) == "null" || !json.Valid(p)) {
			t.Fatalf("policy field kept as %q", p)
		}
	}
	checkValid(t, &r)
}

// checkValid runs Validate and, when it passes, checks that every value a
// later stage reads without re-checking is in range.
func checkValid(t *testing.T, r *Rubric) {
	t.Helper()
	if Validate(r) != nil {
		return
	}
	if r.ID == "" || len(r.Criteria) == 0 {
		t.Fatalf("valid rubric without id or criteria: %s", r.Raw)
	}
	sum := 0.0
	for _, c := range r.Criteria {
		if c.Name == "" || c.Weight == nil || c.MinPass == nil ||
			!(*c.Weight >= 0 && *c.Weight <= 1) || !(*c.MinPass >= 0 && *c.MinPass <= 1) {
			t.Fatalf("valid rubric with a bad criterion %+v: %s", c, r.Raw)
		}
		sum += *c.Weight
	}
	if !(sum > 0.99 && sum < 1.01) {
		t.Fatalf("valid rubric with weights summing to %v", sum)
	}
	if r.ScoreThreshold != nil {
		if v, err := ScoreThreshold(r.ScoreThreshold); err != nil || v < 0 || v > 1 {
			t.Fatalf("valid rubric with score_threshold %s", r.ScoreThreshold)
		}
	}
	if r.MaxIterations != nil {
		if n, err := MaxIterations(r.MaxIterations); err != nil || n < 1 {
			t.Fatalf("valid rubric with max_iterations %s", r.MaxIterations)
		}
	}
	if r.GatePolicy != nil {
		if _, err := GatePolicy(r.GatePolicy); err != nil {
			t.Fatalf("valid rubric with gate_policy %s", r.GatePolicy)
		}
	}
	if r.AggregationMethod != nil {
		if _, err := AggregationMethod(r.AggregationMethod); err != nil {
			t.Fatalf("valid rubric with aggregation_method %s", r.AggregationMethod)
		}
	}
}

// fuzzDir is where the target writes its file on every run: tmpfs when
// there is one, where a rewrite costs no journal work, else a temporary
// directory.
func fuzzDir(f *testing.F) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "tribunal-fuzz-"); err == nil {
			f.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return f.TempDir()
}
