// Package githook is tribunal's side of git's client hooks (spec §7.19):
// the hook file `tribunal-session hook install` writes (a shim that calls
// `tribunal-session hook run`, marked so that uninstall removes only its
// own), where git looks for hooks, and what a hook run reviews and how
// its review's exit becomes the hook's.
package githook

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Kind is a git hook tribunal can stand in.
type Kind string

// The hooks tribunal offers: the staged change before a commit, the
// commits a push adds before they leave.
const (
	PreCommit Kind = "pre-commit"
	PrePush   Kind = "pre-push"
)

// ParseKind reads a hook name as `hook run` takes it.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(s); k {
	case PreCommit, PrePush:
		return k, nil
	}
	return "", fmt.Errorf("unknown hook %q: tribunal runs as pre-commit or pre-push", s)
}

// Marker is the line that makes a hook file tribunal's: uninstall removes
// a file only when it holds it, so a hook someone wrote is never deleted.
const Marker = "# tribunal-session hook: installed by 'tribunal-session hook install'; 'tribunal-session hook uninstall' removes it"

// Script is the hook file for k: a shim whose behaviour lives in
// `tribunal-session hook run` (so upgrading tribunal upgrades the hook).
// tribunal-session is looked up on PATH when the hook runs; a missing one
// is said and, being advisory unless gated, lets the commit or push go.
func Script(k Kind, gate bool) string {
	args := string(k)
	missing := "exit 0"
	if gate {
		args += " --gate"
		missing = "exit 1"
	}
	return "#!/bin/sh\n" + Marker + "\n" +
		"command -v tribunal-session >/dev/null 2>&1 || { echo 'tribunal-session is not on PATH: no review (" + string(k) + " hook)' >&2; " + missing + "; }\n" +
		"exec tribunal-session hook run " + args + " \"$@\"\n"
}

// IsOurs reports whether a hook file's content carries the marker.
func IsOurs(content []byte) bool {
	for _, l := range strings.Split(string(content), "\n") {
		if strings.TrimRight(l, "\r") == Marker {
			return true
		}
	}
	return false
}

// ExistsError is an install refused because a hook that is not
// tribunal's is already there: it is never overwritten.
type ExistsError struct {
	Path string
	Kind Kind
}

func (e *ExistsError) Error() string {
	return fmt.Sprintf("%s already exists and is not tribunal's; it was left as it is", e.Path)
}

// Chain is the line to add to the existing hook so that it runs
// tribunal's review too.
func (e *ExistsError) Chain() string {
	return fmt.Sprintf("tribunal-session hook run %s \"$@\" || exit $?", e.Kind)
}

// NotOursError is an uninstall refused because the hook there has no
// marker: someone else's hook is left alone.
type NotOursError struct{ Path string }

func (e *NotOursError) Error() string {
	return fmt.Sprintf("%s is not tribunal's (it lacks the marker line); it was left as it is", e.Path)
}

// ErrNotInstalled is an uninstall with no hook file to remove.
var ErrNotInstalled = errors.New("no hook installed")

// Install writes k's hook into dir (created when missing). A file already
// there is replaced only when it is tribunal's own (a reinstall, perhaps
// switching --gate); anything else is an *ExistsError. It returns the
// hook's path.
func Install(dir string, k Kind, gate bool) (string, error) {
	path := filepath.Join(dir, string(k))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return path, fmt.Errorf("cannot create the hooks directory: %w", err)
	}
	old, err := os.ReadFile(path)
	switch {
	case err == nil && !IsOurs(old):
		return path, &ExistsError{Path: path, Kind: k}
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		// A directory or an unreadable file: not ours to replace.
		if _, statErr := os.Lstat(path); statErr == nil {
			return path, &ExistsError{Path: path, Kind: k}
		}
		return path, fmt.Errorf("cannot read %s: %w", path, err)
	}
	// Written beside and renamed, so a hook is never half there; an
	// O_EXCL temporary name keeps two installs from sharing one.
	tmp, err := os.CreateTemp(dir, "."+string(k)+".tribunal-*")
	if err != nil {
		return path, fmt.Errorf("cannot write in the hooks directory: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(Script(k, gate)); err != nil {
		tmp.Close()
		return path, fmt.Errorf("cannot write %s: %w", tmp.Name(), err)
	}
	if err := tmp.Chmod(0o755); err != nil {
		tmp.Close()
		return path, fmt.Errorf("cannot make %s executable: %w", tmp.Name(), err)
	}
	if err := tmp.Close(); err != nil {
		return path, fmt.Errorf("cannot write %s: %w", tmp.Name(), err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return path, fmt.Errorf("cannot install %s: %w", path, err)
	}
	return path, nil
}

// Uninstall removes k's hook from dir when it is tribunal's: a hook
// without the marker is a *NotOursError, no hook ErrNotInstalled.
func Uninstall(dir string, k Kind) (string, error) {
	path := filepath.Join(dir, string(k))
	content, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, ErrNotInstalled
	}
	if err != nil || !IsOurs(content) {
		return path, &NotOursError{Path: path}
	}
	if err := os.Remove(path); err != nil {
		return path, fmt.Errorf("cannot remove %s: %w", path, err)
	}
	return path, nil
}
