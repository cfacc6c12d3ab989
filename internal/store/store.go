// Package store owns where tribunal's project directories are
// ($ONLOOKER_DIR/tribunal/<key>/) and writes and opens their files safely
// (the names and types inside are internal/store/records').
package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/redact"
)

// Project is one project's directory, $ONLOOKER_DIR/tribunal/<key>.
type Project struct {
	Dir string
}

// ForKey returns the project directory for key under onlookerDir.
func ForKey(onlookerDir, key string) Project {
	return Project{Dir: filepath.Join(onlookerDir, "tribunal", key)}
}

// OriginCacheDir holds the hooks' cache of each work tree's origin URL
// (internal/git/projectkey.OriginCache), $ONLOOKER_DIR/tribunal-cache/origin:
// beside the project directories, since the key it helps derive names them.
func OriginCacheDir(onlookerDir string) string {
	return filepath.Join(onlookerDir, "tribunal-cache", "origin")
}

// SettingsNoticeDir holds the SessionStart hook's markers of settings
// whose problems it has told the user about, one empty file per digest of
// the settings files (internal/hook/surface): beside the origin cache.
func SettingsNoticeDir(onlookerDir string) string {
	return filepath.Join(onlookerDir, "tribunal-cache", "settings-noticed")
}

// TaskDir is the artifact directory of one /tribunal task.
func (p Project) TaskDir(taskID string) string { return filepath.Join(p.Dir, taskID) }

// WorktreesDir holds the task worktrees of isolated /tribunal runs and
// their records (internal/git/worktree).
func (p Project) WorktreesDir() string { return filepath.Join(p.Dir, "worktrees") }

// maxSIDName bounds the sanitised id inside a file name: names are limited
// to 255 bytes on common filesystems, and a hostile or buggy caller could
// hand us a session id of any length.
const maxSIDName = 128

// SanitizeSessionID maps a session id to a safe file-name component, one
// name per id (spec §8.8). An id of 1 to 128 bytes of [A-Za-z0-9-] — every
// Claude Code session id, a UUID — is its own name, as it always was. Any
// other id has every byte outside that set replaced by "_" (so "../x"
// cannot leave the directory and a multi-byte character becomes several
// "_"), is cut to 111 bytes, and gets "_" and 16 hex digits of the SHA-256
// of the raw id: "a/b", "a_b" and "a\x00b" get three names, and no such
// name equals an untouched id, which never holds "_". An empty id becomes
// "unknown", the session id the events give it (spec §10.1).
func SanitizeSessionID(sid string) string {
	if sid == "" {
		return "unknown"
	}
	b := []byte(sid)
	out := make([]byte, len(b))
	changed := len(b) > maxSIDName
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '-':
			out[i] = c
		default:
			out[i] = '_'
			changed = true
		}
	}
	if !changed {
		return string(out)
	}
	sum := sha256.Sum256(b)
	out = append(out[:min(len(out), maxSIDName-17):min(len(out), maxSIDName-17)], '_')
	return string(append(out, hex.EncodeToString(sum[:8])...))
}

// WriteFileAtomic replaces path with data so that a reader, or a crash at
// any moment, sees either the old file or the new one, never a partial one:
// write a temporary file in the same directory, fsync it, rename it over
// path, then fsync the directory so the rename itself survives a crash.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temporary file in %q: %w", dir, err)
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			tmp.Close()
			os.Remove(name)
		}
	}()
	if err := tmp.Chmod(perm); err != nil {
		return fmt.Errorf("chmod %q: %w", name, err)
	}
	if _, err := tmp.Write(data); err != nil {
		return fmt.Errorf("write %q: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("sync %q: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("close %q: %w", path, err)
	}
	if err := os.Rename(name, path); err != nil {
		return fmt.Errorf("rename into %q: %w", path, err)
	}
	ok = true
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Marshal renders v as indented JSON with a trailing newline, without HTML
// escaping so that <, > and & stay readable in feedback text.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteJSON creates path's directory (0700) and atomically writes v as
// indented JSON with mode 0600: verdicts and transcripts excerpts are the
// user's private data.
func WriteJSON(path string, v any) error { return WriteJSONRedacted(path, v, nil) }

// WriteJSONRedacted is WriteJSON with red's secrets replaced in every
// string of the record: the one way a record that quotes a provider's
// answer or error (a stop file, a call record, a verdict) is written.
func WriteJSONRedacted(path string, v any, red *redact.Redactor) error {
	data, err := Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %q: %w", path, err)
	}
	data = red.JSON(data)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("create directory for %q: %w", path, err)
	}
	return WriteFileAtomic(path, data, 0o600)
}

// SweepTemp removes the temporary files that interrupted atomic writes left
// in dir (".<name>.tmp-*", as WriteFileAtomic names them) once they are
// older than age: a killed writer cannot clean up after itself, and a live
// one finishes within seconds. It is best-effort and reports nothing.
func SweepTemp(dir string, age time.Duration, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, ".") || !strings.Contains(name, ".tmp-") {
			continue
		}
		if fi, err := e.Info(); err == nil && now.Sub(fi.ModTime()) > age {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// ReadOptional reads a small optional file (a settings layer, a rubric
// overlay): a missing file is silently absent; any other failure, or a file
// larger than max bytes, is reported through warn and the file is ignored,
// since a file that exists but cannot be used is a mistake worth hearing
// about; so is one that is not a regular file (see OpenRegular). ok is
// false whenever no data is returned.
func ReadOptional(path string, max int64, warn func(string)) (data []byte, ok bool) {
	if path == "" {
		return nil, false
	}
	data, err := ReadRegular(path, max)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false
	}
	if err != nil {
		warn(fmt.Sprintf("%s: %s; file ignored", path, describeErr(err)))
		return nil, false
	}
	return data, true
}

// describeErr drops the path an *fs.PathError repeats, for messages that
// already name the file.
func describeErr(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
