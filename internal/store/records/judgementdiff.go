package records

import "path/filepath"

// JudgementDiffExt ends the file that keeps, beside a judgement record,
// the diff its judge was shown (<task_id>.patch).
const JudgementDiffExt = ".patch"

// JudgementDiffPath is where an advisory judgement's evidence is kept: in
// the session's JudgementsDir, named by the judgement's task id.
func JudgementDiffPath(projectDir, sessionID, taskID string) string {
	return filepath.Join(JudgementsDir(projectDir, sessionID), taskID+JudgementDiffExt)
}
