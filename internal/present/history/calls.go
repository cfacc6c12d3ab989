package history

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Call is one model call's record (records.Call) and the name of its file
// (calls/<nn>-<label>.json), which says the call's place in the iteration.
type Call struct {
	records.Call
	Name string `json:"-"`
}

// Calls reads an iteration's model call records in call order; a record
// that cannot be read is a Problem and the others are still returned.
func (it IterationView) Calls() ([]Call, []records.Problem) {
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
	var problems []records.Problem
	for _, n := range names {
		data, err := records.ReadRaw(filepath.Join(dir, n))
		if err != nil {
			problems = append(problems, asProblem(err))
			continue
		}
		var c Call
		if err := json.Unmarshal(data, &c.Call); err != nil {
			problems = append(problems, records.Problem{Path: filepath.Join(dir, n), Err: err})
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
	data, err := records.ReadText(filepath.Join(it.Dir, records.DiffPreviousFile), records.MaxDiff)
	if err != nil {
		return ""
	}
	return string(data)
}
