package retention

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// By is who prunes: the one command that does.
const By = "gc"

// Entry is the record of a prune ledger entry: what was pruned, the
// digest of its files, and when and why.
type Entry struct {
	Pruned     string `json:"pruned"`
	Digest     string `json:"digest"`
	Files      int    `json:"files"`
	Bytes      int64  `json:"bytes"`
	RecordedAt string `json:"recorded_at"`
	OlderThan  string `json:"older_than"`
	By         string `json:"by"`
}

// Result is what Prune did.
type Result struct {
	Pruned []Record
	Bytes  int64
}

// Prune removes the plan's records, oldest first. Each record's signed
// ledger entry (kind prune) is appended before any of its files goes: a
// failed append stops the prune with that record and everything after it
// untouched, so no record ever disappears without its entry. The ledger
// itself is only appended to.
func Prune(plan Plan, opts Options, now time.Time) (Result, error) {
	var res Result
	path, keys := ledger.PathFor(opts.ProjectDir), ledger.KeyDir(opts.OnlookerDir)
	for _, r := range plan.Prune {
		e := Entry{Pruned: r.Kind, Digest: r.Digest, Files: r.Files, Bytes: r.Bytes,
			RecordedAt: r.Time.Format(time.RFC3339), OlderThan: opts.OlderThan, By: By}
		fields := ledger.Fields{TaskID: r.ID, SessionID: strings.TrimPrefix(r.Session, records.StopPrefix)}
		if _, err := ledger.Append(path, keys, ledger.KindPrune, fields, e, now); err != nil {
			return res, fmt.Errorf("prune %s %s: the ledger entry could not be written, so nothing of it was removed: %w", r.Kind, r.ID, err)
		}
		for _, p := range r.paths {
			if err := os.RemoveAll(abs(opts.ProjectDir, p)); err != nil {
				return res, fmt.Errorf("prune %s %s: %w", r.Kind, r.ID, err)
			}
		}
		if r.Session != "" {
			// The session's judgements directory, once its last record went.
			os.Remove(filepath.Join(opts.ProjectDir, r.Session))
		}
		res.Pruned = append(res.Pruned, r)
		res.Bytes += r.Bytes
	}
	return res, nil
}

// Pruned is one record a prune entry of the ledger names.
type Pruned struct {
	ID string
	// Session is the (sanitised) session id an advisory verdict was found
	// by, when it was named by its session rather than its own id.
	Session string
	// At is when it was pruned (the entry's time).
	At    time.Time
	Entry Entry
}

// Find returns the pruned record that typed names in the project's
// ledger, as `show` and every id-taking command resolve ids: the whole id
// in any case, or a part of it at least records.MinPrefix characters long
// that one pruned record alone has; failing that, an advisory verdict's
// Claude Code session id, whole or a part one pruned session alone has
// (the latest pruned verdict of that session speaks for it, as the stop
// file showed the latest). false when none does, or the ledger cannot be
// read.
func Find(projectDir, typed string) (Pruned, bool) {
	a, err := ledger.ReadAudit(ledger.PathFor(projectDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) || len(a.Entries) == 0 {
		return Pruned{}, false
	}
	// A record pruned twice (a prune interrupted between its entry and
	// its files) is one record: its latest entry speaks for it.
	byID, bySession := map[string]Pruned{}, map[string]Pruned{}
	var ids, sessions []string
	for _, e := range a.Entries {
		var rec Entry
		if e.Kind != ledger.KindPrune || json.Unmarshal(e.Record, &rec) != nil {
			continue
		}
		at, _ := time.Parse(time.RFC3339Nano, e.Time)
		if _, seen := byID[e.TaskID]; !seen {
			ids = append(ids, e.TaskID)
		}
		byID[e.TaskID] = Pruned{ID: e.TaskID, At: at, Entry: rec}
		if e.SessionID == "" || rec.Pruned != KindAdvisory {
			continue
		}
		if _, seen := bySession[e.SessionID]; !seen {
			sessions = append(sessions, e.SessionID)
		}
		bySession[e.SessionID] = Pruned{ID: e.TaskID, Session: e.SessionID, At: at, Entry: rec}
	}
	if strings.EqualFold(strings.TrimSpace(typed), records.Last) {
		return Pruned{}, false
	}
	id, err := records.ResolveID(ids, typed, "pruned record")
	if err == nil {
		return byID[id], true
	}
	// A part several pruned ids share names none of them, nor a session.
	if amb := (*records.AmbiguousError)(nil); errors.As(err, &amb) {
		return Pruned{}, false
	}
	if sid, ok := matchSession(sessions, strings.TrimSpace(typed)); ok {
		return bySession[sid], true
	}
	return Pruned{}, false
}

// matchSession finds the one session typed names: its sanitised form
// whole (what the stop file was named by), else a part of at least
// records.MinPrefix characters, compared as Resolve compares stop files.
func matchSession(sessions []string, typed string) (string, bool) {
	if typed == "" {
		return "", false
	}
	whole := store.SanitizeSessionID(typed)
	part := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' {
			return r
		}
		return '_'
	}, typed)
	kinds := make([]records.Match, len(sessions))
	for i, s := range sessions {
		if kinds[i] = records.MatchName(s, part); s == whole {
			kinds[i] = records.ExactMatch
		}
	}
	if best := records.Best(kinds); len(best) == 1 {
		return sessions[best[0]], true
	}
	return "", false
}

// Sentence says what became of a pruned record, for the error of a
// command given its id (or, for an advisory verdict, its session's).
func (p Pruned) Sentence() string {
	what := p.Entry.Pruned + " " + p.ID
	if p.Session != "" {
		what = "the advisory verdict of session " + p.Session + " (" + p.ID + ")"
	}
	return fmt.Sprintf("%s was pruned on %s by %s (older than %s); its ledger entries and the digest of its files are kept",
		what, p.At.UTC().Format("2006-01-02 15:04Z"), p.Entry.By, p.Entry.OlderThan)
}
