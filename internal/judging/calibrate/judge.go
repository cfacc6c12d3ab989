package calibrate

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
	"github.com/tribunal-cc/tribunal/internal/judging/stopjudge"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
)

// claim stands in for the actor's final message: a neutral claim that the
// change is done, so the judges weigh the change itself. A case's notes
// (which may say what is wrong with it) are never shown to a judge.
const claim = "I have made the change for this task: it is the diff shown with this review."

// Judgement is one judging of one case.
type Judgement struct {
	// Decision is pass, fail, or failed (no decision: the judge calls
	// failed; never counted as pass or fail).
	Decision string   `json:"decision"`
	Score    *float64 `json:"score,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Error    string   `json:"error,omitempty"`
	// Judges are the seats of a jury; empty for the advisory judge.
	Judges  []Seat   `json:"judges,omitempty"`
	CostUSD *float64 `json:"cost_usd,omitempty"`
	// Verified is the verification step's effect (severity.verify on).
	Verified   *Verified `json:"verification,omitempty"`
	DurationMS int64     `json:"duration_ms"`
	Note       string    `json:"note,omitempty"`
}

// Seat is one juror's verdict on a case.
type Seat struct {
	Key    string   `json:"seat"` // judge type, "#2" for a second seat of a type
	Model  string   `json:"model,omitempty"`
	Score  *float64 `json:"score,omitempty"`
	Passed bool     `json:"passed"`
	Failed bool     `json:"failed,omitempty"`
	Error  string   `json:"error,omitempty"`
}

func (j Judgement) decision() judgestats.Decision {
	switch j.Decision {
	case "pass":
		return judgestats.Pass
	case "fail":
		return judgestats.Fail
	}
	return judgestats.Failed
}

// judge is one way of judging a case: the /tribunal jury or the Stop
// hook's advisory judge.
type judge interface {
	// fingerprint identifies the configuration and the prompts the case
	// would be judged with.
	fingerprint(c Case, files []unidiff.File) string
	run(ctx context.Context, c Case, files []unidiff.File, w *workdir) Judgement
	threshold() float64
	describe() string
}

// juryJudge is the default: jury, meta-judge and gate of `run`.
type juryJudge struct{ jury *judging.Jury }

func (j juryJudge) work(c Case, files []unidiff.File, dir string) judging.Work {
	return judging.Work{Task: c.Task, Files: files, ActorOutput: claim, Iteration: 0, Dir: dir}
}

func (j juryJudge) fingerprint(c Case, files []unidiff.File) string {
	return "jury:" + j.jury.Fingerprint(j.work(c, files, ""))
}

func (j juryJudge) threshold() float64 { return j.jury.Params().ScoreThreshold }

func (j juryJudge) describe() string {
	p := j.jury.Params()
	return fmt.Sprintf("jury %s, rubric %q, %s aggregation, threshold %s, gate policy %s, meta-judge %s",
		strings.Join(j.jury.Seats(), ", "), j.jury.RubricID(), p.AggregationMethod, rules.Num(p.ScoreThreshold), p.GatePolicy, orDefault(p.MetaModel))
}

func (j juryJudge) run(ctx context.Context, c Case, files []unidiff.File, w *workdir) Judgement {
	res, err := j.jury.JudgeDiff(ctx, j.work(c, files, w.Dir))
	out := Judgement{CostUSD: res.CostUSD}
	seen := map[string]int{}
	var errs []string
	for _, v := range res.Verdicts {
		seen[v.JudgeType]++
		key := v.JudgeType
		if seen[v.JudgeType] > 1 {
			key = fmt.Sprintf("%s#%d", v.JudgeType, seen[v.JudgeType])
		}
		s := Seat{Key: key, Model: v.JudgeModelID, Passed: v.Passed, Failed: v.Failed, Error: v.Error}
		if score, ok := v.UsableScore(); ok {
			s.Score = &score
		} else if !v.Failed {
			s.Failed, s.Error = true, "no usable score"
		}
		if s.Failed {
			errs = append(errs, key+": "+safetext.FirstLine(s.Error, 200))
		}
		out.Judges = append(out.Judges, s)
	}
	switch {
	case err != nil:
		out.Decision, out.Error = "failed", err.Error()
	case res.Usable == 0:
		out.Decision = "failed"
		out.Error = "no judge gave a usable verdict"
		if len(errs) > 0 {
			out.Error += " (" + strings.Join(errs, "; ") + ")"
		}
	default:
		if c := res.Iteration.Consensus; c != nil {
			a := c.Aggregate
			out.Score = &a
		}
		out.Decision = "fail"
		if res.Iteration.Gate.Passed {
			out.Decision = "pass"
		}
		out.Reason = string(res.Iteration.Gate.Reason)
		if b := res.Iteration.Gate.BlockedBy; b != "" {
			out.Reason += " (" + string(b) + ")"
		}
	}
	out.Verified = j.verified(res, out.Decision)
	return out
}

// stopJudge is --stop: the Stop hook's single advisory judge.
type stopJudge struct {
	claude   claude.Runner
	settings config.StopHookSettings
	spec     provider.Spec
}

// stopInput shows the advisory judge a case the way a turn looks to it:
// the change as the working tree's diff, the task as the user's request
// and the neutral claim as the assistant's final message.
func (s stopJudge) stopInput(c Case, files []unidiff.File) prompts.StopInput {
	return prompts.StopInput{Changes: files, UserRequest: c.Task, LastAssistantMessage: claim}
}

func (s stopJudge) fingerprint(c Case, files []unidiff.File) string {
	in := s.stopInput(c, files)
	in.Threshold, in.ReadTools = s.settings.ScoreThreshold, s.settings.ReadTools
	h := sha256.New()
	b, _ := json.Marshal(struct {
		Model     string
		Provider  provider.Spec
		MaxTokens int
		ReadTools bool
		Schema    string
		Prompt    string
		// The cascade (stop_hook.escalate_model) decides differently.
		Escalate      string  `json:",omitempty"`
		EscalateBelow float64 `json:",omitempty"`
	}{s.settings.Model, s.spec, s.settings.MaxOutputTokens, s.settings.ReadTools, prompts.StopVerdictSchema(), prompts.StopPrompt(in),
		s.settings.EscalateModel, escalateBelow(s.settings)})
	h.Write(b)
	return "stop:" + hex.EncodeToString(h.Sum(nil))
}

func (s stopJudge) threshold() float64 { return s.settings.ScoreThreshold }

func (s stopJudge) describe() string {
	d := fmt.Sprintf("Stop-hook advisory judge, model %s, threshold %s", orDefault(s.settings.Model), rules.Num(s.settings.ScoreThreshold))
	if s.settings.EscalateModel != "" {
		d += fmt.Sprintf(", escalating to %s when it fails or its confidence is below %s", s.settings.EscalateModel, rules.Num(s.settings.EscalateBelow))
	}
	return d
}

// escalateBelow is the cascade's bound when there is a cascade, else 0
// (so that the cache key of a judge without one does not change).
func escalateBelow(s config.StopHookSettings) float64 {
	if s.EscalateModel == "" {
		return 0
	}
	return s.EscalateBelow
}

func (s stopJudge) run(ctx context.Context, c Case, files []unidiff.File, w *workdir) Judgement {
	// The cheap-first cascade when stop_hook.escalate_model is set, as the
	// hook runs it: the report's cost then shows what it saves against the
	// same cases judged without it.
	adv, res, err := stopjudge.Cascade(ctx, s.claude, s.settings, s.stopInput(c, files), w.Dir, s.settings.Timeout,
		func() time.Duration { return s.settings.Timeout })
	out := Judgement{CostUSD: res.CostUSD}
	if err != nil {
		out.Decision, out.Error = "failed", err.Error()
		return out
	}
	score := adv.Score
	out.Score = &score
	out.Decision = "fail"
	if adv.Passed {
		out.Decision = "pass"
	}
	return out
}

func orDefault(model string) string {
	if model == "" {
		return "(CLI default)"
	}
	return model
}

// errInterrupted marks a run stopped by its context.
var errInterrupted = errors.New("interrupted")
