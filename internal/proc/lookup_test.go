package proc

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// The one PATH rule: absolute entries only, first executable wins. The
// working directory is the repository under review, which ships a "tool"
// of its own at its top level and in bin/.
func TestLookPath(t *testing.T) {
	root := t.TempDir()
	good := filepath.Join(root, "good")
	testkit.WriteFileMode(t, filepath.Join(good, "tool"), "#!/bin/sh\nexit 0\n", 0o755)
	plain := filepath.Join(root, "plain")
	testkit.WriteFileMode(t, filepath.Join(plain, "tool"), "#!/bin/sh\nexit 0\n", 0o644)
	if err := os.MkdirAll(filepath.Join(root, "dir", "tool"), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(root, "repo")
	testkit.WriteFileMode(t, filepath.Join(repo, "tool"), "#!/bin/sh\nexit 0\n", 0o755)
	testkit.WriteFileMode(t, filepath.Join(repo, "bin", "tool"), "#!/bin/sh\nexit 0\n", 0o755)
	t.Chdir(repo)
	sep := string(os.PathListSeparator)
	tests := []struct{ name, path, want string }{
		{"on PATH", good, filepath.Join(good, "tool")},
		{"first executable wins", plain + sep + good, filepath.Join(good, "tool")},
		{"a directory is not an executable", filepath.Join(root, "dir") + sep + good, filepath.Join(good, "tool")},
		{"nothing found", plain, ""},
		{"empty PATH", "", ""},
		{"dot entry skipped", "." + sep + good, filepath.Join(good, "tool")},
		{"empty entry skipped", sep + good, filepath.Join(good, "tool")},
		{"trailing empty entry skipped", plain + sep, ""},
		{"relative entry skipped", "bin" + sep + good, filepath.Join(good, "tool")},
		{"only relative entries", "." + sep + "bin" + sep, ""},
	}
	for _, tt := range tests {
		got, ok := LookPath("tool", tt.path)
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s: LookPath = %q, %v; want %q", tt.name, got, ok, tt.want)
		}
	}
}

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "check")
	testkit.WriteFileMode(t, script, "#!/bin/sh\nexit 0\n", 0o755)
	testkit.WriteFileMode(t, filepath.Join(dir, "notes.txt"), "#!/bin/sh\nexit 0\n", 0o644)
	cases := []struct {
		name, argv0 string
		env         []string
		want        string // "" = ErrNotFound
	}{
		{"relative path resolves against dir", "./check", nil, script},
		{"absolute path", script, nil, script},
		{"bare name on an absolute PATH entry", "check", []string{"PATH=/nonexistent:" + dir}, script},
		{"last PATH entry in env wins", "check", []string{"PATH=" + dir, "PATH=/nonexistent"}, ""},
		{"relative PATH entries are skipped", "check", []string{"PATH=.:"}, ""},
		{"no PATH at all", "check", nil, ""},
		{"not executable", "./notes.txt", nil, ""},
		{"directory", "./", nil, ""},
	}
	for _, c := range cases {
		got, err := Resolve(c.argv0, dir, c.env)
		if c.want == "" {
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("%s: Resolve = %q, %v; want ErrNotFound", c.name, got, err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s: Resolve = %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}
