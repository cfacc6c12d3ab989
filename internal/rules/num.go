package rules

import "strconv"

// Num is the one way a number other than a fixed-precision score or cost
// reaches a user (thresholds, weights, their sums, configured values in a
// warning, replayed aggregates): rounded to Tolerance's step as Round
// rounds, then its shortest decimal form, never an exponent — so a
// configured 0.75 or 1.00001 reads as typed and a computed
// 0.8999999999999999 reads 0.9.
func Num(f float64) string {
	return strconv.FormatFloat(Round(f), 'f', -1, 64)
}
