package history

import (
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/surface"
)

// ErrNotFound is wrapped when an id names no task and no advisory verdict.
var ErrNotFound = errors.New("no task or advisory verdict with that id")

// ErrAmbiguous is wrapped when an id prefix names more than one record.
var ErrAmbiguous = errors.New("the id is ambiguous")

// Ref names one record: a task (TaskID) or an advisory verdict (StopPath).
type Ref struct {
	Kind     string
	TaskID   string
	StopPath string
}

// Resolve finds the record id names in the project: a task id (ULIDs are
// case-insensitive), a Claude Code session id (its stop file, found by the
// same sanitising the Stop hook applies), or an unambiguous prefix of
// either; exact matches win over prefixes, so the short session ids in a
// SessionStart note work.
func Resolve(projectDir, id string) (Ref, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return Ref{}, fmt.Errorf("%w: the id is empty", ErrNotFound)
	}
	ids, err := taskIDs(projectDir)
	if err != nil {
		return Ref{}, err
	}
	upper := strings.ToUpper(id)
	for _, t := range ids {
		if t == upper {
			return Ref{Kind: KindTask, TaskID: t}, nil
		}
	}
	// A judgement record is named by its task id.
	records, _ := surface.ListRecords(projectDir)
	recordID := func(p string) string { return strings.TrimSuffix(filepath.Base(p), ".json") }
	for _, r := range records {
		if recordID(r) == upper {
			return Ref{Kind: KindAdvisory, StopPath: r}, nil
		}
	}
	stop := filepath.Join(projectDir, "stop-"+store.SanitizeSessionID(id)+".json")
	stops, err := surface.ListStopFiles(projectDir)
	if err != nil {
		return Ref{}, err
	}
	for _, s := range stops {
		if s == stop {
			return Ref{Kind: KindAdvisory, StopPath: s}, nil
		}
	}
	var matches []Ref
	var names []string
	for _, t := range ids {
		if strings.HasPrefix(t, upper) {
			matches = append(matches, Ref{Kind: KindTask, TaskID: t})
			names = append(names, "task "+t)
		}
	}
	for _, r := range records {
		if strings.HasPrefix(recordID(r), upper) {
			matches = append(matches, Ref{Kind: KindAdvisory, StopPath: r})
			names = append(names, "verdict "+recordID(r))
		}
	}
	// A prefix is compared with the sanitised names, as typed: sanitising
	// an empty-looking prefix would turn it into "unknown".
	prefix := "stop-" + sanitizePrefix(id)
	for _, s := range stops {
		base := filepath.Base(s)
		if strings.HasPrefix(base, prefix) {
			matches = append(matches, Ref{Kind: KindAdvisory, StopPath: s})
			names = append(names, "session "+strings.TrimSuffix(strings.TrimPrefix(base, "stop-"), ".json"))
		}
	}
	switch len(matches) {
	case 0:
		return Ref{}, fmt.Errorf("%w: %q", ErrNotFound, id)
	case 1:
		return matches[0], nil
	default:
		sort.Strings(names)
		return Ref{}, fmt.Errorf("%w: %q matches %s", ErrAmbiguous, id, strings.Join(names, ", "))
	}
}

// sanitizePrefix applies SanitizeSessionID's byte rule without its
// empty-id and length rules, which only make sense for whole ids.
func sanitizePrefix(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}
