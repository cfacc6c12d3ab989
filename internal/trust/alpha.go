package trust

import (
	"math"
	"slices"
	"sort"
)

// Alpha is Krippendorff's α with the interval metric (squared difference)
// over every (item, key) pair of the given items as one unit of analysis:
//
//	D_o = (1/n) Σ_u 1/(m_u−1) Σ_{i≠j in u} (v_i − v_j)²
//	D_e = 1/(n(n−1)) Σ_{k≠l} (v_k − v_l)²
//	α   = 1 − D_o/D_e
//
// where m_u is the number of values in unit u, only units with m_u ≥ 2 take
// part ("pairable"), n is the total of their m_u, and the D_e sum runs over
// every ordered pair of pairable values, across units. When every unit has
// the same number of values, D_o is simply the mean squared difference over
// the pairs within units.
//
// Edge cases, chosen so that the gate never blocks on a number that does
// not measure the raters:
//
//   - Fewer than two pairable units → (1, false): "not measured". With one
//     unit D_o and D_e are the same sum, so α would be exactly 0 however
//     close the raters were; with none there is nothing to compare.
//   - D_e = 0 (every pairable value identical) → (1, true): the raters
//     agree perfectly, and there is no variation to be chance-corrected.
//   - Non-finite values are not pairable and are skipped.
//
// Otherwise ok is true and α is finite and at most 1; it is 1 exactly when
// the raters agree on every unit, and negative when they disagree more
// within units than values differ across them (systematic disagreement).
// α is scale-invariant, so values are divided by their largest magnitude
// first to keep squared differences from overflowing.
func Alpha(items []Item) (float64, bool) {
	return alpha(units(items), squared)
}

// units collects the pairable values of every (item, key) unit, in a fixed
// order so that floating-point sums are reproducible run to run.
func units(items []Item) [][]float64 {
	var out [][]float64
	for _, it := range items {
		for _, key := range keys(it) {
			var vals []float64
			for _, r := range it.Ratings {
				if v, ok := r.Scores[key]; ok && finite(v) {
					vals = append(vals, v)
				}
			}
			if len(vals) >= 2 {
				out = append(out, vals)
			}
		}
	}
	return out
}

// keys returns the sorted union of the ratings' keys.
func keys(it Item) []string {
	seen := map[string]bool{}
	var out []string
	for _, r := range it.Ratings {
		for k := range r.Scores {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// squared is the interval metric.
func squared(a, b float64) float64 { d := a - b; return d * d }

// alpha computes α over pairable units with the difference function delta
// (a parameter so that tests can check the nominal metric against the same
// published example). Pair sums are taken pair by pair rather than through
// variances, so identical values give exactly 0 and never a rounding
// residue that would turn "perfect agreement" into an arbitrary number.
func alpha(us [][]float64, delta func(a, b float64) float64) (float64, bool) {
	if len(us) < 2 {
		return 1, false
	}
	scale := 0.0
	for _, u := range us {
		for _, v := range u {
			scale = math.Max(scale, math.Abs(v))
		}
	}
	if scale == 0 {
		return 1, true
	}
	var all []float64
	scaled := make([][]float64, len(us))
	for i, u := range us {
		scaled[i] = make([]float64, len(u))
		for j, v := range u {
			scaled[i][j] = v / scale
		}
		all = append(all, scaled[i]...)
	}
	n := float64(len(all))

	var within float64
	for _, u := range scaled {
		within += pairSum(u, delta) / float64(len(u)-1)
	}
	do := within / n
	de := pairSum(all, delta) / (n * (n - 1))
	if de == 0 {
		return 1, true
	}
	a := 1 - do/de
	// D_o ≥ 0 and D_e > 0, so a ≤ 1 in exact arithmetic; the clamp only
	// guards the last ulp.
	return math.Min(a, 1), true
}

// pairSum is Σ over ordered pairs i≠j of delta(v_i, v_j), computed over
// unordered pairs and doubled (every metric used here is symmetric).
func pairSum(vs []float64, delta func(a, b float64) float64) float64 {
	vs = slices.Clone(vs)
	// Sorting fixes the summation order whatever the input order, so the
	// result does not depend on which rater was listed first.
	slices.Sort(vs)
	var s float64
	for i := range vs {
		for j := i + 1; j < len(vs); j++ {
			s += delta(vs[i], vs[j])
		}
	}
	return 2 * s
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }
