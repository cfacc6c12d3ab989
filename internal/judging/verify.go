package judging

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/judging/gate"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// verifyContext is how many lines either side of a cited line the
// verifier reads; a finding citing a file without a line gets its first
// 2·verifyContext lines.
const verifyContext = 40

// setupVerify reads tribunal.severity.verify and checks its provider
// before any call, like the seats' (spec §6.8).
func (j *Jury) setupVerify() error {
	j.verify = j.cfg.VerifyFindings()
	if !j.verify.Enabled {
		return nil
	}
	j.prov.verify = provider.Of(j.cfg.VerifyProvider())
	if err := j.prov.verify.Validate(j.env.Getenv); err != nil {
		return err
	}
	if !j.prov.verify.IsClaude() {
		j.verify.Model = j.prov.verify.QualifiedModel("")
	}
	return nil
}

// Verifies reports whether the verification step is on, for reports that
// show figures with and without it (calibrate).
func (j *Jury) Verifies() bool { return j.verify.Enabled }

// verifyFindings is the verification step (spec §6.8): every finding that
// would block under the severity policy is put to the verifier, in
// parallel, before the gate weighs it. A refuted finding is kept and
// marked, and no longer counts; a confirmed one counts; a call that fails
// (or the budget refusing it) leaves the finding counting, marked failed,
// and says so.
func (r *round) verifyFindings(ctx context.Context) {
	if !r.verify.Enabled {
		return
	}
	var idx []int
	for i, f := range r.it.Findings {
		if f.Counts() && severity.Blocks(f.Level(), r.failAt) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return
	}
	label := r.in.Label
	if err := r.rec.Budget("verify", len(idx)); err != nil {
		for _, i := range idx {
			r.markFailed(i, "not asked: "+err.Error())
		}
		return
	}
	r.progress("%s verifying %d blocking finding(s) (%s)…", label, len(idx), ModelName(r.verify.Model))
	calls := make([]claude.Call, len(idx))
	seqs := make([]int, len(idx))
	for k, i := range idx {
		calls[k] = r.verifyCall(r.it.Findings[i])
		seqs[k] = r.it.NextCall()
	}
	results := make([]verifyResult, len(idx))
	var wg sync.WaitGroup
	for k := range idx {
		wg.Add(1)
		go func(k int) {
			defer wg.Done()
			res, err := r.prov.deps.Runner(r.prov.verify).Run(ctx, calls[k])
			r.rec.AddCost("verify", res)
			r.recordCall(seqs[k], "verify", r.prov.verify, records.CallMeta{Role: "verify"}, calls[k], res, err)
			results[k] = readVerification(res, err)
		}(k)
	}
	wg.Wait()
	counts := map[string]int{}
	for k, i := range idx {
		v := results[k]
		counts[v.outcome]++
		if v.outcome == severity.VerifyFailed {
			r.markFailed(i, v.note)
			continue
		}
		r.it.Findings[i].Verification, r.it.Findings[i].VerificationNote = v.outcome, v.note
		if v.outcome == severity.Refuted {
			r.it.Report.RefutedFindings++
		}
	}
	r.progress("%s verification: %d confirmed, %d refuted, %d failed", label, counts[severity.Confirmed], counts[severity.Refuted], counts[severity.VerifyFailed])
}

// markFailed leaves finding i counting and says why it was not verified.
func (r *round) markFailed(i int, why string) {
	f := &r.it.Findings[i]
	f.Verification, f.VerificationNote = severity.VerifyFailed, safetext.FirstLine(why, 300)
	r.it.Report.VerificationFailures++
	r.env.Warn(fmt.Sprintf("the verification of finding %q (%s) failed, so it counts: %s", safetext.FirstLine(f.Message, 100), f.Severity, f.VerificationNote))
}

// verifyCall is the verifier's call for one finding: no tools, the cited
// code in the prompt.
func (r *round) verifyCall(f severity.Finding) claude.Call {
	code, where := r.citedCode(f)
	return claude.Call{
		Role: "verify", Prompt: prompts.VerifyPrompt(prompts.VerifyInput{Task: r.in.Task, Finding: f, Code: code, CodeLabel: where}),
		Model: r.verify.Model, JSONSchema: prompts.VerifySchema(), Tools: []string{}, StrictMCP: true, MaxTurns: 1,
		MaxOutputTokens: r.verify.MaxOutputTokens, Dir: r.in.Dir, Timeout: r.verify.Timeout,
	}
}

// citedCode is the numbered lines around the finding's location in the
// judged tree, or, for a finding that cites no readable file, the change
// as the judges saw it.
func (r *round) citedCode(f severity.Finding) (code, where string) {
	file, line := f.File, f.Line
	p, ok := inside(r.in.Dir, file)
	if !ok || !isFile(p) {
		// "path/to/file.go:42" in the file field, as locator reads it.
		if i := strings.LastIndexByte(file, ':'); i > 0 {
			if n, err := strconv.Atoi(file[i+1:]); err == nil && n > 0 {
				file = file[:i]
				if line == 0 {
					line = n
				}
				p, ok = inside(r.in.Dir, file)
			}
		}
	}
	if ok && isFile(p) {
		if text, first, last := numberedLines(p, line); text != "" {
			return text, fmt.Sprintf("%s, lines %d-%d", file, first, last)
		}
	}
	if r.in.Diff != "" {
		return r.in.Diff, "the change's diff"
	}
	return r.in.DiffStat, "the change's diff stat"
}

// numberedLines reads the lines of p around line (1-based; 0 for the
// file's start), each prefixed with its number.
func numberedLines(p string, line int) (text string, first, last int) {
	fh, err := os.Open(p)
	if err != nil {
		return "", 0, 0
	}
	defer fh.Close()
	first, last = max(line-verifyContext, 1), line+verifyContext
	if line <= 0 {
		first, last = 1, 2*verifyContext
	}
	sc := bufio.NewScanner(io.LimitReader(fh, maxLocateBytes))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var b strings.Builder
	n, end := 0, 0
	for sc.Scan() && n < last {
		n++
		if n >= first {
			fmt.Fprintf(&b, "%d: %s\n", n, sc.Text())
			end = n
		}
	}
	return b.String(), first, end
}

// verifyResult is one verification's outcome and its reason.
type verifyResult struct{ outcome, note string }

// readVerification reads the verifier's answer; a failed call or an
// answer that is neither confirmed nor refuted is a failure.
func readVerification(res claude.Result, err error) verifyResult {
	if err != nil {
		return verifyResult{severity.VerifyFailed, err.Error()}
	}
	raw := res.Structured
	if raw == nil {
		raw = json.RawMessage(res.Text)
	}
	var ans struct {
		Verdict string `json:"verdict"`
		Reason  string `json:"reason"`
	}
	if json.Unmarshal(raw, &ans) != nil || (ans.Verdict != severity.Confirmed && ans.Verdict != severity.Refuted) {
		return verifyResult{severity.VerifyFailed, "the verifier's answer is not {\"verdict\": \"confirmed\"|\"refuted\"}: " + safetext.FirstLine(string(raw), 120)}
	}
	return verifyResult{ans.Verdict, safetext.FirstLine(ans.Reason, 300)}
}

// gateWithoutVerification decides the round again as if no finding had
// been refuted, for reports that compare (calibrate); nil when the step
// refuted nothing, so the decision is the same.
func (r *round) gateWithoutVerification(in gate.Input) *bool {
	if r.it.Report.RefutedFindings == 0 {
		return nil
	}
	c := r.checks()
	c.Worst = severity.None
	for _, f := range r.it.Findings {
		if !f.Unverified && f.Level() > c.Worst {
			c.Worst = f.Level()
		}
	}
	passed := gate.DecideWithChecks(in, c).Passed
	return &passed
}
