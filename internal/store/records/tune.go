package records

import (
	"os"
	"path/filepath"
	"sort"
)

// The records of `tribunal-session tune` (spec §14.7): one directory per
// run, tune/<run id>/, named by a ULID so that name order is time order.
const (
	TuneDir = "tune"
	// TuneResultFile is the run's whole evidence: split, noise, every
	// generation's candidates and scores, the gate's pairs and decision.
	TuneResultFile = "tune.json"
	// TuneRubricFile and TuneDiffFile are a shipped run's rubric and its
	// diff against the rubric it was tuned from.
	TuneRubricFile = "rubric.json"
	TuneDiffFile   = "rubric.diff"
	// TuneEventsFile is the run's events (tribunal.tune.generation and
	// tribunal.tune.decided) in the Onlooker envelope; they are kept here
	// because the shared log takes only the canonical types.
	TuneEventsFile = "events.jsonl"
	// TuneAppliedFile marks a run whose rubric `tune apply` put in place.
	TuneAppliedFile = "applied.json"
)

// TunePath is the directory of one tune run.
func TunePath(projectDir, id string) string { return filepath.Join(projectDir, TuneDir, id) }

// ListTunes returns the project's tune run ids, oldest first; a name that
// is not a ULID is not a run.
func ListTunes(projectDir string) []string {
	ents, err := os.ReadDir(filepath.Join(projectDir, TuneDir))
	if err != nil {
		return nil
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() && ValidID(e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	sort.Strings(ids)
	return ids
}
