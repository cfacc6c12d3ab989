package events

import "fmt"

// Best of N (spec §7.17) is told in the canonical Onlooker types only:
// the schema's payloads are closed and it knows no best-of-N type, so an
// event of tribunal's own would be invalid for every onlooker consumer
// (issue 32). Each candidate is a task of its own, whose events — its
// tribunal.session.complete among them — say how it ended; the best-of-N
// task's session.complete says the outcome and the winner's score; and a
// pairwise comparison is a judge's verdict, PairwiseVerdict. Which
// candidate belongs to which task, and which one won, are in the task's
// candidates.json and report.

// Pairwise is one pairwise comparison, as PairwiseVerdict tells it.
type Pairwise struct {
	TaskID string
	// IterationID is the retry an iteration guard compared; "" for a
	// comparison of candidates, which belongs to no iteration.
	IterationID string
	// JudgeID is a fresh ULID naming this comparison.
	JudgeID string
	// Context is "candidates" or "iteration_guard".
	Context string
	// AID and BID name the sides (candidate task ids, or iteration ids);
	// AFirst, BFirst and Result are "a", "b" or "tie" in their terms.
	AID, BID               string
	AFirst, BFirst, Result string
	ModelID                string
}

// PairwiseVerdict is the tribunal.verdict of a pairwise comparison: the
// pairwise judge is the meta-judge's seat (judge_type "meta"); score is
// how strongly side A was preferred (1 both orders for A, 0 both for B,
// 0.5 a tie, which disagreeing orders are); passed says the comparison
// decided (not a tie); feedback_summary names both sides and each order's
// answer, so the event alone says what was compared.
func PairwiseVerdict(p Pairwise) Verdict {
	score := 0.5
	switch p.Result {
	case "a":
		score = 1
	case "b":
		score = 0
	}
	return Verdict{
		TaskID: p.TaskID, IterationID: p.IterationID, JudgeID: p.JudgeID, JudgeModelID: p.ModelID,
		JudgeType: "meta", Score: score, Passed: p.Result == "a" || p.Result == "b",
		FeedbackSummary: fmt.Sprintf("pairwise (%s): a=%s b=%s; a shown first: %s; b shown first: %s; result: %s",
			p.Context, p.AID, p.BID, p.AFirst, p.BFirst, p.Result),
	}
}
