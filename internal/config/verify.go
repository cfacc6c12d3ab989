package config

import "time"

// Defaults of the finding verifier (tribunal.severity.verify.*): a cheap
// model, a short deadline and a short answer (spec §6.8).
const (
	DefaultVerifyModel     = "claude-haiku-4-5"
	DefaultVerifyTimeout   = 120 * time.Second
	DefaultVerifyMaxTokens = 512
)

// VerifySettings are the verification step's settings
// (tribunal.severity.verify.*): off unless enabled is true.
type VerifySettings struct {
	Enabled         bool
	Model           string
	Timeout         time.Duration
	MaxOutputTokens int
}

// VerifyFindings returns tribunal.severity.verify's settings.
func (c *Config) VerifyFindings() VerifySettings {
	return VerifySettings{
		Enabled:         c.boolean(false, "severity", "verify", "enabled"),
		Model:           c.model(DefaultVerifyModel, "severity", "verify", "model"),
		Timeout:         c.seconds(DefaultVerifyTimeout, "severity", "verify", "timeout_seconds"),
		MaxOutputTokens: c.count(DefaultVerifyMaxTokens, "severity", "verify", "max_output_tokens"),
	}
}

// VerifyProvider returns the verifier's provider (severity.verify.*).
func (c *Config) VerifyProvider() Provider {
	return c.providerAt("tribunal.severity.verify", "severity", "verify")
}
