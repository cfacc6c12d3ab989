package calibrate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// maxLine bounds one case line: a case carries a diff and context files,
// and a runaway line should be reported, not swallow the machine.
const maxLine = 16 << 20

// Case is one labelled piece of work: a task, the change made for it, and
// whether a correct gate would accept it.
type Case struct {
	ID    string `json:"id"`
	Task  string `json:"task"`
	Diff  string `json:"diff"`
	Label string `json:"label"`
	Notes string `json:"notes,omitempty"`
	// Source says where the label came from (calibrate --from-history
	// writes "history: <the decision>"); never shown to a judge.
	Source string `json:"source,omitempty"`
	// Files are the files the change applies to (path → content), written
	// into the judges' working directory before the diff is applied.
	Files map[string]string `json:"files,omitempty"`
	// Line is the case's line number in its file.
	Line int `json:"-"`
}

// LabelError is a case whose label is neither accept nor reject: a
// mislabelled case would skew every figure, so the run refuses it.
type LabelError struct {
	ID, Label string
	Line      int
}

func (e *LabelError) Error() string {
	return fmt.Sprintf("case %q (line %d) has label %q; a label is \"accept\" or \"reject\"", e.ID, e.Line, e.Label)
}

// ReadCases parses a JSON Lines cases file. A malformed line (not a JSON
// object, a missing id/task/diff, an unsafe file path, a repeated id) is
// reported through skip with its line number and left out; blank lines
// and lines starting with # are ignored. A bad label is a *LabelError.
func ReadCases(r io.Reader, skip func(line int, why string)) ([]Case, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxLine)
	var cases []Case
	seen := map[string]int{}
	n := 0
	for sc.Scan() {
		n++
		raw := bytes.TrimSpace(sc.Bytes())
		if len(raw) == 0 || raw[0] == '#' {
			continue
		}
		var c Case
		dec := json.NewDecoder(bytes.NewReader(raw))
		if err := dec.Decode(&c); err != nil {
			skip(n, "not a case object: "+err.Error())
			continue
		}
		if dec.More() {
			skip(n, "more than one JSON value on the line")
			continue
		}
		c.Line = n
		if why := missing(c); why != "" {
			skip(n, why)
			continue
		}
		if c.Label != judgestats.Accept && c.Label != judgestats.Reject {
			return nil, &LabelError{ID: c.ID, Label: c.Label, Line: n}
		}
		if first, dup := seen[c.ID]; dup {
			skip(n, fmt.Sprintf("id %q repeats the case on line %d", c.ID, first))
			continue
		}
		seen[c.ID] = n
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return cases, fmt.Errorf("line %d is longer than %d bytes", n+1, maxLine)
		}
		return cases, err
	}
	return cases, nil
}

func missing(c Case) string {
	var gaps []string
	if strings.TrimSpace(c.ID) == "" {
		gaps = append(gaps, "id")
	}
	if strings.TrimSpace(c.Task) == "" {
		gaps = append(gaps, "task")
	}
	if strings.TrimSpace(c.Diff) == "" {
		gaps = append(gaps, "diff")
	}
	if len(gaps) > 0 {
		return "missing " + strings.Join(gaps, ", ")
	}
	for _, p := range sortedFiles(c.Files) {
		if !safePath(p) {
			return fmt.Sprintf("file path %q is not a relative path inside the case", p)
		}
	}
	return ""
}

// safePath accepts a clean relative slash path that stays inside the
// working directory.
func safePath(p string) bool {
	if p == "" || strings.Contains(p, "\\") || strings.ContainsRune(p, 0) {
		return false
	}
	c := path.Clean(p)
	return c == p && !path.IsAbs(c) && c != "." && c != ".." && !strings.HasPrefix(c, "../") && !strings.HasPrefix(c, ".git/") && c != ".git"
}

func sortedFiles(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
