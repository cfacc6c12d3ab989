package proc

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestHelperIsFoundBesideTheBinaryOnly(t *testing.T) {
	bin := t.TempDir()
	self := filepath.Join(bin, "tribunal-session")
	testkit.WriteFileMode(t, self, "#!/bin/sh\n", 0o755)
	testkit.WriteFileMode(t, filepath.Join(bin, "tribunal-otel"), "#!/bin/sh\n", 0o755)
	// A program of that name on PATH is never taken: a reviewed
	// repository may put one there.
	other := t.TempDir()
	testkit.WriteFileMode(t, filepath.Join(other, "tribunal-mcp"), "#!/bin/sh\n", 0o755)
	t.Setenv("PATH", other)

	if p, err := Helper(self, "tribunal-otel"); err != nil || p != filepath.Join(bin, "tribunal-otel") {
		t.Fatalf("Helper(otel) = %q, %v; want the sibling", p, err)
	}
	p, err := Helper(self, "tribunal-mcp")
	if !errors.Is(err, ErrNoHelper) || p != "" {
		t.Fatalf("Helper(mcp) = %q, %v; want ErrNoHelper", p, err)
	}
	if !strings.Contains(err.Error(), bin) {
		t.Errorf("error %q does not name the directory looked in", err)
	}
	if _, err := Helper("", "tribunal-otel"); !errors.Is(err, ErrNoHelper) {
		t.Errorf("unknown self: %v, want ErrNoHelper", err)
	}
}

func TestHelperFollowsASymlinkedBinary(t *testing.T) {
	real := t.TempDir()
	testkit.WriteFileMode(t, filepath.Join(real, "tribunal-session"), "#!/bin/sh\n", 0o755)
	testkit.WriteFileMode(t, filepath.Join(real, "tribunal-schema"), "#!/bin/sh\n", 0o755)
	link := filepath.Join(t.TempDir(), "tribunal-session")
	if err := os.Symlink(filepath.Join(real, "tribunal-session"), link); err != nil {
		t.Fatal(err)
	}
	if p, err := Helper(link, "tribunal-schema"); err != nil || p != filepath.Join(real, "tribunal-schema") {
		t.Fatalf("Helper via symlink = %q, %v", p, err)
	}
}
