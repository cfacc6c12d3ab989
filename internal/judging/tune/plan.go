package tune

import (
	"fmt"
	"strings"
)

// Plan is what a run would do at most: --dry-run prints it, nothing is
// judged. Judgings counts case judgings (each a whole jury round).
type Plan struct {
	Cases, Train, HeldOut int
	Repeats, Generations  int
	Population            int
	Judgings              int
	ProposerCalls         int
	MinCases              int
	// PerJudging is the recorded cost of one judging (0: no history).
	PerJudging float64
	// History says where PerJudging came from.
	History   string
	BudgetUSD float64
	Gate      string
	Delta     float64
}

// PlanOf is the plan of o: K rollouts of the train part, per generation
// one proposer call and up to Population candidates on the train part,
// then the current surface and the finalist on the held-out part.
func PlanOf(o Options) Plan {
	o.defaults()
	var p Plan
	for _, c := range o.Cases {
		p.Cases++
		if heldOutCase(c.ID, o.Holdout) {
			p.HeldOut++
		} else {
			p.Train++
		}
	}
	p.Repeats, p.Generations, p.Population, p.MinCases = o.Repeats, o.Generations, o.Population, o.MinCases
	p.BudgetUSD, p.Gate, p.Delta = o.BudgetUSD, o.Gate, o.Delta
	cands := o.Generations*o.Population + len(o.Seeds)
	p.Judgings = o.Repeats*p.Train + cands*p.Train + 2*p.HeldOut
	p.ProposerCalls = o.Generations
	return p
}

// Text is the plan as --dry-run prints it.
func (p Plan) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Plan: %d labelled case(s) — %d train, %d held-out (tune.min_cases %d", p.Cases, p.Train, p.HeldOut, p.MinCases)
	if p.Cases < p.MinCases {
		fmt.Fprintf(&b, ": %d more needed, the run would refuse", p.MinCases-p.Cases)
	}
	b.WriteString(")\n")
	fmt.Fprintf(&b, "- measure: the current surface %d time(s) on the train part (its noise)\n", p.Repeats)
	fmt.Fprintf(&b, "- propose: %d generation(s), each one proposer call and up to %d candidate(s) judged on the train part\n", p.Generations, p.Population)
	fmt.Fprintf(&b, "- gate: the best candidate and the current surface on the held-out part, pair by pair (%s, Δ %g)\n", p.Gate, p.Delta)
	fmt.Fprintf(&b, "At most %d case judging(s) and %d proposer call(s); budget $%.2f\n", p.Judgings, p.ProposerCalls, p.BudgetUSD)
	if p.PerJudging > 0 {
		est := p.PerJudging * float64(p.Judgings+p.ProposerCalls)
		fmt.Fprintf(&b, "Estimated cost: up to $%.2f at $%.4f a judging (%s)", est, p.PerJudging, p.History)
		if est > p.BudgetUSD {
			fmt.Fprintf(&b, "; the budget would stop it first")
		}
		b.WriteString("\n")
	} else {
		b.WriteString("Estimated cost: unknown — no recorded judging in this project to price one; the budget caps the spend\n")
	}
	return b.String()
}
