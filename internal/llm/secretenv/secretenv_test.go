package secretenv

import (
	"slices"
	"testing"
)

func TestIsSecret(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"GITHUB_TOKEN", true},
		{"github_token", true},
		{"GH_TOKEN", true},
		{"GH_ENTERPRISE_TOKEN", true},
		{"GITLAB_TOKEN", true},
		{"CI_JOB_TOKEN", true},
		{"CI_JOB_JWT", true},
		{"CI_JOB_JWT_V2", true},
		{"ACTIONS_RUNTIME_TOKEN", true},
		{"ACTIONS_ID_TOKEN_REQUEST_TOKEN", true},
		{"ACTIONS_ID_TOKEN_REQUEST_URL", true},
		{"TRIBUNAL_CACHE_SECRET", true},
		{"ANTHROPIC_API_KEY", true},
		{"OPENAI_API_KEY", true},
		{"AWS_SECRET_ACCESS_KEY", true},
		{"AWS_SESSION_TOKEN", true},
		{"NPM_PAT", true},
		{"DB_PASSWORD", true},
		{"MY_PASSWORD_FILE", true},
		{"SECRETS_DIR", true},
		{"GOOGLE_APPLICATION_CREDENTIALS", true},
		{"PATH", false},
		{"HOME", false},
		{"ANTHROPIC_BASE_URL", false},
		{"CLAUDE_CODE_MAX_OUTPUT_TOKENS", false},
		{"AWS_ACCESS_KEY_ID", false},
		{"KEYBOARD", false},
		{"TOKENIZERS_PARALLELISM", false},
		{"CI", false},
	} {
		if got := IsSecret(tc.name); got != tc.want {
			t.Errorf("IsSecret(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestScrubKeepsWhatTheSeatNeeds(t *testing.T) {
	base := []string{
		"PATH=/usr/bin", "HOME=/h", "CI=true",
		"GITHUB_TOKEN=ghs_x", "GH_TOKEN=gho_x", "CI_JOB_JWT_V1=jwt", "TRIBUNAL_CACHE_SECRET=hmac",
		"ANTHROPIC_API_KEY=sk-ant", "ANTHROPIC_AUTH_TOKEN=auth", "CLAUDE_CODE_OAUTH_TOKEN=oauth",
		"OPENAI_API_KEY=sk-oai", "CODEX_API_KEY=cdx", "GEMINI_API_KEY=gem", "GOOGLE_API_KEY=goo",
		"GOOGLE_APPLICATION_CREDENTIALS=/adc.json", "AWS_SECRET_ACCESS_KEY=aws", "AWS_SESSION_TOKEN=awst",
		"AWS_REGION=eu", "MY_LLM_KEY=mine", "DEPLOY_PASSWORD=pw",
	}
	plain := []string{"PATH=/usr/bin", "HOME=/h", "CI=true", "AWS_REGION=eu"}
	for _, tc := range []struct {
		name    string
		program string
		environ []string
		extra   []string
		want    []string
	}{
		{"claude keeps its own keys", "claude", base, nil,
			append(slices.Clone(plain), "ANTHROPIC_API_KEY=sk-ant", "ANTHROPIC_AUTH_TOKEN=auth", "CLAUDE_CODE_OAUTH_TOKEN=oauth")},
		{"claude on Bedrock keeps AWS", "claude", append(slices.Clone(base), "CLAUDE_CODE_USE_BEDROCK=1"), nil,
			append(slices.Clone(plain), "ANTHROPIC_API_KEY=sk-ant", "ANTHROPIC_AUTH_TOKEN=auth", "CLAUDE_CODE_OAUTH_TOKEN=oauth",
				"AWS_SECRET_ACCESS_KEY=aws", "AWS_SESSION_TOKEN=awst", "CLAUDE_CODE_USE_BEDROCK=1")},
		{"claude on Vertex keeps the ADC file", "claude", append(slices.Clone(base), "CLAUDE_CODE_USE_VERTEX=1"), nil,
			append(slices.Clone(plain), "ANTHROPIC_API_KEY=sk-ant", "ANTHROPIC_AUTH_TOKEN=auth", "CLAUDE_CODE_OAUTH_TOKEN=oauth",
				"GOOGLE_APPLICATION_CREDENTIALS=/adc.json", "CLAUDE_CODE_USE_VERTEX=1")},
		{"claude on Foundry keeps its key", "claude", append(slices.Clone(base), "CLAUDE_CODE_USE_FOUNDRY=1", "ANTHROPIC_FOUNDRY_API_KEY=fdy"), nil,
			append(slices.Clone(plain), "ANTHROPIC_API_KEY=sk-ant", "ANTHROPIC_AUTH_TOKEN=auth", "CLAUDE_CODE_OAUTH_TOKEN=oauth",
				"CLAUDE_CODE_USE_FOUNDRY=1", "ANTHROPIC_FOUNDRY_API_KEY=fdy")},
		{"Bedrock switched off keeps no AWS", "claude", append(slices.Clone(base), "CLAUDE_CODE_USE_BEDROCK=0"), nil,
			append(slices.Clone(plain), "ANTHROPIC_API_KEY=sk-ant", "ANTHROPIC_AUTH_TOKEN=auth", "CLAUDE_CODE_OAUTH_TOKEN=oauth", "CLAUDE_CODE_USE_BEDROCK=0")},
		{"codex keeps OpenAI's and its api_key_env", "codex", base, []string{"MY_LLM_KEY"},
			append(slices.Clone(plain), "OPENAI_API_KEY=sk-oai", "CODEX_API_KEY=cdx", "MY_LLM_KEY=mine")},
		{"gemini keeps Google's", "gemini", base, nil,
			append(slices.Clone(plain), "GEMINI_API_KEY=gem", "GOOGLE_API_KEY=goo", "GOOGLE_APPLICATION_CREDENTIALS=/adc.json")},
		{"a command judge keeps nothing", "", base, nil, plain},
		{"the delegate keeps its api_key_env only", "", base, []string{"MY_LLM_KEY"},
			append(slices.Clone(plain), "MY_LLM_KEY=mine")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Scrub(tc.environ, Keep(tc.program, tc.environ, tc.extra...))
			slices.Sort(got)
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("Scrub =\n  %q\nwant\n  %q", got, want)
			}
		})
	}
}

func TestValues(t *testing.T) {
	got := Values([]string{"PATH=/usr/bin", "GITHUB_TOKEN=ghs_abc", "EMPTY_KEY=", "X_SECRET=s=1"})
	if want := []string{"ghs_abc", "s=1"}; !slices.Equal(got, want) {
		t.Errorf("Values = %q, want %q", got, want)
	}
}
