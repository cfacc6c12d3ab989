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
// which a repository under review may shape. Errors wrap ErrNoHelper and
// name the directory looked in.
func Helper(self, name string) (string, error) {
	if self == "" {
		return "", fmt.Errorf("%w: %s (the running binary's path is unknown)", ErrNoHelper, name)
	}
	dir := HelperDir(self)
	p := filepath.Join(dir, name)
	if !Executable(p) {
		return "", fmt.Errorf("%w: %s is not in %s", ErrNoHelper, name, dir)
	}
	return p, nil
}

// HelperDir is the directory Helper looks in for the helpers of self:
// the directory of the file self names, a symlink followed (an install
// may link the binary onto PATH). An error about a missing helper names
// it, so that the user knows where the program should have been.
func HelperDir(self string) string {
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	return filepath.Dir(self)
}

// Self is the running binary's path, or "" when the system cannot say.
func Self() string {
	p, err := os.Executable()
	if err != nil {
		return ""
	}
	return p
}
