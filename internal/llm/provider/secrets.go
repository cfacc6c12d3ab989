package provider

import (
	"context"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/secretenv"
	"github.com/tribunal-cc/tribunal/internal/redact"
)

// Redactor returns the redactor of every credential the specs use or the
// environment holds (nil when there is none): each api_key_env's value,
// the userinfo and query values of each base_url, the keys the CLIs of
// the specs' providers (and claude, which runs the actor) read from their
// own variables (an endpoint or a CLI that echoes its key would put it in
// tribunal's records as surely as ours), and the value of every variable
// of environ that secretenv calls a secret — GITHUB_TOKEN, any *_TOKEN or
// *_KEY — so that a judge that read one cannot post it in a PR comment,
// SARIF or the store.
func Redactor(specs []Spec, getenv func(string) string, environ []string) *redact.Redactor {
	secrets := secretenv.Values(environ)
	vars := map[string]bool{}
	for _, v := range secretenv.ProgramKeys(Claude) {
		vars[v] = true
	}
	for _, s := range specs {
		if s.APIKeyEnv != "" && isEnvName(s.APIKeyEnv) {
			vars[s.APIKeyEnv] = true
		}
		for _, v := range secretenv.ProgramKeys(s.Name()) {
			vars[v] = true
		}
		secrets = append(secrets, redact.URLSecrets(s.BaseURL)...)
	}
	for v := range vars {
		secrets = append(secrets, getenv(v))
	}
	return redact.New(secrets...)
}

// Endpoint is the base URL as tribunal records it: without userinfo,
// query or fragment (spec §7.13), "" when it is not a URL.
func (s Spec) Endpoint() string {
	e, _ := redact.Endpoint(s.BaseURL)
	return e
}

// redacting is a runner whose result and error pass through a redactor:
// the boundary where a provider's text (an error body that echoes the key,
// a CLI's stderr) enters tribunal.
type redacting struct {
	red  *redact.Redactor
	next claude.Runner
}

func (r redacting) Run(ctx context.Context, c claude.Call) (claude.Result, error) {
	res, err := r.next.Run(ctx, c)
	res.Text = r.red.String(res.Text)
	res.Raw = r.red.String(res.Raw)
	res.Stderr = r.red.String(res.Stderr)
	res.Subtype = r.red.String(res.Subtype)
	res.TerminalReason = r.red.String(res.TerminalReason)
	res.Structured = r.red.RawJSON(res.Structured)
	return res, r.red.Error(err)
}
