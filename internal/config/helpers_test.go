package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// env is a plugin root, a home directory and a worktree in temp dirs.
type env struct {
	t        *testing.T
	src      Sources
	warnings []string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	e := &env{t: t}
	e.src = Sources{
		PluginRoot:   filepath.Join(root, "plugin"),
		Home:         filepath.Join(root, "home"),
		WorktreeRoot: filepath.Join(root, "repo"),
		Warn:         func(s string) { e.warnings = append(e.warnings, s) },
	}
	return e
}

// path returns the file of layer 1–5 (spec §2.2).
func (e *env) path(layer int) string {
	switch layer {
	case 1:
		return filepath.Join(e.src.PluginRoot, "config.json")
	case 2:
		return filepath.Join(e.src.Home, ".claude", "settings.json")
	case 3:
		return filepath.Join(e.src.Home, ".claude", "settings.local.json")
	case 4:
		return filepath.Join(e.src.WorktreeRoot, ".claude", "settings.json")
	case 5:
		return filepath.Join(e.src.WorktreeRoot, ".claude", "settings.local.json")
	}
	e.t.Fatalf("no layer %d", layer)
	return ""
}

func (e *env) write(layer int, content string) string {
	e.t.Helper()
	p := e.path(layer)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		e.t.Fatal(err)
	}
	return p
}

// tribunal writes layer with {"tribunal": body}.
func (e *env) tribunal(layer int, body string) string {
	return e.write(layer, `{"tribunal":`+body+`}`)
}

func (e *env) load() *Config {
	e.warnings = nil
	return Load(e.src)
}

// hasWarning reports whether one warning contains every fragment.
func (e *env) hasWarning(fragments ...string) bool {
	return slices.ContainsFunc(e.warnings, func(s string) bool {
		for _, f := range fragments {
			if !strings.Contains(s, f) {
				return false
			}
		}
		return true
	})
}

func (e *env) noWarnings() {
	e.t.Helper()
	if len(e.warnings) != 0 {
		e.t.Errorf("unexpected warnings: %q", e.warnings)
	}
}

// shippedRubric returns the built-in "default" rubric as the embedded
// defaults ship it (spec §2.8): id and criteria only.
func shippedRubric() *rubric.Rubric {
	set := rubric.LoadSet(rubric.LoadOptions{Builtins: Load(Sources{}).BuiltinRubrics()})
	r, ok := set.Lookup("default")
	if !ok {
		panic("the embedded defaults lack the default rubric")
	}
	return r
}

func defaultRubric(t *testing.T) *rubric.Rubric {
	t.Helper()
	return shippedRubric()
}

// makeSpecial puts something that is not a regular file at path: a
// directory, a named pipe (which blocks a plain open until a writer comes)
// or a symlink to /dev/zero (which never ends).
func makeSpecial(t *testing.T, path, kind string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	var err error
	switch kind {
	case "dir":
		err = os.Mkdir(path, 0o700)
	case "fifo":
		err = syscall.Mkfifo(path, 0o600)
	case "devzero":
		err = os.Symlink("/dev/zero", path)
	default:
		t.Fatalf("no special file kind %q", kind)
	}
	if err != nil {
		t.Fatal(err)
	}
}
