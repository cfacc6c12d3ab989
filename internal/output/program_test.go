package output

import (
	"bytes"
	"flag"
	"io"
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

// TestFlagError: Go's flag errors in the user's words, hidden flags never
// suggested.
func TestFlagError(t *testing.T) {
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Int("limit", 0, "how many")
	fs.Bool("live", false, "")
	hidden := func(name string) bool { return name == "live" }
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--limt", "3"}, "unknown flag --limt (did you mean --limit?)"},
		{[]string{"--liv"}, "unknown flag --liv"},
		{[]string{"--limit"}, "--limit needs a value"},
		{[]string{"--limit", "x"}, `invalid value "x" for --limit: parse error`},
	} {
		err := fs.Parse(tc.args)
		if got := FlagError(fs, err, hidden); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
	}
	if got := FlagNames(fs, hidden); len(got) != 1 || got[0] != "limit" {
		t.Errorf("FlagNames = %v", got)
	}
}
