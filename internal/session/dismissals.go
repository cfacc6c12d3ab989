package session

import (
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/prompts"
	"github.com/tribunal-cc/tribunal/internal/records"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// dismissals are a run's dismissed findings (internal/dismiss), read once
// when the judges first need them, from the judged tree (shared file,
// inline comments) and the project's store (the person's own list).
type dismissals struct {
	// shared overrides the shared file's path (review --dismissed).
	shared string
	// where names the run in the suppression log: "run" or "review".
	where string
	set   *dismiss.Set
	// onHit is told of each suppressed finding (a review counts them).
	onHit func(dismiss.Hit)
}

// dismissalSet loads the set on first use; a file that cannot be read is
// a warning, and the run goes on with what could be read.
func (r *runner) dismissalSet() *dismiss.Set {
	d := r.dismissed
	if d.set != nil {
		return d.set
	}
	shared := d.shared
	if shared == "" {
		shared = filepath.Join(r.workDir, filepath.FromSlash(dismiss.SharedFile))
	}
	set, err := dismiss.Load(dismiss.Sources{Shared: shared, Personal: filepath.Join(r.project.Dir, records.DismissalsFile)})
	if err != nil {
		r.Warn(err.Error())
	}
	d.set = set
	return set
}

// useDismissals makes the run drop dismissed findings before the gate
// weighs them (runner.tally), log each suppression, and tell the judges
// what was dismissed (promptDismissed).
func (r *runner) useDismissals(d *dismissals) {
	r.dismissed = d
	r.dismiss = func(fs []severity.Finding) []severity.Finding {
		set := r.dismissalSet()
		kept, _, hits := set.Filter(r.workDir, fs)
		for _, p := range set.Problems {
			r.Warn(p)
		}
		set.Problems = nil
		var log []dismiss.Suppression
		for _, h := range hits {
			log = append(log, dismiss.SuppressionOf(h, r.Now().UTC().Format(time.RFC3339), d.where, r.taskID))
			if d.onHit != nil {
				d.onHit(h)
			}
		}
		if err := dismiss.LogSuppressions(filepath.Join(r.project.Dir, records.SuppressionsFile), log); err != nil {
			r.Warn(err.Error())
		}
		return kept
	}
}

// promptDismissed are the dismissals a judge shown material is told of:
// those on a file the material names, and those on no file.
func (r *runner) promptDismissed(material ...string) []prompts.Dismissed {
	if r.dismissed == nil {
		return nil
	}
	text := strings.Join(material, "\n")
	var files []string
	for _, e := range r.dismissalSet().Entries() {
		if e.File != "" && strings.Contains(text, e.File) {
			files = append(files, e.File)
		}
	}
	return r.dismissalSet().Prompt(files)
}
