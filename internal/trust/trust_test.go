package trust

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

func rating(rater string, kv ...any) Rating {
	r := Rating{Rater: rater, Scores: map[string]float64{}}
	for i := 0; i < len(kv); i += 2 {
		r.Scores[kv[i].(string)] = kv[i+1].(float64)
	}
	return r
}

func TestSpread(t *testing.T) {
	cases := []struct {
		name string
		item Item
		want float64
	}{
		{"no ratings", Item{}, 0},
		{"one rating", Item{Ratings: []Rating{rating("a", "score", 0.9)}}, 0},
		{"overall only", Item{Ratings: []Rating{rating("a", "score", 0.9), rating("b", "score", 0.6)}}, 0.3},
		{"worst key wins", Item{Ratings: []Rating{
			rating("a", "score", 0.8, "criterion_scores.safety", 0.9),
			rating("b", "score", 0.7, "criterion_scores.safety", 0.2),
			rating("c", "score", 0.75, "criterion_scores.safety", 0.5)}}, 0.7},
		{"key rated once contributes nothing", Item{Ratings: []Rating{
			rating("a", "score", 0.8, "criterion_scores.x", 0.0),
			rating("b", "score", 0.8, "criterion_scores.y", 1.0)}}, 0},
		{"non-finite ignored", Item{Ratings: []Rating{
			rating("a", "score", 0.8), rating("b", "score", math.NaN()), rating("c", "score", 0.5)}}, 0.3},
	}
	for _, c := range cases {
		if got := Spread(c.item); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: Spread = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestCheck(t *testing.T) {
	plain := []Item{
		{ID: "standard", Ratings: []Rating{rating("standard", "score", 0.9)}},
		{ID: "adversarial", Ratings: []Rating{rating("adversarial", "score", 0.4)}},
	}
	agreeing := []Item{
		{ID: "standard", Ratings: []Rating{rating("r1", "score", 0.9, "criterion_scores.safety", 0.5), rating("r2", "score", 0.8, "criterion_scores.safety", 0.5)}},
		{ID: "adversarial", Ratings: []Rating{rating("r1", "score", 0.3, "criterion_scores.safety", 0.7), rating("r2", "score", 0.3, "criterion_scores.safety", 0.6)}},
	}
	opposed := []Item{
		{ID: "standard", Ratings: []Rating{rating("r1", "score", 0.0, "c", 1.0), rating("r2", "score", 1.0, "c", 0.0)}},
	}
	// Spread at the ceiling: 0.68 − 0.43 is 0.25000000000000006 in binary.
	atCeiling := []Item{{ID: "standard", Ratings: []Rating{rating("r1", "score", 0.68), rating("r2", "score", 0.43)}}}
	cases := []struct {
		name       string
		current    []Item
		all        []Item
		th         rules.TrustThresholds
		trusted    bool
		reasons    []string // substrings, in order
		measured   bool
		notes      int
		survivors  map[string]int
		spreadOfID map[string]float64
	}{
		{name: "plain panel passes with a note", current: plain, all: plain, th: rules.DefaultTrustThresholds(),
			trusted: true, notes: 1,
			survivors: map[string]int{"standard": 1, "adversarial": 1}, spreadOfID: map[string]float64{"standard": 0, "adversarial": 0}},
		{name: "no current items", th: rules.DefaultTrustThresholds(), trusted: true, notes: 1,
			survivors: map[string]int{}, spreadOfID: map[string]float64{}},
		{name: "failed single rep is below min_survivors",
			current: []Item{{ID: "standard", Failed: 1}}, all: nil, th: rules.DefaultTrustThresholds(),
			reasons: []string{"survivors: standard has 0 surviving rep(s) of 1, below min_survivors 1"}, notes: 1,
			survivors: map[string]int{"standard": 0}, spreadOfID: map[string]float64{"standard": 0}},
		{name: "min_survivors 0 disables the check",
			current: []Item{{ID: "standard", Failed: 3}}, th: rules.TrustThresholds{MinSurvivors: 0, SpreadCeiling: 0.5, IRRFloor: 0.2},
			trusted: true, notes: 1, survivors: map[string]int{"standard": 0}, spreadOfID: map[string]float64{"standard": 0}},
		{name: "two of three survive under min 3",
			current: []Item{{ID: "security", Failed: 1, Ratings: []Rating{rating("a", "score", 0.8), rating("b", "score", 0.8)}}},
			th:      rules.TrustThresholds{MinSurvivors: 3, SpreadCeiling: 0.5, IRRFloor: 0.2},
			reasons: []string{"survivors: security has 2 surviving rep(s) of 3, below min_survivors 3"}, notes: 1,
			survivors: map[string]int{"security": 2}, spreadOfID: map[string]float64{"security": 0}},
		{name: "agreeing reps are trusted and α measured", current: agreeing, all: agreeing, th: rules.DefaultTrustThresholds(),
			trusted: true, measured: true,
			survivors: map[string]int{"standard": 2, "adversarial": 2}, spreadOfID: map[string]float64{"standard": 0.1, "adversarial": 0.1}},
		{name: "opposed reps fail spread and agreement", current: opposed, all: opposed, th: rules.DefaultTrustThresholds(),
			measured: true,
			reasons: []string{
				"spread: standard reps split by 1 on c, above spread_ceiling 0.5",
				"agreement: α = -0.5 across 1 item(s), below irr_floor 0.2"}, // D_o = 1, D_e = 8/12,
			survivors: map[string]int{"standard": 2}, spreadOfID: map[string]float64{"standard": 1}},
		{name: "spread at the ceiling passes", current: atCeiling, all: nil, th: rules.TrustThresholds{MinSurvivors: 1, SpreadCeiling: 0.25, IRRFloor: 0.2},
			trusted: true, notes: 1, survivors: map[string]int{"standard": 2}, spreadOfID: map[string]float64{"standard": 0.25}},
		{name: "spread just above the ceiling blocks", current: atCeiling, th: rules.TrustThresholds{MinSurvivors: 1, SpreadCeiling: 0.249, IRRFloor: 0.2},
			reasons: []string{"spread: standard reps split by 0.25 on score, above spread_ceiling 0.249"}, notes: 1,
			survivors: map[string]int{"standard": 2}, spreadOfID: map[string]float64{"standard": 0.25}},
		{name: "α comes from all items, not only the current ones",
			current: agreeing[:1], all: append(slices.Clone(agreeing), opposed...), th: rules.DefaultTrustThresholds(),
			measured: true, reasons: []string{"agreement: α = "},
			survivors: map[string]int{"standard": 2}, spreadOfID: map[string]float64{"standard": 0.1}},
		{name: "irr_floor -1 never blocks on α", current: opposed, all: opposed, th: rules.TrustThresholds{MinSurvivors: 1, SpreadCeiling: 1, IRRFloor: -1},
			trusted: true, measured: true, survivors: map[string]int{"standard": 2}, spreadOfID: map[string]float64{"standard": 1}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Check(c.current, c.all, c.th)
			if got.Trustworthy != c.trusted || got.Trustworthy != (len(got.Reasons) == 0) {
				t.Errorf("Trustworthy = %v with reasons %q; want %v", got.Trustworthy, got.Reasons, c.trusted)
			}
			if len(got.Reasons) != len(c.reasons) {
				t.Fatalf("reasons = %q, want %d matching %q", got.Reasons, len(c.reasons), c.reasons)
			}
			for i, r := range c.reasons {
				if !strings.Contains(got.Reasons[i], r) {
					t.Errorf("reason %d = %q, want it to contain %q", i, got.Reasons[i], r)
				}
			}
			if got.AlphaMeasured != c.measured || len(got.Notes) != c.notes {
				t.Errorf("AlphaMeasured = %v, notes %q; want %v and %d note(s)", got.AlphaMeasured, got.Notes, c.measured, c.notes)
			}
			if !got.AlphaMeasured && got.Alpha != 1 {
				t.Errorf("unmeasured Alpha = %v, want 1", got.Alpha)
			}
			if len(got.Survivors) != len(c.survivors) {
				t.Errorf("Survivors = %v, want %v", got.Survivors, c.survivors)
			}
			for id, n := range c.survivors {
				if got.Survivors[id] != n {
					t.Errorf("Survivors[%s] = %d, want %d", id, got.Survivors[id], n)
				}
			}
			for id, s := range c.spreadOfID {
				if math.Abs(got.Spread[id]-s) > 1e-9 {
					t.Errorf("Spread[%s] = %v, want %v", id, got.Spread[id], s)
				}
			}
		})
	}
}

func TestCheckJSONShape(t *testing.T) {
	res := Check(nil, nil, rules.DefaultTrustThresholds())
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"trustworthy":true,"notes":["agreement: not measured (α needs at least two scores that two or more reps rated); irr_floor not applied"],"alpha":1,"alpha_measured":false,"spread":{},"survivors":{}}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant   %s", b, want)
	}
	th, _ := json.Marshal(rules.DefaultTrustThresholds())
	if string(th) != `{"min_survivors":1,"spread_ceiling":0.5,"irr_floor":0.2}` {
		t.Errorf("thresholds JSON = %s", th)
	}
}

func mustVerdict(t *testing.T, s string) verdict.Verdict {
	t.Helper()
	v, err := verdict.FromJSON(json.RawMessage(s))
	if err != nil {
		t.Fatalf("verdict %s: %v", s, err)
	}
	return v
}

func TestRatingFrom(t *testing.T) {
	cases := []struct {
		name string
		in   string
		want map[string]float64 // nil: no rating
	}{
		{"usable with criteria", `{"score":0.8,"criterion_scores":{"safety":0.5,"clarity":"n/a","score":0.1}}`,
			map[string]float64{"score": 0.8, "criterion_scores.safety": 0.5, "criterion_scores.score": 0.1}},
		{"usable without criteria", `{"score":1}`, map[string]float64{"score": 1}},
		{"unusable score", `{"score":95,"criterion_scores":{"safety":0.5}}`, nil},
		{"failed", `{"failed":true,"error":"boom"}`, nil},
	}
	for _, c := range cases {
		r, ok := RatingFrom("x", mustVerdict(t, c.in))
		if ok != (c.want != nil) {
			t.Errorf("%s: ok = %v", c.name, ok)
			continue
		}
		if ok && (len(r.Scores) != len(c.want) || r.Rater != "x") {
			t.Errorf("%s: rating = %+v, want %v", c.name, r, c.want)
		}
		for k, v := range c.want {
			if r.Scores[k] != v {
				t.Errorf("%s: Scores[%q] = %v, want %v", c.name, k, r.Scores[k], v)
			}
		}
	}
}

func TestItemFrom(t *testing.T) {
	reps := []verdict.Verdict{
		mustVerdict(t, `{"judge_id":"standard","score":0.8}`),
		mustVerdict(t, `{"judge_id":"standard","score":0.7}`),
		mustVerdict(t, `{"judge_id":"standard","failed":true,"error":"timeout"}`),
		mustVerdict(t, `{"judge_id":"standard","score":"high"}`),
	}
	it := ItemFrom("standard", reps)
	if it.ID != "standard" || it.Failed != 2 || len(it.Ratings) != 2 {
		t.Fatalf("item = %+v, want 2 ratings and 2 failed", it)
	}
	if it.Ratings[0].Rater != "standard" || it.Ratings[1].Rater != "standard#2" {
		t.Errorf("raters = %q, %q; want distinct names", it.Ratings[0].Rater, it.Ratings[1].Rater)
	}
}

func TestNum(t *testing.T) {
	for in, want := range map[float64]string{0.5: "0.5", 0.501: "0.501", 0.2: "0.2", -0.75: "-0.75", 1: "1", 0: "0", -0.0001: "0", 0.12345: "0.123"} {
		if got := num(in); got != want {
			t.Errorf("num(%v) = %q, want %q", in, got, want)
		}
	}
}
