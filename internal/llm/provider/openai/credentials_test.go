package openai

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakellm"
)

// TestBaseURLWithQueryAndUserinfo: a query in base_url (Azure's
// api-version, a key in api-key) used to end up in front of
// "/chat/completions", so the request went to the wrong path with a broken
// query (issue 18 item 5). The path is joined, the query kept, the
// userinfo used for basic authentication, and the stored endpoint carries
// neither.
func TestBaseURLWithQueryAndUserinfo(t *testing.T) {
	for _, suffix := range []string{"/v1", "/v1/"} {
		srv := fakellm.Start(t)
		srv.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Text(verdictJSON)})
		base := strings.Replace(srv.URL, "http://", "http://azure-user:pw-0123456789@", 1) + suffix +
			"?api-version=2024-10-21&api-key=azure-key-0123456789"
		spec := provider.Spec{Provider: provider.OpenAI, Model: "m", BaseURL: base}
		if _, err := Runner(Options{Getenv: func(string) string { return "" }}, spec).Run(context.Background(), call()); err != nil {
			t.Fatalf("%s: %v", suffix, err)
		}
		r := srv.Requests()[0]
		if r.Path != "/v1/chat/completions" || r.Query != "api-version=2024-10-21&api-key=azure-key-0123456789" || r.User != "azure-user:pw-0123456789" {
			t.Errorf("%s: request to %q query %q user %q", suffix, r.Path, r.Query, r.User)
		}
		if got := spec.Endpoint(); got != srv.URL+suffix {
			t.Errorf("stored endpoint %q, want %q", got, srv.URL+suffix)
		}
	}
}

// TestKeyEchoedByTheEndpointIsRedacted: an endpoint that quotes the
// Authorization header or the URL's key in its error puts the key into the
// error, the raw output and everything recorded from them; the provider
// runner scrubs both at the boundary.
func TestKeyEchoedByTheEndpointIsRedacted(t *testing.T) {
	srv := fakellm.Start(t)
	srv.Add(fakellm.Rule{API: fakellm.Chat, Reply: fakellm.Reply{Status: http.StatusUnauthorized, Error: "bad key", EchoCredentials: true}})
	env := map[string]string{"TEST_KEY": "sk-secret-0123456789"}
	spec := provider.Spec{Provider: provider.OpenAI, Model: "m", APIKeyEnv: "TEST_KEY",
		BaseURL: srv.URL + "/v1?api-key=query-key-0123456789"}
	getenv := func(k string) string { return env[k] }
	deps := provider.Deps{Getenv: getenv, Redact: provider.Redactor([]provider.Spec{spec}, getenv, nil),
		OpenAI: func(s provider.Spec) claude.Runner { return Runner(Options{Getenv: getenv}, s) }}
	res, err := deps.Runner(spec).Run(context.Background(), call())
	if err == nil || !strings.Contains(err.Error(), "HTTP 401: bad key") || !strings.Contains(res.Raw, "bad key") {
		t.Fatalf("err %v raw %q", err, res.Raw)
	}
	for _, secret := range []string{"sk-secret-0123456789", "query-key-0123456789"} {
		if strings.Contains(err.Error(), secret) || strings.Contains(res.Raw, secret) {
			t.Errorf("%s leaked: err %q raw %q", secret, err, res.Raw)
		}
	}
}
