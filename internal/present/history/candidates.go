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

// renderBestOfN is show's account of a best-of-N task or a set of
// candidate answers: every candidate (each a record of its own that show
// takes), every pairwise comparison with both orders' answers, and the
// result.
func renderBestOfN(b *strings.Builder, best *records.BestOfN) {
	fmt.Fprintf(b, "\n%s\n\n", SetHeading(best, func(s string) string { return "**" + s + "**" }))
	code := func(s string) string { return "`" + s + "`" }
	for _, c := range best.Candidates {
		fmt.Fprintf(b, "- %s: `%s` %s\n", CandidateLabel(best, c), safetext.Inline(c.TaskID, 40), strings.Join(CandidateFacts(best, c, code), ", "))
	}
	for _, p := range best.Comparisons {
		b.WriteString("- " + ComparisonLine(p) + "\n")
	}
	fmt.Fprintf(b, "\n%s\n", SetResult(best, code))
}

// SetHeading says what kind of set best is and how it was decided; strong
// marks its first words (bold in show, plain on a page).
func SetHeading(best *records.BestOfN, strong func(string) string) string {
	if best.Strategy == "" {
		return strong(fmt.Sprintf("best of %d", len(best.Candidates))) +
			" — finalists compared pairwise, each pair in both orders (orders that disagree are a tie)"
	}
	s := strong(fmt.Sprintf("%d candidate answers", len(best.Candidates))) + ", strategy " + safetext.Inline(best.Strategy, 20)
	if best.Used != best.Strategy {
		s += fmt.Sprintf(" (decided by %s: %s)", safetext.Inline(best.Used, 20), safetext.Inline(best.Note, 300))
	}
	return s + " — the accepted ones compared pairwise, each pair in both orders (orders that disagree are a tie)"
}

// CandidateLabel names a candidate: its number, and an answer's file.
func CandidateLabel(best *records.BestOfN, c records.Candidate) string {
	if best.Strategy == "" {
		return fmt.Sprintf("candidate %d", c.Index)
	}
	return fmt.Sprintf("candidate %d (%s)", c.Index, safetext.Inline(c.File, 200))
}

// CandidateFacts are a candidate's outcome, score and part in the
// comparison; code marks a name (a branch) as code.
func CandidateFacts(best *records.BestOfN, c records.Candidate, code func(string) string) []string {
	facts := []string{rules.OutcomeWords(c.Outcome), "score " + score(c.Score)}
	if best.Strategy == "" {
		facts = append(facts, fmt.Sprintf("%d iteration(s)", c.Iterations))
	}
	if c.Finalist {
		facts = append(facts, fmt.Sprintf("finalist, %d pairwise win(s)", c.Wins))
	}
	if best.Strategy == "" {
		switch c.State {
		case "applied":
			facts = append(facts, "applied")
		case "kept":
			facts = append(facts, "kept as "+code(safetext.Inline(c.Branch, 120)))
		}
	}
	return facts
}

// SetResult is the set's outcome in one line: the winner, the merged
// answer, or why there is none. A winner outside the candidates (a
// damaged file) is said, not indexed.
func SetResult(best *records.BestOfN, code func(string) string) string {
	if best.Merged != "" {
		id := safetext.Inline(best.Merged, 40)
		return fmt.Sprintf("merged answer: %s, judged as an answer (%s)", code(id), code("tribunal-session show "+id))
	}
	if best.Winner == 0 {
		if best.Strategy != "" {
			return "no answer chosen: every candidate stopped before its verdict"
		}
		return "no winner: every candidate aborted"
	}
	if best.Winner < 0 || best.Winner > len(best.Candidates) {
		return fmt.Sprintf("winner: candidate %d, which the file does not list (damaged)", best.Winner)
	}
	w := best.Candidates[best.Winner-1]
	tie := ""
	if best.TieBreak != "" {
		tie = ", tie broken " + best.TieBreak
	}
	line := fmt.Sprintf("winner: candidate %d (%d pairwise win(s)%s)", w.Index, w.Wins, tie)
	if best.Strategy != "" {
		return line
	}
	if best.Applied {
		return line + ", applied"
	}
	return line + ", not applied"
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
