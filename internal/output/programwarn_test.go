package output

import (
	"bytes"
	"strings"
	"testing"
)

// TestMissingProgramWarning: the warning says what MissingProgram's error
// says, prefix aside.
func TestMissingProgramWarning(t *testing.T) {
	for _, dir := range []string{"/opt/tribunal/bin", ""} {
		var warned, failed bytes.Buffer
		Session{W: &warned}.MissingProgramWarning("task X: traces not exported", "tribunal-otel", dir)
		Session{W: &failed}.MissingProgram("task X: traces not exported", "tribunal-otel", dir)
		if want := strings.Replace(failed.String(), "tribunal: error: ", "tribunal: warning: ", 1); warned.String() != want {
			t.Errorf("dir %q: warning %q, want %q", dir, warned.String(), want)
		}
	}
}
