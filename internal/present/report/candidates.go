package report

import (
	"strings"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// candidatesPage is a best-of-N task's or a candidate-answer set's
// comparison, in the words show uses: the candidates, each pairwise
// comparison with both orders, and the result.
type candidatesPage struct {
	Heading     string
	Rows        []candidateRow
	Comparisons []string
	Result      string
}

type candidateRow struct {
	Label, TaskID, Outcome, OutcomeClass, Glyph, Facts string
	Winner                                             bool
}

func buildCandidates(best *records.BestOfN) *candidatesPage {
	if best == nil {
		return nil
	}
	plain := func(s string) string { return s }
	p := &candidatesPage{Heading: history.SetHeading(best, plain), Result: history.SetResult(best, plain)}
	for i, c := range best.Candidates {
		facts := history.CandidateFacts(best, c, plain)
		if len(facts) > 0 {
			facts = facts[1:] // the outcome has its own badge
		}
		p.Rows = append(p.Rows, candidateRow{
			Label: history.CandidateLabel(best, c), TaskID: c.TaskID,
			Outcome: c.Outcome, OutcomeClass: outcomeClass(c.Outcome), Glyph: rules.Glyph(c.Outcome),
			Facts: strings.Join(facts, ", "), Winner: best.Winner == i+1 && best.Merged == "",
		})
	}
	for _, cmp := range best.Comparisons {
		p.Comparisons = append(p.Comparisons, history.ComparisonLine(cmp))
	}
	return p
}
