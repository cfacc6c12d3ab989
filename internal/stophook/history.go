package stophook

import (
	"os"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/events"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// attempt is one judge call of a session, kept in the session's verdicts
// directory (store.Project.VerdictsDir) as <task_id>.json and never
// overwritten: a verdict (accepted, rejected) or a judgement that produced
// none (failed, cancelled) with its reason. `tribunal-session log` lists
// each.
type attempt struct {
	TaskID      string          `json:"task_id"`
	SessionID   string          `json:"session_id"`
	Outcome     string          `json:"outcome"`
	Verdict     *events.Verdict `json:"verdict,omitempty"`
	Mode        string          `json:"mode"`
	Fingerprint string          `json:"fingerprint"`
	WrittenAt   string          `json:"written_at"`
	CostUSD     *float64        `json:"cost_usd,omitempty"`
	DurationMS  *int            `json:"duration_ms,omitempty"`
	Error       string          `json:"error,omitempty"`
	// Rewake is set when fix mode handed the verdict back to the model.
	Rewake bool `json:"rewake,omitempty"`
}

// history writes a as a new file of the session's verdicts directory.
func (r *recorder) history(a attempt) error {
	a.SessionID, a.Mode = r.j.SessionID, Mode
	a.WrittenAt = r.now().UTC().Format(time.RFC3339)
	dir := store.Project{Dir: r.j.ProjectDir}.VerdictsDir(r.j.SessionID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return store.WriteJSON(filepath.Join(dir, a.TaskID+".json"), a)
}
