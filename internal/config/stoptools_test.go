package config

import "testing"

func TestStopHookTools(t *testing.T) {
	tests := []struct {
		value    string // JSON; "" leaves the key out
		want     string
		warnings bool
	}{
		{"", StopToolsNone, false},
		{`"none"`, StopToolsNone, false},
		{`"read"`, StopToolsRead, false},
		{`null`, StopToolsNone, false},
		{`"READ"`, StopToolsNone, true},
		{`"all"`, StopToolsNone, true},
	}
	for _, tt := range tests {
		e := newEnv(t)
		if tt.value != "" {
			e.tribunal(2, `{"stop_hook":{"tools":`+tt.value+`}}`)
		}
		c := e.load()
		if got := c.StopHookTools(); got != tt.want {
			t.Errorf("tools = %s: StopHookTools = %q, want %q", tt.value, got, tt.want)
		}
		if got := c.StopHook().ReadTools; got != (tt.want == StopToolsRead) {
			t.Errorf("tools = %s: ReadTools = %v", tt.value, got)
		}
		if tt.warnings != e.hasWarning("tribunal.stop_hook.tools") {
			t.Errorf("tools = %s: warnings %q, want a warning: %v", tt.value, e.warnings, tt.warnings)
		}
	}
	if Load(Sources{}).StopHookTools() != StopToolsNone {
		t.Error("the judge must have no tools by default")
	}
}

func TestStopHookToolsNotFromTheRepository(t *testing.T) {
	for _, layer := range []int{4, 5} {
		e := newEnv(t)
		e.tribunal(layer, `{"stop_hook":{"tools":"read"}}`)
		if got := e.load().StopHookTools(); got != StopToolsNone {
			t.Errorf("layer %d: StopHookTools = %q, want %q", layer, got, StopToolsNone)
		}
		if !e.hasWarning("repository settings may not give the judge tools", "tribunal.stop_hook.tools") {
			t.Errorf("layer %d: no warning, got %q", layer, e.warnings)
		}
	}
	e := newEnv(t)
	e.tribunal(3, `{"stop_hook":{"tools":"read"}}`)
	if got := e.load().StopHookTools(); got != StopToolsRead {
		t.Errorf("user settings.local.json: StopHookTools = %q, want %q", got, StopToolsRead)
	}
}
