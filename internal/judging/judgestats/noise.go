package judgestats

import "math"

// Run-to-run noise (seed 002's measurement gate, spec §14.1): a figure
// measured K times by repeated rollouts is reported as a mean with a 95%
// interval, and its spread as a coefficient of variation, so that a
// difference smaller than the noise is never called one. Both functions
// are pure: no randomness, no I/O.

// CV is the coefficient of variation of xs: the sample standard deviation
// (n−1 in the denominator) over the absolute mean. ok is false when it is
// undefined — fewer than two values, a mean of zero, or a value that is
// not a finite number — and the returned figure is then 0.
func CV(xs []float64) (float64, bool) {
	mean, sd, ok := meanSD(xs)
	if !ok || mean == 0 {
		return 0, false
	}
	return sd / math.Abs(mean), true
}

// MeanCI95 is the mean of xs and its two-sided 95% confidence interval by
// Student's t with n−1 degrees of freedom: small K (3 to 10 rollouts) is
// the normal case here, where the normal 1.96 would claim too much. ok is
// false below two values or for a value that is not a finite number;
// mean is then that of the finite values (0 when there are none) and the
// interval is [mean, mean].
func MeanCI95(xs []float64) (mean, lo, hi float64, ok bool) {
	m, sd, ok := meanSD(xs)
	if !ok {
		return m, m, m, false
	}
	half := tCritical95(len(xs)-1) * sd / math.Sqrt(float64(len(xs)))
	return m, m - half, m + half, true
}

// meanSD is the mean and the sample standard deviation of xs; ok is false
// below two values or when one is NaN or infinite.
func meanSD(xs []float64) (mean, sd float64, ok bool) {
	n := 0
	sum := 0.0
	finite := true
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			finite = false
			continue
		}
		n++
		sum += x
	}
	if n == 0 {
		return 0, 0, false
	}
	mean = sum / float64(n)
	if n < 2 || !finite {
		return mean, 0, false
	}
	ss := 0.0
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(n-1)), true
}

// tTable holds the two-sided 95% critical values of Student's t for 1 to
// 30 degrees of freedom.
var tTable = [...]float64{
	12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
	2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
	2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
}

// tCritical95 is t(0.975, df): the table up to 30, then steps down to
// the normal 1.96 (40: 2.021, 60: 2.000, 120: 1.980), erring wide.
func tCritical95(df int) float64 {
	switch {
	case df < 1:
		return math.Inf(1)
	case df <= len(tTable):
		return tTable[df-1]
	case df < 40:
		return tTable[len(tTable)-1]
	case df < 60:
		return 2.021
	case df < 120:
		return 2.000
	}
	return 1.980
}
