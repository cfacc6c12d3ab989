package judging

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/verdict"
)

func TestNoVerdict(t *testing.T) {
	ok := verdict.Verdict{JudgeType: "standard", Score: []byte("0.8")}
	failed := verdict.Failed("claude exited with status 1")
	failed.JudgeType = "adversarial"
	unscored := verdict.Verdict{JudgeType: "security"}
	tests := []struct {
		name     string
		verdicts []verdict.Verdict
		abort    bool
		mentions []string
	}{
		{"one usable verdict among failures keeps the iteration", []verdict.Verdict{failed, ok, unscored}, false, nil},
		{"every judge failed", []verdict.Verdict{failed, unscored}, true, []string{"adversarial: claude exited with status 1", "security: no usable score"}},
		{"an empty jury", nil, true, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := noVerdict(tc.verdicts)
			if (err != nil) != tc.abort {
				t.Fatalf("noVerdict = %v, want abort %v", err, tc.abort)
			}
			if err != nil && !errors.Is(err, ErrNoVerdict) {
				t.Errorf("%v does not wrap ErrNoVerdict", err)
			}
			for _, m := range tc.mentions {
				if !strings.Contains(err.Error(), m) {
					t.Errorf("%q does not name %q", err, m)
				}
			}
		})
	}
}

func TestRedactArgv(t *testing.T) {
	in := []string{"claude", "-p", "--model", "m", "--api-key", "sk-1", "--auth-token=abc", "--system-prompt", "key facts"}
	got := strings.Join(redactArgv(in), " ")
	want := "claude -p --model m --api-key [redacted] --auth-token=[redacted] --system-prompt key facts"
	if got != want {
		t.Errorf("redactArgv = %q\nwant          %q", got, want)
	}
	if in[5] != "sk-1" {
		t.Error("redactArgv modified its input")
	}
}

func TestLocator(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(root, "pkg"), 0o755)
	os.WriteFile(filepath.Join(root, "pkg", "a.go"), []byte("one\ntwo\nthree"), 0o644)
	os.WriteFile(filepath.Join(outside, "x.go"), []byte("1\n2\n3\n4\n"), 0o644)
	os.Symlink(filepath.Join(outside, "x.go"), filepath.Join(root, "link.go"))
	exists := locator(root)
	tests := []struct {
		file string
		line int
		want bool
	}{
		{"pkg/a.go", 0, true},
		{"pkg/a.go", 3, true}, // last line without a newline counts
		{"pkg/a.go", 4, false},
		{"./pkg/../pkg/a.go", 1, true},
		{filepath.Join(root, "pkg", "a.go"), 2, true},
		{"pkg/a.go:3", 0, true},
		{"pkg/a.go:9", 0, false},
		{"pkg/missing.go", 0, false},
		{"pkg", 0, false},
		{"../" + filepath.Base(outside) + "/x.go", 1, false},
		{filepath.Join(outside, "x.go"), 1, false},
		{"link.go", 1, false}, // a symlink out of the tree is not in it
		{"", 0, false},
	}
	for _, tc := range tests {
		if got := exists(tc.file, tc.line); got != tc.want {
			t.Errorf("exists(%q, %d) = %v, want %v", tc.file, tc.line, got, tc.want)
		}
	}
}
