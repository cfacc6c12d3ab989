package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/judging/answer"
	"github.com/tribunal-cc/tribunal/internal/review"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/store/signedverdict"
)

// answerVerdict is one judged answer as --json and --cases print it.
type answerVerdict struct {
	ID        string                `json:"id"`
	CaseID    string                `json:"case_id,omitempty"`
	Outcome   string                `json:"outcome"`
	Passed    bool                  `json:"passed"`
	Score     *float64              `json:"score"`
	Threshold float64               `json:"threshold"`
	Reason    string                `json:"reason"`
	RubricID  string                `json:"rubric_id"`
	Judges    []answerJudge         `json:"judges"`
	Checks    []answerCheck         `json:"checks"`
	Findings  []severity.Finding    `json:"findings"`
	Worst     string                `json:"worst_severity,omitempty"`
	CostUSD   *float64              `json:"cost_usd,omitempty"`
	Digests   records.Digests       `json:"digests"`
	Error     string                `json:"error,omitempty"`
	signed    signedverdict.Verdict `json:"-"`
}

type answerJudge struct {
	Type   string   `json:"type"`
	Model  string   `json:"model,omitempty"`
	Score  *float64 `json:"score"`
	Passed bool     `json:"passed"`
}

type answerCheck struct {
	Name     string `json:"name"`
	Passed   bool   `json:"passed"`
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
}

// verdictOf turns a judged answer into what is printed and signed.
func verdictOf(res *session.AnswerResult, a *session.Answerer, runErr error) answerVerdict {
	rec := res.Record
	v := answerVerdict{ID: res.ID, CaseID: rec.CaseID, Outcome: rec.Outcome, Passed: rec.Outcome == review.Accepted,
		Score: res.Report.FinalScore, Threshold: a.Threshold(), Reason: rec.Reason, RubricID: a.RubricID(),
		Judges: []answerJudge{}, Checks: []answerCheck{}, Findings: []severity.Finding{}, CostUSD: res.Report.CostUSD, Digests: rec.Digests}
	if runErr != nil {
		v.Error = runErr.Error()
	}
	if n := len(res.Report.Iterations); n > 0 {
		for _, j := range res.Report.Iterations[n-1].Judges {
			v.Judges = append(v.Judges, answerJudge{Type: judging.SeatLabel(j.Type, j.Provider), Model: j.Model, Score: j.Score, Passed: j.Passed})
		}
	}
	checks := map[string]bool{}
	for _, c := range rec.Checks {
		v.Checks = append(v.Checks, answerCheck{Name: c.Name, Passed: c.Passed, Severity: c.Severity, Summary: c.Feedback})
		checks[c.Name] = c.Passed
	}
	for _, f := range rec.Findings {
		v.Findings = append(v.Findings, f.Finding)
	}
	if res.Any {
		v.Worst = res.Worst.String()
	}
	v.signed = signedverdict.Verdict{ID: v.ID, CaseID: v.CaseID, Outcome: v.Outcome, Passed: v.Passed, Score: v.Score,
		Threshold: v.Threshold, Reason: v.Reason, RubricID: v.RubricID, Findings: len(v.Findings), WorstSeverity: v.Worst}
	if len(checks) > 0 {
		v.signed.Checks = checks
	}
	return v
}

// exit is judge's exit status for one verdict: 0 accepted, 10 rejected,
// 3 no usable verdict (every judge failed, or stopped before the gate).
func (v answerVerdict) exit() int {
	switch v.Outcome {
	case review.Accepted:
		return exitAccepted
	case review.Rejected:
		return exitNotAccepted
	}
	return exitAborted
}

// judgeOne judges one answer and prints, signs and exits by its verdict.
func (c *cli) judgeOne(ctx context.Context, f judgeFlags, a *session.Answerer, k answer.Case) int {
	res, runErr := a.Judge(ctx, k)
	if res == nil {
		c.errorf("judge: %v", runErr)
		return exitAborted
	}
	v := verdictOf(res, a, runErr)
	if f.json {
		if err := json.NewEncoder(c.stdout).Encode(v); err != nil {
			c.errorf("judge: %v", err)
		}
	} else {
		c.printVerdict(v)
	}
	if runErr != nil {
		c.errorf("judge: %v", runErr)
	}
	if f.signedOut != "" {
		if err := c.writeSigned(f, v); err != nil {
			c.errorf("judge: the signed verdict was not written: %v", err)
			return exitAborted
		}
		c.progressf("judge: signed verdict written to %s", f.signedOut)
	}
	return v.exit()
}

// printVerdict is the text form: the outcome line, the reason, each
// judge, each check and each finding.
func (c *cli) printVerdict(v answerVerdict) {
	score := "—"
	if v.Score != nil {
		score = rules.Num(*v.Score)
	}
	fmt.Fprintf(c.stdout, "%s %s  score %s (threshold %s)  answer %s\n", rules.Glyph(v.Outcome), v.Outcome, score, rules.Num(v.Threshold), v.ID)
	fmt.Fprintf(c.stdout, "  %s\n", safetext.Inline(v.Reason, 500))
	for _, j := range v.Judges {
		s := "no usable score"
		if j.Score != nil {
			s = rules.Num(*j.Score)
		}
		fmt.Fprintf(c.stdout, "  judge %s: %s\n", j.Type, s)
	}
	for _, k := range v.Checks {
		mark := "✓"
		if !k.Passed {
			mark = "✗"
		}
		fmt.Fprintf(c.stdout, "  check %s: %s %s\n", k.Name, mark, safetext.Inline(k.Summary, 300))
	}
	for _, f := range v.Findings {
		fmt.Fprintf(c.stdout, "  - [%s] %s (%s)\n", f.Severity, safetext.Inline(f.Message, 300), f.Judge)
	}
}

// writeSigned signs v with --key's key, else the ledger's, and writes the
// file whole.
func (c *cli) writeSigned(f judgeFlags, v answerVerdict) error {
	path, key := f.signedOut, f.signingKey
	if key == nil {
		var err error
		if key, err = ledger.LoadOrCreateKey(c.keyDir()); err != nil {
			return err
		}
	}
	sf, err := signedverdict.Sign(signedverdict.File{Verdict: v.signed, Digests: v.Digests}, key, time.Now())
	if err != nil {
		return err
	}
	data, err := sf.Bytes()
	if err != nil {
		return err
	}
	return store.WriteFileAtomic(path, data, 0o644)
}

// judgeBatch judges every case with f.jobs at a time and prints one
// verdict JSON a line on stdout in input order, each as soon as every
// case before it is printed; one progress line a case on stderr. The
// exit status is the worst case's: 3 over 10 over 0.
func (c *cli) judgeBatch(ctx context.Context, f judgeFlags, a *session.Answerer, cases []answer.Case) int {
	results := make([]*answerVerdict, len(cases))
	var mu sync.Mutex
	next, done := 0, 0
	work := make(chan int)
	var wg sync.WaitGroup
	enc := json.NewEncoder(c.stdout)
	worst := exitAccepted
	for w := 0; w < f.jobs; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				v := c.judgeCase(ctx, a, cases[i])
				mu.Lock()
				results[i] = &v
				done++
				c.progressf("judge: case %s (%d/%d): %s", cases[i].ID, done, len(cases), v.Outcome)
				for next < len(results) && results[next] != nil {
					if err := enc.Encode(results[next]); err != nil {
						c.errorf("judge: %v", err)
					}
					worst = worseExit(worst, results[next].exit())
					next++
				}
				mu.Unlock()
			}
		}()
	}
	for i := range cases {
		if ctx.Err() != nil {
			break
		}
		work <- i
	}
	close(work)
	wg.Wait()
	if next < len(cases) {
		c.errorf("judge: interrupted after %d of %d case(s)", next, len(cases))
		return exitAborted
	}
	return worst
}

// judgeCase judges one case of a batch; a failure is a no-verdict line.
func (c *cli) judgeCase(ctx context.Context, a *session.Answerer, k answer.Case) answerVerdict {
	res, err := a.Judge(ctx, k)
	if res == nil {
		return failedVerdict(k, err)
	}
	return verdictOf(res, a, err)
}

// failedVerdict is the no-verdict line of an answer that stopped before
// any result.
func failedVerdict(k answer.Case, err error) answerVerdict {
	if err == nil {
		err = errors.New("no result")
	}
	return answerVerdict{CaseID: k.ID, Outcome: review.NoVerdict, Reason: "not a judgement of the answer: " + err.Error(),
		Judges: []answerJudge{}, Checks: []answerCheck{}, Findings: []severity.Finding{}, Error: err.Error()}
}

// worseExit orders judge's statuses: no verdict over rejected over
// accepted.
func worseExit(a, b int) int {
	rank := map[int]int{exitAccepted: 0, exitNotAccepted: 1, exitAborted: 2}
	if rank[b] > rank[a] {
		return b
	}
	return a
}
