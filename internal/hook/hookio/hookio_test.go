package hookio

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
)

func TestRead(t *testing.T) {
	sample, err := os.ReadFile(filepath.Join("testdata", "fuzz", "FuzzHookInput", "stop_sample"))
	if err != nil {
		t.Fatal(err)
	}
	// The corpus file holds the real Stop sample as a Go-quoted []byte.
	sampleJSON := corpusBytes(t, sample)

	tests := []struct {
		name string
		in   string
		want Input
	}{
		{"real Stop sample", sampleJSON, Input{
			SessionID:            "8d99dc41-fd1e-471b-8cea-12bd65cb251d",
			TranscriptPath:       "/home/user/.claude/projects/-home-user-project/8d99dc41-fd1e-471b-8cea-12bd65cb251d.jsonl",
			Cwd:                  "/home/user/project",
			HookEventName:        "Stop",
			LastAssistantMessage: "The command printed TOOL-OUTPUT-777. All done.",
		}},
		{"SessionStart source", `{"hook_event_name":"SessionStart","source":"resume","cwd":"/r"}`,
			Input{HookEventName: "SessionStart", Source: "resume", Cwd: "/r"}},
		{"stop_hook_active true", `{"stop_hook_active":true}`, Input{StopHookActive: true}},
		{"stop_hook_active string is not true", `{"stop_hook_active":"true"}`, Input{}},
		{"stop_hook_active 1 is not true", `{"stop_hook_active":1}`, Input{}},
		{"mistyped fields are empty", `{"session_id":42,"cwd":["/tmp"],"transcript_path":null,"last_assistant_message":{}}`, Input{}},
		{"escapes decoded", `{"cwd":"/a\u00e9\/b","session_id":"s\"1"}`, Input{Cwd: "/aé/b", SessionID: `s"1`}},
		{"surrounding whitespace", " \n\t{\"cwd\":\"/x\"}\n", Input{Cwd: "/x"}},
		{"nested keys are not top-level", `{"x":{"cwd":"/no"}}`, Input{}},
		{"empty object", `{}`, Input{}},
		{"empty input", ``, Input{Malformed: true}},
		{"whitespace only", " \n", Input{Malformed: true}},
		{"array", `[{"cwd":"/"}]`, Input{Malformed: true}},
		{"string", `"cwd"`, Input{Malformed: true}},
		{"null", `null`, Input{Malformed: true}},
		{"truncated", `{"session_id":"s","cwd":"/tmp`, Input{Malformed: true}},
		{"two objects", `{"cwd":"/a"}{"cwd":"/b"}`, Input{Malformed: true}},
		{"trailing garbage", `{"cwd":"/a"} x`, Input{Malformed: true}},
		{"trailing NUL", "{\"cwd\":\"/a\"}\x00", Input{Malformed: true}},
		{"prose", `this is not json at all {{{`, Input{Malformed: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Read(strings.NewReader(tt.in)); got != tt.want {
				t.Errorf("Read(%q)\n got %+v\nwant %+v", tt.in, got, tt.want)
			}
		})
	}
}

func TestReadSizeCap(t *testing.T) {
	// A valid object of exactly MaxInput bytes is read; one byte more is
	// malformed rather than buffered without bound.
	build := func(size int) []byte {
		const head, tail = `{"cwd":"/r","last_assistant_message":"`, `"}`
		b := make([]byte, 0, size)
		b = append(b, head...)
		b = append(b, bytes.Repeat([]byte("a"), size-len(head)-len(tail))...)
		return append(b, tail...)
	}
	if got := Read(bytes.NewReader(build(MaxInput))); got.Malformed || got.Cwd != "/r" {
		t.Errorf("input of exactly MaxInput bytes: Malformed=%v Cwd=%q", got.Malformed, got.Cwd)
	}
	if got := Read(bytes.NewReader(build(MaxInput + 1))); !got.Malformed || got.Cwd != "" {
		t.Errorf("input of MaxInput+1 bytes: %+v, want malformed and empty", got.Malformed)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("boom") }

func TestReadError(t *testing.T) {
	if got := Read(failingReader{}); got != (Input{Malformed: true}) {
		t.Errorf("Read(failing reader) = %+v, want malformed", got)
	}
}

func TestNested(t *testing.T) {
	tests := []struct {
		value string
		want  bool
	}{{"", false}, {"1", true}, {"0", true}, {"yes", true}}
	for _, tt := range tests {
		getenv := func(k string) string {
			if k == childenv.GuardEnv {
				return tt.value
			}
			return ""
		}
		if got := Nested(getenv); got != tt.want {
			t.Errorf("Nested with %s=%q = %v, want %v", childenv.GuardEnv, tt.value, got, tt.want)
		}
	}
}

func TestTail(t *testing.T) {
	tests := []struct {
		name    string
		content string
		n       int64
		want    string
	}{
		{"whole small file", "abc", 10, "abc"},
		{"exact size", "abc", 3, "abc"},
		{"last bytes", "abcdef", 2, "ef"},
		{"zero", "abc", 0, ""},
		{"negative counts as zero", "abc", -5, ""},
		{"empty file", "", 10, ""},
		// "é" is C3 A9: a cut after C3 leaves A9, which is dropped.
		{"cut inside a two-byte rune", "xé", 1, ""},
		{"cut before a two-byte rune", "xé", 2, "é"},
		// "€" is E2 82 AC; the last two bytes are continuation bytes.
		{"cut inside a three-byte rune", "a€b", 3, "b"},
		{"cut inside a four-byte rune", "a😀b", 4, "b"},
		{"whole file keeps its own leading continuation byte", "\xa9ab", 10, "\xa9ab"},
		{"more than three continuation bytes are not UTF-8 and are kept", "x\x80\x80\x80\x80z", 5, "\x80\x80\x80\x80z"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, "t.jsonl")
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			got, err := Tail(path, tt.n)
			if err != nil || string(got) != tt.want {
				t.Errorf("Tail(%q, %d) = %q, %v; want %q", tt.content, tt.n, got, err, tt.want)
			}
		})
	}
}

func TestTailRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{dir, fifo, link, "/dev/null"} {
		done := make(chan error, 1)
		// Opening a FIFO without O_NONBLOCK waits for a writer forever; the
		// timeout turns that hang into a failure.
		go func() { _, err := Tail(path, 100); done <- err }()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("Tail(%q) error = %v, want ErrNotRegular", path, err)
			}
		case <-time.After(2 * time.Second):
			t.Fatalf("Tail(%q) blocked", path)
		}
	}
	if _, err := Tail(filepath.Join(dir, "missing"), 10); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Tail(missing) error = %v, want not-exist", err)
	}
}

func TestIsRegularFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "l")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(dir, "d")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want bool
	}{{file, true}, {link, true}, {"", false}, {dir, false}, {dangling, false}, {"/dev/null", false}}
	for _, tt := range tests {
		if got := IsRegularFile(tt.path); got != tt.want {
			t.Errorf("IsRegularFile(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
}
