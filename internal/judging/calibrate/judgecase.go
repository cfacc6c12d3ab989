package calibrate

import (
	"context"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging"
)

// JudgeCase judges one case with jury exactly as calibrate does — its
// files written and its diff applied in a new directory under tmp, the
// neutral claim for the actor's message, the jury, meta-judge and gate —
// uncached: tune's rollouts and candidates (internal/judging/tune) must
// each ask anew, since its noise is the spread of asking again.
func JudgeCase(ctx context.Context, jury *judging.Jury, git projectkey.GitRunner, tmp string, c Case) Judgement {
	files, err := caseFiles(c.Diff, false)
	if err != nil {
		return Judgement{Decision: "failed", Error: err.Error()}
	}
	w, err := materialise(ctx, git, tmp, c)
	if err != nil {
		return Judgement{Decision: "failed", Error: err.Error()}
	}
	defer w.remove()
	j := juryJudge{jury: jury}.run(ctx, c, files, w)
	j.Note = w.Note
	return j
}

// LoadCases reads a cases file as calibrate does (a malformed line
// skipped through warn, a bad label an error, no usable case an error);
// the error is a *InputError.
func LoadCases(path string, warn func(string)) ([]Case, error) {
	cases, _, err := loadCases(path, warn)
	return cases, err
}
