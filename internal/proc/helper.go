package proc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNoHelper means a helper program is not installed beside the binary
// that needs it.
var ErrNoHelper = errors.New("helper program not installed")

// Helper finds the tribunal program name installed beside self, the
// running binary's path (os.Executable). The heavy parts — the MCP
// server, OpenTelemetry export, JSON Schema validation — are programs of
// their own so that every other command starts without their packages'
// initialisation; they are found only beside the binary, never on PATH,
// which a repository under review may shape. The error is a *HelperError
// (errors.Is ErrNoHelper) naming the directory looked in.
func Helper(self, name string) (string, error) {
	if self == "" {
		return "", fmt.Errorf("%w: %s (the running binary's path is unknown)", ErrNoHelper, name)
	}
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	dir := filepath.Dir(self)
	p := filepath.Join(dir, name)
	if !Executable(p) {
		return "", &HelperError{Name: name, Dir: dir}
	}
	return p, nil
}

// HelperError is a helper program missing from the directory of the
// binary that needs it; its text is the user's ("tribunal-otel is not
// installed in DIR"), for the caller to put after what it could not do.
type HelperError struct{ Name, Dir string }

func (e *HelperError) Error() string { return e.Name + " is not installed in " + e.Dir }

// Is makes a HelperError ErrNoHelper.
func (e *HelperError) Is(target error) bool { return target == ErrNoHelper }

// Self is the running binary's path, or "" when the system cannot say.
func Self() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	return p
}
