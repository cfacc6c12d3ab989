package decide

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

// The reference's own aggregate and gate test values (spec §5.5 and the
// case table of spec §6.4), run through Run in the shapes the reference's
// tests feed it: verdicts with only the fields a case is about, and a meta
// object with only the fields the gate reads (no verdict_quality). Where
// tribunal deliberately differs (Appendix A), the expected value is
// tribunal's, as the tables give it.

// Reference meta shapes.
const (
	acc     = `{"override_recommendation":"accept"}`
	rej     = `{"override_recommendation":"reject"}`
	rejBias = `{"bias_detected":true,"override_recommendation":"reject"}`
	bias    = `{"bias_detected":true}`
	noBias  = `{"bias_detected":false}`
	bogus   = `{"override_recommendation":"bogus"}`
)

// Rubrics of the reference tests (rd and rf are decide_test.go's).
const (
	ru   = `{"id":"ru","criteria":[{"name":"correctness","weight":0.9,"min_pass":0.7},{"name":"clarity","weight":0.1}]}`
	rc   = `{"id":"rc","criteria":[{"name":"correctness","weight":1,"min_pass":0.7}]}`
	rA4  = `{"id":"a4","criteria":[{"name":"clarity","weight":0.2,"min_pass":0.5},{"name":"depth","weight":0.8}]}`
	rA7  = `{"id":"a7","criteria":[{"name":"grounding","weight":0.7,"min_pass":0.6},{"name":"polish","weight":0.3}]}`
	rA13 = `{"id":"a13","criteria":[{"name":"correctness","weight":1.8,"min_pass":0.7},{"name":"clarity","weight":0.2}]}`
)

// num writes the tables' ".85" as the JSON number 0.85.
func num(s string) string {
	if strings.HasPrefix(s, ".") {
		return "0" + s
	}
	return s
}

// v is one verdict: score and passed as JSON ("" leaves the key out), then
// criterion_scores as a JSON object, if any.
func v(score, passed string, cs ...string) string {
	var parts []string
	if score != "" {
		parts = append(parts, `"score":`+num(score))
	}
	if passed != "" {
		parts = append(parts, `"passed":`+passed)
	}
	if len(cs) > 0 {
		parts = append(parts, `"criterion_scores":`+cs[0])
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// cs is correctness and safety, the notation {c,s} of spec §6.4.
func cs(c, s string) string { return `{"correctness":` + num(c) + `,"safety":` + num(s) + `}` }

// rep repeats a verdict n times.
func rep(n int, verdict string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = verdict
	}
	return out
}

// refCase is one reference test value.
type refCase struct {
	id string
	// the input's fields besides the verdicts, as JSON members
	fields   string
	verdicts []string
	// expected: the aggregate (aggregate examples), the disagreement
	// (D examples), the gate's decision (gate cases)
	agg, dis *float64
	gate     string // "pass", or the reason, with "/fc" when a floor failed
	warn     string // a substring of some warning; "-" means no warning at all
}

func f(x float64) *float64 { return &x }

func aggCase(id, method, rubric string, want float64, verdicts ...string) refCase {
	fields := `"aggregation_method":"` + method + `"`
	if rubric != "" {
		fields += `,"rubric":` + rubric
	}
	return refCase{id: id, fields: fields, verdicts: verdicts, agg: f(want)}
}

func disCase(id string, want float64, verdicts ...string) refCase {
	return refCase{id: id, verdicts: verdicts, dis: f(want)}
}

// gateCase decides with the aggregate A and dissent D given, as the
// reference's gate tests do; meta is "" for none.
func gateCase(id, policy string, a, d float64, meta, rubric, want string, verdicts ...string) refCase {
	fields := fmt.Sprintf(`"policy":%q,"aggregated_score":%v,"disagreement":%v`, policy, a, d)
	if meta != "" {
		fields += `,"meta":` + meta
	}
	if rubric != "" {
		fields += `,"rubric":` + rubric
	}
	return refCase{id: id, fields: fields, verdicts: verdicts, gate: want}
}

func (c refCase) with(fields string) refCase { c.fields += "," + fields; return c }
func (c refCase) warns(s string) refCase     { c.warn = s; return c }

func referenceCases() []refCase {
	const (
		t, fl = "true", "false"
	)
	x := v("0.85", fl, cs("0.9", "0.3")) // rows 35–40: failing votes over a safety gap
	y := v("0.85", fl, cs("0.9", "0.95"))
	return []refCase{
		// spec §5.5
		aggCase("A1 mean", "mean", "", 0.6, v("0.8", t), v("0.6", t), v("0.4", t)),
		aggCase("A1 median", "median", "", 0.6, v("0.8", t), v("0.6", t), v("0.4", t)),
		aggCase("A1 min", "min", "", 0.4, v("0.8", t), v("0.6", t), v("0.4", t)),
		aggCase("A2", "median", "", 0.5, v("0.2", t), v("0.4", t), v("0.6", t), v("0.8", t)),
		aggCase("A3", "weighted_mean", "", 0.6, v("0.8", t), v("0.6", t), v("0.4", t)),
		aggCase("A4", "weighted_mean", rA4, 0.475, v("0.45", t, `{"clarity":0.9}`), v("0.50", t, `{"clarity":0.9}`)),
		aggCase("A5", "weighted_mean", rd, 0.475, v("0.45", t, `{"correctness":0.95,"completeness":0.95}`),
			v("0.50", t, `{"correctness":0.95,"completeness":0.95}`)),
		aggCase("A6", "weighted_mean", rd, 0.8, v("0.1", t, `{"correctness":0.8,"completeness":0.8,"safety":0.8,"clarity":0.8}`)),
		aggCase("A7", "weighted_mean", rA7, 0.8, v("0.1", t, `{"grounding":0.8}`)),
		aggCase("A8", "weighted_mean", rc, 0.5, v("0.5", t, `{"correctness":100}`)),
		aggCase("A9 weighted_mean", "weighted_mean", ru, 0.9, rep(2, v("0.5", t, `{"correctness":1.0,"clarity":0.0}`))...),
		aggCase("A9 mean", "mean", ru, 0.5, rep(2, v("0.5", t, `{"correctness":1.0,"clarity":0.0}`))...),
		aggCase("A10", "weighted_mean", ru, 0.55, v("0.5", t, `{"correctness":1.0,"clarity":1.0}`), v("0.5", t, `{"correctness":0.0,"clarity":1.0}`)),
		aggCase("A11", "weighted_mean", ru, 1.0, v("0.5", t, `{"correctness":1.0}`)),
		aggCase("A12", "weighted_mean", ru, 0.0, v("0.5", t, `{"correctness":0.0}`)),
		aggCase("A13", "weighted_mean", rA13, 0.9, v("0.1", t, `{"correctness":1.0,"clarity":0.0}`)),
		aggCase("A14", "weighted_mean", ru, 1.0, v("0.5", t, `{"correctness":1.0,"clarity":"n/a"}`)),
		aggCase("A15", "mean", "", 0.9, v("0.9", t), v("", t)).warns(drop + "j2"),
		aggCase("A16", "weighted_mean", rc, 0.9, v("0.9", t, `{"correctness":0.9}`), v("", t, `{"correctness":0.1}`)),
		aggCase("A17", "mean", "", 0, v("", t), v("100", t), v("95", t)),
		aggCase("A18", "weighted_mean", rc, 0, v("100", t, `{"correctness":0.9}`)),
		aggCase("A19 above 1", "mean", "", 0.6, v("100", t), v("0.6", t)),
		aggCase("A19 below 0", "mean", "", 0.6, v("-5", t), v("0.6", t)),
		aggCase("A19 ends", "mean", "", 0.5, v("0", t), v("1", t)),
		aggCase("A20", "mean", "", 0).warns("-"),
		aggCase("A21", "lottery", "", 0.6, v("0.5", t), v("0.7", t)).warns("unknown method lottery"),
		disCase("D1 agree", 0, v("0.7", t), v("0.7", t)),
		disCase("D1 apart", 0.6, v("0.2", t), v("0.8", t)),
		disCase("D1 alone", 0, v("0.7", t)),
		disCase("D2 scoreless dropped", 0.6, v("0.2", t), v("0.8", t), v("", t)),
		disCase("D2 one usable", 0, v("0.9", t), v("", t)),
		disCase("D2 out of range dropped", 0.6, v("100", t), v("0.2", t), v("0.8", t)),

		// spec §6.4
		gateCase("1", "strict", .82, .05, "", "", "pass", v(".85", t), v(".80", t)),
		gateCase("2", "strict", .62, .45, "", "", "dissent_unresolved", v(".85", t), v(".40", fl)),
		gateCase("3", "unanimous", .62, .05, "", "", "low_score", v(".85", t), v(".40", fl)),
		gateCase("4", "majority", .78, .20, "", "", "pass", v(".9", t), v(".8", t), v(".4", fl)),
		gateCase("5", "majority", .62, .20, "", "", "low_score", v(".85", t), v(".40", fl)),
		gateCase("6", "majority", .80, .20, "", "", "dissent_unresolved", v(".9", t), v(".7", fl)),
		gateCase("7", "majority", .75, 0, "", "", "pass", v(".75", t)),
		gateCase("8", "majority", .80, .25, "", "", "pass", v(".85", t), v(".60", t)),
		gateCase("9", "majority", .555, .68-.43, "", "", "pass", v(".68", t), v(".43", t)).with(`"score_threshold":0.5`),
		gateCase("10", "meta_override", .30, .10, acc, "", "pass", v(".30", fl), v(".40", fl)),
		gateCase("11", "meta_override", .82, .05, rej, "", "meta_override", v(".85", t), v(".80", t)),
		gateCase("12", "meta_override", .65, .50, "", "", "dissent_unresolved", v(".9", t), v(".4", fl)),
		gateCase("13", "majority", .60, .45, rejBias, "", "bias_detected", v(".85", t), v(".40", fl)),
		gateCase("14", "majority", .82, .05, bias, "", "pass", v(".85", t), v(".80", t)),
		gateCase("15", "majority", .82, .05, rej, "", "pass", v(".85", t), v(".80", t)),
		gateCase("16", "majority", .85, .10, rej, "", "meta_override", v(".9", fl), v(".8", fl)),
		gateCase("17", "majority", .62, .45, noBias, "", "dissent_unresolved", v(".85", t), v(".40", fl)).with(`"score_threshold":0.5`),
		gateCase("18", "majority", .775, .35, acc, "", "pass", v(".95", t), v(".60", t)),
		gateCase("19", "majority", .775, .35, rej, "", "dissent_unresolved", v(".95", t), v(".60", t)),
		gateCase("20", "meta_override", .775, .35, bogus, "", "dissent_unresolved", v(".95", t), v(".60", t)),
		gateCase("21", "majority", .82, .05, "", rf, "criterion_floor/safety", v(".85", t, cs(".9", ".3")), v(".80", t, cs(".9", ".3"))),
		gateCase("22", "meta_override", .82, .05, acc, rf, "criterion_floor/safety", v(".85", t, cs(".9", ".3")), v(".80", t, cs(".9", ".3"))),
		gateCase("23", "meta_override", .30, .10, acc, rf, "pass", v(".30", fl, cs(".9", ".95")), v(".40", fl, cs(".9", ".95"))),
		gateCase("24", "majority", .82, .05, "", rf, "pass", v(".85", t, cs(".7", ".8")), v(".80", t, cs(".7", ".8"))),
		gateCase("25", "majority", .82, .05, "", rf, "pass", v(".85", t), v(".80", t)).warns("-"),
		gateCase("26", "majority", .82, .05, "", rf, "pass", v(".85", t, `{"correctness":0.9}`), v(".80", t, `{"correctness":0.9}`)).
			warns("did not apply: safety"),
		gateCase("27", "majority", .82, .05, "", rf, "criterion_floor/safety", v(".85", t, cs(".9", "0")), v(".80", t, cs(".9", "0"))),
		gateCase("28", "majority", .9, .05, "", rf, "criterion_floor/safety",
			v(".9", t, cs(".9", ".95")), v(".9", t, cs(".9", ".95")), v(".9", t, cs(".9", ".6"))),
		gateCase("29", "majority", .20, .05, "", rf, "low_score/correctness", rep(2, v(".2", t, cs(".1", ".1")))...),
		gateCase("30", "majority", .85, 0, "", rf, "criterion_floor/safety", rep(2, v(".85", t, cs(".9", "30")))...),
		gateCase("31", "majority", .85, 0, "", rf, "criterion_floor/safety",
			v(".85", t, cs(".9", "30")), v(".85", t, cs(".9", ".95")), v(".85", t, cs(".9", ".95"))),
		gateCase("32", "majority", .85, 0, "", rf, "criterion_floor/safety", rep(2, v(".85", t, cs(".9", `"high"`)))...),
		gateCase("33", "majority", .85, 0, "", rf, "criterion_floor/safety", v(".85", t, cs(".9", "null"))),
		gateCase("34", "majority", .85, 0, "", rf, "pass", rep(2, v(".85", t, cs("1", "1")))...),
		gateCase("35", "majority", .85, 0, rej, rf, "meta_override/safety", x, x),
		gateCase("36", "majority", .85, 0, "", rf, "dissent_unresolved/safety", x, x),
		gateCase("37", "majority", .30, 0, rej, rf, "low_score/safety", rep(2, v(".30", fl, cs(".9", ".3")))...),
		gateCase("38", "meta_override", .85, 0, rej, rf, "meta_override/safety", x, x),
		gateCase("39", "majority", .85, 0, rejBias, rf, "bias_detected/safety", x, x),
		gateCase("40", "majority", .85, .90, "", rf, "dissent_unresolved/safety", x, x),
		gateCase("41 as 38", "meta_override", .85, 0, rej, rf, "meta_override", y, y),
		gateCase("41 as 39", "majority", .85, 0, rejBias, rf, "bias_detected", y, y),
		gateCase("41 as 40", "majority", .85, .90, "", rf, "dissent_unresolved", y, y),
		gateCase("42", "majority", .90, .05, "", "", "dissent_unresolved", v(".9", fl), v("", t), v("", t)),
		gateCase("43", "majority", .90, .05, "", "", "dissent_unresolved", v(".9", t), v("", fl), v("", fl)),
		gateCase("44", "strict", .85, .05, "", "", "dissent_unresolved", v(".9", t), v(".8", t), v("", t)),
		gateCase("45", "majority", .85, .05, "", "", "pass", v(".9", t), v(".8", t), v("", t)),
		{id: "46", fields: `"policy":"majority"`, verdicts: rep(3, v("95", t)), gate: "low_score"},
		gateCase("47 strict", "strict", .87, .05, "", "", "dissent_unresolved", v(".9", t), v(".85", t), v("100", t)),
		gateCase("47 majority", "majority", .87, .05, "", "", "pass", v(".9", t), v(".85", t), v("100", t)),
		gateCase("48", "strict", .90, 0, "", "", "pass", v("0", t)),
		gateCase("49", "majority", .90, 0, "", "", "dissent_unresolved", v(".9", `"true"`)),
		gateCase("50", "democracy", .80, 0, "", "", "pass", v(".8", t), v(".8", t)).warns("unknown policy democracy"),
		gateCase("51", "majority", 0, 0, "", "", "low_score"),
		gateCase("52", "meta_override", 0, 0, acc, "", "low_score"),
		gateCase("53", "meta_override", 0, 0, acc, "", "low_score", v("", t)),
		gateCase("54", "majority", .85, 0, "", rf, "dissent_unresolved/safety", v(".85", t), v("", t, cs(".9", ".1"))),
	}
}

// input is the case's decide document; verdicts get judge ids j1, j2, …
func (c refCase) input() string {
	vs := make([]string, len(c.verdicts))
	for i, vj := range c.verdicts {
		id := fmt.Sprintf(`"judge_id":"j%d"`, i+1)
		if vj == "{}" {
			vs[i] = "{" + id + "}"
		} else {
			vs[i] = "{" + id + "," + vj[1:]
		}
	}
	doc := `{"verdicts":[` + strings.Join(vs, ",") + `]`
	if c.fields != "" {
		doc += "," + c.fields
	}
	return doc + "}"
}

// check reports how the decision differs from the case's expectation.
func (c refCase) check(out []byte) error {
	var got struct {
		Agg     float64  `json:"aggregated_score"`
		Dis     float64  `json:"disagreement"`
		Passed  bool     `json:"passed"`
		Reason  string   `json:"reason"`
		Failed  string   `json:"failed_criterion"`
		Warning []string `json:"warnings"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		return err
	}
	if c.agg != nil && math.Abs(got.Agg-*c.agg) > 1e-9 {
		return fmt.Errorf("aggregated_score %v, want %v", got.Agg, *c.agg)
	}
	if c.dis != nil && math.Abs(got.Dis-*c.dis) > 1e-9 {
		return fmt.Errorf("disagreement %v, want %v", got.Dis, *c.dis)
	}
	if c.gate != "" {
		decision := "pass"
		if !got.Passed {
			decision = got.Reason
			if got.Failed != "" {
				decision += "/" + got.Failed
			}
		}
		if decision != c.gate {
			return fmt.Errorf("gate %s, want %s", decision, c.gate)
		}
	}
	all := strings.Join(got.Warning, "\n")
	switch {
	case c.warn == "-" && len(got.Warning) > 0:
		return fmt.Errorf("warnings %q, want none", got.Warning)
	case c.warn != "" && c.warn != "-" && !strings.Contains(all, c.warn):
		return fmt.Errorf("warnings %q do not say %q", got.Warning, c.warn)
	}
	return nil
}

// TestReferenceCases runs the reference's 89 aggregate and gate test
// values through decide in the reference's own input shapes.
func TestReferenceCases(t *testing.T) {
	cases := referenceCases()
	if len(cases) != 89 {
		t.Fatalf("%d reference cases, want the 89 of spec §5.5 and §6.4", len(cases))
	}
	passed := 0
	for _, c := range cases {
		ok := t.Run(c.id, func(t *testing.T) {
			out, err := Run([]byte(c.input()))
			if err != nil {
				t.Fatalf("Run(%s): %v", c.input(), err)
			}
			if err := c.check(out); err != nil {
				t.Errorf("%v\ninput  %s\noutput %s", err, c.input(), out)
			}
		})
		if ok {
			passed++
		}
	}
	t.Logf("%d of %d reference cases pass", passed, len(cases))
}
