package judgestats

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
	"sort"
)

// z95 is the standard normal quantile of a two-sided 95% interval.
const z95 = 1.959963984540054

// BootstrapReps is how many resamples a bootstrap interval draws, and
// BootstrapSeed the seed of every one of them: the same cases always give
// the same interval, so a report can be pinned and rerun.
const (
	BootstrapReps = 2000
	BootstrapSeed = 0x7472696275
)

// Interval is a 95% confidence interval.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Width is High − Low.
func (iv Interval) Width() float64 { return iv.High - iv.Low }

// Wilson is the 95% Wilson score interval of k successes in n trials; nil
// when n is 0. Unlike the normal approximation it stays inside [0, 1] and
// is not of zero width at 0/n or n/n.
func Wilson(k, n int) *Interval {
	if n <= 0 || k < 0 || k > n {
		return nil
	}
	nf, p := float64(n), float64(k)/float64(n)
	z2 := z95 * z95
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	iv := &Interval{Low: math.Max(0, centre-half), High: math.Min(1, centre+half)}
	// At 0/n and n/n the bound is exactly 0 or 1; rounding would print
	// 99.99…% otherwise.
	if k == 0 {
		iv.Low = 0
	}
	if k == n {
		iv.High = 1
	}
	return iv
}

// BootstrapKappa is the 95% percentile bootstrap interval of Cohen's κ
// over the decided cases of c: BootstrapReps resamples of the decided
// cases with replacement, drawn from a generator seeded with
// BootstrapSeed and the four counts (so the interval is a function of the
// counts alone), the 2.5th and 97.5th percentiles of the κ values that are
// defined. Nil when κ itself is undefined or more than one resample in
// ten gives none (a handful of cases, or one side that almost never
// varies): dropping that many would bias the interval.
func BootstrapKappa(c Confusion) *Interval {
	if Kappa(c) == nil {
		return nil
	}
	cells := []int{c.RejectFailed, c.RejectPassed, c.AcceptFailed, c.AcceptPassed}
	n := c.Decided()
	var seed [8]byte
	for i, v := range cells {
		binary.LittleEndian.PutUint16(seed[2*i:], uint16(v))
	}
	rng := rand.New(rand.NewPCG(BootstrapSeed, binary.LittleEndian.Uint64(seed[:])))
	var ks []float64
	for r := 0; r < BootstrapReps; r++ {
		var draw [4]int
		for i := 0; i < n; i++ {
			draw[cell(cells, rng.IntN(n))]++
		}
		if k := Kappa(Confusion{RejectFailed: draw[0], RejectPassed: draw[1], AcceptFailed: draw[2], AcceptPassed: draw[3]}); k != nil {
			ks = append(ks, *k)
		}
	}
	if len(ks) < BootstrapReps*9/10 {
		return nil
	}
	sort.Float64s(ks)
	return &Interval{Low: quantile(ks, 0.025), High: quantile(ks, 0.975)}
}

// cell maps the i-th decided case (cases ordered cell by cell) to its
// cell of the confusion matrix.
func cell(cells []int, i int) int {
	for c, n := range cells {
		if i < n {
			return c
		}
		i -= n
	}
	return len(cells) - 1
}

// quantile is the q-quantile of sorted xs, interpolating linearly between
// order statistics.
func quantile(xs []float64, q float64) float64 {
	pos := q * float64(len(xs)-1)
	lo := int(math.Floor(pos))
	if lo+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	return xs[lo] + (pos-float64(lo))*(xs[lo+1]-xs[lo])
}

// Ranking is the comparison of one figure between two configurations A
// and B.
type Ranking struct {
	// Separated is true when the two 95% intervals do not overlap: only
	// then is one ranked above the other.
	Separated bool `json:"separated"`
	// Better is "a" or "b" when Separated, else "".
	Better string `json:"better,omitempty"`
	// MoreCases is, when not Separated, how many more cases (of the same
	// mix, the figures staying as measured) would make the intervals stop
	// overlapping; nil when no number would (equal estimates) or a
	// figure is undefined.
	MoreCases *int `json:"more_cases,omitempty"`
}

// Rank compares estimate a (interval ia) with b (interval ib), both
// measured on n cases, higher being better. Overlapping intervals are
// not ranked; the cases that would separate them are estimated by letting
// each interval's half-width facing the other shrink as 1/√n: with gap
// |a − b| and facing half-widths h_a, h_b, the intervals part once the
// case count reaches n·((h_a + h_b)/gap)², and MoreCases is that count
// (rounded up) minus n.
func Rank(a, b *float64, ia, ib *Interval, n int) Ranking {
	if a == nil || b == nil || ia == nil || ib == nil || n <= 0 {
		return Ranking{}
	}
	if ia.Low > ib.High {
		return Ranking{Separated: true, Better: "a"}
	}
	if ib.Low > ia.High {
		return Ranking{Separated: true, Better: "b"}
	}
	gap := math.Abs(*a - *b)
	if gap < 1e-12 {
		return Ranking{}
	}
	ha, hb := ia.High-*a, *b-ib.Low
	if *a > *b {
		ha, hb = *a-ia.Low, ib.High-*b
	}
	ratio := (ha + hb) / gap
	need := int(math.Ceil(float64(n)*ratio*ratio - 1e-9))
	more := need - n
	if more < 1 {
		more = 1
	}
	return Ranking{MoreCases: &more}
}
