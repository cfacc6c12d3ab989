package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSanitizeSessionID transcribes spec §8.8: an id of [A-Za-z0-9-] is its
// own name; any other gets its unsafe bytes replaced by "_" and a hash of
// the raw id, so that no two ids share a store file.
func TestSanitizeSessionID(t *testing.T) {
	long := strings.Repeat("a", 200)
	tests := []struct{ in, want string }{
		{"8d99dc41-fd1e-471b-8cea-12bd65cb251d", "8d99dc41-fd1e-471b-8cea-12bd65cb251d"},
		{"", "unknown"},
		{"a/b", "a_b_" + hashOf("a/b")},
		{"..", "___" + hashOf("..")},
		{strings.Repeat("x", 128), strings.Repeat("x", 128)},
		{long, strings.Repeat("a", 111) + "_" + hashOf(long)},
	}
	for _, tt := range tests {
		if got := SanitizeSessionID(tt.in); got != tt.want {
			t.Errorf("SanitizeSessionID(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:8])
}

// TestSanitizeSessionIDInjective: ids that differ only in the bytes the
// rule replaces, or beyond the length cap, got one store file before
// (issue 18 item 7): one session's pending verdict, stop file or lock was
// another's. Every name must be distinct and one safe component.
func TestSanitizeSessionIDInjective(t *testing.T) {
	long := strings.Repeat("a", 300)
	ids := []string{
		"a/b", "a_b", "a\x00b", "a\\b", "a.b", "a b", "a%2Fb", "a__b",
		"sé", "s__", "s_", "日本", "______",
		".", "..", "_", "__", "../x", "..\\x",
		"unknown", "", "x", "A", "a",
		long, long + "b", long[:128], long[:129], long[:111] + "_" + hashOf(long[:129]),
		strings.Repeat("a", 111) + "-" + "c2a908d98f5df987",
	}
	seen := map[string]string{}
	for _, id := range ids {
		name := SanitizeSessionID(id)
		if !safeName.MatchString(name) || name == "." || name == ".." {
			t.Errorf("SanitizeSessionID(%q) = %q, not a safe file name", id, name)
		}
		if prev, dup := seen[name]; dup && !(id == "" && prev == "unknown" || id == "unknown" && prev == "") {
			t.Errorf("ids %q and %q share the name %q", prev, id, name)
		}
		seen[name] = id
	}
}

var (
	safeName  = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)
	untouched = regexp.MustCompile(`^[A-Za-z0-9-]{1,128}$`)
)

// FuzzSanitizeSessionID: whatever id Claude Code (or anything posing as it)
// sends, the stop file name stays one safe component inside the project
// directory.
func FuzzSanitizeSessionID(f *testing.F) {
	for _, s := range []string{"", "../../etc/passwd", "a/b\\c", "\xff\xfe", strings.Repeat("é", 100), "x\x00y"} {
		f.Add(s)
	}
	p := ForKey("/onlooker", "0123456789ab")
	f.Fuzz(func(t *testing.T, sid string) {
		name := SanitizeSessionID(sid)
		if !safeName.MatchString(name) {
			t.Fatalf("SanitizeSessionID(%q) = %q, not a safe name", sid, name)
		}
		if SanitizeSessionID(sid) != name {
			t.Fatal("not deterministic")
		}
		path := filepath.Join(p.Dir, name)
		if filepath.Dir(path) != p.Dir || filepath.Base(path) != name {
			t.Fatalf("SanitizeSessionID(%q) = %q escapes %q", sid, name, p.Dir)
		}
		if untouched.MatchString(sid) && name != sid {
			t.Fatalf("id %q of safe bytes changed: %q", sid, name)
		}
	})
}

func TestWriteJSON(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	path := filepath.Join(dir, "v.json")
	if err := WriteJSON(path, map[string]string{"feedback": "<ok> & fine"}); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"feedback\": \"<ok> & fine\"\n}\n"; string(data) != want {
		t.Errorf("file = %q, want %q", data, want)
	}
	for p, want := range map[string]fs.FileMode{path: 0o600, dir: 0o700, filepath.Dir(dir): 0o700} {
		if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", p, fi.Mode().Perm(), err, want)
		}
	}
	assertNoTemps(t, dir)
}

func TestWriteFileAtomicReplacesWhole(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, []byte("old content that is longer"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "new" {
		t.Errorf("file = %q", data)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600 (the old file's mode must not survive)", fi.Mode().Perm())
	}
	assertNoTemps(t, dir)
}

// TestWriteJSONFailureKeepsOldFile: an unencodable value or a directory
// that cannot be created leaves the previous file as it was.
func TestWriteJSONFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "stop.json")
	if err := os.WriteFile(path, []byte("{\"old\":true}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(path, map[string]any{"bad": func() {}}); err == nil {
		t.Fatal("encoding a func succeeded")
	}
	if data, _ := os.ReadFile(path); string(data) != "{\"old\":true}\n" {
		t.Errorf("old file changed to %q", data)
	}
	assertNoTemps(t, dir)

	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	err := WriteJSON(filepath.Join(blocker, "x", "y.json"), 1)
	if err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("error = %v, want one saying not a directory", err)
	}
}

// TestWriteFileAtomicUnwritableDir: a directory that cannot take the
// temporary file fails the write with the cause.
func TestWriteFileAtomicUnwritableDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	err := WriteFileAtomic(filepath.Join(dir, "f"), []byte("x"), 0o600)
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("error = %v, want permission denied", err)
	}
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

func TestSweepTemp(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	old := now.Add(-2 * time.Hour)
	for name, mtime := range map[string]time.Time{
		".stop-a.json.tmp-123":   old, // stale: removed
		".stop-b.json.tmp-456":   now, // a live writer's: kept
		"stop-c.json":            old, // a real file: kept
		".ledger.jsonl.head.tmp": old, // not ours in form: kept
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, mtime, mtime)
	}
	SweepTemp(dir, time.Hour, now)
	left, _ := os.ReadDir(dir)
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	want := []string{".ledger.jsonl.head.tmp", ".stop-b.json.tmp-456", "stop-c.json"}
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Errorf("left %v, want %v", names, want)
	}
}
