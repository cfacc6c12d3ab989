package claude

import "testing"

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		out, want string
		ok        bool
	}{
		{"2.1.332 (Claude Code)\n", "2.1.332", true},
		{"2.1.332", "2.1.332", true},
		{"2.2.0-beta.1 (Claude Code)", "2.2.0-beta.1", true},
		{"", "", false},
		{"hello world", "", false},
		{"error: unknown option '--version'", "", false},
		{"2.1 (Claude Code)", "", false},
		{"2.1.332 (Claude Code)\nand more", "", false},
		{"{\"type\":\"result\"}", "", false},
	} {
		got, err := ParseVersion(tc.out)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseVersion(%q) = %q, %v; want %q, ok %v", tc.out, got, err, tc.want, tc.ok)
		}
	}
}

func TestParseAuthStatus(t *testing.T) {
	for _, tc := range []struct {
		out  string
		ok   bool
		in   bool
		desc string
	}{
		{`{"loggedIn": true, "authMethod": "api_key", "apiKeySource": "ANTHROPIC_API_KEY"}`, true, true, "logged in (api_key from ANTHROPIC_API_KEY)"},
		{`{"loggedIn": true, "authMethod": "claude.ai"}`, true, true, "logged in (claude.ai)"},
		{`{"loggedIn": false, "authMethod": "none"}`, true, false, ""},
		{`{"authMethod": "none"}`, false, false, ""},
		{`Not logged in. Run claude auth login to authenticate.`, false, false, ""},
		{``, false, false, ""},
	} {
		a, err := ParseAuthStatus([]byte(tc.out))
		if (err == nil) != tc.ok || a.LoggedIn != tc.in || (tc.in && a.Describe() != tc.desc) {
			t.Errorf("ParseAuthStatus(%q) = %+v (%q), %v; want ok %v logged in %v %q", tc.out, a, a.Describe(), err, tc.ok, tc.in, tc.desc)
		}
	}
}
