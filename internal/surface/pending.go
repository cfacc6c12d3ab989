package surface

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/records"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// PendingDirName is the directory, directly in the Onlooker directory, of
// the verdicts waiting for their session's next prompt. It is keyed by
// session id alone, so the UserPromptSubmit hook finds out that there is
// nothing to show with one failed open: no git, no configuration.
const PendingDirName = "tribunal-pending"

// Pending points at an advisory verdict that finished after its turn ended
// and has not been shown in its session yet.
type Pending struct {
	ProjectDir string `json:"project_dir"`
	StopFile   string `json:"stop_file"`
	TaskID     string `json:"task_id"`
}

// PendingPath names the pending file of a session.
func PendingPath(onlookerDir, sessionID string) string {
	return filepath.Join(onlookerDir, PendingDirName, store.SanitizeSessionID(sessionID)+".json")
}

// WritePending replaces the session's pending verdict with p: only the
// newest verdict of a session is worth interrupting its next prompt for.
func WritePending(onlookerDir, sessionID string, p Pending) error {
	path := PendingPath(onlookerDir, sessionID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %q: %w", filepath.Dir(path), err)
	}
	return store.WriteJSON(path, p)
}

// MarkShown records that a was shown in session sid by other means (fix
// mode handed it to the model), so that neither the next prompt nor a
// later session start shows it again. It reports whether this call made
// the record.
func MarkShown(projectDir string, a Advisory, m Mark) (bool, error) {
	return claim(projectDir, a, m)
}

// checkPending refuses a pending file that points outside the Onlooker
// directory's project tree: it names files the hook will read and mark.
func checkPending(onlookerDir string, p Pending) error {
	root := filepath.Join(onlookerDir, "tribunal") + string(filepath.Separator)
	proj := filepath.Clean(p.ProjectDir)
	if !strings.HasPrefix(proj+string(filepath.Separator), root) || filepath.Dir(proj) != filepath.Clean(root) {
		return fmt.Errorf("project directory %q is not under %q", p.ProjectDir, root)
	}
	if filepath.Dir(filepath.Clean(p.StopFile)) != proj || !records.IsStopFileName(filepath.Base(p.StopFile)) {
		return fmt.Errorf("stop file %q is not in %q", p.StopFile, proj)
	}
	if !records.ValidID(p.TaskID) {
		return errors.New("task id is not a ULID")
	}
	return nil
}

func decodePending(data []byte) (Pending, error) {
	var p Pending
	if err := json.Unmarshal(data, &p); err != nil {
		return Pending{}, err
	}
	return p, nil
}
