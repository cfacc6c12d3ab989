package events

// The tune events (spec §14.7) are tribunal's own additions to the
// Onlooker payload schema, like the best-of-N ones: one per generation of
// a `tribunal-session tune` run and one for its decision. TaskID is the
// tune run's id.

// TuneGeneration is the tribunal.tune.generation payload: one generation
// of candidates (0: the user's --try proposals) judged on the train part.
type TuneGeneration struct {
	TaskID     string `json:"task_id" check:"id"`
	Generation int    `json:"generation" check:"min=0"`
	Candidates int    `json:"candidates" check:"min=0"`
	Dropped    int    `json:"dropped" check:"min=0"`
	// BestTrainAgreement is the best judged candidate's agreement on the
	// train part; absent when none was judged.
	BestTrainAgreement *float64 `json:"best_train_agreement,omitempty" check:"unit"`
	SpentUSD           float64  `json:"spent_usd" check:"nonneg"`
}

// EventType returns "tribunal.tune.generation".
func (TuneGeneration) EventType() string { return "tribunal.tune.generation" }

// TuneDecided is the tribunal.tune.decided payload: the run's outcome,
// with the held-out gate's figures when it ran.
type TuneDecided struct {
	TaskID     string   `json:"task_id" check:"id"`
	Outcome    string   `json:"outcome" check:"enum=tune_outcome"`
	Gate       string   `json:"gate" check:"enum=tune_gate"`
	ValidPairs int      `json:"valid_pairs" check:"min=0"`
	Lift       *float64 `json:"lift,omitempty"`
	LiftLow    *float64 `json:"lift_low,omitempty"`
	LiftHigh   *float64 `json:"lift_high,omitempty"`
	MoreCases  int      `json:"more_cases,omitempty" check:"min=0"`
	SpentUSD   float64  `json:"spent_usd" check:"nonneg"`
}

// EventType returns "tribunal.tune.decided".
func (TuneDecided) EventType() string { return "tribunal.tune.decided" }
