package judgestats

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got *float64, want float64) {
	t.Helper()
	if got == nil {
		t.Fatalf("%s = nil, want %v", what, want)
	}
	if math.Abs(*got-want) > 1e-9 {
		t.Fatalf("%s = %v, want %v", what, *got, want)
	}
}

func isNil(t *testing.T, what string, got *float64) {
	t.Helper()
	if got != nil {
		t.Fatalf("%s = %v, want undefined (nil)", what, *got)
	}
}

// outcomes expands a confusion matrix into outcomes.
func outcomes(rf, rp, af, ap, rerr, aerr int) []Outcome {
	var outs []Outcome
	add := func(n int, label string, d Decision) {
		for i := 0; i < n; i++ {
			outs = append(outs, Outcome{Label: label, Decision: d})
		}
	}
	add(rf, Reject, Fail)
	add(rp, Reject, Pass)
	add(af, Accept, Fail)
	add(ap, Accept, Pass)
	add(rerr, Reject, Failed)
	add(aerr, Accept, Failed)
	return outs
}

// The expected values below are worked by hand in the comments.
func TestComputeKnownAnswers(t *testing.T) {
	tests := []struct {
		name                       string
		outs                       []Outcome
		agree, kappa, catch, fir   float64
		kappaNil, catchNil, firNil bool
		n, decided, failures       int
	}{
		{
			// po = 15/20 = .75; p(reject) = .5, p(fail) = 11/20 = .55;
			// pe = .5·.55 + .5·.45 = .5; κ = .25/.5 = .5.
			name: "balanced", outs: outcomes(8, 2, 3, 7, 0, 0),
			agree: 0.75, kappa: 0.5, catch: 0.8, fir: 0.3, n: 20, decided: 20,
		},
		{
			// po = 17/20 = .85; p(reject) = .25, p(fail) = .3;
			// pe = .25·.3 + .75·.7 = .6; κ = .25/.4 = .625. Failed
			// calls are neither pass nor fail: they leave every rate alone.
			name: "skewed with failures", outs: outcomes(4, 1, 2, 13, 2, 1),
			agree: 0.85, kappa: 0.625, catch: 0.8, fir: 2.0 / 15, n: 23, decided: 20, failures: 3,
		},
		{
			// Everything accepted and passed: pe = 1, κ undefined; no
			// reject case, so no catch rate.
			name: "constant", outs: outcomes(0, 0, 0, 5, 0, 0),
			agree: 1, kappaNil: true, catchNil: true, fir: 0, n: 5, decided: 5,
		},
		{
			// A judge that passes everything on a half-bad set: its
			// decisions never vary, so pe = po and κ is n/a (the formula
			// would give 0 or −0 whatever the cases).
			name: "rubber stamp", outs: outcomes(0, 3, 0, 3, 0, 0),
			agree: 0.5, kappaNil: true, catch: 0, fir: 0, n: 6, decided: 6,
		},
		{
			// Perfectly wrong: po = 0, pe = .5, κ = −1.
			name: "inverted", outs: outcomes(0, 2, 2, 0, 0, 0),
			agree: 0, kappa: -1, catch: 0, fir: 1, n: 4, decided: 4,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := Compute(tc.outs)
			if f.N != tc.n || f.Decided != tc.decided || f.Failures != tc.failures {
				t.Fatalf("n/decided/failures = %d/%d/%d, want %d/%d/%d", f.N, f.Decided, f.Failures, tc.n, tc.decided, tc.failures)
			}
			near(t, "agreement", f.Agreement, tc.agree)
			if tc.kappaNil {
				isNil(t, "kappa", f.Kappa)
			} else {
				near(t, "kappa", f.Kappa, tc.kappa)
			}
			if tc.catchNil {
				isNil(t, "catch", f.CatchRate)
			} else {
				near(t, "catch", f.CatchRate, tc.catch)
			}
			if tc.firNil {
				isNil(t, "fir", f.FalseInterventionRate)
			} else {
				near(t, "fir", f.FalseInterventionRate, tc.fir)
			}
		})
	}
}

func TestComputeEmptyIsUndefined(t *testing.T) {
	f := Compute(outcomes(0, 0, 0, 0, 2, 1))
	isNil(t, "agreement", f.Agreement)
	isNil(t, "kappa", f.Kappa)
	isNil(t, "catch", f.CatchRate)
	isNil(t, "fir", f.FalseInterventionRate)
	if f.Confusion.RejectErrors != 2 || f.Confusion.AcceptErrors != 1 {
		t.Fatalf("errors by label = %+v", f.Confusion)
	}
}

func score(s float64) *float64 { return &s }

func TestSweepKnownAnswer(t *testing.T) {
	outs := []Outcome{
		{Label: Accept, Score: score(0.9)}, {Label: Accept, Score: score(0.8)}, {Label: Accept, Score: score(0.6)},
		{Label: Reject, Score: score(0.7)}, {Label: Reject, Score: score(0.4)}, {Label: Reject, Score: score(0.2)},
		{Label: Reject}, // no score (failed judge): not swept
	}
	// By hand, p(reject) = .5 at every threshold, so pe = .5 and
	// κ = (po − .5)/.5:
	//   t=0    all pass             po 3/6  κ n/a (decisions constant)
	//   t=.25  0.2 fails            po 4/6  κ 1/3
	//   t=.5   0.4, 0.2 fail        po 5/6  κ 2/3
	//   t=.75  all rejects and 0.6  po 5/6  κ 2/3
	//   t=1    all fail             po 3/6  κ n/a
	want := []float64{math.NaN(), 1.0 / 3, 2.0 / 3, 2.0 / 3, math.NaN()}
	s := SweepThresholds(outs, 0.25, 0.7)
	if s.Scored != 6 || len(s.Points) != 5 {
		t.Fatalf("scored %d, points %d", s.Scored, len(s.Points))
	}
	for i, p := range s.Points {
		if p.Threshold != float64(i)*0.25 {
			t.Fatalf("point %d threshold %v", i, p.Threshold)
		}
		if math.IsNaN(want[i]) {
			isNil(t, "kappa", p.Kappa)
		} else {
			near(t, "kappa", p.Kappa, want[i])
		}
	}
	near(t, "catch at .75", s.Points[3].CatchRate, 1)
	near(t, "fir at .75", s.Points[3].FalseInterventionRate, 1.0/3)
	// The tie between .5 and .75 goes to the one nearer the configured
	// threshold: .75 for 0.7, .5 for 0.5.
	if s.Best == nil || s.Best.Threshold != 0.75 {
		t.Fatalf("best = %+v, want 0.75", s.Best)
	}
	if b := SweepThresholds(outs, 0.25, 0.5).Best; b == nil || b.Threshold != 0.5 {
		t.Fatalf("best with configured .5 = %+v", b)
	}
	// Equidistant ties go to the lower threshold.
	if b := SweepThresholds(outs, 0.25, 0.625).Best; b == nil || b.Threshold != 0.5 {
		t.Fatalf("best with configured .625 = %+v", b)
	}
}

func TestSweepOneLabelHasNoBest(t *testing.T) {
	// All accept: no threshold can tell good work from bad; κ is n/a at
	// every point.
	s := SweepThresholds([]Outcome{{Label: Accept, Score: score(0.9)}, {Label: Accept, Score: score(0.5)}}, 0.5, 0.7)
	if s.Best != nil {
		t.Fatalf("best = %+v, want none", s.Best)
	}
	isNil(t, "kappa at 1", s.Points[2].Kappa)
}

func TestSweepWithoutScoresHasNoBest(t *testing.T) {
	s := SweepThresholds([]Outcome{{Label: Accept, Decision: Pass}}, 0.05, 0.7)
	if s.Best != nil || s.Scored != 0 || len(s.Points) != 21 {
		t.Fatalf("sweep = %+v", s)
	}
}

func TestFlipRateKnownAnswer(t *testing.T) {
	orig := []Decision{Pass, Fail, Pass, Failed, Fail}
	swap := []Decision{Pass, Pass, Pass, Fail, Failed}
	f := FlipRate(orig, swap)
	if f.Pairs != 3 || f.Flips != 1 || f.Skipped != 2 {
		t.Fatalf("flips = %+v", f)
	}
	near(t, "flip rate", f.Rate, 1.0/3)
	isNil(t, "no pairs", FlipRate([]Decision{Failed}, []Decision{Pass}).Rate)
}

func TestPearsonKnownAnswers(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name string
		x, y []float64
		want float64
		ok   bool
	}{
		{"identical slope", []float64{1, 2, 3}, []float64{2, 4, 6}, 1, true},
		{"opposite", []float64{1, 2, 3}, []float64{3, 2, 1}, -1, true},
		// mean 2.5 both; dx = (−1.5, −.5, .5, 1.5), dy = (−1.5, .5, −.5, 1.5);
		// Σdxdy = 4, Σdx² = Σdy² = 5, r = .8.
		{"partial", []float64{1, 2, 3, 4}, []float64{1, 3, 2, 4}, 0.8, true},
		{"gaps skipped", []float64{1, nan, 2, 3, 9}, []float64{2, 5, 4, 6, nan}, 1, true},
		{"too few common", []float64{1, 2, nan}, []float64{1, 2, 3}, 0, false},
		{"constant side", []float64{1, 2, 3}, []float64{5, 5, 5}, 0, false},
	}
	for _, tc := range tests {
		got, ok := Pearson(tc.x, tc.y)
		if ok != tc.ok || (ok && math.Abs(got-tc.want) > 1e-9) {
			t.Errorf("%s: Pearson = %v, %v; want %v, %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

func TestNEffKnownAnswers(t *testing.T) {
	tests := []struct {
		n    int
		rho  float64
		want float64
	}{
		{3, 0, 3},
		{3, 1, 1},
		{3, 0.5, 1.5},      // 3 / (1 + 2·.5)
		{9, 0.4375, 2},     // nine judges worth two: 9 / (1 + 8·.4375)
		{3, -0.5, 3},       // negative ρ̄ counts as independent
		{1, 0.9, 1},        // one judge is one judge
		{5, 0.25, 5.0 / 2}, // 5 / (1 + 4·.25)
	}
	for _, tc := range tests {
		if got := NEff(tc.n, tc.rho); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("NEff(%d, %v) = %v, want %v", tc.n, tc.rho, got, tc.want)
		}
	}
}

func TestEffectiveJurorsKnownAnswer(t *testing.T) {
	a := []float64{1, 2, 3, 4}
	b := []float64{1, 3, 2, 4}
	d := []float64{1, 2, 3, 4}
	// r(a,b) = .8, r(a,d) = 1, r(b,d) = .8: ρ̄ = 2.6/3; n_eff = 3/(1 + 2ρ̄).
	j := EffectiveJurors([][]float64{a, b, d})
	if j.Panel != 3 || j.Pairs != 3 {
		t.Fatalf("jurors = %+v", j)
	}
	near(t, "rho", j.MeanCorrelation, 2.6/3)
	near(t, "n_eff", j.Effective, 3/(1+2*2.6/3))

	// A judge with too few scores drops out of the pairs, not the panel.
	sparse := []float64{math.NaN(), math.NaN(), 0.5, 0.7}
	j = EffectiveJurors([][]float64{a, b, sparse})
	if j.Panel != 3 || j.Pairs != 1 {
		t.Fatalf("sparse jurors = %+v", j)
	}
	near(t, "rho", j.MeanCorrelation, 0.8)

	j = EffectiveJurors([][]float64{a})
	near(t, "single judge", j.Effective, 1)
	isNil(t, "single judge rho", j.MeanCorrelation)
}

func TestJurorsWarning(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		j    Jurors
		warn bool
	}{
		{Jurors{Panel: 3, MeanCorrelation: f(0.9), Effective: f(NEff(3, 0.9))}, true}, // 1.07
		{Jurors{Panel: 3, MeanCorrelation: f(0.5), Effective: f(1.5)}, false},         // exactly 1.5 is enough
		{Jurors{Panel: 2, MeanCorrelation: f(1), Effective: f(1)}, false},             // two judges: no warning
		{Jurors{Panel: 4}, false}, // not measurable
	} {
		if got := JurorsWarning(tc.j); (got != "") != tc.warn {
			t.Errorf("JurorsWarning(%+v) = %q", tc.j, got)
		}
	}
	if got := JurorsWarning(Jurors{Panel: 3, MeanCorrelation: f(1), Effective: f(1)}); got != "the 3 judges are worth 1.00 independent juror(s): their scores move together (ρ̄ 1.00); a more varied panel (other models, types or prompts) would add more than more seats" {
		t.Errorf("text = %q", got)
	}
}
