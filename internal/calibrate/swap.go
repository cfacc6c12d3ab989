package calibrate

import (
	"errors"

	"github.com/tribunal-cc/tribunal/internal/unidiff"
)

// shownDiff is the change as a judge is shown it: the case's diff parsed
// and rendered within budget bytes by internal/unidiff (the renderer of
// the product's judge prompts), its files in reverse order when swap is
// set, which is the swap test of position bias. A diff without git's
// "diff --git" headers cannot be split into files: it is shown as given
// (its last budget bytes), and cannot be swapped.
func shownDiff(diff string, swap bool, budget int) (string, error) {
	files := unidiff.Parse([]byte(diff))
	if len(files) == 0 {
		if swap {
			return "", errors.New(`the diff has no "diff --git" headers, so its files cannot be told apart`)
		}
		if len(diff) > budget {
			diff = diff[len(diff)-budget:]
		}
		return diff, nil
	}
	if swap {
		files = unidiff.Reverse(files)
	}
	return unidiff.Render(files, budget), nil
}
