package claude

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// versionLine is what `claude --version` prints: "2.1.332 (Claude Code)".
// A wrapper script, a stub or another program answering --version prints
// something else, which doctor must not report as a version.
var versionLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?)(?: \([^()\n]*\))?$`)
})

// ParseVersion returns the version in out, the output of `claude
// --version`, or an error quoting (shortened) what came instead.
func ParseVersion(out string) (string, error) {
	line := strings.TrimSpace(out)
	if m := versionLine().FindStringSubmatch(line); m != nil {
		return m[1], nil
	}
	if line == "" {
		return "", fmt.Errorf("'--version' printed nothing, not a version")
	}
	return "", fmt.Errorf("'--version' printed %q, not a version", safetext.OneLine(line, 60))
}

// Auth is what `claude auth status` says about the credentials a child
// would use. The command reads local state only: no model is called.
type Auth struct {
	LoggedIn bool `json:"loggedIn"`
	// Method is "claude.ai", "api_key", "none", …; Source names where an
	// API key came from (ANTHROPIC_API_KEY, apiKeyHelper, …) when the
	// CLI says.
	Method string `json:"authMethod"`
	Source string `json:"apiKeySource"`
}

// ParseAuthStatus reads the JSON `claude auth status` prints (on exit 0
// when logged in, 1 when not). An answer that is not that JSON is an
// error: the CLI is too old to have the command, or not Claude Code.
func ParseAuthStatus(out []byte) (Auth, error) {
	var a struct {
		Auth
		LoggedIn *bool `json:"loggedIn"`
	}
	if err := json.Unmarshal(out, &a); err != nil || a.LoggedIn == nil {
		return Auth{}, fmt.Errorf("'auth status' did not answer with its JSON status (%q)", safetext.OneLine(strings.TrimSpace(string(out)), 60))
	}
	a.Auth.LoggedIn = *a.LoggedIn
	return a.Auth, nil
}

// Describe says how the CLI is signed in, for one line of doctor.
func (a Auth) Describe() string {
	d := "logged in"
	if a.Method != "" && a.Method != "none" {
		d += " (" + a.Method
		if a.Source != "" {
			d += " from " + a.Source
		}
		d += ")"
	}
	return safetext.OneLine(d, 120)
}
