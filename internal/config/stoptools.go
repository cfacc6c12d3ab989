package config

import "fmt"

// Values of tribunal.stop_hook.tools: what the Stop hook's judge may use
// besides the prompt.
const (
	StopToolsNone = "none" // no tools: the judge sees the prompt only
	StopToolsRead = "read" // Read, Grep and Glob in the worktree, few turns
)

// StopHookTools returns tribunal.stop_hook.tools, which only the plugin
// defaults and the user's own settings can set (Load drops it from a
// repository's settings, whose text the judge is about to read and could
// be steered by). A value other than the two
// known ones falls back to StopToolsNone with a warning: an unknown setting
// must never widen what the judge can reach.
func (c *Config) StopHookTools() string {
	n := c.tree.at("stop_hook", "tools")
	v, ok := str(n)
	if n.isNull() || !ok {
		return StopToolsNone
	}
	if v != StopToolsNone && v != StopToolsRead {
		c.warn(fmt.Sprintf("%s: tribunal.stop_hook.tools %q is neither %q nor %q; using %q",
			n.src, v, StopToolsNone, StopToolsRead, StopToolsNone))
		return StopToolsNone
	}
	return v
}

// OTLPEndpoint returns tribunal.telemetry.otlp_endpoint, the collector
// that traces go to when no OTEL_EXPORTER_OTLP_ENDPOINT is set; "" when
// unset. Only the user's own settings can set it (Load drops it from a
// repository's, which could otherwise send what the user's tasks did to a
// server of the repository author's choosing).
func (c *Config) OTLPEndpoint() string {
	v, _ := str(c.tree.at("telemetry", "otlp_endpoint"))
	return v
}
