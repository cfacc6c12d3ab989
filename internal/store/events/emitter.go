// Package events writes tribunal.* events to the shared Onlooker JSONL log:
// the spec §10 envelope, ULID/UUIDv4 ids, the machine id, the locked sequence
// counter and the typed payloads.
package events

import (
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"time"

	"github.com/tribunal-cc/tribunal/internal/redact"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// Envelope constants fixed by spec §10.
const (
	schemaVersion = "1.0"
	runtimeName   = "claude-code"
	pluginName    = "tribunal"
	// timestampLayout always prints three fractional digits and a literal Z,
	// which time.RFC3339Nano does not (it trims trailing zeros).
	timestampLayout = "2006-01-02T15:04:05.000Z"
)

// Emitter appends events to the Onlooker log. Its zero value is unusable:
// Dir and LogPath must be set (see ResolvePaths). An Emitter holds no mutable
// state, so one value may be used from several goroutines.
type Emitter struct {
	// Dir is the resolved $ONLOOKER_DIR; it holds machine_id, the
	// event-sequence counter and its lock file.
	Dir string
	// LogPath is the resolved events log.
	LogPath string
	// SessionID goes into every envelope; empty becomes "unknown".
	SessionID string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Rand is the entropy for event and machine ids; nil means
	// crypto/rand.Reader. It must be safe for concurrent use if the Emitter
	// is shared between goroutines.
	Rand io.Reader
	// Deadline, when set, bounds every wait of Emit: a hook draws its lock
	// waits from its one time budget (ErrOutOfTime once it is spent).
	Deadline time.Time
	// Redact, when set, scrubs the configured secrets from every payload
	// (an error text or feedback that quotes an API key).
	Redact *redact.Redactor

	// lockWait bounds how long Emit waits for the sequence lock; zero means
	// defaultLockWait. Tests shorten it.
	lockWait time.Duration
}

// defaultLockWait bounds the wait for the sequence lock. A holder needs
// well under a millisecond, but on a loaded machine (a CI run, several
// sessions' hooks firing together) hundreds of writers can queue; 10 s is
// still far inside the Stop hook's own deadline.
const defaultLockWait = 10 * time.Second

// ErrOutOfTime is returned by Emit when the Emitter's Deadline has passed.
var ErrOutOfTime = errors.New("out of time: the hook's budget is spent")

// ResolvePaths applies the spec §10 path rules: dir is $ONLOOKER_DIR, else
// home/.onlooker; logPath is $ONLOOKER_EVENTS_LOG, else
// dir/logs/onlooker-events.jsonl. Empty variables count as unset, as with the
// reference's ${VAR:-default}.
func ResolvePaths(getenv func(string) string, home string) (dir, logPath string) {
	dir = getenv("ONLOOKER_DIR")
	if dir == "" {
		dir = filepath.Join(home, ".onlooker")
		if home == "" {
			// Match the shell's "$HOME/.onlooker" instead of silently
			// writing relative to the working directory.
			dir = string(filepath.Separator) + ".onlooker"
		}
	}
	logPath = getenv("ONLOOKER_EVENTS_LOG")
	if logPath == "" {
		logPath = filepath.Join(dir, "logs", "onlooker-events.jsonl")
	}
	return dir, logPath
}

// Option sets an optional envelope field.
type Option func(*options)

type options struct {
	costUSD    *float64
	tokenCount *int
}

// WithCost sets the envelope's cost_usd.
func WithCost(usd float64) Option { return func(o *options) { o.costUSD = &usd } }

// WithTokens sets the envelope's token_count.
func WithTokens(n int) Option { return func(o *options) { o.tokenCount = &n } }

// envelope is the spec §10 line; field order here is the order on disk.
type envelope struct {
	ID            string          `json:"id"`
	SchemaVersion string          `json:"schema_version"`
	Runtime       string          `json:"runtime"`
	Plugin        string          `json:"plugin"`
	MachineID     string          `json:"machine_id"`
	Timestamp     string          `json:"timestamp"`
	SessionID     string          `json:"session_id"`
	Sequence      int64           `json:"sequence"`
	EventType     string          `json:"event_type"`
	Payload       json.RawMessage `json:"payload"`
	CostUSD       *float64        `json:"cost_usd,omitempty"`
	TokenCount    *int            `json:"token_count,omitempty"`
	Redacted      bool            `json:"redacted"`
}

// Emit validates p and appends one envelope line to the log. A payload that
// fails its schema is refused, not written (spec §B.11). Errors are returned so
// the caller can warn; Emit never panics on bad input.
func (e *Emitter) Emit(p Payload, opts ...Option) error {
	if e == nil {
		return errors.New("emit: nil emitter")
	}
	if p == nil || isNilPointer(p) {
		return errors.New("emit: nil payload")
	}
	eventType := p.EventType()
	if err := Validate(p); err != nil {
		return fmt.Errorf("emit: %w", err) // the error already names the type
	}
	if e.Dir == "" || e.LogPath == "" {
		return fmt.Errorf("emit %s: onlooker dir and log path must both be set", eventType)
	}
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	if c := o.costUSD; c != nil && !(*c >= 0 && !math.IsInf(*c, 1)) {
		return fmt.Errorf("emit %s: cost_usd %v must be a finite number >= 0", eventType, *c)
	}
	if n := o.tokenCount; n != nil && *n < 0 {
		return fmt.Errorf("emit %s: token_count %d must be >= 0", eventType, *n)
	}
	payload, err := marshalCompact(p)
	if err != nil {
		return fmt.Errorf("emit %s: encode payload: %w", eventType, err)
	}
	payload = e.Redact.JSON(payload)

	entropy := e.Rand
	if entropy == nil {
		entropy = rand.Reader
	}
	id, err := NewUUIDv4(entropy)
	if err != nil {
		return fmt.Errorf("emit %s: event id: %w", eventType, err)
	}
	machineID, err := loadMachineID(e.Dir, entropy, machineIDWait)
	if err != nil {
		return fmt.Errorf("emit %s: %w", eventType, err)
	}
	sessionID := e.SessionID
	if sessionID == "" {
		sessionID = "unknown"
	}
	env := envelope{
		ID:            id,
		SchemaVersion: schemaVersion,
		Runtime:       runtimeName,
		Plugin:        pluginName,
		MachineID:     machineID,
		SessionID:     sessionID,
		EventType:     eventType,
		Payload:       payload,
		CostUSD:       o.costUSD,
		TokenCount:    o.tokenCount,
	}
	if err := e.appendLocked(&env); err != nil {
		return fmt.Errorf("emit %s: %w", eventType, err)
	}
	return nil
}

// appendLocked assigns sequence and timestamp and appends the line while
// holding the sequence lock, so that among Go writers sequence order equals
// line order (spec §10, spec §A.6).
func (e *Emitter) appendLocked(env *envelope) error {
	if err := os.MkdirAll(filepath.Dir(e.LogPath), 0o700); err != nil {
		return fmt.Errorf("create log directory: %w", err)
	}
	// Read access is only for tornTail's look at the last byte; a log that
	// may be appended to but not read is still used, unchecked.
	// Never through a symbolic link (see store.OpenInPlace).
	log, err := store.OpenInPlace(e.LogPath, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
	if errors.Is(err, fs.ErrPermission) {
		log, err = store.OpenInPlace(e.LogPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	}
	if err != nil {
		return fmt.Errorf("open log: %w", err)
	}
	defer log.Close()

	wait := e.lockWait
	if wait <= 0 {
		wait = defaultLockWait
	}
	if !e.Deadline.IsZero() {
		left := time.Until(e.Deadline)
		if left <= 0 {
			return ErrOutOfTime
		}
		wait = min(wait, left)
	}
	unlock, err := lockSequence(e.Dir, wait)
	if err != nil {
		return err
	}
	defer unlock()

	seq, err := nextSequence(e.Dir)
	if err != nil {
		return err
	}
	now := time.Now
	if e.Now != nil {
		now = e.Now
	}
	env.Sequence = seq
	env.Timestamp = now().UTC().Format(timestampLayout)
	line, err := marshalCompact(env)
	if err != nil {
		return fmt.Errorf("encode envelope: %w", err)
	}
	line = append(line, '\n')
	if tornTail(log) {
		// A writer died mid-line (or a disk filled up under it). Ending
		// that fragment here keeps this line, and every later one, whole.
		line = append([]byte{'\n'}, line...)
	}
	// One write on an O_APPEND descriptor keeps the line whole even for
	// writers that do not take the lock.
	if _, err := log.Write(line); err != nil {
		return fmt.Errorf("append to log %q: %w", e.LogPath, err)
	}
	if err := log.Close(); err != nil {
		return fmt.Errorf("close log %q: %w", e.LogPath, err)
	}
	return nil
}

// tornTail reports whether the log's last byte is something other than a
// newline: the remains of an append that did not complete. A single write
// is not atomic against everything: Linux checks for a fatal signal
// between the pages of a write, and a full disk can accept part of one.
// Errors count as "not torn", so that a log that cannot be read back (a
// pipe, /dev/full) is appended to as before. A writer that does not take
// the lock, caught between the pages of its own append, also reads as torn;
// that rare case costs one empty line, where the alternative costs a line
// glued to a fragment.
func tornTail(log *os.File) bool {
	fi, err := log.Stat()
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return false
	}
	var last [1]byte
	_, err = log.ReadAt(last[:], fi.Size()-1)
	return err == nil && last[0] != '\n'
}

// isNilPointer catches a typed nil such as (*Verdict)(nil), whose value-
// receiver methods would otherwise panic.
func isNilPointer(p Payload) bool {
	v := reflect.ValueOf(p)
	return v.Kind() == reflect.Pointer && v.IsNil()
}
