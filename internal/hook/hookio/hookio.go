// Package hookio reads what Claude Code hands a hook: the JSON on stdin,
// the recursion-guard marker and the transcript tail.
package hookio

import (
	"errors"
	"io"
	"os"

	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// MaxInput caps how much hook stdin is read. A Stop input carries the last
// assistant message, which can be long, but never this long; a larger input
// is treated as malformed rather than buffered without bound.
const MaxInput = 16 << 20

// Input is the subset of a hook's stdin that tribunal uses. Missing or
// mistyped fields are empty; malformed input leaves every field empty.
type Input struct {
	SessionID            string
	TranscriptPath       string
	Cwd                  string
	HookEventName        string
	Source               string // SessionStart: startup, resume, clear, compact
	LastAssistantMessage string
	StopHookActive       bool
	// Malformed is set when stdin was not one JSON object (or was too large
	// or too deeply nested).
	Malformed bool
}

// Nested reports whether the process runs inside a child that tribunal
// started; every hook must check it before reading stdin.
func Nested(getenv func(string) string) bool {
	return getenv(childenv.GuardEnv) != ""
}

// Read parses hook stdin. It never fails: the spec treats bad input as
// empty input, and a hook must exit cleanly either way.
func Read(r io.Reader) Input {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	// gjson validates recursively: the depth check comes first.
	if err != nil || len(data) > MaxInput || nesting.JSON(data) != nil || !gjson.ValidBytes(data) {
		return Input{Malformed: true}
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return Input{Malformed: true}
	}
	f := gjson.GetManyBytes(data, "session_id", "transcript_path", "cwd",
		"hook_event_name", "source", "last_assistant_message", "stop_hook_active")
	str := func(v gjson.Result) string {
		if v.Type == gjson.String {
			return v.String()
		}
		return ""
	}
	return Input{
		SessionID:            str(f[0]),
		TranscriptPath:       str(f[1]),
		Cwd:                  str(f[2]),
		HookEventName:        str(f[3]),
		Source:               str(f[4]),
		LastAssistantMessage: str(f[5]),
		StopHookActive:       f[6].Type == gjson.True,
	}
}

// ErrNotRegular means the transcript path names something other than a
// regular file (a directory, a FIFO that would block the read, a device).
var ErrNotRegular = store.ErrNotRegular

// Tail returns at most the last n bytes of the regular file at path, read
// by seeking so that a transcript of hundreds of megabytes costs the same
// as a small one. A leading partial UTF-8 sequence is dropped. A negative n
// counts as 0.
func Tail(path string, n int64) ([]byte, error) {
	f, err := store.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	off := fi.Size() - max(n, 0)
	if off < 0 {
		off = 0
	}
	buf := make([]byte, fi.Size()-off)
	k, err := f.ReadAt(buf, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	buf = buf[:k]
	if off > 0 {
		buf = safetext.TrimPartialStart(buf)
	}
	return buf, nil
}

// IsRegularFile reports whether path names an existing regular file,
// following symlinks (a transcript may be reached through one).
func IsRegularFile(path string) bool {
	if path == "" {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
