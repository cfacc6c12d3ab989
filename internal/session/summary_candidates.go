package session

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// bestOfNSection is the summary's account of a best-of-N task (spec
// §7.17): the candidates, the pairwise comparisons, the choice, what the
// candidates cost together, and where the ones not chosen are.
func bestOfNSection(r *Report) string {
	best := r.BestOfN
	if best == nil {
		return ""
	}
	var b strings.Builder
	n := len(best.Candidates)
	fmt.Fprintf(&b, "**Best of %d:** each candidate ran the task in its own worktree with the usual jury, so the cost is about %d times one run's.\n\n", n, n)
	b.WriteString("| candidate | task | outcome | score | iterations | cost | pairwise wins | change |\n|---|---|---|---|---|---|---|---|\n")
	for _, c := range best.Candidates {
		label := fmt.Sprint(c.Index)
		if c.Index == best.Winner {
			label += " ★"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %d | %s | %s | %s |\n", label, inline(c.TaskID, 40), rules.OutcomeWords(c.Outcome),
			scoreWords(c.Score), c.Iterations, usdWords(c.CostUSD), winsWords(c), changeWords(c))
	}
	b.WriteString("\n")
	for _, c := range best.Candidates {
		if c.Untrusted != "" {
			fmt.Fprintf(&b, "**WARNING: %s.** It was not a finalist and cannot be chosen.\n\n", inline(c.Untrusted, 300))
		}
	}
	if len(best.Comparisons) > 0 {
		b.WriteString("**Pairwise comparisons** (each pair shown to the pairwise judge in both orders; orders that disagree are a tie)\n\n")
		for _, p := range best.Comparisons {
			fmt.Fprintf(&b, "- candidate %d vs %d: %s\n", p.AIndex, p.BIndex, pairwiseWords(p))
		}
		b.WriteString("\n")
	}
	b.WriteString(choiceLine(r) + "\n\n")
	fmt.Fprintf(&b, "**Cost:** %s in all: the candidates %s, the pairwise judge the rest.\n\n", usdWords(r.CostUSD), candidatesCost(best))
	if len(r.Iterations) > 0 {
		fmt.Fprintf(&b, "**Candidate %d's iterations**\n\n", best.Winner)
	}
	return b.String()
}

func scoreWords(s *float64) string {
	if s == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f", *s)
}

func usdWords(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprintf("$%.4f", *v)
}

func winsWords(c records.Candidate) string {
	if c.Untrusted != "" {
		return "— (not trusted)"
	}
	if !c.Finalist {
		return "— (not a finalist)"
	}
	return fmt.Sprint(c.Wins)
}

func changeWords(c records.Candidate) string {
	switch c.State {
	case "applied":
		return "applied"
	case "kept":
		return "kept as `" + inline(c.Branch, 120) + "`"
	case "":
		return "—"
	}
	return c.State
}

// choiceLine says which candidate was chosen, why, and what became of its
// change and of the others'.
func choiceLine(r *Report) string {
	best := r.BestOfN
	if best.Winner == 0 {
		for _, c := range best.Candidates {
			if c.Untrusted != "" {
				return "**Chosen:** none — no candidate that did not abort has a trusted verdict."
			}
		}
		return "**Chosen:** none — every candidate aborted."
	}
	w := best.Candidates[best.Winner-1]
	why := fmt.Sprintf("%d pairwise win(s)", w.Wins)
	if best.TieBreak != "" {
		why += ", tie broken " + best.TieBreak
	}
	var line string
	switch {
	case best.Applied:
		line = fmt.Sprintf("**Chosen:** candidate %d (%s). **Your working tree:** its accepted change was applied as uncommitted changes (review with `git diff`).", w.Index, why)
	case w.Outcome == Accepted:
		line = fmt.Sprintf("**Chosen:** candidate %d (%s). **Your working tree:** unchanged — its accepted change did not apply cleanly; `tribunal-session apply %s` retries after you resolve the overlap.", w.Index, why, w.TaskID)
	default:
		line = fmt.Sprintf("**Best scored:** candidate %d — the gate accepted no candidate, so nothing was applied. **Your working tree:** unchanged.", w.Index)
	}
	return line + " Every candidate's record stays: `tribunal-session show <task>`; a kept change is applied instead with `tribunal-session apply <task>` or dropped with `tribunal-session discard <task>`."
}

// candidatesCost is what the candidates spent, summed.
func candidatesCost(best *records.BestOfN) string {
	var sum float64
	seen := false
	for _, c := range best.Candidates {
		if c.CostUSD != nil {
			sum, seen = sum+*c.CostUSD, true
		}
	}
	if !seen {
		return "unknown"
	}
	return fmt.Sprintf("$%.4f", sum)
}

// guardLines is the summary's account of the iteration guard.
func guardLines(r *Report) string {
	if len(r.Guarded) == 0 {
		return ""
	}
	var lines []string
	for _, p := range r.Guarded {
		what := "the pass stood (" + guardWords(p) + ")"
		if p.Result == records.PreferA {
			what = fmt.Sprintf("not accepted: the judges preferred iteration %d's change in both orders", p.AIndex)
		}
		lines = append(lines, fmt.Sprintf("- iteration %d passed the gate; compared with iteration %d: %s", p.BIndex, p.AIndex, what))
	}
	return "**Iteration guard** (a retry the judges like less than the previous iteration is never accepted)\n\n" + strings.Join(lines, "\n") + "\n\n"
}

// candidateLines is a candidate's own account of the user's working tree.
func candidateLines(r *Report) []string {
	c := r.CandidateOf
	iso := r.Isolation
	if c == nil || iso == nil || iso.State != "kept" {
		return nil
	}
	return []string{fmt.Sprintf("**Your working tree:** unchanged by this run — it is candidate %d of %d of task `%s`, which applies only the chosen candidate's change (`tribunal-session show %s`). This change is kept as `%s`: `tribunal-session apply %s` applies it instead.",
		c.Index, c.Of, c.Parent, c.Parent, iso.Branch, r.TaskID)}
}
