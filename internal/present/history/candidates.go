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
	if best.Strategy != "" {
		renderAnswerSet(b, best)
		return
	}
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
		b.WriteString("- " + ComparisonLine(p) + "\n")
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

// renderAnswerSet is show's account of `judge --candidates` (spec
// §7.20): every candidate answer (each an answer record show takes), the
// comparisons, and the winner or the merged answer.
func renderAnswerSet(b *strings.Builder, best *records.BestOfN) {
	fmt.Fprintf(b, "\n**%d candidate answers**, strategy %s", len(best.Candidates), safetext.Inline(best.Strategy, 20))
	if best.Used != best.Strategy {
		fmt.Fprintf(b, " (decided by %s: %s)", safetext.Inline(best.Used, 20), safetext.Inline(best.Note, 300))
	}
	b.WriteString(" — the accepted ones compared pairwise, each pair in both orders (orders that disagree are a tie)\n\n")
	for _, c := range best.Candidates {
		facts := []string{rules.OutcomeWords(c.Outcome), "score " + score(c.Score)}
		if c.Finalist {
			facts = append(facts, fmt.Sprintf("finalist, %d pairwise win(s)", c.Wins))
		}
		fmt.Fprintf(b, "- candidate %d (%s): `%s` %s\n", c.Index, safetext.Inline(c.File, 200), safetext.Inline(c.TaskID, 40), strings.Join(facts, ", "))
	}
	for _, p := range best.Comparisons {
		b.WriteString("- " + ComparisonLine(p) + "\n")
	}
	switch {
	case best.Merged != "":
		fmt.Fprintf(b, "\nmerged answer: `%s`, judged as an answer (`tribunal-session show %s`)\n", safetext.Inline(best.Merged, 40), safetext.Inline(best.Merged, 40))
	case best.Winner > 0:
		w := best.Candidates[best.Winner-1]
		fmt.Fprintf(b, "\nwinner: candidate %d (%d pairwise win(s)%s)\n", w.Index, w.Wins, map[bool]string{true: ", tie broken " + best.TieBreak, false: ""}[best.TieBreak != ""])
	default:
		b.WriteString("\nno answer chosen: every candidate stopped before its verdict\n")
	}
}

// ComparisonLine is one pairwise comparison in words: both orders'
// answers and the result (show, and judge --candidates' text).
func ComparisonLine(p records.Pairwise) string {
	return fmt.Sprintf("compared %d with %d: %d shown first → %s; %d shown first → %s; result %s",
		p.AIndex, p.BIndex, p.AIndex, sideWords(p, p.AFirst), p.BIndex, sideWords(p, p.BFirst), sideWords(p, p.Result))
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
