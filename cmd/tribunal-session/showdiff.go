package main

import (
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// emptyDiffNote says on stderr what an empty `show --diff` means, which
// stdout alone cannot: the iteration changed nothing.
func emptyDiffNote(taskID string, iteration int, previous bool) string {
	which := "the last iteration"
	if iteration > 0 {
		which = fmt.Sprintf("iteration %d", iteration)
	}
	if previous {
		return fmt.Sprintf("task %s: %s changed nothing since the iteration before it; there is no diff to show", taskID, which)
	}
	return fmt.Sprintf("task %s: no change since its starting snapshot (as of %s); there is no diff to show", taskID, which)
}

// showAdvisoryDiff prints the diff an advisory judge was shown, as the
// Stop hook kept it beside the judgement record; one advisory judgement
// has one diff, so --iteration and --previous do not apply.
func (c *cli) showAdvisoryDiff(projectDir, logPath, path string, iteration int, previous bool) int {
	if iteration != 0 || previous {
		c.errorf("show: --iteration and --previous apply to tasks; an advisory verdict has one diff")
		return exitUsage
	}
	v, err := history.ShowAdvisory(projectDir, logPath, path)
	if err != nil {
		c.errorf("%v", err)
		return exitIncomplete
	}
	c.reportProblems(v.Problems)
	if v.Diff == "" {
		c.progress(fmt.Sprintf("advisory verdict %s: no diff was kept (the turn's diff was empty, the judgement failed, or it was recorded before tribunal kept the judge's diff)", v.TaskID))
		return exitStatus(len(v.Problems) > 0)
	}
	// Repository text: keep the diff's lines, drop terminal controls.
	fmt.Fprint(c.stdout, safetext.Block(v.Diff))
	return exitStatus(len(v.Problems) > 0)
}
