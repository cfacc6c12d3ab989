package gate

import (
	"encoding/json"
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging/aggregate"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

func f(x float64) *float64 { return &x }

// rf is spec §6.4's RF: correctness w .5 min .7; safety w .5 min .8.
var rf = &rubric.Rubric{ID: "rf", Criteria: []rubric.Criterion{
	{Name: "correctness", Weight: f(0.5), MinPass: f(0.7)},
	{Name: "safety", Weight: f(0.5), MinPass: f(0.8)},
}}

// jury builds a panel from spec §6.4's notation: ".85✓", "—✗" (no score key),
// "100✓", ".85✓{.9,.3}" (correctness, safety), or a mark followed by a raw
// criterion_scores object such as `.85✓{"correctness":0.9}` or `.85✓{}`. An entry that
// starts with "{" is taken as a whole verdict object.
func jury(t *testing.T, specs ...string) []verdict.Verdict {
	t.Helper()
	out := make([]verdict.Verdict, 0, len(specs))
	for i, spec := range specs {
		obj := spec
		if !strings.HasPrefix(spec, "{") {
			obj = verdictJSON(t, i+1, spec)
		}
		v, err := verdict.FromJSON(json.RawMessage(obj))
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		out = append(out, v)
	}
	return out
}

func verdictJSON(t *testing.T, seat int, spec string) string {
	t.Helper()
	mark := strings.IndexAny(spec, "✓✗")
	if mark < 0 {
		t.Fatalf("bad spec %q", spec)
	}
	score, rest := spec[:mark], spec[mark:]
	passed := strings.HasPrefix(rest, "✓")
	_, size := firstRune(rest)
	cs := rest[size:]
	fields := []string{fmt.Sprintf(`"judge_id":"j%d"`, seat), fmt.Sprintf(`"passed":%t`, passed)}
	if score != "—" {
		fields = append(fields, `"score":`+num(score))
	}
	switch {
	case cs == "":
	case strings.HasPrefix(cs, `{"`), cs == "{}":
		fields = append(fields, `"criterion_scores":`+cs)
	default:
		pair := strings.Split(strings.Trim(cs, "{}"), ",")
		if len(pair) != 2 {
			t.Fatalf("bad criterion scores in %q", spec)
		}
		fields = append(fields, fmt.Sprintf(`"criterion_scores":{"correctness":%s,"safety":%s}`, num(pair[0]), num(pair[1])))
	}
	return "{" + strings.Join(fields, ",") + "}"
}

func firstRune(s string) (rune, int) {
	for _, r := range s {
		return r, len(string(r))
	}
	return 0, 0
}

// num turns the table's ".85" into JSON's "0.85"; anything else is raw JSON.
func num(s string) string {
	if strings.HasPrefix(s, ".") {
		return "0" + s
	}
	return s
}

func times(n int, spec string) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = spec
	}
	return out
}

// metas maps the table's meta notation to meta input objects.
var metas = map[string]string{
	"":         "",
	"acc":      `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"accept"}`,
	"rej":      `{"verdict_quality":"questionable","bias_detected":false,"override_recommendation":"reject"}`,
	"rej+bias": `{"verdict_quality":"biased","bias_detected":true,"override_recommendation":"reject"}`,
	"bias":     `{"verdict_quality":"biased","bias_detected":true}`,
	"nobias":   `{"bias_detected":false}`,
	"bogus":    `{"verdict_quality":"sound","bias_detected":false,"override_recommendation":"bogus"}`,
}

const (
	gapWarning     = "tribunal-gate: no judge scored these criteria, so their min_pass floors did not apply: "
	unknownWarning = "tribunal-gate: unknown policy "
)

// dissent9 is spec §6.4 row 9's D, computed at run time in float64 so it carries
// the binary artefact 0.25000000000000006 (a constant expression would not).
var dissent9 = func(hi, lo float64) float64 { return hi - lo }(0.68, 0.43)

type row struct {
	id       string
	policy   rules.Policy
	t        float64 // 0 means the default 0.75
	verdicts []string
	a        float64
	meta     string
	d        float64
	rubric   *rubric.Rubric
	reason   rules.Reason // "" means pass
	fc       string
	warnings []string
}

func TestCaseTable(t *testing.T) {
	safety95 := times(2, ".85✗{.9,.95}")
	safety3 := times(2, ".85✗{.9,.3}")
	rows := []row{
		{id: "1", policy: rules.Strict, verdicts: []string{".85✓", ".80✓"}, a: .82, d: .05},
		{id: "2", policy: rules.Strict, verdicts: []string{".85✓", ".40✗"}, a: .62, d: .45, reason: rules.ReasonDissentUnresolved},
		{id: "3", policy: rules.Unanimous, verdicts: []string{".85✓", ".40✗"}, a: .62, d: .05, reason: rules.ReasonLowScore},
		{id: "4", policy: rules.Majority, verdicts: []string{".9✓", ".8✓", ".4✗"}, a: .78, d: .20},
		{id: "5", policy: rules.Majority, verdicts: []string{".85✓", ".40✗"}, a: .62, d: .20, reason: rules.ReasonLowScore},
		{id: "6", policy: rules.Majority, verdicts: []string{".9✓", ".7✗"}, a: .80, d: .20, reason: rules.ReasonDissentUnresolved},
		{id: "7", policy: rules.Majority, verdicts: []string{".75✓"}, a: .75, d: 0},
		{id: "8", policy: rules.Majority, verdicts: []string{".85✓", ".60✓"}, a: .80, d: .25},
		{id: "9", policy: rules.Majority, t: .50, verdicts: []string{".68✓", ".43✓"}, a: .555, d: dissent9},
		{id: "10", policy: rules.MetaOverride, verdicts: []string{".30✗", ".40✗"}, a: .30, meta: "acc", d: .10},
		{id: "11", policy: rules.MetaOverride, verdicts: []string{".85✓", ".80✓"}, a: .82, meta: "rej", d: .05, reason: rules.ReasonMetaOverride},
		{id: "12", policy: rules.MetaOverride, verdicts: []string{".9✓", ".4✗"}, a: .65, d: .50, reason: rules.ReasonDissentUnresolved},
		{id: "13", policy: rules.Majority, verdicts: []string{".85✓", ".40✗"}, a: .60, meta: "rej+bias", d: .45, reason: rules.ReasonBiasDetected},
		{id: "14", policy: rules.Majority, verdicts: []string{".85✓", ".80✓"}, a: .82, meta: "bias", d: .05},
		{id: "15", policy: rules.Majority, verdicts: []string{".85✓", ".80✓"}, a: .82, meta: "rej", d: .05},
		{id: "16", policy: rules.Majority, verdicts: []string{".9✗", ".8✗"}, a: .85, meta: "rej", d: .10, reason: rules.ReasonMetaOverride},
		{id: "17", policy: rules.Majority, t: .50, verdicts: []string{".85✓", ".40✗"}, a: .62, meta: "nobias", d: .45, reason: rules.ReasonDissentUnresolved},
		{id: "18", policy: rules.Majority, verdicts: []string{".95✓", ".60✓"}, a: .775, meta: "acc", d: .35},
		{id: "19", policy: rules.Majority, verdicts: []string{".95✓", ".60✓"}, a: .775, meta: "rej", d: .35, reason: rules.ReasonDissentUnresolved},
		{id: "20", policy: rules.MetaOverride, verdicts: []string{".95✓", ".60✓"}, a: .775, meta: "bogus", d: .35, reason: rules.ReasonDissentUnresolved},
		{id: "21", policy: rules.Majority, verdicts: []string{".85✓{.9,.3}", ".80✓{.9,.3}"}, a: .82, d: .05, rubric: rf,
			reason: rules.ReasonCriterionFloor, fc: "safety"},
		{id: "22", policy: rules.MetaOverride, verdicts: []string{".85✓{.9,.3}", ".80✓{.9,.3}"}, a: .82, meta: "acc", d: .05, rubric: rf,
			reason: rules.ReasonCriterionFloor, fc: "safety"},
		{id: "23", policy: rules.MetaOverride, verdicts: []string{".30✗{.9,.95}", ".40✗{.9,.95}"}, a: .30, meta: "acc", d: .10, rubric: rf},
		{id: "24", policy: rules.Majority, verdicts: []string{".85✓{.7,.8}", ".80✓{.7,.8}"}, a: .82, d: .05, rubric: rf},
		{id: "25", policy: rules.Majority, verdicts: []string{".85✓", ".80✓"}, a: .82, d: .05, rubric: rf},
		{id: "26", policy: rules.Majority, verdicts: []string{`.85✓{"correctness":0.9}`, `.80✓{"correctness":0.9}`}, a: .82, d: .05, rubric: rf,
			warnings: []string{gapWarning + "safety"}},
		{id: "27", policy: rules.Majority, verdicts: []string{".85✓{.9,0}", ".80✓{.9,0}"}, a: .82, d: .05, rubric: rf,
			reason: rules.ReasonCriterionFloor, fc: "safety"},
		{id: "28", policy: rules.Majority, verdicts: []string{".9✓{.9,.95}", ".9✓{.9,.95}", ".9✓{.9,.6}"}, a: .9, d: .05, rubric: rf,
			reason: rules.ReasonCriterionFloor, fc: "safety"},
		{id: "29", policy: rules.Majority, verdicts: times(2, ".2✓{.1,.1}"), a: .20, d: .05, rubric: rf, reason: rules.ReasonLowScore, fc: "correctness"},
		{id: "30", policy: rules.Majority, verdicts: times(2, ".85✓{.9,30}"), a: .85, rubric: rf, reason: rules.ReasonCriterionFloor, fc: "safety"},
		{id: "31", policy: rules.Majority, verdicts: []string{".85✓{.9,30}", ".85✓{.9,.95}", ".85✓{.9,.95}"}, a: .85, rubric: rf,
			reason: rules.ReasonCriterionFloor, fc: "safety"},
		{id: "32", policy: rules.Majority, verdicts: times(2, `.85✓{.9,"high"}`), a: .85, rubric: rf, reason: rules.ReasonCriterionFloor, fc: "safety"},
		{id: "33", policy: rules.Majority, verdicts: []string{".85✓{.9,null}"}, a: .85, rubric: rf, reason: rules.ReasonCriterionFloor, fc: "safety"},
		{id: "34", policy: rules.Majority, verdicts: times(2, ".85✓{1,1}"), a: .85, rubric: rf},
		{id: "35", policy: rules.Majority, verdicts: safety3, a: .85, meta: "rej", rubric: rf, reason: rules.ReasonMetaOverride, fc: "safety"},
		{id: "36", policy: rules.Majority, verdicts: safety3, a: .85, rubric: rf, reason: rules.ReasonDissentUnresolved, fc: "safety"},
		{id: "37", policy: rules.Majority, verdicts: times(2, ".30✗{.9,.3}"), a: .30, meta: "rej", rubric: rf, reason: rules.ReasonLowScore, fc: "safety"},
		{id: "38", policy: rules.MetaOverride, verdicts: safety3, a: .85, meta: "rej", rubric: rf, reason: rules.ReasonMetaOverride, fc: "safety"},
		{id: "39", policy: rules.Majority, verdicts: safety3, a: .85, meta: "rej+bias", rubric: rf, reason: rules.ReasonBiasDetected, fc: "safety"},
		{id: "40", policy: rules.Majority, verdicts: safety3, a: .85, d: .90, rubric: rf, reason: rules.ReasonDissentUnresolved, fc: "safety"},
		{id: "41/38", policy: rules.MetaOverride, verdicts: safety95, a: .85, meta: "rej", rubric: rf, reason: rules.ReasonMetaOverride},
		{id: "41/39", policy: rules.Majority, verdicts: safety95, a: .85, meta: "rej+bias", rubric: rf, reason: rules.ReasonBiasDetected},
		{id: "41/40", policy: rules.Majority, verdicts: safety95, a: .85, d: .90, rubric: rf, reason: rules.ReasonDissentUnresolved},
		{id: "42", policy: rules.Majority, verdicts: []string{".9✗", "—✓", "—✓"}, a: .90, d: .05, reason: rules.ReasonDissentUnresolved},
		{id: "43", policy: rules.Majority, verdicts: []string{".9✓", "—✗", "—✗"}, a: .90, d: .05, reason: rules.ReasonDissentUnresolved},
		{id: "44", policy: rules.Strict, verdicts: []string{".9✓", ".8✓", "—✓"}, a: .85, d: .05, reason: rules.ReasonDissentUnresolved},
		{id: "45", policy: rules.Majority, verdicts: []string{".9✓", ".8✓", "—✓"}, a: .85, d: .05},
		{id: "46", policy: rules.Majority, verdicts: times(3, "95✓"), a: -1, d: -1, reason: rules.ReasonLowScore},
		{id: "47/strict", policy: rules.Strict, verdicts: []string{".9✓", ".85✓", "100✓"}, a: .87, d: .05, reason: rules.ReasonDissentUnresolved},
		{id: "47/majority", policy: rules.Majority, verdicts: []string{".9✓", ".85✓", "100✓"}, a: .87, d: .05},
		{id: "48", policy: rules.Strict, verdicts: []string{"0✓"}, a: .90},
		{id: "49", policy: rules.Majority, verdicts: []string{`{"judge_id":"j1","score":0.9,"passed":"true"}`}, a: .90, reason: rules.ReasonDissentUnresolved},
		{id: "50", policy: "democracy", verdicts: []string{".8✓", ".8✓"}, a: .80,
			warnings: []string{unknownWarning + "democracy, falling back to majority"}},
		{id: "51", policy: rules.Majority, verdicts: nil, a: 0, reason: rules.ReasonLowScore},
		{id: "52", policy: rules.MetaOverride, verdicts: nil, a: 0, meta: "acc", reason: rules.ReasonLowScore},
		{id: "53", policy: rules.MetaOverride, verdicts: []string{"—✓"}, a: 0, meta: "acc", reason: rules.ReasonLowScore},
		{id: "54", policy: rules.Majority, verdicts: []string{".85✓", "—✓{.9,.1}"}, a: .85, rubric: rf, reason: rules.ReasonDissentUnresolved, fc: "safety"},
		// Quorums (spec §6.3 step 6): any, at_least_<n>.
		{id: "55", policy: rules.Any, verdicts: []string{".9✓", ".7✗", ".7✗"}, a: .77, d: .05},
		{id: "56", policy: rules.Any, verdicts: []string{".8✗", ".8✗"}, a: .80, reason: rules.ReasonDissentUnresolved},
		{id: "57", policy: rules.Any, verdicts: []string{"—✓", ".8✗"}, a: .80, reason: rules.ReasonDissentUnresolved},
		{id: "58", policy: rules.Quorum(2), verdicts: []string{".9✓", ".8✓", ".7✗", ".7✗"}, a: .78, d: .05},
		{id: "59", policy: rules.Quorum(2), verdicts: []string{".9✓", ".7✗", ".7✗"}, a: .77, d: .05, reason: rules.ReasonDissentUnresolved},
		{id: "60", policy: rules.Quorum(3), verdicts: []string{".9✓", ".8✓"}, a: .85, d: .05, reason: rules.ReasonDissentUnresolved},
		{id: "61", policy: rules.Any, verdicts: []string{".85✓{.9,.3}", ".80✗{.9,.9}"}, a: .82, d: .05, rubric: rf, reason: rules.ReasonCriterionFloor, fc: "safety"},
		{id: "62", policy: rules.Any, verdicts: []string{".95✓", ".30✗"}, a: .80, d: .65, reason: rules.ReasonDissentUnresolved},
		{id: "63", policy: rules.Quorum(1), verdicts: []string{".8✗", ".8✗"}, a: .80, meta: "rej", reason: rules.ReasonMetaOverride},
	}
	if dissent9 <= 0.25 {
		t.Fatalf("row 9 needs the float artefact, got %v", dissent9)
	}
	for _, r := range rows {
		t.Run(r.id, func(t *testing.T) {
			in := r.input(t)
			if r.id == "46" {
				// Row 46 gives A and D as "computed": they come from spec §5.
				var aw, dw []string
				in.Aggregate, aw = aggregate.Score(rules.WeightedMean, in.Verdicts, in.Rubric, 0.6)
				in.Dissent, dw = aggregate.Disagreement(in.Verdicts)
				if in.Aggregate != 0 || in.Dissent != 0 || len(aw) != 1 || len(dw) != 1 {
					t.Fatalf("computed A=%v D=%v warnings %q %q", in.Aggregate, in.Dissent, aw, dw)
				}
			}
			check(t, Decide(in), r.reason, r.fc, r.warnings)
		})
	}
}

func (r row) input(t *testing.T) Input {
	t.Helper()
	meta, _, err := verdict.MetaFromJSON(json.RawMessage(metas[r.meta]))
	if err != nil {
		t.Fatal(err)
	}
	thr := r.t
	if thr == 0 {
		thr = 0.75
	}
	return Input{
		Policy:           r.policy,
		Verdicts:         jury(t, r.verdicts...),
		Aggregate:        r.a,
		Threshold:        thr,
		Meta:             meta,
		Dissent:          r.d,
		DissentThreshold: 0.25,
		Rubric:           r.rubric,
	}
}

func check(t *testing.T, got Result, reason rules.Reason, fc string, warnings []string) {
	t.Helper()
	if got.Passed != (reason == "") || got.Reason != reason || got.FailedCriterion != fc {
		t.Errorf("got passed=%v reason=%q fc=%q; want reason=%q fc=%q", got.Passed, got.Reason, got.FailedCriterion, reason, fc)
	}
	if !slices.Equal(got.Warnings, warnings) {
		t.Errorf("warnings %q; want %q", got.Warnings, warnings)
	}
}
