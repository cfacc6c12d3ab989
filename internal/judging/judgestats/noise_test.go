package judgestats

import (
	"math"
	"testing"
)

func TestCV(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []float64
		want float64
		ok   bool
	}{
		{"none", nil, 0, false},
		{"one", []float64{0.5}, 0, false},
		{"zero mean", []float64{-1, 1}, 0, false},
		{"constant", []float64{0.7, 0.7, 0.7}, 0, true},
		// mean 0.6, sample sd 0.1 → 1/6.
		{"spread", []float64{0.5, 0.6, 0.7}, 0.1 / 0.6, true},
	} {
		got, ok := CV(tc.xs)
		if ok != tc.ok || math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%s: CV = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMeanCI95(t *testing.T) {
	if _, _, _, ok := MeanCI95([]float64{1}); ok {
		t.Error("one value gave an interval")
	}
	// Three values: mean 0.6, sd 0.1, t(2) = 4.303 → ±0.2484.
	m, lo, hi, ok := MeanCI95([]float64{0.5, 0.6, 0.7})
	if !ok || math.Abs(m-0.6) > 1e-9 || math.Abs(lo-(0.6-4.303*0.1/math.Sqrt(3))) > 1e-9 || math.Abs(hi-(0.6+4.303*0.1/math.Sqrt(3))) > 1e-9 {
		t.Errorf("MeanCI95 = %v [%v, %v] %v", m, lo, hi, ok)
	}
	// Identical values: a zero-width interval at the mean.
	if m, lo, hi, ok := MeanCI95([]float64{1, 1, 1, 1}); !ok || m != 1 || lo != 1 || hi != 1 {
		t.Errorf("constant: %v [%v, %v] %v", m, lo, hi, ok)
	}
	// Large n approaches the normal.
	if d := t975(1000) - 1.96; math.Abs(d) > 0.005 {
		t.Errorf("t975(1000) off by %v", d)
	}
}
