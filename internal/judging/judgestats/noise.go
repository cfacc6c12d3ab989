package judgestats

import "math"

// CV is the coefficient of variation of xs — the sample standard
// deviation over the absolute mean — the run-to-run noise of repeated
// rollouts of one configuration. ok is false with fewer than two values
// or a mean of 0, where the ratio says nothing.
func CV(xs []float64) (float64, bool) {
	m, ok := Mean(xs)
	if !ok || len(xs) < 2 || math.Abs(m) < 1e-12 {
		return 0, false
	}
	return sampleSD(xs, m) / math.Abs(m), true
}

// MeanCI95 is the mean of xs and its 95% interval, mean ± t·s/√n with
// Student's t for n−1 degrees of freedom: with the few values a paired
// comparison or a handful of rollouts gives, the normal 1.96 would be
// too narrow. ok is false with fewer than two values.
func MeanCI95(xs []float64) (mean, lo, hi float64, ok bool) {
	m, has := Mean(xs)
	if !has || len(xs) < 2 {
		return m, m, m, false
	}
	h := t975(len(xs)-1) * sampleSD(xs, m) / math.Sqrt(float64(len(xs)))
	return m, m - h, m + h, true
}

// sampleSD is the standard deviation of xs around m with n−1.
func sampleSD(xs []float64, m float64) float64 {
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	return math.Sqrt(ss / float64(len(xs)-1))
}

// t975 is the 97.5th percentile of Student's t with df degrees of
// freedom: the table to 30, then the normal's 1.96 approached by the
// first Cornish–Fisher term (exact to 3 decimals from 30 on).
func t975(df int) float64 {
	table := [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df < 1 {
		return math.Inf(1)
	}
	if df <= len(table) {
		return table[df-1]
	}
	const z = 1.959964
	return z + (z*z*z+z)/(4*float64(df))
}
