package trust

import (
	"encoding/binary"
	"math"
	"testing"
)

// raters builds one item per column from equally long rater rows, each
// item holding one key "v"; NaN marks a missing value.
func raters(rows map[string][]float64) []Item {
	n := 0
	for _, r := range rows {
		n = max(n, len(r))
	}
	items := make([]Item, n)
	for i := range items {
		items[i].ID = "u" + string(rune('a'+i))
		for name, r := range rows {
			if i < len(r) && !math.IsNaN(r[i]) {
				items[i].Ratings = append(items[i].Ratings, Rating{Rater: name, Scores: map[string]float64{"v": r[i]}})
			}
		}
	}
	return items
}

var miss = math.NaN()

// krippendorff2011 is the reliability data of Krippendorff, "Computing
// Krippendorff's Alpha-Reliability" (2011), §C: four observers, twelve
// units, values 1–5 with gaps. The paper gives α = 0.743 (nominal), 0.849
// (interval) and 0.797 (ratio) for it. Unit 12 has a single value and is
// not pairable.
var krippendorff2011 = map[string][]float64{
	"A": {1, 2, 3, 3, 2, 1, 4, 1, 2, miss, miss, miss},
	"B": {1, 2, 3, 3, 2, 2, 4, 1, 2, 5, miss, 3},
	"C": {miss, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, miss},
	"D": {1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, miss},
}

func nominal(a, b float64) float64 {
	if a == b {
		return 0
	}
	return 1
}

func ratio(a, b float64) float64 { d := (a - b) / (a + b); return d * d }

func TestAlphaKnownAnswers(t *testing.T) {
	cases := []struct {
		name   string
		items  []Item
		want   float64
		wantOK bool
	}{
		// Krippendorff 2011: 0.849 to three places, 0.8491071428… exactly.
		{"krippendorff 2011 interval", raters(krippendorff2011), 0.8491071428571428, true},
		// Two raters agree on every unit; the units differ.
		{"identical raters", raters(map[string][]float64{
			"A": {0.2, 0.9, 0.5, 0.7}, "B": {0.2, 0.9, 0.5, 0.7}}), 1, true},
		// A: 0 1 0 1, B: 1 0 1 0. Each unit holds {0,1}: D_o = (4 units ×
		// 2 ordered pairs × 1)/8 = 1. Across the 8 values (four 0s, four
		// 1s) 32 of the 56 ordered pairs differ: D_e = 32/56 = 4/7.
		// α = 1 − 7/4 = −0.75.
		{"perfectly opposed raters", raters(map[string][]float64{
			"A": {0, 1, 0, 1}, "B": {1, 0, 1, 0}}), -0.75, true},
		// A: 0 .5 1, B: 0 .5 .5. Only unit 3 disagrees: D_o = (2 × 0.25)/6
		// = 1/12. Values {0,0,.5,.5,1,.5}: Σ over ordered pairs of squared
		// differences = 8.5, D_e = 8.5/30 = 17/60. α = 1 − (1/12)/(17/60)
		// = 1 − 5/17 = 12/17.
		{"hand-computed 12/17", raters(map[string][]float64{
			"A": {0, 0.5, 1}, "B": {0, 0.5, 0.5}}), 12.0 / 17, true},
		// Three raters, units of unequal size: unit 1 {0,0,1} and unit 2
		// {1,1}. D_o = (1/5)(2×(1+1)/2 + 0) = 2/5 (the two 0–1 pairs each
		// counted both ways, weight 1/(3−1)). Values {0,0,1,1,1}: 12 of
		// the 20 ordered pairs differ, D_e = 12/20 = 3/5. α = 1 − 2/3.
		{"unequal unit sizes", raters(map[string][]float64{
			"A": {0, 1}, "B": {0, 1}, "C": {1, miss}}), 1.0 / 3, true},
		{"every value identical", raters(map[string][]float64{
			"A": {0.8, 0.8, 0.8}, "B": {0.8, 0.8, 0.8}}), 1, true},
		{"one pairable unit is not a measurement", raters(map[string][]float64{
			"A": {0.1, 0.4}, "B": {0.9, miss}}), 1, false},
		{"one rater per unit", raters(map[string][]float64{
			"A": {0.1, miss, 0.3}, "B": {miss, 0.7, miss}}), 1, false},
		{"no items", nil, 1, false},
		{"non-finite values are not pairable", raters(map[string][]float64{
			"A": {0, 1, math.Inf(1)}, "B": {0, 1, 0.5}}), 1, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := Alpha(c.items)
			if ok != c.wantOK || math.Abs(got-c.want) > 1e-12 {
				t.Errorf("Alpha = %.16g, %v; want %.16g, %v", got, ok, c.want, c.wantOK)
			}
		})
	}
}

// The same published example under the other two metrics confirms the
// data above is transcribed correctly and the unit weighting is the
// paper's, independently of the squared metric.
func TestAlphaKrippendorffOtherMetrics(t *testing.T) {
	us := units(raters(krippendorff2011))
	if len(us) != 11 {
		t.Fatalf("%d pairable units, want 11 (unit 12 has one value)", len(us))
	}
	for _, c := range []struct {
		name  string
		delta func(a, b float64) float64
		want  float64
	}{
		{"nominal", nominal, 0.743},
		{"ratio", ratio, 0.797},
		{"interval", squared, 0.849},
	} {
		got, ok := alpha(us, c.delta)
		if !ok || math.Round(got*1000)/1000 != c.want {
			t.Errorf("%s α = %.4f, %v; want %.3f", c.name, got, ok, c.want)
		}
	}
}

func TestAlphaIdenticalIsExactlyOne(t *testing.T) {
	// 0.1 has no exact binary form; a variance-based formula leaves a
	// residue here and returns noise instead of 1.
	items := raters(map[string][]float64{
		"A": {0.1, 0.1, 0.3, 0.7}, "B": {0.1, 0.1, 0.3, 0.7}, "C": {0.1, 0.1, 0.3, 0.7}})
	if got, ok := Alpha(items); got != 1 || !ok {
		t.Errorf("Alpha = %.17g, %v; want exactly 1", got, ok)
	}
}

func TestAlphaScaleAndOrderInvariant(t *testing.T) {
	base := map[string][]float64{"A": {0.2, 0.9, 0.4, 0.6}, "B": {0.3, 0.7, 0.5, 0.6}, "C": {0.1, 0.8, miss, 0.5}}
	want, _ := Alpha(raters(base))
	huge := map[string][]float64{}
	for k, row := range base {
		for _, v := range row {
			huge[k] = append(huge[k], v*1e306)
		}
	}
	if got, ok := Alpha(raters(huge)); !ok || math.Abs(got-want) > 1e-9 {
		t.Errorf("scaled by 1e306: α = %v, %v; want %v (squared differences must not overflow)", got, ok, want)
	}
	// Reversing the ratings within each item must give the same bits.
	items := raters(base)
	for i := range items {
		r := items[i].Ratings
		for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
			r[a], r[b] = r[b], r[a]
		}
	}
	if got, _ := Alpha(items); got != want {
		t.Errorf("rater order changed α: %v vs %v", got, want)
	}
}

func TestAlphaUsesEveryKeyAsAUnit(t *testing.T) {
	// One item, two keys: two pairable units, so α is measured. The reps
	// agree on each key and the keys differ → 1.
	items := []Item{{ID: "standard", Ratings: []Rating{
		{Rater: "r1", Scores: map[string]float64{"score": 0.9, "criterion_scores.safety": 0.4}},
		{Rater: "r2", Scores: map[string]float64{"score": 0.9, "criterion_scores.safety": 0.4}},
	}}}
	if got, ok := Alpha(items); got != 1 || !ok {
		t.Errorf("Alpha = %v, %v; want 1, true", got, ok)
	}
}

// FuzzAlpha: whatever the ratings, α is never NaN or infinite, never
// above 1, and "not measured" always comes with the documented 1.
func FuzzAlpha(f *testing.F) {
	f.Add([]byte{2, 2, 2, 0, 255, 255, 0})
	f.Add([]byte{3, 3, 1, 10, 10, 10, 200, 200, 200})
	f.Add(append([]byte{1, 2, 1, 0x80}, make([]byte, 16)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		items := decodeItems(data)
		a, ok := Alpha(items)
		if math.IsNaN(a) || math.IsInf(a, 0) {
			t.Fatalf("Alpha = %v for %+v", a, items)
		}
		if a > 1 {
			t.Fatalf("Alpha = %v > 1 for %+v", a, items)
		}
		if !ok && a != 1 {
			t.Fatalf("not measured but Alpha = %v", a)
		}
		if ok != (len(units(items)) >= 2) {
			t.Fatalf("ok = %v with %d pairable units", ok, len(units(items)))
		}
		for _, it := range items {
			if s := Spread(it); math.IsNaN(s) || s < 0 {
				t.Fatalf("Spread = %v for %+v", s, it)
			}
		}
	})
}

// decodeItems reads fuzz bytes as: items, raters and keys (each mod 5),
// then one value per (item, rater, key). A value byte below 0x80 is the
// score byte/127 (missing when 127); otherwise the next 8 bytes are raw
// float64 bits, so NaN, infinities and huge magnitudes are reached.
func decodeItems(data []byte) []Item {
	next := func() (byte, bool) {
		if len(data) == 0 {
			return 0, false
		}
		b := data[0]
		data = data[1:]
		return b, true
	}
	ni, _ := next()
	nr, _ := next()
	nk, _ := next()
	var items []Item
	for i := 0; i < int(ni%5); i++ {
		it := Item{ID: string(rune('a' + i))}
		for r := 0; r < int(nr%5); r++ {
			rt := Rating{Rater: string(rune('A' + r)), Scores: map[string]float64{}}
			for k := 0; k < int(nk%5); k++ {
				b, ok := next()
				if !ok {
					break
				}
				key := string(rune('k' + k))
				switch {
				case b < 0x7f:
					rt.Scores[key] = float64(b) / 126
				case b == 0x7f:
				case len(data) >= 8:
					rt.Scores[key] = math.Float64frombits(binary.LittleEndian.Uint64(data))
					data = data[8:]
				}
			}
			it.Ratings = append(it.Ratings, rt)
		}
		items = append(items, it)
	}
	return items
}
