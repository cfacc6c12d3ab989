package records

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// MaxArtifact caps how much of one artifact (a verdict, a manifest, a
// call record, the actor's text) is read. They are kilobytes; a file this
// large was not written by tribunal.
const MaxArtifact = 16 << 20

// MaxDiff caps a stored diff (diff-snapshot.patch, diff-previous.patch):
// the task's size bounds keep one far below it, and a file over
// worktree's PatchFileBytes is named, not dumped.
const MaxDiff = 1 << 30

// Problem is a store file that is missing, unreadable or not what
// tribunal writes. The readers return it as *Problem; the commands print
// one line per problem and show everything else.
type Problem struct {
	Path string
	Err  error
}

// Error names the file first, quoted, then what is wrong with it.
func (p Problem) Error() string { return fmt.Sprintf("%q: %v", p.Path, p.Err) }

// Reasons a file is a Problem.
var (
	ErrMissing = errors.New("missing")
	ErrNotJSON = errors.New("not valid JSON")
)

// FileProblem is the Problem of path for an error from opening, listing
// or reading it; the *PathError wrapper is dropped, because the Problem
// names the path once.
func FileProblem(path string, err error) *Problem {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &Problem{Path: path, Err: err}
}

// ReadText reads one artifact whole, at most max bytes. It opens the file
// without blocking and requires a regular one (store.OpenRegular), so a
// named pipe or device planted in the store is an error, never a hang of
// `show`, `view` or `rejudge`. Every failure is a *Problem naming the
// file; a missing file's is ErrMissing.
func ReadText(path string, max int64) ([]byte, error) {
	data, err := read(path, max)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &Problem{Path: path, Err: fmt.Errorf("larger than %d bytes", max)}
	}
	return data, nil
}

// ReadHead is ReadText that keeps the first max bytes of a larger file
// instead of refusing it (a recorded diff a judge sees within a budget).
func ReadHead(path string, max int64) ([]byte, error) {
	data, err := read(path, max)
	if int64(len(data)) > max {
		data = data[:max]
	}
	return data, err
}

// read returns up to max+1 bytes of the regular file at path.
func read(path string, max int64) ([]byte, error) {
	f, err := store.OpenRegular(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, &Problem{Path: path, Err: ErrMissing}
	}
	if err != nil {
		return nil, FileProblem(path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, FileProblem(path, err)
	}
	return data, nil
}

// ReadRaw reads an artifact that must hold one JSON value (within the
// nesting bound) and returns it as is, without surrounding space.
func ReadRaw(path string) (json.RawMessage, error) {
	data, err := ReadText(path, MaxArtifact)
	if err != nil {
		return nil, err
	}
	if err := nesting.JSON(data); err != nil {
		return nil, &Problem{Path: path, Err: err}
	}
	if !json.Valid(data) {
		return nil, &Problem{Path: path, Err: ErrNotJSON}
	}
	return json.RawMessage(bytes.TrimSpace(data)), nil
}

// ReadJSON reads an artifact into v, typically one of this package's
// record types.
func ReadJSON(path string, v any) error {
	data, err := ReadRaw(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return &Problem{Path: path, Err: fmt.Errorf("unexpected content: %w", err)}
	}
	return nil
}
