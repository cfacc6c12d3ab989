package records

import (
	"errors"
	"fmt"
	"strings"
)

// Last is the id every command that takes an id accepts for the newest
// record. It can never be a task id: ULIDs have no L.
const Last = "last"

// MinPrefix is the shortest id prefix a command takes: ULIDs started the
// same day share their first five or six characters, and the log prints at
// least eight, so four only ever saves typing against an older record.
const MinPrefix = 4

// Errors of ResolveID, wrapped with the id as typed.
var (
	ErrUnknownID   = errors.New("unknown id")
	ErrAmbiguousID = errors.New("the id is ambiguous")
	ErrShortID     = fmt.Errorf("an id prefix needs at least %d characters", MinPrefix)
)

// maxCandidates is how many of an ambiguous prefix's matches an error names.
const maxCandidates = 5

// ResolveID finds the one of ids (canonical ULIDs, newest first) that typed
// names: Last (the newest), a whole id, or a prefix of at least MinPrefix
// characters that only one id starts with; compared case-insensitively,
// since ULIDs are. what names the records in errors ("kept task").
func ResolveID(ids []string, typed, what string) (string, error) {
	typed = strings.TrimSpace(typed)
	if strings.EqualFold(typed, Last) {
		if len(ids) == 0 {
			return "", fmt.Errorf("%w: %q: no %s is recorded for this project", ErrUnknownID, typed, what)
		}
		return ids[0], nil
	}
	upper := strings.ToUpper(typed)
	var matches []string
	for _, id := range ids {
		if id == upper {
			return id, nil
		}
		if strings.HasPrefix(id, upper) {
			matches = append(matches, id)
		}
	}
	switch {
	case typed == "":
		return "", fmt.Errorf("%w: the id is empty", ErrUnknownID)
	case len(typed) < MinPrefix:
		return "", fmt.Errorf("%w: %q", ErrShortID, typed)
	case len(matches) == 1:
		return matches[0], nil
	case len(matches) == 0:
		return "", fmt.Errorf("%w: no %s %q in this project", ErrUnknownID, what, typed)
	}
	return "", fmt.Errorf("%w: %q starts %d %ss: %s", ErrAmbiguousID, typed, len(matches), what, Candidates(matches))
}

// Candidates lists the ids an ambiguous prefix matched, the first few and
// a count of the rest.
func Candidates(ids []string) string {
	if len(ids) <= maxCandidates {
		return strings.Join(ids, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ids[:maxCandidates], ", "), len(ids)-maxCandidates)
}
