package judgestats

import (
	"math"
	"testing"
)

func TestCV(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want float64
		ok   bool
	}{
		{"none", nil, 0, false},
		{"one", []float64{0.8}, 0, false},
		{"constant", []float64{0.8, 0.8, 0.8}, 0, true},
		// mean 0.8, sample sd 0.1: CV 0.125.
		{"spread", []float64{0.7, 0.8, 0.9}, 0.125, true},
		{"negative mean uses its size", []float64{-0.7, -0.8, -0.9}, 0.125, true},
		{"zero mean", []float64{-1, 1}, 0, false},
		{"NaN", []float64{0.5, math.NaN(), 0.6}, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := CV(tt.xs)
			if ok != tt.ok || math.Abs(got-tt.want) > 1e-12 {
				t.Errorf("CV(%v) = %v, %v; want %v, %v", tt.xs, got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestMeanCI95(t *testing.T) {
	tests := []struct {
		name         string
		xs           []float64
		mean, lo, hi float64
		ok           bool
	}{
		{"none", nil, 0, 0, 0, false},
		{"one", []float64{0.6}, 0.6, 0.6, 0.6, false},
		{"constant", []float64{0.5, 0.5, 0.5, 0.5}, 0.5, 0.5, 0.5, true},
		// mean 0.8, sd 0.1, n 3: half-width 4.303 × 0.1 / √3 = 0.248434.
		{"three", []float64{0.7, 0.8, 0.9}, 0.8, 0.8 - 0.2484338, 0.8 + 0.2484338, true},
		// n 2: t 12.706 × sd 0.0707107 / √2 = 0.6353.
		{"two", []float64{0.5, 0.6}, 0.55, 0.55 - 0.6353, 0.55 + 0.6353, true},
		{"infinite", []float64{0.5, math.Inf(1)}, 0.5, 0.5, 0.5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, lo, hi, ok := MeanCI95(tt.xs)
			if ok != tt.ok || math.Abs(m-tt.mean) > 1e-9 || math.Abs(lo-tt.lo) > 1e-6 || math.Abs(hi-tt.hi) > 1e-6 {
				t.Errorf("MeanCI95(%v) = %v [%v, %v] %v; want %v [%v, %v] %v", tt.xs, m, lo, hi, ok, tt.mean, tt.lo, tt.hi, tt.ok)
			}
		})
	}
}

func TestTCritical95(t *testing.T) {
	for _, tt := range []struct {
		df   int
		want float64
	}{{1, 12.706}, {2, 4.303}, {30, 2.042}, {35, 2.042}, {45, 2.021}, {100, 2.000}, {1000, 1.980}} {
		if got := tCritical95(tt.df); got != tt.want {
			t.Errorf("tCritical95(%d) = %v, want %v", tt.df, got, tt.want)
		}
	}
	if !math.IsInf(tCritical95(0), 1) {
		t.Error("df 0 must have no interval")
	}
}
