package history

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// IterationDiff returns a stored diff of iteration n (1-based; 0 means the
// last one) of a task: the task's change since its starting snapshot, or,
// with previous, that iteration's own change since the one before.
func IterationDiff(projectDir, taskID string, n int, previous bool) (string, error) {
	dirs, err := iterationDirs(filepath.Join(projectDir, taskID))
	if err != nil {
		return "", err
	}
	if len(dirs) == 0 {
		return "", fmt.Errorf("task %s has no iterations", taskID)
	}
	if n == 0 {
		n = len(dirs)
	}
	if n < 1 || n > len(dirs) {
		return "", fmt.Errorf("task %s has %d iteration(s); there is no iteration %d", taskID, len(dirs), n)
	}
	name := records.DiffSnapshotFile
	if previous {
		name = records.DiffPreviousFile
	}
	path := filepath.Join(dirs[n-1], name)
	data, err := records.ReadText(path, records.MaxDiff)
	if p := asProblem(err); err != nil && errors.Is(p.Err, ErrMissing) {
		return "", fmt.Errorf("iteration %d of task %s has no stored diff (a run with --in-place, or one from before diffs were kept)", n, taskID)
	}
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// leftOutLine names the untracked files the task's snapshot left out
// because they look like secrets; "" when there were none.
func leftOutLine(iso *records.Isolation) string {
	if line := secretfiles.Describe(iso.LeftOut); line != "" {
		return "**Untracked secrets:** " + line + "."
	}
	return ""
}

// isolationLine says where the task's actor worked and what became of its
// change.
func isolationLine(iso *records.Isolation, id string) string {
	if iso.Mode != "worktree" {
		return "**Working tree:** the actor edited it directly (--in-place)."
	}
	branch := safetext.Inline(iso.Branch, 200)
	switch iso.State {
	case "applied":
		return "**Working tree:** the change was applied as uncommitted changes."
	case "unchanged":
		return "**Working tree:** unchanged; the actor changed no file."
	case "discarded":
		return "**Working tree:** unchanged; the change was discarded."
	case "kept":
		why := ""
		if len(iso.Conflicts) > 0 {
			why = " (it overlaps your edits: " + safetext.Inline(strings.Join(iso.Conflicts, ", "), 300) + ")"
		}
		return fmt.Sprintf("**Working tree:** unchanged; the change is kept as %s%s — `tribunal-session apply %s` or `discard %s`.", branch, why, id, id)
	}
	return "**Working tree:** unchanged (the run did not finish: its change, if any, is kept as " + branch + ")."
}
