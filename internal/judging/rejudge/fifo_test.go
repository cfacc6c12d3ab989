package rejudge

import (
	"path/filepath"
	"syscall"
	"testing"
)

// TestRecordedFilesRefuseAFIFO: a named pipe in place of a task's text or
// an iteration's diff reads as nothing, instead of rejudge waiting for a
// writer forever (before the records readers it opened them blocking; a
// regression hangs this test until go test's timeout).
func TestRecordedFilesRefuseAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if got := readText(path); got != "" {
		t.Errorf("readText(fifo) = %q, want \"\"", got)
	}
	if got, ok := readDiff(path); ok || got != "" {
		t.Errorf("readDiff(fifo) = %q, %v, want \"\", false", got, ok)
	}
}
