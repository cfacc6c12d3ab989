package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/store/retention"
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

// minShortID is the shortest id the log prints: six characters of a
// ULID's random end are 30 bits, unique in practice however many records
// a project keeps; a session id's prefix keeps the eight a SessionStart
// note shows.
const (
	minShortID      = 6
	minShortSession = 8
)

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

// ResolveTask is Resolve for a command that acts on tasks only (replay):
// "last" is the newest task the person ran (not a best-of-N candidate),
// passing over advisory verdicts written since, which such a command could
// only refuse. Any other id resolves as Resolve does, so an advisory
// verdict named by its id is still found, and refused by the caller with
// why.
func ResolveTask(projectDir, id string) (Ref, error) {
	if !strings.EqualFold(strings.TrimSpace(id), Last) {
		return Resolve(projectDir, id)
	}
	// Widening windows: the newest records are read first, and a long
	// run of advisory verdicts costs a few more reads, not every file.
	for limit := lastWindow; ; limit *= 4 {
		res := Log(projectDir, "", LogOptions{Limit: limit})
		for _, e := range res.Entries {
			if ref := e.Ref(projectDir); ref.Kind == KindTask && e.Parent == "" {
				return ref, nil
			}
		}
		if len(res.Entries) >= res.Total {
			return Ref{}, fmt.Errorf("%w: %q: no task is recorded for this project yet, only advisory verdicts", ErrNotFound, id)
		}
	}
}

// Resolve finds the record id names in the project: "last" (the newest
// task or advisory verdict), a task id (ULIDs are case-insensitive), a
// Claude Code session id (its stop file, found by the same sanitising the
// Stop hook applies), or a part of either at least records.MinPrefix
// characters long that names one record: a whole id wins over a prefix and
// a prefix over another part (records.Best), so the short session ids in a
// SessionStart note work.
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
	ids, err := records.TaskIDs(projectDir)
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
	var cands []candidate
	for _, t := range ids {
		cands = append(cands, candidate{name: t, ref: Ref{Kind: KindTask, TaskID: t}})
	}
	for _, r := range recs {
		cands = append(cands, candidate{name: recordID(r), ref: Ref{Kind: KindAdvisory, StopPath: r}})
	}
	for _, s := range stops {
		base := strings.TrimSuffix(filepath.Base(s), records.JSONExt)
		cands = append(cands, candidate{name: base, ref: Ref{Kind: KindAdvisory, StopPath: s}})
	}
	kinds := make([]records.Match, len(cands))
	for i, c := range cands {
		kinds[i] = matchName(c.name, id)
	}
	best := records.Best(kinds)
	switch {
	case len(best) == 1:
		return cands[best[0]].ref, nil
	case len(id) < records.MinPrefix:
		return Ref{}, fmt.Errorf("%w: %q", records.ErrShortID, id)
	case len(best) == 0:
		return Ref{}, notFound(projectDir, id)
	}
	names := make(map[string]bool, len(best))
	for _, b := range best {
		names[cands[b].name] = true
	}
	return Ref{}, &records.AmbiguousError{Typed: id, What: "records", Candidates: describe(projectDir, names)}
}

// notFound is the error for an id that names no record here. A record gc
// pruned is named in the ledger (an advisory verdict by its session id
// too, as Resolve finds a live one): the error says what became of it
// rather than that it never was (spec §9.6).
func notFound(projectDir, id string) error {
	if p, ok := retention.Find(projectDir, id); ok {
		return fmt.Errorf("%w: %s", ErrNotFound, p.Sentence())
	}
	if up := strings.ToUpper(id); records.ValidID(up) {
		// tune prints its run's id for view; show, replay and the rest
		// do not read tune runs, and should say where to look instead.
		if fi, err := os.Stat(records.TunePath(projectDir, up)); err == nil && fi.IsDir() {
			return fmt.Errorf("%w: %s is a tune run, not a task or a verdict: 'tribunal-session view %s' shows its page", ErrNotFound, up, up)
		}
	}
	return fmt.Errorf("%w: no task, review, answer or advisory verdict %q in this project", ErrNotFound, id)
}

// candidate is a record Resolve may pick: its name (a task id, a
// judgement record's task id or a stop file's "stop-<session id>").
type candidate struct {
	name string
	ref  Ref
}

// describe tells the records called names apart for a person choosing
// among them, newest first, as log dates and sums them up: "review
// 01J… (2026-05-24 10:00Z) main...feature".
func describe(projectDir string, names map[string]bool) []string {
	var out []string
	for _, e := range Log(projectDir, "", LogOptions{}).Entries {
		name := e.ID
		if e.Kind == KindAdvisory && !records.IsJudgementPath(e.path) {
			name = records.StopPrefix + e.ID
		}
		if !names[name] {
			continue
		}
		kind, id := e.Kind, e.ID
		if kind == KindAdvisory {
			kind = "verdict"
			if e.SessionID != "" {
				id = "session " + e.SessionID
			}
		}
		line := kind + " " + id + " (" + e.Time.UTC().Format(timeLayout) + ")"
		if sum := safetext.Inline(e.Summary, 60); sum != "" {
			line += " " + sum
		}
		out = append(out, line)
	}
	return out
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

// matchName says how typed, as a user typed it, names the record called
// name (records.MatchName): a task id (compared upper-cased: ULIDs are
// case-insensitive) or a stop file's name "stop-<sanitised session id>"
// (compared with typed sanitised as it is: sanitising an empty-looking
// part would turn it into "unknown").
func matchName(name, typed string) records.Match {
	if session, ok := strings.CutPrefix(name, records.StopPrefix); ok {
		return records.MatchName(session, sanitizePrefix(typed))
	}
	return records.MatchName(name, strings.ToUpper(typed))
}

// ShortIDs maps each name (a task id, a judgement record's task id, or a
// stop file's name "stop-<session id>") to the short id log prints, which
// Resolve takes to name it alone: for a task id the shortest end of it, at
// least minShortID characters, that no other name contains (ULIDs made in
// the same second share their first ten characters; their ends are
// random), for a session id the shortest such prefix (what a
// SessionStart note shows). A name with no such part maps to its id.
func ShortIDs(names []string) map[string]string {
	out := make(map[string]string, len(names))
	for _, n := range names {
		id, session := strings.CutPrefix(n, records.StopPrefix)
		short, least := id, minShortID
		if session {
			least = minShortSession
		}
		for l := min(least, len(id)); l < len(id); l++ {
			p := id[len(id)-l:]
			if session {
				p = id[:l]
			}
			if uniquePart(names, n, p) {
				short = p
				break
			}
		}
		out[n] = short
	}
	return out
}

// uniquePart says whether typing p would name n and no other of names.
func uniquePart(names []string, n, p string) bool {
	for _, o := range names {
		if o != n && matchName(o, p) != records.NoMatch {
			return false
		}
	}
	return true
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
