package calibrate

import (
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

func TestRankingsText(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	iv := func(lo, hi float64) *judgestats.Interval { return &judgestats.Interval{Low: lo, High: hi} }
	r := &Report{Rankings: []Comparison{
		compare("agreement", "standard", "adversarial", f(0.9), f(0.4), iv(0.8, 0.95), iv(0.3, 0.5), 40),
		compare("agreement", "standard", "adversarial", f(0.6), f(0.5), iv(0.5, 0.7), iv(0.4, 0.6), 42),
		compare("κ", "threshold 0.60", "threshold 0.75 (configured)", f(0.3), nil, iv(0.1, 0.5), nil, 42),
		compare("κ", "threshold 0.60", "threshold 0.75 (configured)", f(0.3), f(0.2), iv(0.1, 0.5), nil, 42),
		compare("agreement", "a", "b", f(0.5), f(0.5), iv(0.4, 0.6), iv(0.4, 0.6), 42),
	}}
	var b strings.Builder
	r.writeRankings(&b)
	for _, want := range []string{
		"- agreement: standard ranks above adversarial\n",
		"- agreement: standard and adversarial not ranked — their intervals overlap; about 126 more case(s) of the same mix would separate them\n",
		"- κ: threshold 0.60 and threshold 0.75 (configured) not ranked — the κ is n/a for threshold 0.75 (configured)\n",
		"- κ: threshold 0.60 and threshold 0.75 (configured) not ranked — the κ's interval is n/a for threshold 0.75 (configured)\n",
		"- agreement: a and b not ranked — their intervals overlap and their estimates are equal",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}

func TestFormatsNeverPrintMinusZero(t *testing.T) {
	negZero := -0.001
	if got := numCI(&negZero, &judgestats.Interval{Low: -0.004, High: 0.5}); got != "0.00 [0.00, 0.50]" {
		t.Errorf("numCI = %q", got)
	}
	k := 0.4
	if got := numCI(&k, nil); got != "0.40 [n/a]" {
		t.Errorf("numCI without an interval = %q", got)
	}
	if got := numCI(nil, nil); got != "n/a" {
		t.Errorf("numCI of n/a = %q", got)
	}
	p := 0.5
	if got := pctCI(&p, judgestats.Wilson(5, 10)); got != "50.0% [23.7, 76.3]" {
		t.Errorf("pctCI = %q", got)
	}
}

func TestAgainstRanksOnlySeparatedFigures(t *testing.T) {
	outs := func(rf, rp, af, ap int) judgestats.Figures {
		var o []judgestats.Outcome
		add := func(n int, l string, d judgestats.Decision) {
			for i := 0; i < n; i++ {
				o = append(o, judgestats.Outcome{Label: l, Decision: d})
			}
		}
		add(rf, judgestats.Reject, judgestats.Fail)
		add(rp, judgestats.Reject, judgestats.Pass)
		add(af, judgestats.Accept, judgestats.Fail)
		add(ap, judgestats.Accept, judgestats.Pass)
		return judgestats.Compute(o)
	}
	// This run catches 38 of 40 rejects, the earlier one 10 of 40: the
	// catch rates part; both pass every accept, so the false-intervention
	// rates are equal.
	now := &Report{Figures: outs(38, 2, 0, 40), Results: []CaseResult{{ID: "a"}}}
	then := &Report{Figures: outs(10, 30, 0, 40), Results: []CaseResult{{ID: "b"}}, Judge: "old"}
	a := against("old.json", then, now)
	if a.SameCases {
		t.Error("different case ids counted as the same cases")
	}
	got := map[string]Comparison{}
	for _, c := range a.Comparisons {
		got[c.Figure] = c
	}
	if c := got["catch rate"]; !c.Separated || c.Better != "a" {
		t.Errorf("catch rate: %+v", c)
	}
	if c := got["false-intervention rate (lower is better)"]; c.Separated || c.MoreCases != nil {
		t.Errorf("false interventions: %+v", c)
	}
	now.Against = a
	var b strings.Builder
	now.writeAgainst(&b)
	for _, want := range []string{"Against old.json (judge then: old):", "**The two runs judged different cases:**", "- catch rate: this run ranks above the earlier run"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}
