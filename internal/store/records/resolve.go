package records

import (
	"errors"
	"fmt"
	"strings"

	"github.com/oklog/ulid/v2"
)

// Last is the id every command that takes an id accepts for the newest
// record. It can never be a task id: ULIDs have no L.
const Last = "last"

// MinPrefix is the fewest characters of an id a command takes short of
// the whole id: a prefix or any other part of it. ULIDs made in the same
// second share their first ten characters, so the part people type is
// often the end (the random part), which log prints.
const MinPrefix = 4

// Errors of ResolveID, wrapped with the id as typed.
var (
	ErrUnknownID   = errors.New("unknown id")
	ErrAmbiguousID = errors.New("the id is ambiguous")
	ErrShortID     = fmt.Errorf("a part of an id needs at least %d characters", MinPrefix)
)

// maxCandidates is how many of an ambiguous id's matches an error names.
const maxCandidates = 5

// Match is how a typed id names a record's id, best last: a whole id
// beats a prefix, and a prefix beats any other part of the id.
type Match int

// The kinds of Match.
const (
	NoMatch Match = iota
	PartMatch
	PrefixMatch
	ExactMatch
)

// MatchName says how typed names name, both already in the form they are
// compared in (a task id and what was typed upper-cased: ULIDs are
// case-insensitive). A prefix or another part counts only from MinPrefix
// characters on.
func MatchName(name, typed string) Match {
	switch {
	case typed == "":
		return NoMatch
	case name == typed:
		return ExactMatch
	case len(typed) < MinPrefix:
		return NoMatch
	case strings.HasPrefix(name, typed):
		return PrefixMatch
	case strings.Contains(name, typed):
		return PartMatch
	}
	return NoMatch
}

// Best keeps the indexes of the names whose match is the best of all:
// the one exact match, else the prefix matches, else the other parts.
func Best(matches []Match) []int {
	best := NoMatch
	for _, m := range matches {
		best = max(best, m)
	}
	var out []int
	for i, m := range matches {
		if best != NoMatch && m == best {
			out = append(out, i)
		}
	}
	return out
}

// AmbiguousError is what an id that names several records is: each
// candidate described ("task 01J… (2026-05-24 10:00Z) add a flag"), so
// a person can tell which one they meant.
type AmbiguousError struct {
	Typed string
	// What names the records in the plural ("records", "kept tasks").
	What       string
	Candidates []string
}

// Error is the whole message on one line; Head is its first part, for a
// caller that lists the candidates one a line.
func (e *AmbiguousError) Error() string {
	return e.Head() + ": " + Candidates(e.Candidates)
}

// Head says what is ambiguous and how many records match.
func (e *AmbiguousError) Head() string {
	return fmt.Sprintf("%s: %q matches %d %s", ErrAmbiguousID, e.Typed, len(e.Candidates), e.What)
}

func (e *AmbiguousError) Unwrap() error { return ErrAmbiguousID }

// HintAmbiguous is what to do about an AmbiguousError.
const HintAmbiguous = "type more of the id: a part that only one record has, such as the last characters log prints"

// ResolveID finds the one of ids (canonical ULIDs, newest first) that typed
// names: Last (the newest), a whole id, or a part of one (a prefix, or
// anything else at least MinPrefix characters long) by MatchName, the best
// match winning; compared case-insensitively, since ULIDs are. what names
// the records in errors ("kept task").
func ResolveID(ids []string, typed, what string) (string, error) {
	typed = strings.TrimSpace(typed)
	if strings.EqualFold(typed, Last) {
		if len(ids) == 0 {
			return "", fmt.Errorf("%w: %q: no %s is recorded for this project", ErrUnknownID, typed, what)
		}
		return ids[0], nil
	}
	upper := strings.ToUpper(typed)
	kinds := make([]Match, len(ids))
	for i, id := range ids {
		kinds[i] = MatchName(id, upper)
	}
	best := Best(kinds)
	switch {
	case typed == "":
		return "", fmt.Errorf("%w: the id is empty", ErrUnknownID)
	case len(best) == 1:
		return ids[best[0]], nil
	case len(typed) < MinPrefix:
		return "", fmt.Errorf("%w: %q", ErrShortID, typed)
	case len(best) == 0:
		return "", fmt.Errorf("%w: no %s %q in this project", ErrUnknownID, what, typed)
	}
	cands := make([]string, len(best))
	for i, b := range best {
		cands[i] = what + " " + ids[b] + " (" + IDTime(ids[b]) + ")"
	}
	return "", &AmbiguousError{Typed: typed, What: what + "s", Candidates: cands}
}

// IDTime is when the ULID id was made, as the log prints times ("" for
// an id that is not a ULID).
func IDTime(id string) string {
	u, err := ulid.ParseStrict(id)
	if err != nil {
		return ""
	}
	return ulid.Time(u.Time()).UTC().Format("2006-01-02 15:04:05Z")
}

// Candidates lists the ids an ambiguous prefix matched, the first few and
// a count of the rest.
func Candidates(ids []string) string {
	if len(ids) <= maxCandidates {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:maxCandidates], ", "), len(ids)-maxCandidates)
}
