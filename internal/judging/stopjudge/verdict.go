// Package stopjudge is the Stop hook's advisory judge call: it asks one
// judge about one turn and validates its verdict (spec §8.5), for the hook
// and for `calibrate --stop`.
package stopjudge

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// DefaultConfidence is tribunal 1.2.7's value for a judge that gives none.
const DefaultConfidence = 0.6

// Verdict is the validated advisory verdict (spec §8.5).
type Verdict struct {
	Score      float64
	Passed     bool
	Feedback   string
	Confidence float64
	// LeftOut names the untracked files the judge's diff left out because
	// they look like secrets; the verdict's record names them.
	LeftOut []string
	// Diff is the diff the judge was shown (prompts.StopDiff), kept beside
	// the judgement record so that show --diff and view can show it.
	Diff string
	// Model is the model that gave the verdict when it is not the
	// settings' (the cascade's stronger model); Cascade what it did.
	Model   string
	Cascade *records.Cascade
}

// Validate applies spec §8.5 to one JSON object: the score must be a number in
// [0,1]; a boolean passed is kept as given (tribunal 1.2.7 coerced false to
// true when the score cleared the bar); an absent or null passed is derived
// from the score; any other passed makes the response invalid; judge_type
// must be present and non-null; confidence defaults to 0.6.
func Validate(obj map[string]json.RawMessage, threshold float64) (Verdict, error) {
	get := func(k string) gjson.Result {
		raw, ok := obj[k]
		if !ok {
			return gjson.Result{}
		}
		return gjson.ParseBytes(raw)
	}
	f := []gjson.Result{get("score"), get("passed"), get("judge_type"), get("feedback_summary"), get("confidence")}
	score, ok := verdict.Usable(json.RawMessage(f[0].Raw))
	if !f[0].Exists() || !ok {
		return Verdict{}, fmt.Errorf("score %s is not a number in [0,1]", describe(f[0]))
	}
	var a Verdict
	a.Score = score
	switch f[1].Type {
	case gjson.True:
		a.Passed = true
	case gjson.False:
		a.Passed = false
	case gjson.Null: // absent or null: the gate's score comparison, tolerance included
		a.Passed = gate.ConsensusPassed(score, threshold)
	default:
		return Verdict{}, fmt.Errorf("passed %s is not a boolean", describe(f[1]))
	}
	if !f[2].Exists() || f[2].Type == gjson.Null {
		return Verdict{}, errors.New("judge_type is missing")
	}
	if f[3].Type == gjson.String {
		a.Feedback = f[3].String()
	}
	a.Confidence = DefaultConfidence
	if c, ok := verdict.Usable(json.RawMessage(f[4].Raw)); f[4].Exists() && ok {
		a.Confidence = c
	}
	return a, nil
}

func describe(v gjson.Result) string {
	if !v.Exists() {
		return "(missing)"
	}
	raw := v.Raw
	if len(raw) > 40 {
		raw = raw[:40] + "…"
	}
	return raw
}
