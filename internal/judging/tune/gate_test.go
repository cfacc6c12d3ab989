package tune

import (
	"fmt"
	"strings"
	"testing"
)

// cellsOf builds held-out cells: dec[i] is case i's decision, costs the
// same for every cell.
func cellsOf(decs string, cost float64) map[string]Cell {
	m := map[string]Cell{}
	for i, d := range decs {
		c := Cell{Decision: map[rune]string{'p': "pass", 'f': "fail", 'x': "failed"}[d], CostUSD: cost}
		m[fmt.Sprint(i)] = c
	}
	return m
}

func TestJudge(t *testing.T) {
	// Labels: cases 0-5 reject, 6-11 accept.
	labels := map[string]string{}
	var ids []string
	for i := 0; i < 12; i++ {
		ids = append(ids, fmt.Sprint(i))
		labels[fmt.Sprint(i)] = map[bool]string{true: "reject", false: "accept"}[i < 6]
	}
	for _, tc := range []struct {
		name, gate, before, after string
		costAfter                 float64
		want, reason              string
	}{
		{"ship: every reject now caught", GateDelta, "ppppppppppp" + "p", "ffffffpppppp", 0.01, Ship, "excludes 0"},
		{"hold: nothing changes", GateDelta, "ffffffpppppp", "ffffffpppppp", 0.01, Hold, "below Δ"},
		{"hold: worse", GateDelta, "ffffffpppppp", "ppppppffffff", 0.01, Hold, "below Δ"},
		{"need more data: one catch", GateDelta, "pppppppppppp", "fppppppppppp", 0.01, NeedMoreData, "more held-out case"},
		{"invalid: half the cells error", GateDelta, "pppppppppppp", "ffffffxxxxxx", 0.01, Invalid, "valid pair"},
		{"invalid: under 3 pairs", GateDelta, "ppxxxxxxxxxx", "ffpppppppppp", 0.01, Invalid, "at least 3"},
		{"pareto: better agreement, same cost", GatePareto, "pppppppppppp", "ffffffpppppp", 0.01, Ship, "significantly better on agreement"},
		{"pareto: better but dearer", GatePareto, "pppppppppppp", "ffffffpppppp", 0.02, Hold, "worse on cost"},
		{"pareto: cheaper, same decisions", GatePareto, "ffffffpppppp", "ffffffpppppp", 0.005, Ship, "better on cost"},
		{"pareto: more false interventions", GatePareto, "pppppppppppp", "fffffffppppp", 0.01, Hold, "worse on false-intervention"},
	} {
		d := Judge(tc.gate, 0.05, labels, ids, cellsOf(tc.before, 0.01), cellsOf(tc.after, tc.costAfter))
		if d.Outcome != tc.want || !strings.Contains(d.Reason, tc.reason) {
			t.Errorf("%s: %s (%s), want %s (%q)", tc.name, d.Outcome, d.Reason, tc.want, tc.reason)
		}
	}
	// A case one surface never judged is unpaired evidence, never compared.
	after := cellsOf("ffffffpppppp", 0.01)
	delete(after, "3")
	if d := Judge(GateDelta, 0.05, labels, ids, cellsOf("pppppppppppp", 0.01), after); d.Outcome != Invalid || !strings.Contains(d.Reason, "unpaired") {
		t.Errorf("unpaired: %s (%s)", d.Outcome, d.Reason)
	}
}

func TestApply(t *testing.T) {
	base := Surface{Raw: []byte(baseRubric)}
	for _, tc := range []struct {
		name    string
		edits   []Edit
		want    []string
		wantErr string
	}{
		{"add rescales", fixOffByOne, []string{"correctness (weight 0.42, min_pass 0)", "tests (weight 0.28, min_pass 0)", "off-by-one errors in loop bounds (weight 0.3, min_pass 0)"}, ""},
		{"reword", []Edit{{Op: "reword_criterion", Criterion: "tests", Name: "tests cover the change"}}, []string{"correctness (weight 0.6, min_pass 0)", "tests cover the change (weight 0.4, min_pass 0)"}, ""},
		{"remove rescales", []Edit{{Op: "remove_criterion", Criterion: "tests"}}, []string{"correctness (weight 1, min_pass 0)"}, ""},
		{"set weight", []Edit{{Op: "set_weight", Criterion: "tests", Value: num(0.5)}}, []string{"correctness (weight 0.5, min_pass 0)", "tests (weight 0.5, min_pass 0)"}, ""},
		{"threshold", []Edit{{Op: "set_threshold", Value: num(0.7)}}, []string{"correctness (weight 0.6, min_pass 0)", "tests (weight 0.4, min_pass 0)", "score_threshold 0.7"}, ""},
		{"unknown criterion", []Edit{{Op: "remove_criterion", Criterion: "speed"}}, nil, "no criterion is named"},
		{"unknown op", []Edit{{Op: "rewrite_everything"}}, nil, "unknown op"},
		{"no value", []Edit{{Op: "set_min_pass", Criterion: "tests"}}, nil, "value is missing"},
		{"too many", []Edit{fixOffByOne[0], fixOffByOne[0], fixOffByOne[0], fixOffByOne[0]}, nil, "at most 3"},
	} {
		s, err := base.Apply(Proposal{Edits: tc.edits})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("%s: err %v", tc.name, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := strings.Join(s.Criteria(), "|"); got != strings.Join(tc.want, "|") {
			t.Errorf("%s: %s", tc.name, got)
		}
		if err := CheckRubric(s); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// A weight out of range breaks the rubric's schema: Check says so.
	s, _ := base.Apply(Proposal{Edits: []Edit{{Op: "set_weight", Criterion: "tests", Value: num(1.4)}}})
	if err := CheckRubric(s); err == nil || !strings.Contains(err.Error(), "out of [0,1]") {
		t.Errorf("weight 1.4: %v", err)
	}
}

func TestDiff(t *testing.T) {
	base := Surface{Raw: []byte(baseRubric)}
	s, err := base.Apply(Proposal{Edits: []Edit{{Op: "reword_criterion", Criterion: "tests", Name: "tests cover the change"}}})
	if err != nil {
		t.Fatal(err)
	}
	d := Diff(base, s)
	if !strings.Contains(d, "-      \"name\": \"tests\",\n") || !strings.Contains(d, "+      \"name\": \"tests cover the change\",\n") || !strings.Contains(d, "       \"name\": \"correctness\",\n") {
		t.Fatalf("diff:\n%s", d)
	}
	if strings.Count(d, "\n-") != 1 || strings.Count(d, "\n+") != 2 { // + the +++ header
		t.Fatalf("diff:\n%s", d)
	}
}
