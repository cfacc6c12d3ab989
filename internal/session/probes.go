package session

import (
	"github.com/tribunal-cc/tribunal/internal/probes"
)

// probes runs the deterministic bias probes over this task's iterations so
// far, the current one last; their findings go to the Meta-Judge and into
// meta.json.
func (r *runner) probes(cur *iterationState) []string {
	var its []probes.Iteration
	for _, h := range append(append([]iterationState{}, r.history...), *cur) {
		pi := probes.Iteration{Aggregate: h.Aggregate, OutputBytes: len(h.ActorOutput)}
		for _, v := range h.Verdicts {
			if s, ok := v.UsableScore(); ok {
				pi.Judges = append(pi.Judges, probes.Judge{Type: v.JudgeType, Score: s})
			}
		}
		its = append(its, pi)
	}
	var out []string
	for _, f := range probes.Run(its) {
		out = append(out, f.String())
	}
	// Command judges are facts, not opinions: the meta-judge should weigh
	// a judge that passed work whose tests fail.
	for _, c := range cur.Commands {
		if !c.Passed {
			out = append(out, "command judge "+c.Name+" failed: "+firstLine(c.Feedback+c.Error, 200))
		}
	}
	return out
}
