package config

import (
	"strings"
	"testing"
)

// TestDisabled is the master switch (spec §2.13): only JSON false turns
// tribunal off, the last layer that sets it wins, and the answer names
// that layer.
func TestDisabled(t *testing.T) {
	tests := []struct {
		name   string
		layers map[int]string
		off    bool
		from   int // the layer named; 0 for none
	}{
		{"default on", nil, false, 0},
		{"user off", map[int]string{2: `{"enabled": false}`}, true, 2},
		{"repo off", map[int]string{4: `{"enabled": false}`}, true, 4},
		{"repo turns back on", map[int]string{2: `{"enabled": false}`, 5: `{"enabled": true}`}, false, 0},
		{"mistyped is dropped", map[int]string{2: `{"enabled": "false"}`}, false, 0},
		{"null keeps the lower layer", map[int]string{2: `{"enabled": false}`, 3: `{"enabled": null}`}, true, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			paths := map[int]string{}
			for l, body := range tt.layers {
				paths[l] = e.tribunal(l, body)
			}
			off, src := e.load().Disabled()
			if off != tt.off {
				t.Fatalf("Disabled = %v, want %v", off, tt.off)
			}
			if tt.from != 0 && src != paths[tt.from] {
				t.Errorf("source = %q, want %q", src, paths[tt.from])
			}
			if !tt.off && src != "" {
				t.Errorf("source = %q for an enabled tribunal", src)
			}
		})
	}
}

// TestEnabledIsKnown: config --check must accept the seed's key.
func TestEnabledIsKnown(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"enabled": false}`)
	e.load()
	if len(e.warnings) != 0 {
		t.Errorf("warnings: %s", strings.Join(e.warnings, "\n"))
	}
}
