package dismiss

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// The scopes of a dismissal: the person's own list in the store, the
// repository's committed file, a comment in the code.
const (
	Personal = "personal"
	Shared   = "shared"
	InCode   = "inline"
)

// SharedFile is where a repository keeps the dismissals its people share,
// relative to its root: committed with the code, it travels with the
// branch and needs no service. Like every repository setting it can only
// suppress: a line names a finding not to raise again, nothing more.
const SharedFile = ".tribunal/dismissed"

// maxFile bounds a dismissal file (shared or personal).
const maxFile = 4 << 20

// Entry is one dismissal: the finding's fingerprint and what was known of
// it when it was dismissed, the person's reason, who and when.
type Entry struct {
	Fingerprint string `json:"fingerprint"`
	Scope       string `json:"scope"`
	// Source is the task or advisory verdict the finding came from.
	Source   string `json:"source,omitempty"`
	Index    int    `json:"index,omitempty"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Topic    string `json:"topic,omitempty"`
	Severity string `json:"severity,omitempty"`
	Message  string `json:"message,omitempty"`
	Reason   string `json:"reason"`
	By       string `json:"by,omitempty"`
	At       string `json:"at,omitempty"`
}

// personalFile is the personal list's JSON form.
type personalFile struct {
	Dismissals []Entry `json:"dismissals"`
}

// ReadPersonal reads the personal list at path; a missing file is empty.
func ReadPersonal(path string) ([]Entry, error) {
	data, err := store.ReadRegular(path, maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err == nil {
		err = nesting.JSON(data)
	}
	var pf personalFile
	if err == nil {
		err = json.Unmarshal(data, &pf)
	}
	if err != nil {
		return nil, fmt.Errorf("read the dismissals %s: %w", path, err)
	}
	for i := range pf.Dismissals {
		pf.Dismissals[i].Scope = Personal
	}
	return pf.Dismissals, nil
}

// WritePersonal replaces the personal list at path, atomically.
func WritePersonal(path string, es []Entry) error {
	if es == nil {
		es = []Entry{}
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("write the dismissals: %w", err)
	}
	if err := store.WriteJSON(path, personalFile{Dismissals: es}); err != nil {
		return fmt.Errorf("write the dismissals: %w", err)
	}
	return nil
}

// ReadShared reads a repository's shared file; a missing file dismisses
// nothing.
func ReadShared(path string) ([]Entry, error) {
	data, err := store.ReadRegular(path, maxFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the dismissed findings %s: %w", path, err)
	}
	return ParseShared(string(data)), nil
}

// ParseShared reads the shared file's text: one fingerprint per line,
// first on the line, the rest of the line its reason; blank lines and
// lines starting with # are ignored, except that a comment of the form
// "# by WHO at WHEN" just above a line says who dismissed it and when
// (what `tribunal-session dismiss --shared` writes).
func ParseShared(text string) []Entry {
	var out []Entry
	var by, at string
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			by, at = "", ""
			continue
		}
		if strings.HasPrefix(f[0], "#") {
			if len(f) >= 5 && f[0] == "#" && f[1] == "by" && f[len(f)-2] == "at" {
				by, at = strings.Join(f[2:len(f)-2], " "), f[len(f)-1]
			}
			continue
		}
		out = append(out, Entry{Fingerprint: f[0], Scope: Shared, Reason: strings.Join(f[1:], " "), By: by, At: at})
		by, at = "", ""
	}
	return out
}

// SharedLines is e as the shared file keeps it: the who-and-when comment
// and the fingerprint with its reason on one line.
func SharedLines(e Entry) string {
	return "# by " + strings.Join(strings.Fields(e.By), " ") + " at " + e.At + "\n" +
		e.Fingerprint + " " + strings.Join(strings.Fields(e.Reason), " ") + "\n"
}

// RemoveShared is the shared file's text without the lines of
// fingerprint fp (and their who-and-when comments); removed says whether
// there were any.
func RemoveShared(text, fp string) (out string, removed bool) {
	lines := strings.Split(text, "\n")
	keep := make([]string, 0, len(lines))
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) > 0 && f[0] == fp {
			removed = true
			if n := len(keep); n > 0 && strings.HasPrefix(strings.TrimSpace(keep[n-1]), "# by ") {
				keep = keep[:n-1]
			}
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "\n"), removed
}

// Without is es without the entries of fingerprint fp.
func Without(es []Entry, fp string) []Entry {
	return slices.DeleteFunc(slices.Clone(es), func(e Entry) bool { return e.Fingerprint == fp })
}

// sortEntries orders entries by file, line and fingerprint, so that what
// a judge is told and what `dismissals` lists do not depend on map order.
func sortEntries(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return strings.Compare(a.Fingerprint, b.Fingerprint)
	})
}
