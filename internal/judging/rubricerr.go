package judging

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// unknownRubric is the error for a rubric id the set does not have: the
// id, the nearest usable id when one is close, and the usable ids as a
// list a user reads (not Go's slice syntax). A rubric the set keeps
// although it is invalid is no choice, so it is not offered.
func unknownRubric(id string, set rubric.Set) error {
	var usable []string
	for _, r := range set.All() {
		if rubric.Validate(&r) == nil {
			usable = append(usable, r.ID)
		}
	}
	msg := fmt.Sprintf("no rubric with id %q", id) + safetext.DidYouMean(id, usable, strconv.Quote)
	if len(usable) > 0 {
		msg += "; the rubrics here: " + strings.Join(usable, ", ")
	}
	return &ConfigError{Err: fmt.Errorf("%s", msg),
		Hint: "nothing ran; 'tribunal-session rubrics' lists the rubrics, where each comes from, and why an invalid one is invalid"}
}
