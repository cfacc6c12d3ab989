package tune

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// Text is the run's report as `tune` prints it: what was measured, the
// noise, each generation's candidates, the gate and the outcome.
func (r *Result) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Metric: agreement with the labels (catch rate and false-intervention rate beside it), %d train and %d held-out case(s), split by a hash of each id\n",
		len(r.TrainIDs), len(r.HeldOutIDs))
	fmt.Fprintf(&b, "Gate: %s (Δ %s); budget $%.2f\n", r.Gate, fmtNum(r.Delta), r.BudgetUSD)
	if r.Baseline.N > 0 {
		fmt.Fprintf(&b, "Current surface on train: %s\n", figures(r.Baseline))
	}
	if n := r.Noise; len(n.Rollouts) > 0 {
		fmt.Fprintf(&b, "Noise over %d rollout(s): agreement %s", len(n.Rollouts), joinNums(n.Rollouts))
		if n.Known {
			fmt.Fprintf(&b, ", mean %.3f, 95%% interval [%.3f, %.3f]", n.Mean, n.Low, n.High)
		}
		if n.CV != nil {
			fmt.Fprintf(&b, ", CV %.3f", *n.CV)
		}
		b.WriteString("\n")
	}
	for _, g := range r.Generations {
		writeGeneration(&b, g)
	}
	if d := r.Decision; d != nil {
		writeDecision(&b, r.Finalist, d)
	}
	fmt.Fprintf(&b, "Outcome: %s — %s\n", r.Outcome, r.Reason)
	fmt.Fprintf(&b, "Spent: $%.4f of $%.2f\n", r.SpentUSD, r.BudgetUSD)
	return b.String()
}

func writeGeneration(b *strings.Builder, g Generation) {
	if g.N == 0 {
		fmt.Fprintf(b, "Your proposals (--try): %d candidate(s)\n", len(g.Candidates))
	} else {
		fmt.Fprintf(b, "Generation %d (from %s): %d candidate(s), proposer $%.4f\n", g.N, g.Parent, len(g.Candidates), g.ProposerCostUSD)
	}
	if g.ProposerError != "" {
		fmt.Fprintf(b, "  the proposer failed: %s\n", g.ProposerError)
	}
	for _, c := range g.Candidates {
		fmt.Fprintf(b, "  %s: %s\n", c.ID, Summary(c.Proposal))
		if len(c.Proposal.Cites) > 0 || c.Proposal.Reason != "" {
			fmt.Fprintf(b, "    cites %s: %s\n", strings.Join(c.Proposal.Cites, ", "), oneLine(c.Proposal.Reason))
		}
		if c.Error != "" {
			fmt.Fprintf(b, "    dropped: %s\n", c.Error)
			continue
		}
		fmt.Fprintf(b, "    train: %s\n", figures(c.Train))
	}
}

func writeDecision(b *strings.Builder, finalist string, d *Decision) {
	dropped := 0
	for _, p := range d.Pairs {
		if p.Dropped {
			dropped++
		}
	}
	fmt.Fprintf(b, "Held-out gate: %s against the current surface, %d valid pair(s), %d dropped (an errored cell removes its pair)\n", finalist, d.Valid, dropped)
	if l := d.Lift; l != nil {
		fmt.Fprintf(b, "  agreement lift %+.3f, 95%% interval [%+.3f, %+.3f]\n", l.Mean, l.Low, l.High)
	}
	if f := d.FalseInt; f != nil {
		fmt.Fprintf(b, "  false-intervention change %+.3f [%+.3f, %+.3f] over %d accepted case(s)\n", f.Mean, f.Low, f.High, f.N)
	}
	if c := d.Cost; c != nil {
		fmt.Fprintf(b, "  cost per case %+.4f USD [%+.4f, %+.4f]\n", c.Mean, c.Low, c.High)
	}
}

func figures(f judgestats.Figures) string {
	return fmt.Sprintf("agreement %s, catch rate %s, false-intervention rate %s (%d decided, %d failed)",
		ptr(f.Agreement), ptr(f.CatchRate), ptr(f.FalseInterventionRate), f.Decided, f.Failures)
}

func ptr(f *float64) string {
	if f == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", *f)
}

func fmtNum(f float64) string { return fmt.Sprintf("%g", f) }

func joinNums(xs []float64) string {
	var s []string
	for _, x := range xs {
		s = append(s, fmt.Sprintf("%.3f", x))
	}
	return strings.Join(s, " ")
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
