// Package trust decides whether a jury's repeated judge calls agree well
// enough to be believed, and reduces each judge type's reps to one verdict.
package trust

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// OverallKey is the Scores key of a rating's overall score. Criterion
// scores use CriterionKey, so that a criterion named "score" cannot collide
// with it.
const OverallKey = "score"

// CriterionKey returns the Scores key of a criterion score, spelled as the
// verdict's JSON path so that reasons point at the field a user can find.
func CriterionKey(name string) string { return "criterion_scores." + name }

// Rating is one surviving rep's readable scores, keyed by OverallKey and
// CriterionKey(name). Rater names it in diagnostics only.
type Rating struct {
	Rater  string
	Scores map[string]float64
}

// Item is one judge type's reps in one iteration: the ratings of the reps
// that survived and the number that did not. Disagreement inside an item is
// noise, because its reps are the same judge asked the same question.
type Item struct {
	// ID names the item in reasons and keys Result's maps; it should be
	// unique among the items passed together (e.g. the judge type).
	ID      string
	Ratings []Rating
	// Failed counts the reps that did not survive: failed calls and
	// verdicts without a usable score.
	Failed int
}

// RatingFrom turns a rep's verdict into a rating: its usable overall score
// and its readable criterion scores. ok is false when the rep did not
// survive (failed, or no usable score), matching the spec §5.1 usable filter.
func RatingFrom(rater string, v verdict.Verdict) (Rating, bool) {
	score, ok := v.UsableScore()
	if !ok {
		return Rating{}, false
	}
	scores := map[string]float64{OverallKey: score}
	for name, s := range v.ReadableCriterionScores() {
		scores[CriterionKey(name)] = s
	}
	return Rating{Rater: rater, Scores: scores}, true
}

// ItemFrom builds the item for one judge type's reps; raters are named by
// the reps' labels, or by position when a label repeats.
func ItemFrom(id string, reps []verdict.Verdict) Item {
	it := Item{ID: id}
	seen := map[string]bool{}
	for i, v := range reps {
		name := v.Label()
		if seen[name] {
			name += "#" + strconv.Itoa(i+1)
		}
		seen[name] = true
		if r, ok := RatingFrom(name, v); ok {
			it.Ratings = append(it.Ratings, r)
		} else {
			it.Failed++
		}
	}
	return it
}

// Spread is the item's rater spread: for each key, max − min over the
// ratings that carry it; the item's spread is the largest of those. A key
// rated once contributes 0. Spread stays within the item, never pooled
// across items, so a real quality difference between two judge types or
// two iterations cannot read as raters splitting.
func Spread(item Item) float64 {
	s, _ := spreadOf(item)
	return s
}

// spreadOf also returns the key with the largest spread ("" when none).
func spreadOf(item Item) (float64, string) {
	worst, worstKey := 0.0, ""
	for _, key := range keys(item) {
		lo, hi, n := 0.0, 0.0, 0
		for _, r := range item.Ratings {
			v, ok := r.Scores[key]
			if !ok || !finite(v) {
				continue
			}
			if n == 0 || v < lo {
				lo = v
			}
			if n == 0 || v > hi {
				hi = v
			}
			n++
		}
		if n >= 2 && hi-lo > worst {
			worst, worstKey = hi-lo, key
		}
	}
	return worst, worstKey
}

// Result is the trust gate's finding, shaped for gate.json and the summary.
type Result struct {
	// Trustworthy is true when every check passed; Reasons is empty exactly
	// then.
	Trustworthy bool     `json:"trustworthy"`
	Reasons     []string `json:"reasons,omitempty"`
	// Notes explain a check that could not be made (α not measured); they
	// never make the result untrustworthy.
	Notes []string `json:"notes,omitempty"`
	// Alpha is the measured α, or 1 when AlphaMeasured is false.
	Alpha         float64 `json:"alpha"`
	AlphaMeasured bool    `json:"alpha_measured"`
	// Spread and Survivors are per current item, keyed by item ID.
	Spread    map[string]float64 `json:"spread"`
	Survivors map[string]int     `json:"survivors"`
}

// Check runs the three checks: survivors and spread on the current
// iteration's items, α on all the task's items so far (which should include
// the current ones: agreement needs as many units as the task can give).
// With no current items there is nothing to distrust and the result is
// trustworthy.
func Check(current, all []Item, th rules.TrustThresholds) Result {
	res := Result{Spread: map[string]float64{}, Survivors: map[string]int{}}
	var survivorReasons, spreadReasons []string
	for _, it := range current {
		n := len(it.Ratings)
		res.Survivors[it.ID] = n
		if th.MinSurvivors >= 1 && n < th.MinSurvivors {
			survivorReasons = append(survivorReasons, fmt.Sprintf(
				"survivors: %s has %d surviving rep(s) of %d, below min_survivors %d",
				it.ID, n, n+it.Failed, th.MinSurvivors))
		}
		s, key := spreadOf(it)
		// Recorded rounded like every computed score (gate.json, report).
		s = rules.Round(s)
		res.Spread[it.ID] = s
		if rules.Above(s, th.SpreadCeiling) {
			spreadReasons = append(spreadReasons, fmt.Sprintf(
				"spread: %s reps split by %s on %s, above spread_ceiling %s",
				it.ID, num(s), key, num(th.SpreadCeiling)))
		}
	}
	res.Reasons = append(survivorReasons, spreadReasons...)

	res.Alpha, res.AlphaMeasured = Alpha(all)
	res.Alpha = rules.Round(res.Alpha)
	switch {
	case !res.AlphaMeasured:
		res.Notes = append(res.Notes,
			"agreement: not measured (α needs at least two scores that two or more reps rated); irr_floor not applied")
	case rules.Above(th.IRRFloor, res.Alpha):
		res.Reasons = append(res.Reasons, fmt.Sprintf(
			"agreement: α = %s across %d item(s), below irr_floor %s",
			num(res.Alpha), len(all), num(th.IRRFloor)))
	}
	res.Trustworthy = len(res.Reasons) == 0
	return res
}

// num formats a value for a reason: at most three decimals, trailing
// zeros dropped, so a spread of 0.501 against a ceiling of 0.5 does not
// read "0.50 above 0.50".
func num(f float64) string {
	s := strconv.FormatFloat(f, 'f', 3, 64)
	s = strings.TrimRight(s, "0")
	s = strings.TrimSuffix(s, ".")
	if s == "-0" {
		return "0"
	}
	return s
}
