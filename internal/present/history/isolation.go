package history

import (
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

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
