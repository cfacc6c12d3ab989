package proc

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestMissingHelperSaysWhere: a missing helper's error is the user's
// sentence, naming the program and the directory it should be in, and
// still ErrNoHelper for the caller that only asks whether it is there.
func TestMissingHelperSaysWhere(t *testing.T) {
	bin := t.TempDir()
	_, err := Helper(filepath.Join(bin, "tribunal-session"), "tribunal-otel")
	if want := "tribunal-otel is not installed in " + bin; err == nil || err.Error() != want {
		t.Fatalf("err = %v, want %q", err, want)
	}
	var he *HelperError
	if !errors.Is(err, ErrNoHelper) || !errors.As(err, &he) || he.Dir != bin || he.Name != "tribunal-otel" {
		t.Errorf("err = %#v: want a *HelperError that is ErrNoHelper", err)
	}
}
