package records

import "strings"

// FileChange is one file a change touches.
type FileChange struct {
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"`
	// Status is added, modified, deleted, renamed, copied or type_changed.
	Status  string `json:"status"`
	Added   int    `json:"added,omitempty"`
	Deleted int    `json:"deleted,omitempty"`
	Binary  bool   `json:"binary,omitempty"`
	// OldMode and NewMode are git's modes ("100644", "100755", "120000"
	// for a symbolic link) of a change that alters the mode.
	OldMode string `json:"old_mode,omitempty"`
	NewMode string `json:"new_mode,omitempty"`
	// Target is a symbolic link's target; Outside flags one that leads
	// out of the work tree (absolute, or above its root).
	Target  string `json:"symlink_target,omitempty"`
	Outside bool   `json:"symlink_outside,omitempty"`
}

// Notes names what counts of lines do not show: a mode change and a
// symbolic link's target ("mode 100644 → 100755", "symlink → /x, outside
// the work tree"); "" for neither.
func (f FileChange) Notes() string {
	var notes []string
	if f.OldMode != "" {
		notes = append(notes, "mode "+f.OldMode+" → "+f.NewMode)
	}
	if f.Target != "" {
		n := "symlink → " + f.Target
		if f.Outside {
			n += ", outside the work tree"
		}
		notes = append(notes, n)
	}
	return strings.Join(notes, ", ")
}

// Tamper is one change a task made to the repository's git files.
type Tamper struct {
	// Path is the file as the user would name it (".git/config",
	// ".git/hooks/post-checkout"), relative to their work tree when the
	// repository lies inside it.
	Path string `json:"path"`
	// Change is added, changed or deleted; Detail names changed config
	// variables ("filter.x.clean added").
	Change string `json:"change"`
	Detail string `json:"detail,omitempty"`
	// Restored: the file is as it was when the task started; otherwise
	// NotRestored says why not.
	Restored    bool   `json:"restored"`
	NotRestored string `json:"not_restored,omitempty"`
}

// Refusal is a path of the actor's work that tribunal did not record,
// and why: a file over a size limit, a special file (named pipe, socket,
// device) where git records only files, links and directories, or a path
// with a component git reserves for itself (".GIT", any case). It is
// removed from the task worktree (a tracked file is put back as it was).
type Refusal struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}
