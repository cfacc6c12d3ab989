package session

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
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
	// onHit is told of each suppressed finding, kept of each finding
	// still raised with its fingerprint (a review records both).
	onHit func(dismiss.Hit)
	kept  func(f severity.Finding, fp string)
	// added are the lines the judged change adds (dismiss.AddedLines),
	// whose inline markers do not count; nil trusts every marker.
	added map[string]map[int]bool
}

// useDismissals makes the run's rounds drop dismissed findings before
// the gate weighs them and tell the judges what was dismissed and why
// (withDismissals).
func (r *runner) useDismissals(d *dismissals) { r.dismissed = d }

// withDismissals sets a round's dismissal filter and list, when the run
// uses dismissals.
func (r *runner) withDismissals(in *judging.Input) {
	if r.dismissed == nil {
		return
	}
	in.Keep, in.Dismissals = r.keepRaised, r.dismissalSet()
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
		shared = r.sharedDismissals()
	}
	set, err := dismiss.Load(dismiss.Sources{Shared: shared, Personal: filepath.Join(r.project.Dir, records.DismissalsFile)})
	if err != nil {
		r.Warn(err.Error())
	}
	d.set = set
	return set
}

// keepRaised is the engine's Keep: the findings no dismissal covers; each
// suppression is logged (records.SuppressionsFile), and an invalid inline
// dismissal is a warning.
func (r *runner) keepRaised(fs []severity.Finding) []severity.Finding {
	d, set := r.dismissed, r.dismissalSet()
	set.Added = d.added
	kept, fps, hits := set.Filter(r.workDir, fs)
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
	if d.kept != nil {
		for i, f := range kept {
			d.kept(f, fps[i])
		}
	}
	r.ledgerInline(log, hits)
	if err := dismiss.LogSuppressions(filepath.Join(r.project.Dir, records.SuppressionsFile), log); err != nil {
		r.Warn(err.Error())
	}
	return kept
}

// ledgerInline puts an inline dismissal in the ledger the first time it
// suppresses a finding in this project (no line of the suppression log
// names it yet): a dismissal made in the code has no command that could
// record it, and every dismissal is in the ledger (spec §7.16).
func (r *runner) ledgerInline(log []dismiss.Suppression, hits []dismiss.Hit) {
	var seen map[string]int
	for i, h := range hits {
		if h.Entry.Scope != dismiss.InCode {
			continue
		}
		if seen == nil {
			seen, _, _ = dismiss.CountSuppressions(filepath.Join(r.project.Dir, records.SuppressionsFile))
		}
		key := log[i].Inline
		if seen[key] > 0 {
			continue
		}
		seen[key]++
		e := h.Entry
		e.Source, e.At, e.Severity, e.Message = r.taskID, log[i].At, h.Finding.Severity, h.Finding.Message
		rec := struct {
			Action string `json:"action"`
			dismiss.Entry
		}{"inline", e}
		if _, err := ledger.Append(ledger.PathFor(r.project.Dir), ledger.KeyDir(r.emitter.Dir), ledger.KindDismiss,
			ledger.Fields{TaskID: r.taskID, SessionID: r.opts.SessionID, Redact: r.Redact}, rec, r.Now()); err != nil {
			r.Warn(fmt.Sprintf("the inline dismissal at %s is not in the ledger: %v", key, err))
		}
	}
}
