package records

// CandidatesFile is a best-of-N task's record of its candidates and of
// the pairwise comparisons that chose among them (spec §7.17);
// GuardFile is an iteration's record of the pairwise comparison that
// guarded its gate pass against the previous iteration.
const (
	CandidatesFile = "candidates.json"
	GuardFile      = "pairwise-guard.json"
	// KindCandidate marks a task that ran as one candidate of a best-of-N
	// task (its manifest names the parent).
	KindCandidate = "candidate"
	// KindBestOfN marks the best-of-N task itself: no iteration of its own,
	// its candidates and their comparisons in CandidatesFile.
	KindBestOfN = "best_of_n"
)

// BestOfN is CandidatesFile.
type BestOfN struct {
	Candidates  []Candidate `json:"candidates"`
	Comparisons []Pairwise  `json:"comparisons"`
	// Winner is the chosen candidate's index (1-based); 0 when every
	// candidate aborted.
	Winner int `json:"winner"`
	// Applied says the winner's change reached the user's working tree.
	Applied bool `json:"applied"`
	// TieBreak says how the winner was told from candidates with as many
	// pairwise wins ("" when no tie had to be broken).
	TieBreak string `json:"tie_break,omitempty"`
	// Strategy is `judge --candidates`' strategy (best, rank or merge;
	// spec §7.20), "" for `run --candidates`; Used is the strategy that
	// decided (best when merge fell back) and Note why it fell back.
	Strategy string `json:"strategy,omitempty"`
	Used     string `json:"strategy_used,omitempty"`
	Note     string `json:"note,omitempty"`
	// Order is every candidate's index, best first (judge --candidates).
	Order []int `json:"order,omitempty"`
	// Merged is the merged answer's id (strategy merge): an answer record
	// of its own, judged as any answer is.
	Merged string `json:"merged_answer_id,omitempty"`
}

// Candidate is one candidate of a best-of-N task: it ran as its own task
// (TaskID, its records beside the parent's) in its own worktree, its
// change kept on Branch unless it was the one applied.
type Candidate struct {
	Index      int      `json:"index"`
	TaskID     string   `json:"task_id"`
	Outcome    string   `json:"outcome"`
	Score      *float64 `json:"final_score,omitempty"`
	Iterations int      `json:"iterations_used"`
	CostUSD    *float64 `json:"cost_usd,omitempty"`
	DurationMS int64    `json:"duration_ms"`
	Branch     string   `json:"branch,omitempty"`
	// State is what became of its change: the isolation state (applied,
	// kept, unchanged).
	State    string `json:"state,omitempty"`
	Finalist bool   `json:"finalist"`
	Wins     int    `json:"pairwise_wins"`
	Error    string `json:"error,omitempty"`
	// Untrusted says why its verdict is not trusted (its worktree changed
	// outside its actor's turn); such a candidate is never chosen.
	Untrusted string `json:"untrusted,omitempty"`
	// File is the candidate answer's file (judge --candidates).
	File string `json:"file,omitempty"`
}

// Pairwise is one comparison of two changes, asked in both orders
// (spec §7.17). A and B name the changes (candidate task ids, or iteration
// ids for the iteration guard) and AIndex, BIndex number them (candidate
// index, or iteration number + 1). AFirst is the answer when A was shown
// first, BFirst when B was, both in a/b/tie of A and B; Result is their
// agreement, or tie when they disagree.
type Pairwise struct {
	Context string `json:"context"`
	A       string `json:"a_id"`
	B       string `json:"b_id"`
	AIndex  int    `json:"a_index"`
	BIndex  int    `json:"b_index"`
	AFirst  string `json:"a_first"`
	BFirst  string `json:"b_first"`
	Result  string `json:"result"`
	// Reasons are the two answers' reasons, A-first then B-first.
	Reasons []string `json:"reasons,omitempty"`
	// Errors are failed calls, whose answer counts as a tie.
	Errors  []string `json:"errors,omitempty"`
	Model   string   `json:"judge_model,omitempty"`
	CostUSD float64  `json:"cost_usd"`
}

// Pairwise contexts and results, as the events spell them.
const (
	PairwiseCandidates = "candidates"
	PairwiseGuard      = "iteration_guard"
	// PairwiseAnswers compares two answers (judge --candidates).
	PairwiseAnswers = "answers"
	PreferA         = "a"
	PreferB         = "b"
	PreferTie       = "tie"
)
