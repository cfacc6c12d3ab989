package surface

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// maxStopFile caps how much of a stop file is read. A real one is a few
// kilobytes (the feedback summary is the only free text); anything larger is
// not something the Stop hook wrote.
const maxStopFile = 1 << 20

// Stop-file naming (spec §8.8): stop-<sanitised session id>.json.
const (
	stopPrefix = "stop-"
	stopSuffix = ".json"
)

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
}

// ShortSession is the first 8 characters of the sanitised session id: enough
// to tell sessions apart in a note, and a prefix `show` accepts.
func (a Advisory) ShortSession() string {
	id := strings.TrimPrefix(a.Name, stopPrefix)
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// SessionName is the sanitised session id from the file name.
func (a Advisory) SessionName() string { return strings.TrimPrefix(a.Name, stopPrefix) }

// stopFile mirrors the fields of stophook.File that the reader uses. It is
// declared here rather than imported so that the SessionStart binary does
// not link the Stop hook's judge machinery; a test holds the two together.
type stopFile struct {
	TaskID    *string `json:"task_id"`
	SessionID string  `json:"session_id"`
	Outcome   string  `json:"outcome"`
	Verdict   *struct {
		Score           json.RawMessage `json:"score"`
		Passed          bool            `json:"passed"`
		FeedbackSummary string          `json:"feedback_summary"`
		Confidence      *float64        `json:"confidence"`
		JudgeType       string          `json:"judge_type"`
		JudgeModelID    string          `json:"judge_model_id"`
	} `json:"verdict"`
	Fingerprint string   `json:"fingerprint"`
	WrittenAt   string   `json:"written_at"`
	CostUSD     *float64 `json:"cost_usd"`
}

// IsStopFileName reports whether a directory entry name is a stop file's.
func IsStopFileName(name string) bool {
	return len(name) > len(stopPrefix)+len(stopSuffix) &&
		strings.HasPrefix(name, stopPrefix) && strings.HasSuffix(name, stopSuffix) &&
		!strings.HasPrefix(name, ".")
}

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
	a := Advisory{Path: path, Name: strings.TrimSuffix(filepath.Base(path), stopSuffix)}
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

func (a *Advisory) parse(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return errors.New("the file is empty")
	}
	if trimmed[0] != '{' {
		return errors.New("not a JSON object")
	}
	if err := nesting.JSON(trimmed); err != nil {
		return err
	}
	var sf stopFile
	if err := json.Unmarshal(trimmed, &sf); err != nil {
		return fmt.Errorf("cannot decode it: %w", err)
	}
	if sf.TaskID == nil {
		return errors.New("task_id is missing")
	}
	if !ValidTaskID(*sf.TaskID) {
		return fmt.Errorf("task_id %q is not a ULID", *sf.TaskID)
	}
	if sf.Outcome != "accepted" && sf.Outcome != "rejected" {
		return fmt.Errorf("outcome %q is neither accepted nor rejected", sf.Outcome)
	}
	if sf.Verdict == nil {
		return errors.New("verdict is missing")
	}
	score, err := unitNumber(sf.Verdict.Score)
	if err != nil {
		return fmt.Errorf("verdict.score %s is not a number in [0,1]", excerpt(sf.Verdict.Score))
	}
	a.TaskID = *sf.TaskID
	a.SessionID = sf.SessionID
	a.Outcome = sf.Outcome
	a.Score = score
	a.Passed = sf.Verdict.Passed
	a.Feedback = sf.Verdict.FeedbackSummary
	a.Confidence = sf.Verdict.Confidence
	a.JudgeType = sf.Verdict.JudgeType
	a.Model = sf.Verdict.JudgeModelID
	a.Fingerprint = sf.Fingerprint
	a.CostUSD = sf.CostUSD
	if t, err := time.Parse(time.RFC3339, sf.WrittenAt); err == nil {
		a.WrittenAt = t
	} else {
		a.WrittenAt, a.TimeFromMtime = a.ModTime, true
	}
	return nil
}

// unitNumber reads a JSON number in [0,1]. null, strings and absent values
// are errors: json.Unmarshal would quietly leave a null as 0.
func unitNumber(raw json.RawMessage) (float64, error) {
	b := bytes.TrimSpace(raw)
	if len(b) == 0 || (b[0] != '-' && (b[0] < '0' || b[0] > '9')) {
		return 0, errors.New("not a number")
	}
	var f float64
	if err := json.Unmarshal(b, &f); err != nil || math.IsNaN(f) || f < 0 || f > 1 {
		return 0, errors.New("out of range")
	}
	return f, nil
}

func excerpt(raw json.RawMessage) string {
	s := string(bytes.TrimSpace(raw))
	if s == "" {
		return "(missing)"
	}
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}

// ValidTaskID reports whether id is a canonical ULID: 26 Crockford base-32
// characters whose first is at most '7'. Task ids become file names
// (markers, task directories), so nothing else may pass.
func ValidTaskID(id string) bool {
	if len(id) != 26 || id[0] > '7' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= '0' && c <= '9':
		case c >= 'A' && c <= 'Z' && c != 'I' && c != 'L' && c != 'O' && c != 'U':
		default:
			return false
		}
	}
	return true
}
