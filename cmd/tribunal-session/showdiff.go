package main

import "fmt"

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
