package tune

import (
	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// Result is everything a run found: the report's and the records' data.
type Result struct {
	Outcome   string  `json:"outcome"`
	Reason    string  `json:"reason"`
	MoreCases int     `json:"more_cases,omitempty"`
	Gate      string  `json:"gate"`
	Delta     float64 `json:"delta"`
	BudgetUSD float64 `json:"budget_usd"`
	SpentUSD  float64 `json:"spent_usd"`
	Base      Surface `json:"base"`
	// Metric names what is measured, as the report states it.
	TrainIDs   []string `json:"train_ids"`
	HeldOutIDs []string `json:"held_out_ids"`
	// Baseline is the current surface's figures on the train part (its
	// first rollout); Noise the spread of its agreement over K rollouts.
	Baseline      judgestats.Figures `json:"baseline_train"`
	BaselineTrain map[string]Cell    `json:"-"`
	Noise         Noise              `json:"noise"`
	Generations   []Generation       `json:"generations"`
	Finalist      string             `json:"finalist,omitempty"`
	Decision      *Decision          `json:"decision,omitempty"`
	// Winner is the shipped candidate; nil unless Outcome is Ship.
	Winner *Candidate `json:"-"`
}

// Noise is the current surface's train agreement over repeated rollouts.
type Noise struct {
	Rollouts []float64 `json:"rollouts"`
	CV       *float64  `json:"cv,omitempty"`
	Known    bool      `json:"known"`
	Mean     float64   `json:"mean"`
	Low      float64   `json:"low"`
	High     float64   `json:"high"`
}

// Generation is one round of proposals.
type Generation struct {
	N               int         `json:"n"` // 0: the --try seeds
	Parent          string      `json:"parent,omitempty"`
	ProposerCostUSD float64     `json:"proposer_cost_usd"`
	ProposerError   string      `json:"proposer_error,omitempty"`
	Candidates      []Candidate `json:"candidates"`
}

// Candidate is one proposed surface and its train figures. Error says
// why it was dropped or not fully judged.
type Candidate struct {
	ID       string             `json:"id"`
	Parent   string             `json:"parent"`
	Proposal Proposal           `json:"proposal"`
	Surface  Surface            `json:"surface,omitempty"`
	Train    judgestats.Figures `json:"train"`
	Error    string             `json:"error,omitempty"`
	cells    map[string]Cell
}

// split puts each case in train or held-out by calibrate's hash of its
// id, so a case never moves between the parts from one run to the next.
func (r *Result) split(cases []calibrate.Case, fraction float64) {
	for _, c := range cases {
		if heldOutCase(c.ID, fraction) {
			r.HeldOutIDs = append(r.HeldOutIDs, c.ID)
		} else {
			r.TrainIDs = append(r.TrainIDs, c.ID)
		}
	}
}

func (r *Result) refuse(outcome, reason string) {
	r.Outcome, r.Reason = outcome, reason
}

func heldOutCase(id string, fraction float64) bool { return calibrate.HeldOut(id, fraction) }
