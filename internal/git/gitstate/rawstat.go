package gitstate

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// Limits past which a tracked file's body is kept out of the diff that
// git prints, so that a turn that rewrote a 300 MB data file costs the
// judge's prompt one line and the hook no memory: more changed lines than
// maxDiffLines, or a work-tree file larger than maxDiffFileBytes.
const (
	maxDiffLines     = 20000
	maxDiffFileBytes = 2 << 20
)

// rawEntry is one changed path as `git diff-index --raw --numstat -z`
// reports it.
type rawEntry struct {
	status         byte // A, C, D, M, R, T or U
	oldPath, path  string
	added, deleted int
	binary         bool // numstat printed "-" counts
}

// kind maps git's status letter to a unidiff.Kind.
func (e rawEntry) kind() unidiff.Kind {
	switch e.status {
	case 'A':
		return unidiff.Added
	case 'D':
		return unidiff.Deleted
	case 'R':
		return unidiff.Renamed
	case 'C':
		return unidiff.Copied
	}
	return unidiff.Modified
}

// parseRawNumstat reads `--raw --numstat -z` output: first one raw record
// per path (":modes oids status" then one path, or two for a rename or
// copy), then numstat records ("added TAB deleted TAB path", or with an
// empty path followed by the two paths of a rename or copy; "-" counts for
// a binary file).
func parseRawNumstat(out []byte) ([]rawEntry, error) {
	fields := bytes.Split(out, []byte{0})
	if n := len(fields); n > 0 && len(fields[n-1]) == 0 {
		fields = fields[:n-1]
	}
	next := func() (string, bool) {
		if len(fields) == 0 {
			return "", false
		}
		f := string(fields[0])
		fields = fields[1:]
		return f, true
	}
	var entries []rawEntry
	for len(fields) > 0 && len(fields[0]) > 0 && fields[0][0] == ':' {
		rec, _ := next()
		parts := strings.Fields(rec)
		if len(parts) != 5 || parts[4] == "" {
			return nil, fmt.Errorf("%w: raw record %q", errMalformedDiff, rec)
		}
		e := rawEntry{status: parts[4][0]}
		p, ok := next()
		if !ok {
			return nil, fmt.Errorf("%w: raw record %q lacks its path", errMalformedDiff, rec)
		}
		e.path = p
		if e.status == 'R' || e.status == 'C' {
			if e.path, ok = next(); !ok {
				return nil, fmt.Errorf("%w: raw record %q lacks its new path", errMalformedDiff, rec)
			}
			e.oldPath = p
		}
		entries = append(entries, e)
	}
	// numstat compares content, so a path whose stat data alone changed
	// (listed by --raw with an unknown work-tree id) has no numstat record
	// and is dropped; records are matched to paths by name.
	type counts struct {
		added, deleted int
		binary         bool
	}
	stats := map[string]counts{}
	for len(fields) > 0 {
		rec, _ := next()
		parts := strings.SplitN(rec, "\t", 3)
		if len(parts) != 3 {
			return nil, fmt.Errorf("%w: numstat record %q", errMalformedDiff, rec)
		}
		p := parts[2]
		if p == "" {
			// A rename or copy: old and new path follow as fields.
			_, ok1 := next()
			newPath, ok2 := next()
			if !ok1 || !ok2 {
				return nil, fmt.Errorf("%w: numstat record %q lacks its paths", errMalformedDiff, rec)
			}
			p = newPath
		}
		if parts[0] == "-" && parts[1] == "-" {
			stats[p] = counts{binary: true}
			continue
		}
		a, errA := strconv.Atoi(parts[0])
		d, errD := strconv.Atoi(parts[1])
		if errA != nil || errD != nil {
			return nil, fmt.Errorf("%w: numstat record %q", errMalformedDiff, rec)
		}
		stats[p] = counts{added: a, deleted: d}
	}
	kept := entries[:0]
	for _, e := range entries {
		c, ok := stats[e.path]
		if !ok {
			continue
		}
		e.added, e.deleted, e.binary = c.added, c.deleted, c.binary
		kept = append(kept, e)
	}
	return kept, nil
}

// errMalformedDiff marks diff output this parser does not understand.
var errMalformedDiff = errors.New("malformed git diff output")

// literalExclude is a pathspec that leaves exactly path out, whatever
// glob or magic characters it contains.
func literalExclude(path string) string {
	return ":(exclude,literal)" + path
}
