package hookio

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/nesting"
)

// FuzzHookInput feeds arbitrary bytes as hook stdin. Read must not panic;
// Malformed must hold exactly when the input is not one JSON object (as
// encoding/json judges it) nested no deeper than nesting.Max; malformed input leaves every field empty; and
// for an object in valid UTF-8 without repeated top-level keys (where every
// decoder agrees on the meaning) each field must equal what encoding/json
// decodes for that key when it is a string, and be empty otherwise.
func FuzzHookInput(f *testing.F) {
	f.Add([]byte(`{"session_id":"s","cwd":"/r","stop_hook_active":false}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		got := Read(bytes.NewReader(data))
		trimmed := bytes.TrimSpace(data)
		object := json.Valid(data) && len(trimmed) > 0 && trimmed[0] == '{' && nesting.JSON(data) == nil
		if got.Malformed == object {
			t.Fatalf("Malformed = %v for %q (a JSON object: %v)", got.Malformed, data, object)
		}
		if got.Malformed {
			if got != (Input{Malformed: true}) {
				t.Fatalf("malformed input left fields set: %+v", got)
			}
			return
		}
		if !utf8.Valid(data) {
			return
		}
		fields, unique := topLevel(data)
		if !unique {
			return
		}
		str := func(key string) string {
			var s string
			if raw, ok := fields[key]; ok && bytes.HasPrefix(raw, []byte(`"`)) {
				if err := json.Unmarshal(raw, &s); err != nil {
					t.Fatalf("decode %s: %v", key, err)
				}
			}
			return s
		}
		want := Input{
			SessionID:            str("session_id"),
			TranscriptPath:       str("transcript_path"),
			Cwd:                  str("cwd"),
			HookEventName:        str("hook_event_name"),
			Source:               str("source"),
			LastAssistantMessage: str("last_assistant_message"),
			StopHookActive:       string(fields["stop_hook_active"]) == "true",
		}
		if got != want {
			t.Fatalf("Read(%q)\n got %+v\nwant %+v", data, got, want)
		}
	})
}

// topLevel decodes the members of a JSON object, compacted, and reports
// whether every key occurs once. Decoders disagree about repeated keys
// (first or last wins), so those inputs have no single right answer.
func topLevel(data []byte) (map[string][]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, false
	}
	out := map[string][]byte{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, false
		}
		if _, dup := out[key]; dup {
			return nil, false
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return nil, false
		}
		out[key] = buf.Bytes()
	}
	return out, true
}

// FuzzTail writes arbitrary content to a file and tails it with an
// arbitrary limit. The result must be a suffix of the content no longer
// than the limit (0 for a negative one), never drop more than the three
// bytes of a cut character, and, for UTF-8 content, be valid UTF-8: the
// judge prompt must never start with half a character.
func FuzzTail(f *testing.F) {
	f.Add([]byte("{\"type\":\"user\"}\n{\"type\":\"assistant\",\"text\":\"héllo €\"}\n"), int64(12))
	path := filepath.Join(fuzzDir(f), "transcript.jsonl")
	f.Fuzz(func(t *testing.T, content []byte, n int64) {
		if err := os.WriteFile(path, content, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := Tail(path, n)
		if err != nil {
			t.Fatalf("Tail: %v", err)
		}
		limit := max(n, 0)
		if int64(len(got)) > limit {
			t.Fatalf("Tail(%d) returned %d bytes", n, len(got))
		}
		if !bytes.HasSuffix(content, got) {
			t.Fatalf("%q is not a suffix of %q", got, content)
		}
		want := min(limit, int64(len(content)))
		if dropped := want - int64(len(got)); dropped < 0 || dropped > utf8.UTFMax-1 {
			t.Fatalf("Tail(%d) of %d bytes returned %d bytes: dropped %d", n, len(content), len(got), dropped)
		}
		if utf8.Valid(content) && !utf8.Valid(got) {
			t.Fatalf("tail %q of valid UTF-8 content is not valid UTF-8", got)
		}
	})
}

// corpusBytes decodes a committed corpus file holding one []byte value.
func corpusBytes(t *testing.T, file []byte) string {
	t.Helper()
	_, rest, ok := strings.Cut(string(file), "\n")
	rest = strings.TrimSpace(rest)
	if !ok || !strings.HasPrefix(rest, "[]byte(") || !strings.HasSuffix(rest, ")") {
		t.Fatalf("not a []byte corpus entry: %q", file)
	}
	s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(rest, "[]byte("), ")"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// fuzzDir is where the target writes its file on every run: tmpfs when
// there is one, where a rewrite costs no journal work, else a temporary
// directory.
func fuzzDir(f *testing.F) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if d, err := os.MkdirTemp("/dev/shm", "tribunal-fuzz-"); err == nil {
			f.Cleanup(func() { os.RemoveAll(d) })
			return d
		}
	}
	return f.TempDir()
}
