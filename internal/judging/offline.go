package judging

import (
	"context"
	"errors"
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/judging/heuristic"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/verdict"
)

// SuspectError is the reason recorded for a suspect answer (spec §4.8).
const SuspectError = provider.SuspectError

// suspect reports whether an answer that came back without error is a
// stub's (provider.Spec.Suspect, the one rule).
func suspect(spec provider.Spec, res claude.Result, err error) bool {
	return spec.Suspect(res, err)
}

// suspectVerdict is the failed verdict of a suspect answer.
func suspectVerdict() verdict.Verdict {
	v := verdict.Failed(SuspectError)
	v.Suspect = true
	return v
}

// allSuspect reports whether every rep of a seat was a suspect answer.
func allSuspect(reps []verdict.Verdict) bool {
	for _, v := range reps {
		if !v.Suspect {
			return false
		}
	}
	return len(reps) > 0
}

// errNoChange is the heuristic judge's failure in a run that judges the
// working tree in place: it has no change to read.
var errNoChange = errors.New("the heuristic judge reads the change itself, which a run in place does not isolate; use an isolated run, review or calibrate")

// seatRunner is the runner of a type-t seat in this round: the heuristic
// judge over the round's files (it reads no prompt), else the seat's
// provider.
func (r *round) seatRunner(t string) claude.Runner {
	if !r.prov.judges[t].IsHeuristic() {
		return r.judgeRunner(t)
	}
	return claude.RunnerFunc(func(ctx context.Context, _ claude.Call) (claude.Result, error) {
		if !r.in.Isolated {
			return claude.Result{}, errNoChange
		}
		res := heuristic.Judge(heuristic.Input{Files: r.in.Files, Criteria: r.criterionNames(), Threshold: r.params.ScoreThreshold})
		out := res.JSON()
		return claude.Result{Structured: out, Text: string(out)}, ctx.Err()
	})
}

// metaResult asks the meta-judge: the heuristic one over this round's
// verdicts and probes, else the meta provider's model.
func (r *round) metaResult(ctx context.Context, call claude.Call, probes []string) (claude.Result, error) {
	if !r.prov.meta.IsHeuristic() {
		return r.metaRunner().Run(ctx, call)
	}
	in := heuristic.MetaInput{Probes: len(probes)}
	for _, v := range r.it.Verdicts {
		if s, ok := v.UsableScore(); ok {
			in.Scores = append(in.Scores, s)
		} else if v.Failed {
			in.Failed++
		}
	}
	out := heuristic.Meta(in)
	return claude.Result{Structured: out, Text: string(out)}, ctx.Err()
}

// HeuristicProvider is the heuristic judge's provider name as reports
// record it (provider.Heuristic), for the packages that show reports.
const HeuristicProvider = records.HeuristicProvider

// SeatLabel is a seat's type as the summaries show it, "standard
// (heuristic)" for the heuristic judge.
func SeatLabel(judgeType, prov string) string {
	if prov == provider.Heuristic {
		return fmt.Sprintf("%s (heuristic)", judgeType)
	}
	return judgeType
}

// Offline reports whether the jury calls no model at all: every seat of
// its panel and the meta-judge are the heuristic judge. Such a jury needs
// no claude executable (review, calibrate and rejudge then run without
// one).
func (j *Jury) Offline() bool {
	if !j.prov.meta.IsHeuristic() {
		return false
	}
	for _, s := range j.Panel() {
		if !j.prov.judges[s.JudgeType].IsHeuristic() {
			return false
		}
	}
	return true
}
