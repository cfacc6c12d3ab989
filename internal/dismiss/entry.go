package dismiss

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

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

// ParseShared reads the shared file's text: one fingerprint per line,
// first on the line, the rest of the line its reason; blank lines and
// lines starting with # are ignored, except the comments
// `tribunal-session dismiss --shared` writes just above a line: "# by WHO
// at WHEN" says who dismissed it and when, "# on FILE:LINE TOPIC: MESSAGE"
// what the finding was (what a judge is told).
func ParseShared(text string) []Entry {
	var out []Entry
	var cur Entry
	for _, l := range strings.Split(text, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 {
			cur = Entry{}
			continue
		}
		if strings.HasPrefix(f[0], "#") {
			parseComment(&cur, f)
			continue
		}
		cur.Fingerprint, cur.Scope, cur.Reason = f[0], Shared, strings.Join(f[1:], " ")
		out = append(out, cur)
		cur = Entry{}
	}
	return out
}

// parseComment reads the "# by" and "# on" comments into e.
func parseComment(e *Entry, f []string) {
	switch {
	case len(f) >= 5 && f[0] == "#" && f[1] == "by" && f[len(f)-2] == "at":
		e.By, e.At = strings.Join(f[2:len(f)-2], " "), f[len(f)-1]
	case len(f) >= 4 && f[0] == "#" && f[1] == "on":
		loc := f[2]
		if i := strings.LastIndexByte(loc, ':'); i > 0 {
			if n, err := strconv.Atoi(loc[i+1:]); err == nil {
				loc, e.Line = loc[:i], n
			}
		}
		if loc != "-" {
			e.File = loc
		}
		if e.Topic = strings.TrimSuffix(f[3], ":"); e.Topic == "-" {
			e.Topic = ""
		}
		e.Message = strings.Join(f[4:], " ")
	}
}

// SharedLines is e as the shared file keeps it: the who-and-when and the
// what comments, and the fingerprint with its reason on one line.
func SharedLines(e Entry) string {
	loc := e.File
	if loc == "" {
		loc = "-"
	} else if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	return "# by " + strings.Join(strings.Fields(e.By), " ") + " at " + e.At + "\n" +
		"# on " + strings.Join(strings.Fields(loc), "_") + " " + firstWord(e.Topic) + ": " + strings.Join(strings.Fields(e.Message), " ") + "\n" +
		e.Fingerprint + " " + strings.Join(strings.Fields(e.Reason), " ") + "\n"
}

// firstWord is s's first word, "-" when it has none.
func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return "-"
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
			for n := len(keep); n > 0 && (strings.HasPrefix(strings.TrimSpace(keep[n-1]), "# by ") || strings.HasPrefix(strings.TrimSpace(keep[n-1]), "# on ")); n-- {
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

// lockWait bounds the wait for another command changing the same list.
const lockWait = 5 * time.Second

// UpdatePersonal changes the personal list at path under its lock, so
// that two commands at once do not lose one's change: change gets the
// list as read and returns the list to write, or an error that leaves it
// as it was (errUnchanged: nothing to write, no error).
func UpdatePersonal(path string, change func([]Entry) ([]Entry, error)) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("write the dismissals: %w", err)
	}
	unlock, err := store.LockFile(path+".lock", true, lockWait)
	if err != nil {
		return fmt.Errorf("write the dismissals: %w", err)
	}
	defer unlock()
	es, err := ReadPersonal(path)
	if err != nil {
		return err
	}
	out, err := change(es)
	if errors.Is(err, ErrUnchanged) {
		return nil
	}
	if err != nil {
		return err
	}
	return WritePersonal(path, out)
}

// ErrUnchanged tells UpdatePersonal that there is nothing to write.
var ErrUnchanged = errors.New("unchanged")
