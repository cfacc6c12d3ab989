package rules

// TrustThresholds are the trust gate's three checks (internal/trust
// applies them). They live here, with the gate's other words, so that
// config reads them without linking the trust computation.
type TrustThresholds struct {
	// MinSurvivors is the fewest surviving reps an item may have. Values
	// below 1 disable the check.
	MinSurvivors int `json:"min_survivors"`
	// SpreadCeiling is the largest allowed per-item spread.
	SpreadCeiling float64 `json:"spread_ceiling"`
	// IRRFloor is the lowest allowed α across the task's items.
	IRRFloor float64 `json:"irr_floor"`
}

// Default trust thresholds. The spread ceiling and α floor are the usual
// after-gate bar (raters more than half the scale apart on one item, or
// agreeing barely better than chance, carry no signal). MinSurvivors is 1,
// not the 3 an ensemble would want, because with the default of one rep per
// judge type anything higher would make every plain panel untrustworthy;
// raise it together with judge_reps.
const (
	DefaultMinSurvivors  = 1
	DefaultSpreadCeiling = 0.5
	DefaultIRRFloor      = 0.2
)

// DefaultTrustThresholds returns the default trust thresholds.
func DefaultTrustThresholds() TrustThresholds {
	return TrustThresholds{MinSurvivors: DefaultMinSurvivors, SpreadCeiling: DefaultSpreadCeiling, IRRFloor: DefaultIRRFloor}
}
