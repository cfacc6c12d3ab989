package history

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// readBestOfN reads a best-of-N task's candidates.json (spec §7.17); nil
// for any other task.
func readBestOfN(dir string) *records.BestOfN {
	var best records.BestOfN
	if err := records.ReadJSON(filepath.Join(dir, records.CandidatesFile), &best); err != nil {
		return nil
	}
	return &best
}

// renderBestOfN is show's account of a best-of-N task: every candidate
// (each a task of its own that show takes), every pairwise comparison with
// both orders' answers, and the winner.
func renderBestOfN(b *strings.Builder, best *records.BestOfN) {
	fmt.Fprintf(b, "\n**best of %d** — finalists compared pairwise, each pair in both orders (orders that disagree are a tie)\n\n", len(best.Candidates))
	for _, c := range best.Candidates {
		facts := []string{rules.OutcomeWords(c.Outcome), "score " + score(c.Score), fmt.Sprintf("%d iteration(s)", c.Iterations)}
		if c.Finalist {
			facts = append(facts, fmt.Sprintf("finalist, %d pairwise win(s)", c.Wins))
		}
		switch c.State {
		case "applied":
			facts = append(facts, "applied")
		case "kept":
			facts = append(facts, "kept as `"+safetext.Inline(c.Branch, 120)+"`")
		}
		fmt.Fprintf(b, "- candidate %d: `%s` %s\n", c.Index, safetext.Inline(c.TaskID, 40), strings.Join(facts, ", "))
	}
	for _, p := range best.Comparisons {
		fmt.Fprintf(b, "- compared %d with %d: %d shown first → %s; %d shown first → %s; result %s\n",
			p.AIndex, p.BIndex, p.AIndex, sideWords(p, p.AFirst), p.BIndex, sideWords(p, p.BFirst), sideWords(p, p.Result))
	}
	if best.Winner == 0 {
		b.WriteString("\nno winner: every candidate aborted\n")
		return
	}
	w := best.Candidates[best.Winner-1]
	fate := "not applied"
	if best.Applied {
		fate = "applied"
	}
	tie := ""
	if best.TieBreak != "" {
		tie = ", tie broken " + best.TieBreak
	}
	fmt.Fprintf(b, "\nwinner: candidate %d (%d pairwise win(s)%s), %s\n", w.Index, w.Wins, tie, fate)
}

// sideWords names the candidate an answer preferred, or the tie.
func sideWords(p records.Pairwise, answer string) string {
	switch answer {
	case records.PreferA:
		return fmt.Sprintf("candidate %d", p.AIndex)
	case records.PreferB:
		return fmt.Sprintf("candidate %d", p.BIndex)
	}
	return "tie"
}

// candidateLine is a candidate's pointer to its best-of-N task.
func candidateLine(m *records.Manifest) string {
	if m == nil || m.Parent == "" {
		return ""
	}
	return fmt.Sprintf("**Candidate** of best-of-N task `%s` (`tribunal-session show %s` compares them all).\n\n",
		safetext.Inline(m.Parent, 40), safetext.Inline(m.Parent, 40))
}
