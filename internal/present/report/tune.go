package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/judging/tune"
)

// tunePage is a tune run's page: the decision with its evidence — every
// candidate and its train figures, every held-out pair, the diff.
type tunePage struct {
	Page                      head
	ID, Outcome, OutcomeClass string
	Reason, GateLine, Diff    string
	Facts                     []fact
	Candidates                []tuneCandidate
	Pairs                     []tunePair
}

type tuneCandidate struct {
	ID, Edits, Cites, Reason, Train string
	Generation                      int
}

type tunePair struct{ ID, Label, Before, After, Change string }

// Tune writes the page of one recorded tune run (spec §14.7).
func Tune(w io.Writer, rec tune.Record, now time.Time) error {
	if rec.Result == nil {
		return fmt.Errorf("tune run %s has no result", rec.ID)
	}
	r := rec.Result
	p := tunePage{Page: newHead("tune run "+rec.ID, now), ID: rec.ID, Outcome: r.Outcome, Reason: r.Reason, Diff: rec.Diff,
		OutcomeClass: map[string]string{tune.Ship: "o-accepted", tune.Hold: "o-rejected", tune.Aborted: "o-aborted"}[r.Outcome]}
	if p.OutcomeClass == "" {
		p.OutcomeClass = "o-incomplete"
	}
	p.Facts = []fact{{"Rubric", rec.RubricID}, {"Cases", rec.Source}, {"Time", rec.Time},
		{"Split", fmt.Sprintf("%d train, %d held-out", len(r.TrainIDs), len(r.HeldOutIDs))},
		{"Gate", fmt.Sprintf("%s, Δ %g", r.Gate, r.Delta)},
		{"Spent", fmt.Sprintf("$%.4f of $%.2f", r.SpentUSD, r.BudgetUSD)}}
	if n := r.Noise; n.Known {
		p.Facts = append(p.Facts, fact{"Noise", fmt.Sprintf("agreement %.3f [%.3f, %.3f] over %d rollouts", n.Mean, n.Low, n.High, len(n.Rollouts))})
	}
	for _, g := range r.Generations {
		for _, c := range g.Candidates {
			train := c.Error
			if train == "" && c.Train.Agreement != nil {
				train = fmt.Sprintf("agreement %.3f", *c.Train.Agreement)
			}
			p.Candidates = append(p.Candidates, tuneCandidate{ID: c.ID, Generation: g.N, Edits: tune.Summary(c.Proposal),
				Cites: strings.Join(c.Proposal.Cites, ", "), Reason: c.Proposal.Reason, Train: train})
		}
	}
	if d := r.Decision; d != nil {
		p.GateLine = fmt.Sprintf("%s against the current rubric: %d valid pair(s)", r.Finalist, d.Valid)
		if l := d.Lift; l != nil {
			p.GateLine += fmt.Sprintf("; agreement lift %+.3f, 95%% interval [%+.3f, %+.3f]", l.Mean, l.Low, l.High)
		}
		for _, pr := range d.Pairs {
			change := fmt.Sprintf("%+d", pr.Improved)
			if pr.Dropped {
				change = "dropped"
			}
			p.Pairs = append(p.Pairs, tunePair{ID: pr.ID, Label: pr.Label, Before: pr.Before.Decision, After: pr.After.Decision, Change: change})
		}
	}
	if err := assetsOnce().pages.ExecuteTemplate(w, "tune.html.tmpl", p); err != nil {
		return fmt.Errorf("render tune run %s: %w", rec.ID, err)
	}
	return nil
}
