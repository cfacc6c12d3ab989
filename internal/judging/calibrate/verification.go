package calibrate

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// Verified is what the verification step of blocking findings (spec
// §6.8) did to one judging: the decision had no finding been refuted, and
// how many findings it refuted or could not verify.
type Verified struct {
	// Without is pass or fail: the gate's decision without the step.
	Without  string `json:"decision_without_verification"`
	Refuted  int    `json:"refuted_findings,omitempty"`
	Failures int    `json:"verification_failures,omitempty"`
}

// verified reads the step's effect off a decided jury judging; nil when
// the jury does not verify or the judging was not decided.
func (j juryJudge) verified(res judging.Judgement, decision string) *Verified {
	if !j.jury.Verifies() || (decision != "pass" && decision != "fail") {
		return nil
	}
	it := res.Iteration
	v := &Verified{Without: decision, Refuted: it.RefutedFindings, Failures: it.VerificationFailures}
	if p := it.PassedWithoutVerification; p != nil {
		v.Without = map[bool]string{true: "pass", false: "fail"}[*p]
	}
	return v
}

// VerificationReport compares the figures with and without the
// verification step over the same judgings (spec §14.6): the step asks
// no judge again, so the difference is the step's alone.
type VerificationReport struct {
	FalseInterventionWith    *float64 `json:"false_intervention_rate_with"`
	FalseInterventionWithout *float64 `json:"false_intervention_rate_without"`
	CatchWith                *float64 `json:"catch_rate_with"`
	CatchWithout             *float64 `json:"catch_rate_without"`
	// The rates' 95% Wilson intervals.
	FalseInterventionWithCI    *judgestats.Interval `json:"false_intervention_rate_with_ci"`
	FalseInterventionWithoutCI *judgestats.Interval `json:"false_intervention_rate_without_ci"`
	CatchWithCI                *judgestats.Interval `json:"catch_rate_with_ci"`
	CatchWithoutCI             *judgestats.Interval `json:"catch_rate_without_ci"`
	// Changed counts judgings whose decision the step changed.
	Changed  int `json:"decisions_changed"`
	Refuted  int `json:"refuted_findings"`
	Failures int `json:"verification_failures"`
}

// verificationReport computes the comparison over the decided judgings of
// rep's results; nil when the judge does not verify.
func verificationReport(rep *Report, j judge) *VerificationReport {
	jj, ok := j.(juryJudge)
	if !ok || !jj.jury.Verifies() {
		return nil
	}
	out := &VerificationReport{}
	var with, without []judgestats.Outcome
	for _, r := range rep.Results {
		v := r.Verified
		if v == nil {
			continue
		}
		with = append(with, judgestats.Outcome{Label: r.Label, Decision: r.decision()})
		without = append(without, judgestats.Outcome{Label: r.Label, Decision: Judgement{Decision: v.Without}.decision()})
		if v.Without != r.Decision {
			out.Changed++
		}
		out.Refuted += v.Refuted
		out.Failures += v.Failures
	}
	fw, fo := judgestats.Compute(with), judgestats.Compute(without)
	out.FalseInterventionWith, out.FalseInterventionWithout = fw.FalseInterventionRate, fo.FalseInterventionRate
	out.CatchWith, out.CatchWithout = fw.CatchRate, fo.CatchRate
	out.FalseInterventionWithCI, out.FalseInterventionWithoutCI = fw.FalseInterventionRateCI, fo.FalseInterventionRateCI
	out.CatchWithCI, out.CatchWithoutCI = fw.CatchRateCI, fo.CatchRateCI
	return out
}

// writeVerification writes the comparison, when the judge verifies.
func (r *Report) writeVerification(b *strings.Builder) {
	v := r.Verification
	if v == nil {
		return
	}
	fmt.Fprintf(b, "\nVerification of blocking findings (severity.verify): %d refuted, %d could not be verified (counted); %d decision(s) changed\n\n",
		v.Refuted, v.Failures, v.Changed)
	b.WriteString("| | with verification | without |\n|---|---|---|\n")
	fmt.Fprintf(b, "| false interventions | %s | %s |\n", pctCI(v.FalseInterventionWith, v.FalseInterventionWithCI), pctCI(v.FalseInterventionWithout, v.FalseInterventionWithoutCI))
	fmt.Fprintf(b, "| catch rate | %s | %s |\n", pctCI(v.CatchWith, v.CatchWithCI), pctCI(v.CatchWithout, v.CatchWithoutCI))
}
