package dismiss

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// Sources are the files a Set reads: the repository's shared file (in the
// state being judged) and the person's list in the store; "" skips one.
type Sources struct {
	Shared   string
	Personal string
}

// Set is every dismissal in effect for one judgement: the files' entries
// by fingerprint, and the inline ones read from the code as findings
// point at it.
type Set struct {
	byFP  map[string]Entry
	lines map[string][]string
	// Problems are the invalid inline dismissals met while matching,
	// each once, for the caller to show as warnings.
	Problems []string
	seen     map[string]bool
	// Added are the lines the judged change adds, by file (AddedLines):
	// an inline dismissal on one of them is the change dismissing its
	// own finding, and is ignored, with a problem saying so. nil trusts
	// every marker (the user's own tree).
	Added map[string]map[int]bool
}

// Load reads the sources into a Set. A source that cannot be read is an
// error naming it, and the Set still holds what the others gave.
func Load(src Sources) (*Set, error) {
	s := New()
	var errs []error
	for _, read := range []struct {
		path string
		fn   func(string) ([]Entry, error)
	}{{src.Shared, ReadShared}, {src.Personal, ReadPersonal}} {
		if read.path == "" {
			continue
		}
		es, err := read.fn(read.path)
		errs = append(errs, err)
		s.Add(es...)
	}
	return s, errors.Join(errs...)
}

// New is an empty Set.
func New() *Set {
	return &Set{byFP: map[string]Entry{}, lines: map[string][]string{}, seen: map[string]bool{}}
}

// Add puts entries in the set; the first entry of a fingerprint wins (the
// shared file's over the personal list's).
func (s *Set) Add(es ...Entry) {
	for _, e := range es {
		if _, ok := s.byFP[e.Fingerprint]; !ok && e.Fingerprint != "" {
			s.byFP[e.Fingerprint] = e
		}
	}
}

// Entries are the set's file entries (not the inline ones).
func (s *Set) Entries() []Entry {
	out := make([]Entry, 0, len(s.byFP))
	for _, e := range s.byFP {
		out = append(out, e)
	}
	return out
}

// Len is the number of file entries.
func (s *Set) Len() int { return len(s.byFP) }

// Match says whether f, judged in the tree at dir, is dismissed: by a
// file entry of its fingerprint, else by an inline dismissal above its
// cited line. fp is f's fingerprint either way.
func (s *Set) Match(dir string, f severity.Finding) (e Entry, fp string, ok bool) {
	lines, read := s.lines[f.File]
	if !read {
		lines = Lines(dir, f.File)
		s.lines[f.File] = lines
	}
	fp = Fingerprint(f, ContextOf(lines, f.Line))
	if e, ok := s.byFP[fp]; ok {
		return e, fp, true
	}
	in, problems := s.inlineAt(f.File, lines, f)
	for _, p := range problems {
		if !s.seen[p] {
			s.seen[p] = true
			s.Problems = append(s.Problems, p)
		}
	}
	if in != nil {
		return Entry{Fingerprint: fp, Scope: InCode, File: in.File, Line: in.Line, Topic: in.Topic, Reason: in.Reason}, fp, true
	}
	return Entry{}, fp, false
}

// Hit is one finding a dismissal suppressed.
type Hit struct {
	Fingerprint string
	Finding     severity.Finding
	Entry       Entry
}

// Filter splits findings judged in the tree at dir into those still
// raised (with their fingerprints, in order) and those dismissed.
func (s *Set) Filter(dir string, fs []severity.Finding) (kept []severity.Finding, fps []string, hits []Hit) {
	for _, f := range fs {
		e, fp, ok := s.Match(dir, f)
		if ok {
			hits = append(hits, Hit{Fingerprint: fp, Finding: f, Entry: e})
			continue
		}
		kept = append(kept, f)
		fps = append(fps, fp)
	}
	return kept, fps, hits
}

// Relevant are the file entries a judge of a change to files should be
// told of: those on one of the files, then those on no file, at most max.
func (s *Set) Relevant(files []string, max int) []Entry {
	on := map[string]bool{}
	for _, f := range files {
		on[f] = f != ""
	}
	var out, fileless []Entry
	for _, e := range s.byFP {
		switch {
		case e.File == "" && e.Message != "":
			fileless = append(fileless, e)
		case on[e.File]:
			out = append(out, e)
		}
	}
	sortEntries(out)
	sortEntries(fileless)
	out = append(out, fileless...)
	if len(out) > max {
		out = out[:max]
	}
	return out
}

// Suppression is one line of the suppression log: a finding a dismissal
// kept from being raised, where and when.
type Suppression struct {
	Fingerprint string `json:"fingerprint"`
	At          string `json:"at"`
	// Where is "review", "run" or "stop"; ID the task or verdict.
	Where string `json:"where"`
	ID    string `json:"id,omitempty"`
	// Inline is "file:line" of the inline dismissal that suppressed it.
	Inline string `json:"inline,omitempty"`
}

// SuppressionOf is the log line of a hit.
func SuppressionOf(h Hit, at, where, id string) Suppression {
	s := Suppression{Fingerprint: h.Fingerprint, At: at, Where: where, ID: id}
	if h.Entry.Scope == InCode {
		s.Inline = h.Entry.File + ":" + strconv.Itoa(h.Entry.Line)
	}
	return s
}

// LogSuppressions appends one line per suppression to the log at path.
// Each line is one write of an O_APPEND file, so concurrent writers do
// not interleave within a line.
func LogSuppressions(path string, ss []Suppression) error {
	if len(ss) == 0 {
		return nil
	}
	f, err := store.OpenInPlace(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("record the suppressed findings: %w", err)
	}
	defer f.Close()
	for _, s := range ss {
		line, _ := json.Marshal(s)
		if _, err := f.Write(append(line, '\n')); err != nil {
			return fmt.Errorf("record the suppressed findings: %w", err)
		}
	}
	return nil
}

// maxLog bounds the suppression log read back.
const maxLog = 32 << 20

// CountSuppressions reads the log at path: how many findings each
// dismissal has suppressed, and the last time, keyed by the fingerprint
// (by "file:line" for an inline dismissal). A missing log is empty;
// unreadable lines are skipped.
func CountSuppressions(path string) (count map[string]int, last map[string]string, err error) {
	count, last = map[string]int{}, map[string]string{}
	data, err := store.ReadRegular(path, maxLog)
	if errors.Is(err, fs.ErrNotExist) {
		return count, last, nil
	}
	if err != nil {
		return count, last, fmt.Errorf("read the suppressed findings: %w", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		var s Suppression
		if json.Unmarshal([]byte(l), &s) != nil || s.Fingerprint == "" {
			continue
		}
		key := s.Fingerprint
		if s.Inline != "" {
			key = s.Inline
		}
		count[key]++
		if s.At > last[key] {
			last[key] = s.At
		}
	}
	return count, last, nil
}

// Has says whether a file entry dismisses fingerprint fp.
func (s *Set) Has(fp string) bool {
	_, ok := s.byFP[fp]
	return ok
}

// Mentioned are the file entries a judge shown material (a diff, a diff
// stat) should be told of — those on a file the material names — and the
// entries on no file, at most max (Relevant's order). A nil set has none.
func (s *Set) Mentioned(max int, material ...string) []Entry {
	if s == nil || len(s.byFP) == 0 {
		return nil
	}
	text := strings.Join(material, "\n")
	var files []string
	for _, e := range s.byFP {
		if e.File != "" && strings.Contains(text, e.File) {
			files = append(files, e.File)
		}
	}
	return s.Relevant(files, max)
}
