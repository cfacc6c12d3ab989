package records

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// MarkerDir is the directory, inside a project directory, that holds one
// marker file per surfaced advisory verdict.
const MarkerDir = "surfaced"

// MarkerPath names the marker of one advisory verdict:
// <project>/surfaced/<stop-file base name>.<task_id>. The task id is part of
// the name because a session's stop file is overwritten on every judged
// turn: each new verdict is a new thing to surface.
func MarkerPath(projectDir string, a Advisory) string {
	return filepath.Join(projectDir, MarkerDir, a.Name+"."+a.TaskID)
}

// Mark is what a marker records about the surfacing.
type Mark struct {
	SurfacedAt time.Time `json:"surfaced_at"`
	// SessionID is the session whose start surfaced the verdict.
	SessionID string `json:"session_id"`
}

// MarkShown marks a as surfaced in session m.SessionID (a session start
// noted it, a prompt showed it, or fix mode handed it to the model) by
// creating its marker exclusively, so that nothing shows it again. It
// reports false, with no error, when the marker already exists: another
// session start (possibly a concurrent one) or prompt has shown it. O_EXCL
// makes the claim atomic, so of any number of concurrent claimants
// exactly one wins.
func MarkShown(projectDir string, a Advisory, m Mark) (bool, error) {
	dir := filepath.Join(projectDir, MarkerDir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("create %q: %w", dir, err)
	}
	path := MarkerPath(projectDir, a)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, os.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("create marker %q: %w", path, err)
	}
	// The content is informational (who surfaced it and when); the claim is
	// the file's existence, so a failed write does not undo it.
	data, _ := json.Marshal(m)
	f.Write(append(data, '\n'))
	f.Close()
	return true, nil
}

// ReadMark reports whether a has been surfaced and, when the marker's
// content is readable, by which session and when.
func ReadMark(projectDir string, a Advisory) (Mark, bool) {
	f, err := store.OpenRegular(MarkerPath(projectDir, a))
	if err != nil {
		return Mark{}, false
	}
	defer f.Close()
	var m Mark
	data, _ := io.ReadAll(io.LimitReader(f, 4096))
	json.Unmarshal(data, &m)
	return m, true
}
