package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// ErrNotFound is wrapped when an id names no task and no advisory verdict
// (records.ResolveID's error, so every command says it alike).
var ErrNotFound = records.ErrUnknownID

// ErrAmbiguous is wrapped when an id prefix names more than one record.
var ErrAmbiguous = records.ErrAmbiguousID

// Last is the id every history command accepts for the newest record.
// It can never be a task id (ULIDs have no L) and wins over a session id
// of the same name.
const Last = records.Last

// minShortID is the shortest id prefix the log prints: ULIDs of tasks
// started the same day share their first five or six characters, so a
// shorter prefix would rarely stay unique as the history grows.
const minShortID = 8

// Ref names one record: a task (TaskID) or an advisory verdict (StopPath).
type Ref struct {
	Kind     string
	TaskID   string
	StopPath string
}

// lastWindow is how many of the newest records "last" looks through for
// one that is not a best-of-N candidate: more than a best-of-N task has
// candidates.
const lastWindow = 8

// Resolve finds the record id names in the project: "last" (the newest
// task or advisory verdict), a task id (ULIDs are case-insensitive), a
// Claude Code session id (its stop file, found by the same sanitising the
// Stop hook applies), or an unambiguous prefix of either at least records.MinPrefix
// characters long; exact matches
// win over prefixes, so the short session ids in a SessionStart note work.
func Resolve(projectDir, id string) (Ref, error) {
	id = strings.TrimSpace(id)
	if id == "" {
		return Ref{}, fmt.Errorf("%w: the id is empty", ErrNotFound)
	}
	if strings.EqualFold(id, Last) {
		// A best-of-N task's candidates start after it: "last" is the
		// task the person ran, not one of its candidates.
		res := Log(projectDir, "", LogOptions{Limit: lastWindow})
		if len(res.Entries) == 0 {
			return Ref{}, fmt.Errorf("%w: %q: nothing is recorded for this project yet", ErrNotFound, id)
		}
		for _, e := range res.Entries {
			if e.Parent == "" {
				return e.Ref(projectDir), nil
			}
		}
		return res.Entries[0].Ref(projectDir), nil
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
	recs, _ := records.ListRecords(projectDir)
	recordID := func(p string) string { return strings.TrimSuffix(filepath.Base(p), records.JSONExt) }
	for _, r := range recs {
		if recordID(r) == upper {
			return Ref{Kind: KindAdvisory, StopPath: r}, nil
		}
	}
	stop := records.StopPath(projectDir, id)
	stops, err := records.ListStopFiles(projectDir)
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
		if matchesName(t, id) {
			matches = append(matches, Ref{Kind: KindTask, TaskID: t})
			names = append(names, "task "+t)
		}
	}
	for _, r := range recs {
		if matchesName(recordID(r), id) {
			matches = append(matches, Ref{Kind: KindAdvisory, StopPath: r})
			names = append(names, "verdict "+recordID(r))
		}
	}
	for _, s := range stops {
		base := strings.TrimSuffix(filepath.Base(s), records.JSONExt)
		if matchesName(base, id) {
			matches = append(matches, Ref{Kind: KindAdvisory, StopPath: s})
			names = append(names, "session "+strings.TrimPrefix(base, records.StopPrefix))
		}
	}
	switch {
	case len(id) < records.MinPrefix:
		return Ref{}, fmt.Errorf("%w: %q", records.ErrShortID, id)
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) == 0:
		return Ref{}, fmt.Errorf("%w: no task or advisory verdict %q in this project", ErrNotFound, id)
	}
	sort.Strings(names)
	return Ref{}, fmt.Errorf("%w: %q starts %d records: %s", ErrAmbiguous, id, len(names), records.Candidates(names))
}

// Ref names the record of a log entry of the project at projectDir.
func (e Entry) Ref(projectDir string) Ref {
	if e.Kind == KindAdvisory && e.path != "" {
		return Ref{Kind: KindAdvisory, StopPath: e.path}
	}
	if e.Kind == KindAdvisory {
		return Ref{Kind: KindAdvisory, StopPath: filepath.Join(projectDir, records.StopPrefix+e.ID+records.JSONExt)}
	}
	return Ref{Kind: KindTask, TaskID: e.TaskID}
}

// matchesName says whether prefix, as a user typed it, names the record
// called name: a task id (compared upper-cased: ULIDs are
// case-insensitive) or a stop file's name "stop-<sanitised session id>"
// (compared with the prefix sanitised as typed: sanitising an
// empty-looking prefix would turn it into "unknown").
func matchesName(name, prefix string) bool {
	if session, ok := strings.CutPrefix(name, records.StopPrefix); ok {
		return strings.HasPrefix(session, sanitizePrefix(prefix))
	}
	return strings.HasPrefix(name, strings.ToUpper(prefix))
}

// ShortIDs maps each name (a task id, a judgement record's task id, or a
// stop file's name "stop-<session id>") to the shortest prefix of its id, at least minShortID characters,
// that Resolve takes to name it alone. A name with no unique prefix (one
// that is itself a prefix of another) maps to its whole id.
func ShortIDs(names []string) map[string]string {
	out := make(map[string]string, len(names))
	for _, n := range names {
		id := strings.TrimPrefix(n, records.StopPrefix)
		short := id
		for l := min(minShortID, len(id)); l < len(id); l++ {
			p := id[:l]
			unique := true
			for _, o := range names {
				if o != n && matchesName(o, p) {
					unique = false
					break
				}
			}
			if unique {
				short = p
				break
			}
		}
		out[n] = short
	}
	return out
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

// ResolveRun finds the detached run id names among the directories of
// runsDir (<project>/runs) by records.ResolveID: "last" (the newest run),
// a whole task id or an unambiguous prefix of one. It returns the run's
// task id.
func ResolveRun(runsDir, id string) (string, error) {
	id = strings.TrimSpace(id)
	entries, err := os.ReadDir(runsDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", records.FileProblem(runsDir, err)
	}
	var runs []string
	for _, e := range entries {
		if e.IsDir() && records.ValidID(e.Name()) {
			runs = append(runs, e.Name())
		}
	}
	sort.Sort(sort.Reverse(sort.StringSlice(runs)))
	return records.ResolveID(runs, id, "detached run")
}
