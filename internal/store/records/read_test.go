package records

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReadersRefuseAFIFO: a named pipe planted in the store in place of an
// artifact is an error naming it, not a read that waits for a writer
// forever (a regression hangs this test until go test's timeout).
func TestReadersRefuseAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), GateFile)
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	readers := map[string]func() error{
		"ReadText": func() error { _, err := ReadText(path, MaxArtifact); return err },
		"ReadHead": func() error { _, err := ReadHead(path, MaxDiff); return err },
		"ReadRaw":  func() error { _, err := ReadRaw(path); return err },
		"ReadJSON": func() error { var g Gate; return ReadJSON(path, &g) },
		"ReadStopFile": func() error {
			_, err := ReadStopFile(path)
			return err
		},
		"ReadRecord": func() error { _, err := ReadRecord(path); return err },
	}
	for name, read := range readers {
		err := read()
		if err == nil {
			t.Errorf("%s of a named pipe: no error", name)
			continue
		}
		var p *Problem
		if name != "ReadStopFile" && name != "ReadRecord" && (!errors.As(err, &p) || p.Path != path || !strings.Contains(err.Error(), "named pipe")) {
			t.Errorf("%s of a named pipe: %v, want a *Problem naming the file and a named pipe", name, err)
		}
	}
}

// TestReaders: each reader's answer for a missing, oversized, non-JSON,
// too deeply nested and good file.
func TestReaders(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := file("good.json", " {\"passed\":true}\n")
	big := file("big.txt", "0123456789")
	bad := file("bad.json", "{")
	deep := file("deep.json", strings.Repeat("[", 1001)+strings.Repeat("]", 1001))
	missing := filepath.Join(dir, "missing.json")

	if _, err := ReadText(missing, 10); !isProblem(err, missing, ErrMissing) {
		t.Errorf("ReadText(missing) = %v, want ErrMissing", err)
	}
	if _, err := ReadText(big, 9); err == nil || !strings.Contains(err.Error(), "larger than 9 bytes") {
		t.Errorf("ReadText(10 bytes, max 9) = %v, want larger than 9 bytes", err)
	}
	if data, err := ReadText(big, 10); err != nil || string(data) != "0123456789" {
		t.Errorf("ReadText(10 bytes, max 10) = %q, %v", data, err)
	}
	if data, err := ReadHead(big, 4); err != nil || string(data) != "0123" {
		t.Errorf("ReadHead(10 bytes, max 4) = %q, %v, want 0123", data, err)
	}
	if _, err := ReadRaw(bad); !isProblem(err, bad, ErrNotJSON) {
		t.Errorf("ReadRaw(bad) = %v, want ErrNotJSON", err)
	}
	if _, err := ReadRaw(deep); err == nil || errors.Is(err, ErrNotJSON) {
		t.Errorf("ReadRaw(deep) = %v, want the nesting bound", err)
	}
	if raw, err := ReadRaw(good); err != nil || string(raw) != `{"passed":true}` {
		t.Errorf("ReadRaw(good) = %q, %v", raw, err)
	}
	var g Gate
	if err := ReadJSON(good, &g); err != nil || !g.Passed {
		t.Errorf("ReadJSON(good) = %+v, %v", g, err)
	}
	var n int
	if err := ReadJSON(good, &n); err == nil || !strings.Contains(err.Error(), "unexpected content") {
		t.Errorf("ReadJSON(object into int) = %v, want unexpected content", err)
	}
}

func isProblem(err error, path string, reason error) bool {
	var p *Problem
	return errors.As(err, &p) && p.Path == path && errors.Is(p.Err, reason)
}
