package tune

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/rubric"
)

func TestApplyDirectiveEdits(t *testing.T) {
	base := Surface{Raw: []byte(`{"id":"default","criteria":[{"name":"correctness","weight":1,"min_pass":0}],"directives":["a","b"]}`)}
	none := Surface{Raw: []byte(baseRubric)}
	tests := []struct {
		name  string
		from  Surface
		edits []Edit
		want  []string // the directives after, when the edits apply
		err   string   // else Apply's or the rubric check's error
	}{
		{"add to none", none, []Edit{{Op: "add_directive", Text: "Treat a data race as a blocker."}}, []string{"Treat a data race as a blocker."}, ""},
		{"add", base, []Edit{{Op: "add_directive", Text: "c"}}, []string{"a", "b", "c"}, ""},
		{"reword", base, []Edit{{Op: "reword_directive", Directive: "b", Text: "B"}}, []string{"a", "B"}, ""},
		{"remove", base, []Edit{{Op: "remove_directive", Directive: "a"}}, []string{"b"}, ""},
		{"remove the last", base, []Edit{{Op: "remove_directive", Directive: "a"}, {Op: "remove_directive", Directive: "b"}}, nil, ""},
		{"three with a criterion edit", base, []Edit{{Op: "add_directive", Text: "c"}, {Op: "reword_directive", Directive: "c", Text: "C"},
			{Op: "set_threshold", Value: num(0.7)}}, []string{"a", "b", "C"}, ""},
		{"a fourth edit", base, []Edit{{Op: "add_directive", Text: "c"}, {Op: "add_directive", Text: "d"}, {Op: "add_directive", Text: "e"},
			{Op: "add_directive", Text: "f"}}, nil, "the proposal has 4 edits; at most 3"},
		{"reword a directive that is not there", base, []Edit{{Op: "reword_directive", Directive: "z", Text: "Z"}}, nil, `edit 1 (reword_directive): no directive reads "z"`},
		{"remove with no directive named", base, []Edit{{Op: "remove_directive"}}, nil, `edit 1 (remove_directive): no directive reads ""`},
		{"add an empty one", base, []Edit{{Op: "add_directive"}}, nil, "edit 1 (add_directive): the directive's text is empty"},
		{"add two lines", base, []Edit{{Op: "add_directive", Text: "x\n## Fake"}}, nil, "must be one line of plain text"},
		{"add a long one", base, []Edit{{Op: "add_directive", Text: strings.Repeat("x", 301)}}, nil, "is 301 characters; at most 300"},
		{"add a repeat: the rubric's check refuses it", base, []Edit{{Op: "add_directive", Text: "a"}}, nil, "rubric default: directives[2] repeats an earlier directive"},
		{"an unknown op", base, []Edit{{Op: "drop_directive", Directive: "a"}}, nil, `unknown op "drop_directive"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.from.Apply(Proposal{Edits: tt.edits})
			if err == nil {
				err = CheckRubric(got)
			}
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := got.Directives(); strings.Join(d, "|") != strings.Join(tt.want, "|") {
				t.Fatalf("directives %q, want %q", d, tt.want)
			}
			if tt.want == nil && strings.Contains(string(got.Raw), "directives") {
				t.Fatalf("an empty list is left behind: %s", got.Raw)
			}
		})
	}
	// More than ten directives is the rubric's bound, however they came.
	s := none
	for i := 0; i < 11; i++ {
		var err error
		if s, err = s.Apply(Proposal{Edits: []Edit{{Op: "add_directive", Text: fmt.Sprintf("directive %d", i)}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := CheckRubric(s); err == nil || !strings.Contains(err.Error(), "directives has 11 entries; at most 10") {
		t.Fatalf("11 directives: %v", err)
	}
}

// promptJudge is a scripted judge that reads the prompt the jury would
// be given (prompts.JudgePrompt of the surface's rubric) rather than the
// surface: a case planted with "RACE" is caught only when the prompt's
// directives section names data races — a criterion named so does not
// do it — and any other case passes.
type promptJudge struct {
	prompts []string
}

func (s *promptJudge) Check(sf Surface) error { return CheckRubric(sf) }

func (s *promptJudge) Score(_ context.Context, sf Surface, c calibrate.Case) Cell {
	r, err := rubric.Parse(sf.Raw)
	if err != nil {
		return Cell{Decision: "failed", Error: err.Error()}
	}
	var crit []prompts.Criterion
	for _, cr := range r.Criteria {
		crit = append(crit, prompts.Criterion{Name: cr.Name, Weight: *cr.Weight, MinPass: *cr.MinPass})
	}
	p := prompts.JudgePrompt(prompts.JudgeInput{Task: c.Task, Criteria: crit, Diff: c.Diff, Isolated: true, Threshold: 0.75, Directives: r.Directives})
	s.prompts = append(s.prompts, p)
	dec := "pass"
	_, section, _ := strings.Cut(p, "## Directives from the rubric")
	section, _, _ = strings.Cut(section, "\n## ")
	if strings.Contains(c.Diff, "RACE") && strings.Contains(strings.ToLower(section), "data race") {
		dec = "fail"
	}
	return Cell{Decision: dec, CostUSD: 0.01}
}

// raceCases: n accepted changes and n rejected ones planted with a race.
func raceCases(n int) []calibrate.Case {
	var out []calibrate.Case
	for i := 0; i < n; i++ {
		out = append(out,
			calibrate.Case{ID: fmt.Sprintf("good-%02d", i), Task: "task", Diff: fmt.Sprintf("+ok %d\n", i), Label: "accept"},
			calibrate.Case{ID: fmt.Sprintf("race-%02d", i), Task: "task", Diff: fmt.Sprintf("+RACE counter++ in goroutine %d\n", i), Label: "reject"})
	}
	return out
}

// several proposes every proposal it holds, citing the first failure.
type several struct {
	props    [][]Edit
	requests []Request
	prompts  []string
}

func (p *several) Propose(_ context.Context, r Request) ([]Proposal, float64, error) {
	p.requests = append(p.requests, r)
	p.prompts = append(p.prompts, Prompt(r))
	var out []Proposal
	for _, e := range p.props {
		out = append(out, Proposal{Edits: e, Cites: []string{r.Failures[0].ID}, Reason: "races go unflagged"})
	}
	return out, 0.05, nil
}

// TestShipsADirectiveOnlyADirectiveFixes: the planted weakness (races
// pass) is fixed by no criterion edit, only by a directive in the judges'
// prompt; tune ships the directive, proved on the held-out part, and no
// held-out case reaches the proposer.
func TestShipsADirectiveOnlyADirectiveFixes(t *testing.T) {
	cs := raceCases(20)
	judge := &promptJudge{}
	p := &several{props: [][]Edit{
		{{Op: "add_criterion", Name: "data races", Value: num(0.3)}},
		{{Op: "add_directive", Text: "Treat a data race (shared state changed without synchronisation) as a blocking defect."}},
	}}
	r, err := Run(context.Background(), Options{Cases: cs, Base: Surface{Raw: []byte(baseRubric)}}, Deps{Scorer: judge, Proposer: p})
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != Ship || r.Finalist != "c2" {
		t.Fatalf("outcome %s (%s), finalist %s", r.Outcome, r.Reason, r.Finalist)
	}
	if d := r.Decision; d.Lift == nil || d.Lift.Mean < 0.05 || d.Lift.Low <= 0 {
		t.Fatalf("lift %+v", d.Lift)
	}
	if got := r.Winner.Surface.Directives(); len(got) != 1 || !strings.Contains(got[0], "data race") {
		t.Fatalf("shipped directives %q", got)
	}
	if err := CheckRubric(r.Winner.Surface); err != nil {
		t.Fatalf("the shipped surface is not a valid rubric: %v", err)
	}
	// The criterion alone was judged and did not help.
	if c := r.Generations[0].Candidates[0]; c.Error != "" || *c.Train.Agreement != *r.Baseline.Agreement {
		t.Fatalf("criterion candidate %+v, baseline %v", c, *r.Baseline.Agreement)
	}
	diff := Diff(Surface{Raw: []byte(baseRubric)}, r.Winner.Surface)
	if !strings.Contains(diff, `+  "directives": [`) || !strings.Contains(diff, `+    "Treat a data race`) {
		t.Fatalf("diff:\n%s", diff)
	}
	if s := Summary(r.Winner.Proposal); s != `add_directive → "Treat a data race (shared state changed without synchronisation) as a blocking defect."` {
		t.Fatalf("summary %q", s)
	}
	// The proposer was offered the directive edits and shown the (empty)
	// directives; never a held-out case.
	if len(p.prompts) == 0 || !strings.Contains(p.prompts[0], "add_directive, reword_directive, remove_directive") ||
		!strings.Contains(p.prompts[0], "Current directives:\n(none)") {
		t.Fatalf("proposer prompt:\n%s", p.prompts[0])
	}
	held := map[string]bool{}
	for _, id := range r.HeldOutIDs {
		held[id] = true
	}
	for i, req := range p.requests {
		for _, f := range req.Failures {
			if held[f.ID] {
				t.Fatalf("request %d shows held-out case %s", i, f.ID)
			}
		}
	}
	for _, c := range cs {
		if held[c.ID] && strings.Contains(strings.Join(p.prompts, "\n"), c.Diff) {
			t.Fatalf("a proposer prompt shows held-out case %s", c.ID)
		}
	}
}

// TestADirectiveThatBreaksTheRubricIsRefused: --try with a directive the
// rubric's check refuses is a usage error before anything is judged.
func TestADirectiveThatBreaksTheRubricIsRefused(t *testing.T) {
	judge := &promptJudge{}
	o := Options{Cases: raceCases(20), Base: Surface{Raw: []byte(baseRubric)},
		Seeds: []Proposal{{Edits: []Edit{{Op: "add_directive", Text: "one\ntwo"}}}}}
	_, err := Run(context.Background(), o, Deps{Scorer: judge, Proposer: &several{}})
	var in *InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "one line of plain text") || len(judge.prompts) != 0 {
		t.Fatalf("err %v, %d judged", err, len(judge.prompts))
	}
}
