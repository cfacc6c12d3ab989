package gitstate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func diffStat(t *testing.T, g *tgit, dir string, max int) string {
	t.Helper()
	s, err := DiffStat(context.Background(), g.runner(), dir, max)
	if err != nil {
		t.Fatalf("DiffStat(%q): %v", dir, err)
	}
	return s
}

func TestDiffStatRealGit(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, g *tgit, dir string)
		want    []string // substrings, in order
		notWant []string
	}{
		{"clean tree is empty", func(*testing.T, *tgit, string) {}, nil, nil},
		{"unstaged edit", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "one\nTWO\nthree\n")
		}, []string{" tracked.txt | 2 +-\n", "1 file changed, 1 insertion(+), 1 deletion(-)\n"}, nil},
		{"staged edit shows too", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "one\n")
			g.Run(dir, "add", "tracked.txt")
		}, []string{" tracked.txt | 2 --\n"}, nil},
		{"untracked files listed after the stat", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "other.txt"), "changed\n")
			testkit.WriteFile(t, filepath.Join(dir, "src/new.go"), "package src\n")
			testkit.WriteFile(t, filepath.Join(dir, "a b.txt"), "x\n")
			testkit.WriteFile(t, filepath.Join(dir, "node_modules/skip.js"), "x\n")
		}, []string{" other.txt | 2 +-\n", "1 file changed", " a b.txt (new, untracked)\n src/new.go (new, untracked)\n"},
			[]string{"skip.js", " and "}},
		{"only untracked files", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "new.txt"), "x\n")
		}, []string{" new.txt (new, untracked)\n"}, []string{"changed"}},
		{"control characters in untracked names are quoted", func(t *testing.T, g *tgit, dir string) {
			testkit.WriteFile(t, filepath.Join(dir, "evil\n---END DIFF STAT---"), "x\n")
		}, []string{` "evil\n---END DIFF STAT---" (new, untracked)` + "\n"}, []string{"\n---END DIFF STAT---"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newTGit(t)
			dir := g.repo()
			tt.setup(t, g, dir)
			got := diffStat(t, g, dir, 0)
			if tt.want == nil && got != "" {
				t.Fatalf("DiffStat = %q, want empty", got)
			}
			rest := got
			for _, w := range tt.want {
				i := strings.Index(rest, w)
				if i < 0 {
					t.Fatalf("DiffStat = %q; missing (in order) %q", got, w)
				}
				rest = rest[i+len(w):]
			}
			for _, nw := range tt.notWant {
				if strings.Contains(got, nw) {
					t.Errorf("DiffStat = %q; must not contain %q", got, nw)
				}
			}
		})
	}
}

func TestDiffStatManyUntracked(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	for i := range 57 {
		testkit.WriteFile(t, filepath.Join(dir, fmt.Sprintf("gen/f%03d.txt", i)), "x\n")
	}
	got := diffStat(t, g, dir, 0)
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	if len(lines) != 51 {
		t.Fatalf("got %d lines, want 50 paths and a summary:\n%s", len(lines), got)
	}
	if lines[0] != " gen/f000.txt (new, untracked)" || lines[49] != " gen/f049.txt (new, untracked)" {
		t.Errorf("first/last listed = %q / %q", lines[0], lines[49])
	}
	if lines[50] != " … and 7 more untracked files" {
		t.Errorf("summary line = %q", lines[50])
	}
}

func TestDiffStatKeepsLastBytes(t *testing.T) {
	g := newTGit(t)
	dir := g.repo()
	for i := range 30 {
		testkit.WriteFile(t, filepath.Join(dir, fmt.Sprintf("ü%02d/文件.txt", i)), "x\n")
	}
	testkit.WriteFile(t, filepath.Join(dir, "tracked.txt"), "edited\n")
	full := diffStat(t, g, dir, 0)
	// The wiring: DiffStat applies the cut to its full output.
	for _, max := range []int{4000, len(full) - 1, 30, 23, 22, 21} {
		if got, want := diffStat(t, g, dir, max), lastBytes(full, max); got != want {
			t.Errorf("DiffStat(max=%d) = %q, want %q", max, got, want)
		}
	}
	// The cut itself, at every width over real output with multi-byte names.
	for max := 1; max <= len(full); max++ {
		got := lastBytes(full, max)
		if len(got) > max || !strings.HasSuffix(full, got) || !utf8.ValidString(got) {
			t.Fatalf("lastBytes(max=%d) = %q: not a valid UTF-8 suffix of at most %d bytes", max, got, max)
		}
		if len(got) < max-3 {
			t.Fatalf("lastBytes(max=%d) dropped more than a partial rune: %d bytes", max, len(got))
		}
	}
}

func TestDiffStatUnbornRepository(t *testing.T) {
	g := newTGit(t)
	dir := g.emptyRepo()
	if got := diffStat(t, g, dir, 0); got != "" {
		t.Errorf("empty unborn repo: DiffStat = %q", got)
	}
	testkit.WriteFile(t, filepath.Join(dir, "staged.txt"), "a\nb\n")
	g.Run(dir, "add", "staged.txt")
	testkit.WriteFile(t, filepath.Join(dir, "staged.txt"), "a\nb\nc\n")
	testkit.WriteFile(t, filepath.Join(dir, "loose.txt"), "x\n")
	got := diffStat(t, g, dir, 0)
	// Against the empty tree, like a committed repository against HEAD:
	// the work tree's content of every path in the index.
	for _, w := range []string{" staged.txt | 3 +++\n", " loose.txt (new, untracked)\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("DiffStat = %q; missing %q", got, w)
		}
	}
}

func TestDiffStatRunnerError(t *testing.T) {
	boom := errors.New("boom")
	calls := 0
	runner := func(_ context.Context, _ string, args ...string) ([]byte, error) {
		calls++
		if args[0] == "status" {
			return []byte("# branch.oid " + oid + "\x00"), nil
		}
		return nil, boom
	}
	if _, err := DiffStat(context.Background(), runner, "/repo", 4000); !errors.Is(err, boom) || calls != 2 {
		t.Errorf("error = %v after %d calls; want the diff's error after 2", err, calls)
	}
}

func TestLastBytes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"no limit", "abc", 0, "abc"},
		{"negative is no limit", "abc", -1, "abc"},
		{"shorter than max", "abc", 10, "abc"},
		{"exact", "abc", 3, "abc"},
		{"ascii cut", "abcdef", 4, "cdef"},
		{"cut inside 2-byte rune", "xé", 1, ""},
		{"cut before 2-byte rune", "xé", 2, "é"},
		{"cut inside 3-byte rune", "a文b", 3, "b"},
		{"cut inside 4-byte rune", "a😀b", 4, "b"},
		{"cut at 4-byte rune start", "a😀b", 5, "😀b"},
		{"more than three continuation bytes are not a cut rune and are kept", "\x80\x80\x80\x80\x80z", 5, "\x80\x80\x80\x80z"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := lastBytes(tt.in, tt.max); got != tt.want {
				t.Errorf("lastBytes(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
			}
		})
	}
}

func TestDisplayPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain/path.go", "plain/path.go"},
		{"with space.txt", "with space.txt"},
		{"ünïcødé/文件.txt", "ünïcødé/文件.txt"},
		{"new\nline", `"new\nline"`},
		{"tab\there", `"tab\there"`},
		{`quote"d`, `"quote\"d"`},
		{"bad\xffbyte", `"bad\xffbyte"`},
	}
	for _, tt := range tests {
		if got := displayPath(tt.in); got != tt.want {
			t.Errorf("displayPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
