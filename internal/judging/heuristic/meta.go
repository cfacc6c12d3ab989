package heuristic

import (
	"encoding/json"
	"slices"
)

// MetaInput is what the heuristic meta-judge reads of a round: the usable
// scores, how many seats failed, and how many bias-probe findings there
// were.
type MetaInput struct {
	Scores []float64
	Failed int
	Probes int
}

// Spread is the score range past which the heuristic meta-judge calls a
// jury questionable.
const Spread = 0.5

// Meta reviews a jury without a model, as the meta-judge's structured
// output: "questionable" when a seat failed, a bias probe fired or the
// scores are more than Spread apart, else "sound"; it never claims bias
// and never recommends an override, so the gate decides on the scores.
func Meta(in MetaInput) []byte {
	quality := "sound"
	if in.Failed > 0 || in.Probes > 0 || len(in.Scores) > 1 && slices.Max(in.Scores)-slices.Min(in.Scores) > Spread {
		quality = "questionable"
	}
	out, _ := json.Marshal(map[string]any{
		"verdict_quality": quality, "bias_detected": false, "bias_types": []string{}, "confidence": Confidence,
	})
	return out
}
