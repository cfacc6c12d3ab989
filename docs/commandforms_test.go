package docs

import (
	"regexp"
	"testing"
)

// bareLog is the plugin command without its plugin prefix. Claude Code
// 2.1.332 reaches a plugin command only as /<plugin>:<command>: typed in a
// session the bare form is an "Unknown command", and under `claude -p` it
// reaches the model as plain text (e2e's TestCommandForms* pin both). The
// pattern is built from two halves so that this file does not match it.
var bareLog = regexp.MustCompile(`(^|[^:\w])/tribunal` + `-log\b`)

// bareFormAllowed are the files that name the bare form on purpose.
var bareFormAllowed = map[string]bool{
	"e2e/commandforms_test.go": true, // proves the bare form does not expand
}

// TestCommandFormsWork keeps every text a user or the model reads (README,
// docs, the install message, the plugin's skill and command, the hooks'
// context strings, testscripts) naming the log command in the one form
// that expands both in a session and under `claude -p`.
func TestCommandFormsWork(t *testing.T) {
	walkText(t, func(rel string, line int, text string) {
		if bareLog.MatchString(text) && !bareFormAllowed[rel] {
			t.Errorf("%s:%d names the log command without its plugin prefix (write /tribunal:tribunal-log): %s", rel, line, text)
		}
	})
}
