package records

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// maxStopFile caps how much of a stop file is read. A real one is a few
// kilobytes (the feedback summary is the only free text); anything larger is
// not something the Stop hook wrote.
const maxStopFile = 1 << 20

// ErrCorrupt is wrapped by every ReadStopFile error about the file's content
// (as opposed to not being able to read it at all).
var ErrCorrupt = errors.New("not a valid advisory verdict")

// Advisory is one stop file as the reader understands it: the latest
// advisory verdict of one Claude Code session.
type Advisory struct {
	// Path is the stop file; Name is its base name without ".json", i.e.
	// "stop-" plus the sanitised session id. Name is what markers and
	// `tribunal-session show` use, because it is safe in a file name and
	// in a terminal, whatever the raw session id holds.
	Path string `json:"path"`
	Name string `json:"name"`
	// SessionID is the raw id recorded in the file ("" when the Stop hook
	// had none).
	SessionID string  `json:"session_id"`
	TaskID    string  `json:"task_id"`
	Outcome   string  `json:"outcome"` // "accepted" or "rejected"
	Score     float64 `json:"score"`
	Passed    bool    `json:"passed"`
	Feedback  string  `json:"feedback_summary,omitempty"`
	// Confidence and CostUSD are nil when the file does not carry them.
	Confidence *float64 `json:"confidence,omitempty"`
	CostUSD    *float64 `json:"cost_usd,omitempty"`
	JudgeType  string   `json:"judge_type,omitempty"`
	Model      string   `json:"judge_model_id,omitempty"`
	// Fingerprint is the change fingerprint the Stop hook stored (spec §A.16).
	Fingerprint string `json:"fingerprint,omitempty"`
	// WrittenAt is written_at, or the file's modification time when that
	// field is missing or unparseable (TimeFromMtime tells which).
	WrittenAt     time.Time `json:"written_at"`
	TimeFromMtime bool      `json:"written_at_from_mtime,omitempty"`
	// ModTime is the file's modification time: retention goes by it,
	// because it is what the filesystem says about the last write.
	ModTime time.Time `json:"modified_at"`
	// Error is why a judgement produced no verdict (Outcome failed or
	// cancelled; judgement records only).
	Error string `json:"error,omitempty"`
	// DurationMS is the judge call's time and Rewake is set when fix mode
	// handed the verdict back to the model (judgement records only).
	DurationMS *int `json:"duration_ms,omitempty"`
	Rewake     bool `json:"rewake,omitempty"`
	// LeftOut names the untracked files the judge's diff left out because
	// they look like secrets (judgement records only).
	LeftOut []string `json:"left_out,omitempty"`
}

// ShortSession is the first 8 characters of the sanitised session id: enough
// to tell sessions apart in a note, and a prefix `show` accepts.
func (a Advisory) ShortSession() string {
	id := strings.TrimPrefix(a.Name, StopPrefix)
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// SessionName is the sanitised session id from the file name.
func (a Advisory) SessionName() string { return strings.TrimPrefix(a.Name, StopPrefix) }

// ListStopFiles returns the paths of the regular stop files directly in
// projectDir, sorted by name. A missing directory is not an error: a project
// the Stop hook never judged has none.
func ListStopFiles(projectDir string) ([]string, error) {
	entries, err := os.ReadDir(projectDir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", projectDir, err)
	}
	var out []string
	for _, e := range entries {
		// The type comes from readdir and does not follow symlinks: a link
		// named like a stop file is not something the Stop hook wrote.
		if e.Type().IsRegular() && IsStopFileName(e.Name()) {
			out = append(out, filepath.Join(projectDir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// ReadStopFile reads and checks one stop file. Errors about the content
// wrap ErrCorrupt; the Advisory's Path, Name and ModTime are set whenever
// the file could be opened, so a caller can still apply age rules to a
// corrupt file.
func ReadStopFile(path string) (Advisory, error) {
	a := Advisory{Path: path, Name: strings.TrimSuffix(filepath.Base(path), JSONExt)}
	data, err := a.readBounded()
	if err != nil {
		return a, err
	}
	if err := a.parse(data); err != nil {
		return a, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return a, nil
}

// readBounded opens a.Path without blocking, requires a regular file, sets
// ModTime and returns at most maxStopFile bytes.
func (a *Advisory) readBounded() ([]byte, error) {
	f, err := store.OpenRegular(a.Path)
	if errors.Is(err, store.ErrNotRegular) {
		// Age rules still apply to it.
		if fi, serr := os.Stat(a.Path); serr == nil {
			a.ModTime = fi.ModTime()
		}
		return nil, fmt.Errorf("%w: not a regular file", ErrCorrupt)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	a.ModTime = fi.ModTime()
	data, err := io.ReadAll(io.LimitReader(f, maxStopFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxStopFile {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrCorrupt, maxStopFile)
	}
	return data, nil
}

// parse checks the stop file's content (DecodeStopFile) and takes
// what a reader shows from it.
func (a *Advisory) parse(data []byte) error {
	f, err := DecodeStopFile(data)
	if err != nil {
		return err
	}
	a.fill(f.TaskID, f.SessionID, f.Outcome, f.Fingerprint, f.WrittenAt, f.CostUSD, &f.Verdict)
	return nil
}

// fill sets the fields a stop file and a judgement record share; v is nil
// for a judgement that produced no verdict.
func (a *Advisory) fill(taskID, sessionID, outcome, fingerprint, writtenAt string, cost *float64, v *events.Verdict) {
	a.TaskID, a.SessionID, a.Outcome = taskID, sessionID, outcome
	a.Fingerprint, a.CostUSD = fingerprint, cost
	if v != nil {
		a.Score, a.Passed, a.Feedback = v.Score, v.Passed, v.FeedbackSummary
		a.Confidence, a.JudgeType, a.Model = v.Confidence, v.JudgeType, v.JudgeModelID
	}
	if t, err := time.Parse(time.RFC3339, writtenAt); err == nil {
		a.WrittenAt = t
	} else {
		a.WrittenAt, a.TimeFromMtime = a.ModTime, true
	}
}
