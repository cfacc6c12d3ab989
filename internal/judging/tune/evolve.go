package tune

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// evolve runs the generations: the seeds first, then each generation the
// proposer reads the best surface's train failures and proposes up to
// Population candidates, each scored on the train part.
func (t *tuner) evolve(ctx context.Context, seeds []Surface) error {
	parent := Parent{ID: "current", Surface: t.o.Base, Cells: t.r.BaselineTrain, Agreement: agreement(t.r.Baseline)}
	if len(seeds) > 0 {
		g := Generation{N: 0}
		for i, s := range seeds {
			c, err := t.candidate(ctx, parent, t.o.Seeds[i], s, "--try")
			g.Candidates = append(g.Candidates, c)
			if err != nil {
				t.r.Generations = append(t.r.Generations, g)
				t.emitGeneration(g)
				return err
			}
		}
		t.r.Generations = append(t.r.Generations, g)
		t.emitGeneration(g)
		parent = t.best(parent, g)
	}
	for n := 1; n <= t.o.Generations; n++ {
		g := Generation{N: n, Parent: parent.ID}
		err := t.generation(ctx, parent, &g)
		t.r.Generations = append(t.r.Generations, g)
		t.emitGeneration(g)
		if err != nil {
			return err
		}
		parent = t.best(parent, g)
	}
	return nil
}

// emitGeneration records a generation as an event.
func (t *tuner) emitGeneration(g Generation) {
	e := events.TuneGeneration{TaskID: t.o.ID, Generation: g.N, Candidates: len(g.Candidates), SpentUSD: t.r.SpentUSD}
	for _, c := range g.Candidates {
		if c.Error != "" {
			e.Dropped++
			continue
		}
		if a := c.Train.Agreement; a != nil && (e.BestTrainAgreement == nil || *a > *e.BestTrainAgreement) {
			e.BestTrainAgreement = a
		}
	}
	t.d.Emit(e)
}

// Parent is the surface a generation starts from.
type Parent struct {
	ID        string
	Surface   Surface
	Cells     map[string]Cell
	Agreement float64
}

func (t *tuner) generation(ctx context.Context, parent Parent, g *Generation) error {
	fails := t.failures(parent.Cells)
	if len(fails) == 0 {
		t.d.Progress(fmt.Sprintf("generation %d: the surface decides every train case as labelled; nothing to propose", g.N))
		return nil
	}
	if err := t.afford(ctx); err != nil {
		return err
	}
	props, cost, err := t.d.Proposer.Propose(ctx, Request{Surface: parent.Surface, Failures: fails, Want: t.o.Population})
	t.r.SpentUSD += cost
	g.ProposerCostUSD = cost
	if err != nil {
		g.ProposerError = err.Error()
		t.d.Warn(fmt.Sprintf("generation %d: the proposer failed: %v", g.N, err))
		return nil
	}
	t.d.Progress(fmt.Sprintf("generation %d: %d proposal(s) from %d train failure(s), $%.4f of $%.2f spent", g.N, len(props), len(fails), t.r.SpentUSD, t.o.BudgetUSD))
	for _, p := range props[:min(len(props), t.o.Population)] {
		s, why := t.admit(parent, p, fails)
		if why != "" {
			t.d.Warn(fmt.Sprintf("generation %d: proposal dropped: %s", g.N, why))
			g.Candidates = append(g.Candidates, Candidate{ID: t.nextID(), Parent: parent.ID, Proposal: p, Error: why})
			continue
		}
		c, err := t.candidate(ctx, parent, p, s, fmt.Sprintf("generation %d", g.N))
		g.Candidates = append(g.Candidates, c)
		if err != nil {
			return err
		}
	}
	return nil
}

// admit checks a proposal: it cites train failures only (a cited case the
// proposer was not shown is refused, held-out or not), and its surface is
// a valid rubric. why is "" when it is admitted.
func (t *tuner) admit(parent Parent, p Proposal, fails []Failure) (Surface, string) {
	if len(p.Cites) == 0 {
		return Surface{}, "it cites no failed train case"
	}
	for _, id := range p.Cites {
		if !slices.ContainsFunc(fails, func(f Failure) bool { return f.ID == id }) {
			return Surface{}, fmt.Sprintf("it cites %q, which is not a failed train case", id)
		}
	}
	s, err := parent.Surface.Apply(p)
	if err == nil {
		err = t.d.Scorer.Check(s)
	}
	if err != nil {
		return Surface{}, err.Error()
	}
	return s, ""
}

func (t *tuner) candidate(ctx context.Context, parent Parent, p Proposal, s Surface, what string) (Candidate, error) {
	c := Candidate{ID: t.nextID(), Parent: parent.ID, Proposal: p, Surface: s}
	cells, err := t.scoreAll(ctx, s, t.r.TrainIDs, fmt.Sprintf("%s, candidate %s (%s)", what, c.ID, Summary(p)))
	c.cells = cells
	c.Train = t.figures(cells, t.r.TrainIDs)
	if err != nil {
		c.Error = "not fully judged: " + err.Error()
	}
	return c, err
}

func (t *tuner) nextID() string {
	t.seq++
	return fmt.Sprintf("c%d", t.seq)
}

// best is the better of the parent and the generation's best candidate.
func (t *tuner) best(parent Parent, g Generation) Parent {
	for _, c := range g.Candidates {
		if c.Error == "" && agreement(c.Train) > parent.Agreement {
			parent = Parent{ID: c.ID, Surface: c.Surface, Cells: c.cells, Agreement: agreement(c.Train)}
		}
	}
	return parent
}

// failures are the train cases cells decide against their label, in the
// train order: all the proposer may see.
func (t *tuner) failures(cells map[string]Cell) []Failure {
	var out []Failure
	for _, id := range t.r.TrainIDs {
		c, ok := cells[id]
		if !ok || !c.decided() || c.agrees(t.byID[id].Label) == 1 {
			continue
		}
		cs := t.byID[id]
		out = append(out, Failure{ID: id, Task: cs.Task, Diff: cs.Diff, Label: cs.Label, Decision: c.Decision})
	}
	return out
}

// gate scores the current surface and the finalist on the held-out part
// and decides. A budget spent on the way stops the run like any other
// step: no decision is made on part of the pairs.
func (t *tuner) gate(ctx context.Context, best *Candidate) error {
	before, err := t.scoreAll(ctx, t.o.Base, t.r.HeldOutIDs, "held-out: current surface")
	if err != nil {
		return err
	}
	after, err := t.scoreAll(ctx, best.Surface, t.r.HeldOutIDs, "held-out: candidate "+best.ID)
	if err != nil {
		return err
	}
	labels := map[string]string{}
	for _, id := range t.r.HeldOutIDs {
		labels[id] = t.byID[id].Label
	}
	dec := Judge(t.o.Gate, t.o.Delta, labels, t.r.HeldOutIDs, before, after)
	t.r.Decision, t.r.Finalist = &dec, best.ID
	t.r.Outcome, t.r.Reason, t.r.MoreCases = dec.Outcome, dec.Reason, dec.MoreCases
	if dec.Outcome == Ship {
		t.r.Winner = best
	}
	return nil
}

// Summary is a proposal's edits in one line.
func Summary(p Proposal) string {
	var parts []string
	for _, e := range p.Edits {
		s := e.Op
		if e.Criterion != "" {
			s += " " + fmt.Sprintf("%q", e.Criterion)
		}
		if e.Name != "" {
			s += " → " + fmt.Sprintf("%q", e.Name)
		}
		if e.Value != nil {
			s += fmt.Sprintf(" = %g", *e.Value)
		}
		if e.Directive != "" {
			s += " " + fmt.Sprintf("%q", e.Directive)
		}
		if e.Text != "" {
			s += " → " + fmt.Sprintf("%q", e.Text)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}
