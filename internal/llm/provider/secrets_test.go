package provider

import (
	"strings"
	"testing"
)

// TestRedactorLearnsSecretsFromTheEnvironment: the value of every
// variable secretenv calls a secret is redacted, the configured
// credentials still are, and ordinary values are left alone.
func TestRedactorLearnsSecretsFromTheEnvironment(t *testing.T) {
	environ := []string{"PATH=/usr/local/bin:/usr/bin", "GITHUB_TOKEN=ghs_forgetoken123", "DEPLOY_KEY=deploy-key-456",
		"TRIBUNAL_CACHE_SECRET=cache-hmac-789", "HOME=/home/runner"}
	getenv := func(k string) string {
		return map[string]string{"MY_LLM": "sk-configured-000", "ANTHROPIC_API_KEY": "sk-ant-own-111"}[k]
	}
	red := Redactor([]Spec{{Provider: OpenAI, APIKeyEnv: "MY_LLM", BaseURL: "https://u:endpoint-pw-222@x/v1"}}, getenv, environ)
	in := "token ghs_forgetoken123 deploy deploy-key-456 cache cache-hmac-789 llm sk-configured-000 ant sk-ant-own-111 url endpoint-pw-222 path /usr/local/bin:/usr/bin home /home/runner"
	got := red.String(in)
	for _, secret := range []string{"ghs_forgetoken123", "deploy-key-456", "cache-hmac-789", "sk-configured-000", "sk-ant-own-111", "endpoint-pw-222"} {
		if strings.Contains(got, secret) {
			t.Errorf("%q survived: %s", secret, got)
		}
	}
	for _, plain := range []string{"/usr/local/bin:/usr/bin", "/home/runner"} {
		if !strings.Contains(got, plain) {
			t.Errorf("%q was redacted: %s", plain, got)
		}
	}
}
