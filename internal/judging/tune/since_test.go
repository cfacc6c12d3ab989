package tune

import (
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
)

func TestSince(t *testing.T) {
	rec := Record{ID: "run", Result: &Result{TrainIDs: []string{"t1"}, HeldOutIDs: []string{"h1", "h2"},
		Decision: &Decision{Pairs: []Pair{
			{ID: "h1", Label: "reject", After: Cell{Decision: "fail"}},
			{ID: "h2", Label: "accept", After: Cell{Decision: "pass"}},
			{ID: "h3", Label: "accept", After: Cell{Decision: "failed"}, Dropped: true},
		}}}}
	report := func(decisions ...string) *calibrate.Report {
		rep := &calibrate.Report{}
		// The tune run's own cases never count as new.
		rep.Results = append(rep.Results, calibrate.CaseResult{ID: "t1", Label: "reject", Judgement: calibrate.Judgement{Decision: "pass"}})
		for i, d := range decisions {
			rep.Results = append(rep.Results, calibrate.CaseResult{ID: string(rune('a' + i)), Label: "reject", Judgement: calibrate.Judgement{Decision: d}})
		}
		return rep
	}
	for _, tc := range []struct {
		name      string
		rep       *calibrate.Report
		regressed bool
		text      string
	}{
		{"nothing new", report(), false, "no case here is new since"},
		{"holding", report("fail", "fail", "fail", "fail", "failed"), false, "agreement since on 4 new case(s): 1.000"},
		{"regressed", report("pass", "pass", "pass", "pass", "pass", "fail"), true, "REGRESSED"},
	} {
		s := since(rec, "2026-12-07T08:00:00Z", tc.rep)
		if s.Tuned != 1 || s.TunedN != 2 || s.Regressed != tc.regressed || !strings.Contains(s.Text(), tc.text) {
			t.Errorf("%s: %+v: %s", tc.name, s, s.Text())
		}
	}
}
