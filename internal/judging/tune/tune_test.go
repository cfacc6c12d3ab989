package tune

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

const baseRubric = `{"id":"default","criteria":[{"name":"correctness","weight":0.6,"min_pass":0},{"name":"tests","weight":0.4,"min_pass":0}]}`

// scripted is a judge whose decision depends on the rubric's text: a
// reject case planted with "BUG:<class>" is caught when a criterion's
// name mentions the class, and passed otherwise; an accept case passes
// unless a criterion names "paranoid". Cases in errs fail to be judged.
type scripted struct {
	mu    sync.Mutex
	errs  map[string]bool
	calls int
	// noisy flips about a third of the decisions, from a seeded source.
	noisy *rand.Rand
}

func (s *scripted) Check(sf Surface) error { return CheckRubric(sf) }

func (s *scripted) Score(_ context.Context, sf Surface, c calibrate.Case) Cell {
	s.mu.Lock()
	s.calls++
	s.mu.Unlock()
	if s.errs[c.ID] {
		return Cell{Decision: "failed", Error: "judge timed out", CostUSD: 0.01}
	}
	text := strings.ToLower(strings.Join(sf.Criteria(), "\n"))
	dec := "pass"
	if i := strings.Index(c.Diff, "BUG:"); i >= 0 {
		class := strings.Fields(c.Diff[i+4:])[0]
		if strings.Contains(text, class) {
			dec = "fail"
		}
	}
	if strings.Contains(text, "paranoid") {
		dec = "fail"
	}
	if s.noisy != nil && s.noisy.IntN(3) == 0 {
		dec = map[string]string{"pass": "fail", "fail": "pass"}[dec]
	}
	return Cell{Decision: dec, CostUSD: 0.01}
}

// proposer answers with fixed proposals citing the first failures it was
// shown, and keeps every prompt it would have sent.
type proposer struct {
	edits    []Edit
	cite     func(r Request) []string
	requests []Request
	prompts  []string
}

func (p *proposer) Propose(_ context.Context, r Request) ([]Proposal, float64, error) {
	p.requests = append(p.requests, r)
	p.prompts = append(p.prompts, Prompt(r))
	cites := []string{r.Failures[0].ID}
	if p.cite != nil {
		cites = p.cite(r)
	}
	return []Proposal{{Edits: p.edits, Cites: cites, Reason: "the judges miss this class"}}, 0.05, nil
}

func num(f float64) *float64 { return &f }

// cases: n accepted changes and n rejected ones planted with an
// off-by-one bug.
func cases(n int) []calibrate.Case {
	var out []calibrate.Case
	for i := 0; i < n; i++ {
		out = append(out,
			calibrate.Case{ID: fmt.Sprintf("good-%02d", i), Task: "task", Diff: fmt.Sprintf("+ok %d\n", i), Label: "accept"},
			calibrate.Case{ID: fmt.Sprintf("bug-%02d", i), Task: "task", Diff: fmt.Sprintf("+BUG:off-by-one %d\n", i), Label: "reject"})
	}
	return out
}

var fixOffByOne = []Edit{{Op: "add_criterion", Name: "off-by-one errors in loop bounds", Value: num(0.3)}}

func run(t *testing.T, o Options, s *scripted, p *proposer) *Result {
	t.Helper()
	o.Base = Surface{Raw: []byte(baseRubric)}
	r, err := Run(context.Background(), o, Deps{Scorer: s, Proposer: p})
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return r
}

func TestShipsTheEditThatFixesAPlantedWeakness(t *testing.T) {
	o := Options{Cases: cases(20)}
	r := run(t, o, &scripted{}, &proposer{edits: fixOffByOne})
	if r.Outcome != Ship {
		t.Fatalf("outcome %s (%s), want ship", r.Outcome, r.Reason)
	}
	d := r.Decision
	if d.Lift == nil || d.Lift.Mean < 0.05 || d.Lift.Low <= 0 {
		t.Fatalf("lift %+v", d.Lift)
	}
	if !strings.Contains(strings.Join(r.Winner.Surface.Criteria(), "\n"), "off-by-one") {
		t.Fatalf("winner %s", r.Winner.Surface.Raw)
	}
	if err := CheckRubric(r.Winner.Surface); err != nil {
		t.Fatalf("the shipped surface is not a valid rubric: %v", err)
	}
	if len(r.Noise.Rollouts) != DefaultRepeats || r.Noise.High != r.Noise.Low {
		t.Fatalf("noise %+v", r.Noise)
	}
}

func TestHoldsWhenNoEditHelps(t *testing.T) {
	r := run(t, Options{Cases: cases(20)}, &scripted{}, &proposer{edits: []Edit{{Op: "add_criterion", Name: "naming style", Value: num(0.2)}}})
	if r.Outcome != Hold || r.Decision != nil {
		t.Fatalf("outcome %s (%s)", r.Outcome, r.Reason)
	}
	// An edit that catches the bugs but also blocks every good change is
	// no better on train: hold (the gate's own holds are TestJudge's).
	r = run(t, Options{Cases: cases(20)}, &scripted{}, &proposer{edits: append(fixOffByOne, Edit{Op: "add_criterion", Name: "paranoid", Value: num(0.1)})})
	if r.Outcome != Hold {
		t.Fatalf("paranoid: outcome %s (%s)", r.Outcome, r.Reason)
	}
}

func TestInvalidWhenHalfTheHeldOutCellsError(t *testing.T) {
	cs := cases(20)
	errs := map[string]bool{}
	n := 0
	for _, c := range cs {
		if calibrate.HeldOut(c.ID, DefaultHoldout) && n%2 == 0 {
			errs[c.ID] = true
		}
		if calibrate.HeldOut(c.ID, DefaultHoldout) {
			n++
		}
	}
	r := run(t, Options{Cases: cs}, &scripted{errs: errs}, &proposer{edits: fixOffByOne})
	if r.Outcome != Invalid || !strings.Contains(r.Reason, "valid pair") {
		t.Fatalf("outcome %s (%s)", r.Outcome, r.Reason)
	}
}

func TestRefusesBelowTheDataThreshold(t *testing.T) {
	s := &scripted{}
	r := run(t, Options{Cases: cases(6)}, s, &proposer{edits: fixOffByOne})
	if r.Outcome != NeedMoreData || r.MoreCases != 18 || s.calls != 0 {
		t.Fatalf("outcome %s (%s), more %d, %d calls", r.Outcome, r.Reason, r.MoreCases, s.calls)
	}
	if !strings.Contains(r.Reason, "18 more") {
		t.Fatalf("reason %q", r.Reason)
	}
}

func TestRefusesWhenNoiseExceedsTheLift(t *testing.T) {
	r := run(t, Options{Cases: cases(20), Repeats: 4}, &scripted{noisy: rand.New(rand.NewPCG(1, 2))}, &proposer{edits: fixOffByOne})
	if r.Outcome != NeedMoreData || !strings.Contains(r.Reason, "between rollouts") {
		t.Fatalf("outcome %s (%s) noise %+v", r.Outcome, r.Reason, r.Noise)
	}
}

func TestNoHeldOutCaseReachesTheProposer(t *testing.T) {
	// Few enough cases that every failure fits in the prompt (at most
	// prompts.TuneMaxFailure): the prompt's cap must not be what hides a
	// held-out case.
	cs := cases(8)
	p := &proposer{edits: fixOffByOne}
	r := run(t, Options{Cases: cs, Generations: 3, MinCases: 10}, &scripted{}, p)
	if len(p.requests) == 0 {
		t.Fatal("the proposer was never asked")
	}
	held := map[string]bool{}
	for _, id := range r.HeldOutIDs {
		held[id] = true
	}
	for _, req := range p.requests {
		if len(req.Failures) > prompts.TuneMaxFailure {
			t.Fatalf("%d failures: the test needs fewer", len(req.Failures))
		}
		for _, f := range req.Failures {
			if held[f.ID] {
				t.Fatalf("held-out case %s was shown to the proposer", f.ID)
			}
		}
	}
	for _, id := range r.HeldOutIDs {
		var held calibrate.Case
		for _, c := range cs {
			if c.ID == id {
				held = c
			}
		}
		for i, pr := range p.prompts {
			if strings.Contains(pr, fmt.Sprintf("%q", id)) || strings.Contains(pr, held.Diff) {
				t.Fatalf("prompt %d shows held-out case %s", i, id)
			}
		}
	}
	// A proposal citing a held-out case is dropped, never scored.
	p = &proposer{edits: fixOffByOne, cite: func(Request) []string { return r.HeldOutIDs[:1] }}
	r2 := run(t, Options{Cases: cs, MinCases: 10}, &scripted{}, p)
	if r2.Outcome != Hold || !strings.Contains(r2.Generations[0].Candidates[0].Error, "not a failed train case") {
		t.Fatalf("outcome %s, generations %+v", r2.Outcome, r2.Generations)
	}
}

func TestBudgetStopsTheRun(t *testing.T) {
	o := Options{Cases: cases(20), BudgetUSD: 0.25, Base: Surface{Raw: []byte(baseRubric)}}
	var bar []string
	r, err := Run(context.Background(), o, Deps{Scorer: &scripted{}, Proposer: &proposer{edits: fixOffByOne},
		Bar: func(s string) { bar = append(bar, s) }})
	if !errors.Is(err, ErrBudget) || r.SpentUSD < 0.25 || r.SpentUSD > 0.27 {
		t.Fatalf("err %v, spent %v", err, r.SpentUSD)
	}
	// The spend is shown as it goes, case by case.
	if len(bar) != 25 || bar[0] != "current surface, rollout 1/3: 1/"+fmt.Sprint(len(r.TrainIDs))+" judged, $0.0100 of $0.25 spent" {
		t.Fatalf("bar: %d states, first %q", len(bar), bar[0])
	}
}

func TestSeedThatBreaksTheRubricIsRefused(t *testing.T) {
	s := &scripted{}
	o := Options{Cases: cases(20), Base: Surface{Raw: []byte(baseRubric)},
		Seeds: []Proposal{{Edits: []Edit{{Op: "set_threshold", Value: num(1.5)}}}}}
	_, err := Run(context.Background(), o, Deps{Scorer: s, Proposer: &proposer{}})
	var in *InputError
	if !errors.As(err, &in) || !strings.Contains(err.Error(), "score_threshold") || s.calls != 0 {
		t.Fatalf("err %v, %d calls", err, s.calls)
	}
}

func TestEventsOfARun(t *testing.T) {
	var got []events.Payload
	o := Options{ID: "01M97QTFA8QTYJDXTJ1D1APMVM", Cases: cases(20), Base: Surface{Raw: []byte(baseRubric)}, Generations: 2}
	r, err := Run(context.Background(), o, Deps{Scorer: &scripted{}, Proposer: &proposer{edits: fixOffByOne},
		Emit: func(p events.Payload) { got = append(got, p) }})
	if err != nil || r.Outcome != Ship {
		t.Fatalf("run: %v, %s", err, r.Outcome)
	}
	// Generation 1 proposes; generation 2 has no train failure left.
	if len(got) != 3 {
		t.Fatalf("events %+v", got)
	}
	g, ok := got[0].(events.TuneGeneration)
	if !ok || g.Generation != 1 || g.Candidates != 1 || g.BestTrainAgreement == nil || *g.BestTrainAgreement != 1 || g.TaskID != o.ID {
		t.Errorf("generation event %+v", got[0])
	}
	d, ok := got[2].(events.TuneDecided)
	if !ok || d.Outcome != Ship || d.Lift == nil || d.ValidPairs != len(r.HeldOutIDs) || d.SpentUSD != r.SpentUSD {
		t.Errorf("decided event %+v", got[2])
	}
	for _, p := range got {
		if err := events.Validate(p); err != nil {
			t.Error(err)
		}
	}
	// A budget stop is an aborted decision.
	got = nil
	o.BudgetUSD = 0.1
	if _, err := Run(context.Background(), o, Deps{Scorer: &scripted{}, Proposer: &proposer{edits: fixOffByOne},
		Emit: func(p events.Payload) { got = append(got, p) }}); !errors.Is(err, ErrBudget) {
		t.Fatalf("budget: %v", err)
	}
	if d, ok := got[len(got)-1].(events.TuneDecided); !ok || d.Outcome != "aborted" {
		t.Errorf("budget stop: %+v", got)
	}
}

func TestBudgetSpentDuringTheGateDecidesNothing(t *testing.T) {
	// 3 rollouts and one candidate on 27 train cases, one proposer call:
	// $1.13 before the gate; the held-out part needs $0.26 more.
	o := Options{Cases: cases(20), BudgetUSD: 1.2, Generations: 1, Base: Surface{Raw: []byte(baseRubric)}}
	r, err := Run(context.Background(), o, Deps{Scorer: &scripted{}, Proposer: &proposer{edits: fixOffByOne}})
	if !errors.Is(err, ErrBudget) || r.Decision != nil || r.Outcome != Aborted {
		t.Fatalf("err %v, outcome %q, decision %+v", err, r.Outcome, r.Decision)
	}
}

// silent proposes nothing.
type silent struct{}

func (silent) Propose(context.Context, Request) ([]Proposal, float64, error) { return nil, 0, nil }

func TestTryGivesTheUsersOwnEditTheSameProof(t *testing.T) {
	o := Options{Cases: cases(20), Base: Surface{Raw: []byte(baseRubric)}, Generations: 1,
		Seeds: []Proposal{{Edits: fixOffByOne, Reason: "mine"}}}
	r, err := Run(context.Background(), o, Deps{Scorer: &scripted{}, Proposer: silent{}})
	if err != nil || r.Outcome != Ship || r.Finalist != "c1" || r.Generations[0].N != 0 || r.Generations[0].Candidates[0].Proposal.Reason != "mine" {
		t.Fatalf("err %v, outcome %s (%s), generations %+v", err, r.Outcome, r.Reason, r.Generations)
	}
}
