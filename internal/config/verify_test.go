package config

import "testing"

func TestVerifyFindings(t *testing.T) {
	e := newEnv(t)
	v := e.load().VerifyFindings()
	if v.Enabled || v.Model != DefaultVerifyModel || v.Timeout != DefaultVerifyTimeout || v.MaxOutputTokens != DefaultVerifyMaxTokens {
		t.Errorf("defaults = %+v", v)
	}
	e.tribunal(2, `{"severity":{"verify":{"enabled":true,"model":"small","timeout_seconds":30,"max_output_tokens":200,"provider":"openai","base_url":"http://x/v1","api_key_env":"K"}}}`)
	c := e.load()
	v = c.VerifyFindings()
	if !v.Enabled || v.Model != "small" || v.Timeout.Seconds() != 30 || v.MaxOutputTokens != 200 {
		t.Errorf("set = %+v", v)
	}
	if p := c.VerifyProvider(); p.Provider != "openai" || p.Model != "small" || p.BaseURL != "http://x/v1" || p.Key != "tribunal.severity.verify" {
		t.Errorf("provider = %+v", p)
	}
	if len(e.warnings) != 0 {
		t.Errorf("warnings: %q", e.warnings)
	}
	e.tribunal(2, `{"severity":{"verify":{"enabled":"yes"}}}`)
	if e.load().VerifyFindings().Enabled {
		t.Error("a non-boolean enabled turned verification on")
	}
	if !e.hasWarning("tribunal.severity.verify.enabled", "") {
		t.Errorf("no warning for a non-boolean: %q", e.warnings)
	}
}
