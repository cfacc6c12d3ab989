package records

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

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
	// Paused, instead of a verdict, tells the session's next prompt that
	// the Stop judge paused for the day: what it spent of BudgetUSD
	// (tribunal.stop_hook.daily_budget_usd).
	Paused    *StopSpend `json:"paused,omitempty"`
	BudgetUSD float64    `json:"budget_usd,omitempty"`
}

// MaxPending caps a pending file: it holds two paths and a task id.
const MaxPending = 16 << 10

// PendingPath names the pending file of a session.
func PendingPath(onlookerDir, sessionID string) string {
	return filepath.Join(onlookerDir, PendingDirName, store.SanitizeSessionID(sessionID)+".json")
}

// PendingExpiry is how long a pending verdict waits for its session's
// next prompt: session_start.max_age_hours' default, past which a
// session start no longer surfaces a verdict either. A session resumed
// later is not interrupted with a review of changes that old; the entry
// is dropped instead (prompt-submit skips it, WritePending prunes it).
const PendingExpiry = 72 * time.Hour

// WritePending replaces the session's pending verdict with p: only the
// newest verdict of a session is worth interrupting its next prompt for.
// It then prunes the directory (PrunePending): the writer of the entries,
// a judge off every hook's hot path, keeps their number bounded.
func WritePending(onlookerDir, sessionID string, p Pending, now time.Time) error {
	path := PendingPath(onlookerDir, sessionID)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create %q: %w", filepath.Dir(path), err)
	}
	if err := store.WriteJSON(path, p); err != nil {
		return err
	}
	PrunePending(onlookerDir, now)
	return nil
}

// PrunePending deletes, best-effort, the pending entries that can never be
// shown: older than PendingExpiry, or whose verdict has been shown (its
// surfaced marker exists: a session start, or fix mode, showed it), or
// replaced or deleted since (the stop file holds another task or none), or
// that are not pending files at all; and the leftovers of interrupted
// writes and claims. Without it every session with a late verdict left a
// file forever. It returns how many entries it deleted.
func PrunePending(onlookerDir string, now time.Time) int {
	dir := filepath.Join(onlookerDir, PendingDirName)
	store.SweepTemp(dir, time.Hour, now)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range entries {
		path := filepath.Join(dir, e.Name())
		if strings.HasPrefix(e.Name(), ".") || !strings.HasSuffix(e.Name(), ".json") {
			// A claim prompt-submit did not finish removing.
			if fi, err := e.Info(); err == nil && strings.HasSuffix(e.Name(), ".shown") && now.Sub(fi.ModTime()) > time.Hour && os.Remove(path) == nil {
				n++
			}
			continue
		}
		if prunable(onlookerDir, path, now) && removeUnchanged(path, onlookerDir, now) {
			n++
		}
	}
	return n
}

// prunable reports whether the pending entry at path can never be shown.
func prunable(onlookerDir, path string, now time.Time) bool {
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return err == nil // a directory or link is no pending file; vanished is nothing to do
	}
	if now.Sub(fi.ModTime()) > PendingExpiry {
		return true
	}
	data, ok := store.ReadOptional(path, MaxPending, func(string) {})
	if !ok {
		return false
	}
	p, err := DecodePending(onlookerDir, data)
	if err != nil {
		// Left for its session's prompt, which reports it, or for expiry.
		return false
	}
	if p.Paused != nil {
		// A pause notice is of its day only.
		return p.Paused.Day != Today(now)
	}
	a, err := ReadStopFile(p.StopFile)
	if err != nil || a.TaskID != p.TaskID {
		return true
	}
	_, shown := ReadMark(p.ProjectDir, a)
	return shown
}

// removeUnchanged deletes the entry at path unless a judge replaced it
// after prunable looked: it is renamed away first (the claim prompt-submit
// uses too), looked at again, and put back when it no longer qualifies.
func removeUnchanged(path, onlookerDir string, now time.Time) bool {
	held := path + "." + strconv.Itoa(os.Getpid()) + ".prune"
	if os.Rename(path, held) != nil {
		return false
	}
	if prunable(onlookerDir, held, now) {
		return os.Remove(held) == nil
	}
	// A newer verdict arrived in between: restore it, unless an even
	// newer one is already in place.
	if os.Link(held, path) != nil {
		os.Remove(held)
		return false
	}
	os.Remove(held)
	return false
}

// DecodePending decodes a pending file and checks where it points
// (checkPending).
func DecodePending(onlookerDir string, data []byte) (Pending, error) {
	var p Pending
	if err := json.Unmarshal(data, &p); err != nil {
		return Pending{}, err
	}
	if err := checkPending(onlookerDir, p); err != nil {
		return Pending{}, err
	}
	return p, nil
}

// checkPending refuses a pending file that points outside the Onlooker
// directory's project tree: it names files the hook will read and mark.
func checkPending(onlookerDir string, p Pending) error {
	root := filepath.Join(onlookerDir, "tribunal") + string(filepath.Separator)
	proj := filepath.Clean(p.ProjectDir)
	if !strings.HasPrefix(proj+string(filepath.Separator), root) || filepath.Dir(proj) != filepath.Clean(root) {
		return fmt.Errorf("project directory %q is not under %q", p.ProjectDir, root)
	}
	if p.Paused != nil {
		return nil
	}
	if filepath.Dir(filepath.Clean(p.StopFile)) != proj || !IsStopFileName(filepath.Base(p.StopFile)) {
		return fmt.Errorf("stop file %q is not in %q", p.StopFile, proj)
	}
	if !ValidID(p.TaskID) {
		return errors.New("task id is not a ULID")
	}
	return nil
}
