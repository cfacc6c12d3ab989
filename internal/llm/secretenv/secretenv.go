// Package secretenv owns which environment variables are secrets: the ones no child inherits unless its seat's own provider needs them, and whose values the redactor removes from everything stored or printed.
package secretenv

import (
	"slices"
	"strings"
)

// named are secrets whatever their names look like: the forge and CI
// tokens a job holds (a judged tree that captured a child could push with
// them or mint an OIDC token), and the review cache's key, which no child
// may see or the cache could be forged (issue 30).
var named = []string{
	"GITHUB_TOKEN", "GH_TOKEN", "GH_ENTERPRISE_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN",
	"ACTIONS_RUNTIME_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "ACTIONS_ID_TOKEN_REQUEST_URL",
	"TRIBUNAL_CACHE_SECRET",
}

// namedPrefixes are families of secrets: GitLab's CI_JOB_JWT, _V1, _V2.
var namedPrefixes = []string{"CI_JOB_JWT"}

// suffixes and infixes make any other name a secret: the conventions of
// keys, tokens and passwords, so that a credential nobody listed is still
// kept from children.
var (
	suffixes = []string{"_TOKEN", "_KEY", "_SECRET", "_PASSWORD", "_PAT", "_CREDENTIALS"}
	infixes  = []string{"SECRET", "PASSWORD"}
)

// IsSecret reports whether the variable name holds a secret. Names are
// compared in upper case: Windows' are case-insensitive, and a lower-case
// github_token is as much a token.
func IsSecret(name string) bool {
	n := strings.ToUpper(name)
	if slices.Contains(named, n) {
		return true
	}
	for _, p := range namedPrefixes {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	for _, s := range suffixes {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	for _, s := range infixes {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// Programs' own keys: the variables each model CLI reads its credential
// from by itself. Only the CLI that reads one keeps it.
var programKeys = map[string][]string{
	"claude": {"ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN"},
	"codex":  {"OPENAI_API_KEY", "CODEX_API_KEY"},
	"gemini": {"GEMINI_API_KEY", "GOOGLE_API_KEY", "GOOGLE_APPLICATION_CREDENTIALS"},
}

// ProgramKeys returns the key variables the model CLI program reads by
// itself (claude, codex, gemini); nil for any other program.
func ProgramKeys(program string) []string { return slices.Clone(programKeys[program]) }

// Keep returns the secret variables a child of program needs from
// environ: the CLI's own keys, plus claude's cloud credentials when
// environ selects Bedrock (AWS_*), Vertex (GOOGLE_APPLICATION_CREDENTIALS)
// or Foundry (ANTHROPIC_FOUNDRY_API_KEY), plus extra (a seat's
// configured api_key_env). Any other program (a
// command judge, the provider-call delegate) gets extra alone.
func Keep(program string, environ []string, extra ...string) []string {
	keep := append(ProgramKeys(program), extra...)
	if program != "claude" {
		return keep
	}
	if set(environ, "CLAUDE_CODE_USE_BEDROCK") {
		for _, kv := range environ {
			if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "AWS_") {
				keep = append(keep, k)
			}
		}
	}
	if set(environ, "CLAUDE_CODE_USE_VERTEX") {
		keep = append(keep, "GOOGLE_APPLICATION_CREDENTIALS")
	}
	if set(environ, "CLAUDE_CODE_USE_FOUNDRY") {
		keep = append(keep, "ANTHROPIC_FOUNDRY_API_KEY")
	}
	return keep
}

// set reports whether name has a non-empty value other than 0 or false
// in environ, as Claude Code reads its switches.
func set(environ []string, name string) bool {
	v, ok := lookup(environ, name)
	return ok && v != "" && v != "0" && !strings.EqualFold(v, "false")
}

func lookup(environ []string, name string) (string, bool) {
	for i := len(environ) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(environ[i], name+"="); ok {
			return v, true
		}
	}
	return "", false
}

// Scrub returns environ without its secret variables, except those named
// in keep: the environment of every child tribunal starts.
func Scrub(environ, keep []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if IsSecret(k) && !slices.Contains(keep, k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// Values returns the values of environ's secret variables, for the
// redactor (which ignores values too short to be credentials).
func Values(environ []string) []string {
	var out []string
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && v != "" && IsSecret(k) {
			out = append(out, v)
		}
	}
	return out
}
