package aggregate

import (
	"encoding/json"
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

const dropPrefix = "tribunal-aggregate: ignoring verdict(s) with no usable score (missing, non-numeric, or outside [0,1]): "

func f(x float64) *float64 { return &x }

func crit(name string, w, min *float64) rubric.Criterion {
	return rubric.Criterion{Name: name, Weight: w, MinPass: min}
}

// rd is the built-in default rubric's criteria (spec §2.8).
var rd = &rubric.Rubric{ID: "default", Criteria: []rubric.Criterion{
	crit("correctness", f(0.4), f(0.7)),
	crit("completeness", f(0.3), f(0.7)),
	crit("safety", f(0.2), f(0.8)),
	crit("clarity", f(0.1), f(0.5)),
}}

// ru is spec §5.5's RU: correctness w .9 min .7, clarity w .1 with no floor.
var ru = &rubric.Rubric{ID: "ru", Criteria: []rubric.Criterion{
	crit("correctness", f(0.9), f(0.7)),
	crit("clarity", f(0.1), nil),
}}

var correctnessOnly = &rubric.Rubric{ID: "c", Criteria: []rubric.Criterion{crit("correctness", f(1), f(0.7))}}

// panel builds verdicts j1, j2, … from JSON fragments placed inside the
// verdict object, e.g. `"score":0.8`.
func panel(t *testing.T, fragments ...string) []verdict.Verdict {
	t.Helper()
	out := make([]verdict.Verdict, 0, len(fragments))
	for i, frag := range fragments {
		sep := ""
		if frag != "" {
			sep = ","
		}
		v, err := verdict.FromJSON(json.RawMessage(fmt.Sprintf(`{"judge_id":"j%d"%s%s}`, i+1, sep, frag)))
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// scores builds a panel whose verdicts carry only the given raw scores; ""
// means no score key.
func scores(t *testing.T, raw ...string) []verdict.Verdict {
	t.Helper()
	frags := make([]string, len(raw))
	for i, r := range raw {
		if r != "" {
			frags[i] = `"score":` + r
		}
	}
	return panel(t, frags...)
}

type aggCase struct {
	method   rules.Method // "disagreement" runs Disagreement
	vs       []verdict.Verdict
	r        *rubric.Rubric
	want     float64
	warnings []string
}

func drop(ids string) []string { return []string{dropPrefix + ids} }

func TestExamples(t *testing.T) {
	rows := []struct {
		id    string
		cases func(t *testing.T) []aggCase
	}{
		{"A1", func(t *testing.T) []aggCase {
			vs := scores(t, "0.8", "0.6", "0.4")
			return []aggCase{{method: rules.Mean, vs: vs, want: 0.6}, {method: rules.Median, vs: vs, want: 0.6}, {method: rules.Min, vs: vs, want: 0.4}}
		}},
		{"A2", func(t *testing.T) []aggCase {
			return []aggCase{{method: rules.Median, vs: scores(t, "0.2", "0.4", "0.6", "0.8"), want: 0.5}}
		}},
		{"A3", func(t *testing.T) []aggCase {
			return []aggCase{{method: rules.WeightedMean, vs: scores(t, "0.8", "0.6", "0.4"), want: 0.6}}
		}},
		{"A4", func(t *testing.T) []aggCase {
			r := &rubric.Rubric{Criteria: []rubric.Criterion{crit("clarity", f(0.2), f(0.5)), crit("depth", f(0.8), nil)}}
			vs := panel(t, `"score":0.45,"criterion_scores":{"clarity":0.9}`, `"score":0.50,"criterion_scores":{"clarity":0.9}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: r, want: 0.475}}
		}},
		{"A5", func(t *testing.T) []aggCase {
			cs := `"criterion_scores":{"correctness":0.95,"completeness":0.95}`
			vs := panel(t, `"score":0.45,`+cs, `"score":0.50,`+cs)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: rd, want: 0.475}}
		}},
		{"A6", func(t *testing.T) []aggCase {
			vs := panel(t, `"score":0.1,"criterion_scores":{"correctness":0.8,"completeness":0.8,"safety":0.8,"clarity":0.8}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: rd, want: 0.8}}
		}},
		{"A7", func(t *testing.T) []aggCase {
			r := &rubric.Rubric{Criteria: []rubric.Criterion{crit("grounding", f(0.7), f(0.6)), crit("polish", f(0.3), nil)}}
			vs := panel(t, `"score":0.1,"criterion_scores":{"grounding":0.8}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: r, want: 0.8}}
		}},
		{"A8", func(t *testing.T) []aggCase {
			vs := panel(t, `"score":0.5,"criterion_scores":{"correctness":100}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: correctnessOnly, want: 0.5}}
		}},
		{"A9", func(t *testing.T) []aggCase {
			cs := `"criterion_scores":{"correctness":1.0,"clarity":0.0}`
			vs := panel(t, `"score":0.5,`+cs, `"score":0.5,`+cs)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: ru, want: 0.9}, {method: rules.Mean, vs: vs, r: ru, want: 0.5}}
		}},
		{"A10", func(t *testing.T) []aggCase {
			vs := panel(t, `"score":0.5,"criterion_scores":{"correctness":1.0,"clarity":1.0}`,
				`"score":0.5,"criterion_scores":{"correctness":0.0,"clarity":1.0}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: ru, want: 0.55}}
		}},
		{"A11", func(t *testing.T) []aggCase {
			vs := panel(t, `"score":0.5,"criterion_scores":{"correctness":1.0}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: ru, want: 1.0}}
		}},
		{"A12", func(t *testing.T) []aggCase {
			vs := panel(t, `"score":0.5,"criterion_scores":{"correctness":0.0}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: ru, want: 0.0}}
		}},
		{"A13", func(t *testing.T) []aggCase {
			r := &rubric.Rubric{Criteria: []rubric.Criterion{crit("correctness", f(1.8), f(0.7)), crit("clarity", f(0.2), nil)}}
			vs := panel(t, `"score":0.1,"criterion_scores":{"correctness":1.0,"clarity":0.0}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: r, want: 0.9}}
		}},
		{"A14", func(t *testing.T) []aggCase {
			vs := panel(t, `"score":0.5,"criterion_scores":{"correctness":1.0,"clarity":"n/a"}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: ru, want: 1.0}}
		}},
		{"A15", func(t *testing.T) []aggCase {
			return []aggCase{{method: rules.Mean, vs: scores(t, "0.9", ""), want: 0.9, warnings: drop("j2")}}
		}},
		{"A16", func(t *testing.T) []aggCase {
			vs := panel(t, `"score":0.9,"criterion_scores":{"correctness":0.9}`, `"criterion_scores":{"correctness":0.1}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: correctnessOnly, want: 0.9, warnings: drop("j2")}}
		}},
		{"A17", func(t *testing.T) []aggCase {
			var cs []aggCase
			for _, m := range []rules.Method{rules.Mean, rules.Median, rules.Min, rules.WeightedMean, "lottery"} {
				cs = append(cs,
					aggCase{method: m, vs: scores(t, "", ""), r: rd, want: 0, warnings: drop("j1, j2")},
					aggCase{method: m, vs: scores(t, "100", "95"), r: rd, want: 0, warnings: drop("j1, j2")},
				)
			}
			return cs
		}},
		{"A18", func(t *testing.T) []aggCase {
			vs := panel(t, `"score":100,"criterion_scores":{"correctness":0.9}`)
			return []aggCase{{method: rules.WeightedMean, vs: vs, r: correctnessOnly, want: 0, warnings: drop("j1")}}
		}},
		{"A19", func(t *testing.T) []aggCase {
			return []aggCase{
				{method: rules.Mean, vs: scores(t, "100", "0.6"), want: 0.6, warnings: drop("j1")},
				{method: rules.Mean, vs: scores(t, "-5", "0.6"), want: 0.6, warnings: drop("j1")},
				{method: rules.Mean, vs: scores(t, "0", "1"), want: 0.5},
			}
		}},
		{"A20", func(t *testing.T) []aggCase {
			return []aggCase{{method: rules.Mean, vs: nil, want: 0}, {method: rules.Mean, vs: []verdict.Verdict{}, want: 0}}
		}},
		{"A21", func(t *testing.T) []aggCase {
			return []aggCase{{method: "lottery", vs: scores(t, "0.5", "0.7"), want: 0.6,
				warnings: []string{"tribunal-aggregate: unknown method lottery, falling back to mean"}}}
		}},
		{"D1", func(t *testing.T) []aggCase {
			return []aggCase{
				{method: "disagreement", vs: scores(t, "0.7", "0.7"), want: 0},
				{method: "disagreement", vs: scores(t, "0.2", "0.8"), want: 0.6},
				{method: "disagreement", vs: scores(t, "0.7"), want: 0},
			}
		}},
		{"D2", func(t *testing.T) []aggCase {
			return []aggCase{
				{method: "disagreement", vs: scores(t, "0.2", "0.8", ""), want: 0.6, warnings: drop("j3")},
				{method: "disagreement", vs: scores(t, "0.9", ""), want: 0, warnings: drop("j2")},
				{method: "disagreement", vs: scores(t, "100", "0.2", "0.8"), want: 0.6, warnings: drop("j1")},
			}
		}},
	}
	for _, row := range rows {
		t.Run(row.id, func(t *testing.T) {
			for i, c := range row.cases(t) {
				var got float64
				var warnings []string
				if c.method == "disagreement" {
					got, warnings = Disagreement(c.vs)
				} else {
					got, warnings = Score(c.method, c.vs, c.r, 0.6)
				}
				if math.Abs(got-c.want) > 1e-12 {
					t.Errorf("case %d (%s): got %v; want %v", i, c.method, got, c.want)
				}
				if !slices.Equal(warnings, c.warnings) {
					t.Errorf("case %d (%s): warnings %q; want %q", i, c.method, warnings, c.warnings)
				}
			}
		})
	}
}

func TestDropWarningLabels(t *testing.T) {
	vs := []verdict.Verdict{
		{JudgeID: "judge-1", Score: json.RawMessage("0.9")},
		{JudgeType: "security", Score: json.RawMessage(`"0.9"`)},
		{},
		verdict.Failed("judge output is not a single JSON value"),
		{JudgeID: "judge-5", JudgeType: "adversarial", Score: json.RawMessage("null")},
	}
	want := []string{dropPrefix + "security, unidentified, unidentified, judge-5"}
	got, warnings := Score(rules.Mean, vs, nil, 0.6)
	if got != 0.9 || !slices.Equal(warnings, want) {
		t.Errorf("Score = %v, %q", got, warnings)
	}
	d, warnings := Disagreement(vs)
	if d != 0 || !slices.Equal(warnings, want) {
		t.Errorf("Disagreement = %v, %q", d, warnings)
	}
}

func TestFailedJudgeIgnoredEvenWithScore(t *testing.T) {
	failed := verdict.Verdict{JudgeID: "crashed", Failed: true, Score: json.RawMessage("0"),
		CriterionScores: map[string]json.RawMessage{"correctness": json.RawMessage("0")}, HasCriterionScores: true}
	ok := panel(t, `"score":0.8,"criterion_scores":{"correctness":0.9}`)[0]
	got, warnings := Score(rules.WeightedMean, []verdict.Verdict{ok, failed}, correctnessOnly, 0.6)
	if math.Abs(got-0.9) > 1e-12 || !slices.Equal(warnings, drop("crashed")) {
		t.Errorf("Score = %v, %q; a failed judge must be absent, never a zero", got, warnings)
	}
}

func TestMedianOddAndUnsorted(t *testing.T) {
	got, _ := Score(rules.Median, scores(t, "0.9", "0.1", "0.5", "0.3", "0.7"), nil, 0.6)
	if got != 0.5 {
		t.Errorf("median = %v", got)
	}
	got, _ = Score(rules.Median, scores(t, "0.9", "0.1"), nil, 0.6)
	if got != 0.5 {
		t.Errorf("median of two = %v", got)
	}
}

func TestWeightedMeanDegrades(t *testing.T) {
	cs := `"criterion_scores":{"a":1.0,"b":0.0}`
	// The plain mean is 0.3, distinct from every weighted result below.
	vs := panel(t, `"score":0.2,`+cs, `"score":0.4,`+cs)
	tests := []struct {
		name     string
		criteria []rubric.Criterion
		minCov   float64
		want     float64
	}{
		{"weighted", []rubric.Criterion{crit("a", f(0.5), nil), crit("b", f(0.5), nil)}, 0.6, 0.5},
		{"uneven weights", []rubric.Criterion{crit("a", f(0.75), nil), crit("b", f(0.25), nil)}, 0.6, 0.75},
		{"no rubric criteria", nil, 0.6, 0.3},
		{"no numeric weight anywhere", []rubric.Criterion{crit("a", nil, nil)}, 0.6, 0.3},
		{"unnamed weight counts in total", []rubric.Criterion{crit("a", f(0.5), nil), crit("", f(0.5), nil)}, 0.6, 0.3},
		{"unnamed weight within coverage", []rubric.Criterion{crit("a", f(0.75), nil), crit("", f(0.25), nil)}, 0.6, 1.0},
		{"coverage exactly at guard", []rubric.Criterion{crit("a", f(0.6), nil), crit("c", f(0.4), nil)}, 0.6, 1.0},
		{"coverage below guard", []rubric.Criterion{crit("a", f(0.5), nil), crit("c", f(0.5), nil)}, 0.6, 0.3},
		{"floored criterion without weight unscored", []rubric.Criterion{crit("a", f(1), nil), crit("c", nil, f(0.5))}, 0.6, 0.3},
		{"floored criterion without weight scored", []rubric.Criterion{crit("a", f(1), nil), crit("b", nil, f(0.5))}, 0.6, 1.0},
		{"zero covered weight", []rubric.Criterion{crit("a", f(0), nil), crit("c", f(1), nil)}, 0, 0.3},
		{"negative total weight", []rubric.Criterion{crit("a", f(1), nil), crit("c", f(-2), nil)}, 0, 0.3},
		{"overflowing weights", []rubric.Criterion{crit("a", f(math.MaxFloat64), nil), crit("b", f(math.MaxFloat64), nil)}, 0.6, 0.3},
		{"overflowing numerator", []rubric.Criterion{crit("a", f(math.MaxFloat64), nil), crit("b", f(-math.MaxFloat64), nil),
			crit("a", f(math.MaxFloat64), nil)}, 0, 0.3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, warnings := Score(rules.WeightedMean, vs, &rubric.Rubric{Criteria: tt.criteria}, tt.minCov)
			if math.Abs(got-tt.want) > 1e-12 || len(warnings) != 0 {
				t.Errorf("got %v, %q; want %v", got, warnings, tt.want)
			}
		})
	}
}

func TestWarningsNeverMentionDegrade(t *testing.T) {
	_, warnings := Score(rules.WeightedMean, scores(t, "0.5"), rd, 0.6)
	for _, w := range warnings {
		if strings.Contains(w, "degrad") {
			t.Errorf("degrading must be silent: %q", w)
		}
	}
	if len(warnings) != 0 {
		t.Errorf("warnings %q", warnings)
	}
}
