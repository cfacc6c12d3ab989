package claude

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestLocate(t *testing.T) {
	root := t.TempDir()
	good := filepath.Join(root, "good")
	testkit.WriteFileMode(t, filepath.Join(good, "claude"), "#!/bin/sh\nexit 0\n", 0o755)
	plain := filepath.Join(root, "plain")
	testkit.WriteFileMode(t, filepath.Join(plain, "claude"), "#!/bin/sh\nexit 0\n", 0o644)
	// The working directory is the repository under review, which ships a
	// claude of its own in its top level and in bin/.
	repo := filepath.Join(root, "repo")
	testkit.WriteFileMode(t, filepath.Join(repo, "claude"), "#!/bin/sh\nexit 0\n", 0o755)
	testkit.WriteFileMode(t, filepath.Join(repo, "bin", "claude"), "#!/bin/sh\nexit 0\n", 0o755)
	t.Chdir(repo)

	sep := string(os.PathListSeparator)
	tests := []struct {
		name, explicit, path, want string
		err                        bool
	}{
		{name: "on PATH", path: good, want: filepath.Join(good, "claude")},
		{name: "first executable wins", path: plain + sep + good, want: filepath.Join(good, "claude")},
		{name: "explicit path wins over PATH", explicit: filepath.Join(plain, "..", "good", "claude"), path: good,
			want: filepath.Join(plain, "..", "good", "claude")},
		{name: "explicit path not executable", explicit: filepath.Join(plain, "claude"), path: good, err: true},
		{name: "explicit path missing", explicit: filepath.Join(root, "nope"), path: good, err: true},
		{name: "explicit directory", explicit: good, err: true},
		{name: "nothing found", path: plain, err: true},
		{name: "empty PATH", err: true},
		{name: "dot entry skipped", path: "." + sep + good, want: filepath.Join(good, "claude")},
		{name: "empty entry skipped", path: sep + good, want: filepath.Join(good, "claude")},
		{name: "trailing empty entry skipped", path: plain + sep, err: true},
		{name: "relative entry skipped", path: "bin" + sep + good, want: filepath.Join(good, "claude")},
		{name: "only relative entries", path: "." + sep + "bin" + sep, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Locate(tt.explicit, nil, tt.path)
			if tt.err {
				if !errors.Is(err, ErrNotFound) {
					t.Fatalf("Locate = %q, %v; want ErrNotFound", got, err)
				}
				if tt.explicit != "" && !strings.Contains(err.Error(), tt.explicit) {
					t.Errorf("error %q does not name %q", err, tt.explicit)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Locate = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// The one precedence of every binary: $TRIBUNAL_CLAUDE_BIN, else the
// user-level configured path (read only when needed), else PATH; an
// explicit path that does not run is an error, never a reason to search on.
func TestLocatePrecedence(t *testing.T) {
	root := t.TempDir()
	env := filepath.Join(root, "env", "claude")
	conf := filepath.Join(root, "conf", "claude")
	onPath := filepath.Join(root, "path")
	testkit.WriteFileMode(t, env, "#!/bin/sh\nexit 0\n", 0o755)
	testkit.WriteFileMode(t, conf, "#!/bin/sh\nexit 0\n", 0o755)
	testkit.WriteFileMode(t, filepath.Join(onPath, "claude"), "#!/bin/sh\nexit 0\n", 0o755)
	missing := filepath.Join(root, "missing")
	tests := []struct {
		name, bin, configured, want string
		asked                       bool
	}{
		{name: "bin wins and the configuration is not read", bin: env, configured: conf, want: env},
		{name: "configured path without bin", configured: conf, want: conf, asked: true},
		{name: "PATH when neither is set", want: filepath.Join(onPath, "claude"), asked: true},
		{name: "a bad bin is an error", bin: missing, configured: conf},
		{name: "a bad configured path is an error", configured: missing, asked: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			asked := false
			got, err := Locate(tt.bin, func() string { asked = true; return tt.configured }, onPath)
			if asked != tt.asked {
				t.Errorf("configuration read = %v, want %v", asked, tt.asked)
			}
			if tt.want == "" {
				if !errors.Is(err, ErrNotFound) || got != "" {
					t.Fatalf("Locate = %q, %v; want ErrNotFound", got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Locate = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}
