package history

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/store"
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
	name := store.DiffSnapshotFile
	if previous {
		name = store.DiffPreviousFile
	}
	path := filepath.Join(dirs[n-1], name)
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return "", fmt.Errorf("iteration %d of task %s has no stored diff (a run with --in-place, or one from before diffs were kept)", n, taskID)
		}
		return "", &Problem{Path: path, Err: unwrapPath(err)}
	}
	return string(data), nil
}
