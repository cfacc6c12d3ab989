package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"

	"github.com/tribunal-cc/tribunal/internal/records"
)

// Call is the part of one model call's record (calls/<nn>-<label>.json)
// the report shows: who was asked, what, and what came back verbatim.
type Call struct {
	Name      string `json:"-"`
	Role      string `json:"role"`
	JudgeType string `json:"judge_type,omitempty"`
	Model     string `json:"model,omitempty"`
	Prompt    string `json:"prompt"`
	RawOutput string `json:"raw_output"`
	Error     string `json:"error,omitempty"`
}

// Calls reads an iteration's model call records in call order; a record
// that cannot be read is a Problem and the others are still returned.
func (it IterationView) Calls() ([]Call, []Problem) {
	dir := filepath.Join(it.Dir, records.CallsDir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && filepath.Ext(e.Name()) == records.JSONExt {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []Call
	var problems []Problem
	for _, n := range names {
		data, err := readFile(filepath.Join(dir, n))
		if err != nil {
			problems = append(problems, asProblem(err))
			continue
		}
		var c Call
		if err := json.Unmarshal(data, &c); err != nil {
			problems = append(problems, Problem{Path: filepath.Join(dir, n), Err: err})
			continue
		}
		c.Name = n
		out = append(out, c)
	}
	return out, problems
}

// OwnDiff is the iteration's own change (the previous iteration's commit
// to this one), "" when none is stored.
func (it IterationView) OwnDiff() string {
	data, err := os.ReadFile(filepath.Join(it.Dir, records.DiffPreviousFile))
	if err != nil {
		return ""
	}
	return string(data)
}
