package answer

import (
	"context"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging/evaluator"
	"github.com/tribunal-cc/tribunal/internal/judging/schemaengine"
	"github.com/tribunal-cc/tribunal/internal/rubric"
)

func TestEqual(t *testing.T) {
	tests := []struct {
		mode, got, want string
		eq              bool
	}{
		{MatchExact, "Paris", "Paris", true},
		{MatchExact, "Paris\n", "Paris", true}, // a file's last line end
		{MatchExact, "paris", "Paris", false},
		{MatchExact, "Paris ", "Paris", false},
		{MatchIgnoreCase, "PARIS", "paris", true},
		{MatchIgnoreCase, "Paris ", "paris", false},
		{MatchNormalised, "  The  capital\tis\nParis ", "the capital is paris", true},
		{MatchNormalised, "the capital is Paris.", "the capital is paris", false},
		{MatchNormalised, "Lyon", "Paris", false},
	}
	for _, tc := range tests {
		if got := Equal(tc.mode, tc.got, tc.want); got != tc.eq {
			t.Errorf("Equal(%s, %q, %q) = %v, want %v", tc.mode, tc.got, tc.want, got, tc.eq)
		}
	}
}

func f(v float64) *float64 { return &v }

// TestChecks: which checks run for a case and what each decides.
func TestChecks(t *testing.T) {
	rub, err := rubric.Parse([]byte(`{"id":"r","criteria":[{"name":"correctness","weight":1,"min_pass":0.5,
		"must_include":["Paris"],"must_avoid":[{"pattern":"i think","ignore_case":true}]}]}`))
	if err != nil || rubric.Validate(&rub) != nil {
		t.Fatal(err)
	}
	schema, err := evaluator.CompileSchema(context.Background(), schemaengine.Local{}, "s", []byte(`{"type":"object","required":["city"]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		c    Case
		want string // "name:passed" joined by spaces
	}{
		{"no expected, no checks of it", Case{Answer: "Paris"}, "must_include.correctness:true must_avoid.correctness:true"},
		{"semantic leaves it to the jury", Case{Answer: "Lyon", Expected: "Paris", HasExpected: true, Match: MatchSemantic}, "must_include.correctness:false must_avoid.correctness:true"},
		{"exact mismatch", Case{Answer: "I THINK Paris", Expected: "Paris", HasExpected: true, Match: MatchExact}, "expected:false must_include.correctness:true must_avoid.correctness:false"},
		{"icase match", Case{Answer: "PARIS", Expected: "paris", HasExpected: true, Match: MatchIgnoreCase}, "expected:true must_include.correctness:false must_avoid.correctness:true"},
		{"json invalid", Case{Answer: `{"city": Paris}`, Format: FormatJSON}, "format:false must_include.correctness:true must_avoid.correctness:true"},
		{"json schema fails", Case{Answer: `{"town":"Paris"}`, Format: FormatJSON, Schema: schema}, "format:false must_include.correctness:true must_avoid.correctness:true"},
		{"json schema holds", Case{Answer: `{"city":"Paris"}`, Format: FormatJSON, Schema: schema}, "format:true must_include.correctness:true must_avoid.correctness:true"},
		{"budgets", Case{Answer: "Paris", LatencyMS: f(900), MaxLatencyMS: f(500), CostUSD: f(0.01), MaxCostUSD: f(0.02)},
			"must_include.correctness:true must_avoid.correctness:true budget.latency:false budget.cost:true"},
		{"a figure without a budget decides nothing", Case{Answer: "Paris", LatencyMS: f(900)}, "must_include.correctness:true must_avoid.correctness:true"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range Checks(context.Background(), tc.c, &rub) {
				got = append(got, r.Name+":"+map[bool]string{true: "true", false: "false"}[r.Passed])
				if !r.Required || (r.Passed != (len(r.Findings) == 0)) {
					t.Errorf("%s: required %v, %d findings", r.Name, r.Required, len(r.Findings))
				}
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("checks = %s\nwant     %s", s, tc.want)
			}
		})
	}
}

// TestMustFindingNamesCriterion: a must_include failure is a finding on
// its criterion that names the missing pattern.
func TestMustFindingNamesCriterion(t *testing.T) {
	rub, _ := rubric.Parse([]byte(`{"id":"r","criteria":[{"name":"facts","weight":1,"min_pass":0.5,"must_include":[{"pattern":"\\d{4}","regex":true}]}]}`))
	_ = rubric.Validate(&rub)
	rs := Checks(context.Background(), Case{Answer: "no year"}, &rub)
	if len(rs) != 1 || len(rs[0].Findings) != 1 || rs[0].Findings[0].Criterion != "facts" || !strings.Contains(rs[0].Findings[0].Message, `/\d{4}/`) {
		t.Fatalf("%+v", rs)
	}
}
