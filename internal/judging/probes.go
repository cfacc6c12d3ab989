// The bias probes: deterministic checks over a jury's scores, beside the
// model-based Meta-Judge; only the engine runs them.

package judging

import (
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
	"math"
	"sort"
)

// Band is the Meta-Judge prompt's suspicious band: every judge inside
// 0.7–0.8 despite diverse criteria suggests sycophancy or refusal.
const (
	probeBandLow  = 0.7
	probeBandHigh = 0.8
	// probeRefusalFloor: a judge that never goes below it across iterations,
	// while its peers do, is not taking a position.
	probeRefusalFloor = 0.6
	// probeVerbosityR is the score–length correlation above which longer actor
	// output looks rewarded for its length.
	probeVerbosityR = 0.9
)

// probeJudge is one usable score.
type probeJudge struct {
	Type  string
	Score float64
}

// probeIteration is one iteration's usable scores and the actor output length.
type probeIteration struct {
	Judges      []probeJudge
	Aggregate   float64
	OutputBytes int
}

// probeFinding is one probe result.
type probeFinding struct {
	Probe  string `json:"probe"` // "narrow_band", "verbosity", "refusal"
	Bias   string `json:"bias"`  // the taxonomy value it points at
	Detail string `json:"detail"`
}

// String renders a finding as one line for prompts and summaries.
func (f probeFinding) String() string { return f.Probe + " (" + f.Bias + "): " + f.Detail }

// runProbes checks the current iteration (last of its) against the history.
func runProbes(its []probeIteration) []probeFinding {
	if len(its) == 0 {
		return nil
	}
	var out []probeFinding
	cur := its[len(its)-1]
	if len(cur.Judges) >= 2 {
		inside := true
		for _, j := range cur.Judges {
			if j.Score < probeBandLow || j.Score > probeBandHigh {
				inside = false
			}
		}
		if inside {
			out = append(out, probeFinding{Probe: "narrow_band", Bias: "sycophancy",
				Detail: fmt.Sprintf("all %d judges scored inside %.2f–%.2f", len(cur.Judges), probeBandLow, probeBandHigh)})
		}
	}
	if len(its) >= 3 {
		var xs, ys []float64
		for _, it := range its {
			xs = append(xs, float64(it.OutputBytes))
			ys = append(ys, it.Aggregate)
		}
		if r, ok := judgestats.Pearson(xs, ys); ok && r > probeVerbosityR {
			out = append(out, probeFinding{Probe: "verbosity", Bias: "verbosity",
				Detail: fmt.Sprintf("aggregate score tracks actor output length across %d iterations (r = %.2f)", len(its), r)})
		}
	}
	if len(its) >= 2 {
		out = append(out, refusalProbe(its)...)
	}
	return out
}

func refusalProbe(its []probeIteration) []probeFinding {
	minByType := map[string]float64{}
	count := map[string]int{}
	for _, it := range its {
		for _, j := range it.Judges {
			if _, ok := minByType[j.Type]; !ok {
				minByType[j.Type] = math.Inf(1)
			}
			minByType[j.Type] = math.Min(minByType[j.Type], j.Score)
			count[j.Type]++
		}
	}
	types := make([]string, 0, len(minByType))
	for t := range minByType {
		types = append(types, t)
	}
	sort.Strings(types)
	var out []probeFinding
	for _, t := range types {
		if count[t] < 2 || minByType[t] < probeRefusalFloor {
			continue
		}
		othersLow := false
		for _, u := range types {
			if u != t && minByType[u] < probeRefusalFloor {
				othersLow = true
			}
		}
		if othersLow {
			out = append(out, probeFinding{Probe: "refusal", Bias: "refusal",
				Detail: fmt.Sprintf("the %s judge never scored below %.2f across %d verdicts while other judges did", t, probeRefusalFloor, count[t])})
		}
	}
	return out
}
