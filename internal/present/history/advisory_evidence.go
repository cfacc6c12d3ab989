package history

import (
	"errors"
	"io/fs"

	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// maxJudgementDiff bounds the read of a kept judge diff: the Stop hook
// writes at most prompts.StopDiffBudget and a little framing.
const maxJudgementDiff = 1 << 20

// readJudgementDiff reads the diff the Stop judge was shown, kept beside
// the judgement record (records.JudgementDiffPath); "" when none was kept
// (a turn with no diff, a failed judgement, a record from before tribunal
// kept it). A file that cannot be read is a problem, named.
func (v *AdvisoryView) readJudgementDiff(projectDir string) {
	path := records.JudgementDiffPath(projectDir, v.SessionID, v.TaskID)
	data, err := store.ReadRegular(path, maxJudgementDiff)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		v.Problems = append(v.Problems, *records.FileProblem(path, err))
		return
	}
	v.Diff, v.DiffPath = string(data), path
}

// Shown says where the verdict has been shown, in one phrase for show and
// view: at the next prompt of its own session, handed back to the model in
// fix mode, or at a new session's start — never "a new session" for the
// session that produced it.
func (v *AdvisoryView) Shown() string {
	m := v.Surfaced
	if m == nil && (v.Outcome == records.OutcomeFailed || v.Outcome == records.OutcomeCancelled) {
		return "not shown at a prompt: there is no verdict to show"
	}
	if m == nil {
		return "not yet shown (it is shown at the session's next prompt, or when a new session starts)"
	}
	at := ""
	if !m.SurfacedAt.IsZero() {
		at = " at " + m.SurfacedAt.UTC().Format(timeLayout)
	}
	switch {
	case m.SessionID != "" && m.SessionID == v.SessionID && v.Rewake:
		return "handed back to the model in its own session (fix mode)" + at
	case m.SessionID != "" && m.SessionID == v.SessionID:
		return "shown at the next prompt of its own session" + at
	case m.SessionID != "":
		return "shown when a new session started" + at + " (session " + safetext.Inline(m.SessionID, 200) + ")"
	}
	return "shown" + at
}
