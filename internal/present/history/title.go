package history

import (
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// Title is what names a task's record in log, show, view and the page:
// a review's change ("main...feature", "staged", a diff's name), never
// the task text its judges were given (a review with no stated purpose
// is given a stock sentence, the same for every review); a task's
// summary otherwise. A review recorded before manifests had a title is
// named from its review.json, else from its task summary when someone
// stated one (the stock sentence of a review with no stated purpose
// names nothing), else "review".
func Title(taskDir string, m *records.Manifest) string {
	switch {
	case m == nil:
		return ""
	case m.Kind != records.KindReview:
		return strings.TrimSpace(m.TaskSummary)
	case m.Title != "":
		return m.Title
	}
	var rev records.Review
	if records.ReadJSON(filepath.Join(taskDir, records.ReviewFile), &rev) != nil {
		if t := strings.TrimSpace(m.TaskSummary); t != "" && !strings.HasPrefix(records.ReviewNoTask, strings.TrimSuffix(t, "…")) {
			return t
		}
		return "review"
	}
	return records.ReviewTitle(rev)
}
