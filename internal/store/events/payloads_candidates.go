package events

// The best-of-N events (spec §7.17) are tribunal's own additions to the
// Onlooker payload schema (internal/testkit/schemacheck/testdata/README.md): the candidates
// of a `run --candidates N` task, the pairwise comparisons that rank them
// (and guard a retry against its previous iteration), and the winner.

// CandidateComplete is the tribunal.candidate.complete payload: one
// candidate of a best-of-N task ended. TaskID is the best-of-N task;
// the candidate ran as its own task, CandidateTaskID.
type CandidateComplete struct {
	TaskID          string   `json:"task_id" check:"id"`
	CandidateTaskID string   `json:"candidate_task_id" check:"id"`
	CandidateIndex  int      `json:"candidate_index" check:"min=1"`
	Outcome         string   `json:"outcome" check:"enum=outcome"`
	Finalist        bool     `json:"finalist"`
	FinalScore      *float64 `json:"final_score,omitempty" check:"unit"`
	IterationsUsed  *int     `json:"iterations_used,omitempty" check:"min=0"`
	TotalCostUSD    *float64 `json:"total_cost_usd,omitempty" check:"nonneg"`
}

// EventType returns "tribunal.candidate.complete".
func (CandidateComplete) EventType() string { return "tribunal.candidate.complete" }

// PairwiseCompared is the tribunal.pairwise.compared payload: two changes
// compared in both orders. AID and BID name them (candidate task ids, or
// iteration ids for the iteration guard); each order's answer and the
// result say "a", "b" or "tie" in those names, whatever order was shown.
type PairwiseCompared struct {
	TaskID       string `json:"task_id" check:"id"`
	Context      string `json:"context" check:"enum=pairwise_context"`
	AID          string `json:"a_id" check:"id"`
	BID          string `json:"b_id" check:"id"`
	AFirst       string `json:"a_first" check:"enum=preference"`
	BFirst       string `json:"b_first" check:"enum=preference"`
	Result       string `json:"result" check:"enum=preference"`
	JudgeModelID string `json:"judge_model_id,omitempty"`
}

// EventType returns "tribunal.pairwise.compared".
func (PairwiseCompared) EventType() string { return "tribunal.pairwise.compared" }

// CandidateChosen is the tribunal.candidate.chosen payload: the winner of
// a best-of-N task and whether its change reached the user's tree.
type CandidateChosen struct {
	TaskID          string `json:"task_id" check:"id"`
	CandidateTaskID string `json:"candidate_task_id" check:"id"`
	CandidateIndex  int    `json:"candidate_index" check:"min=1"`
	Candidates      int    `json:"candidates" check:"min=1"`
	Finalists       int    `json:"finalists" check:"min=1"`
	PairwiseWins    int    `json:"pairwise_wins" check:"min=0"`
	Applied         bool   `json:"applied"`
}

// EventType returns "tribunal.candidate.chosen".
func (CandidateChosen) EventType() string { return "tribunal.candidate.chosen" }
