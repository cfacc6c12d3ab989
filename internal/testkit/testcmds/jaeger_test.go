package testcmds

import (
	"os"
	"regexp"
	"testing"
)

// TestJaegerPinned: the version the otel tier names is the one
// tools/jaeger/go.mod pins and scripts/build-jaeger.sh builds.
func TestJaegerPinned(t *testing.T) {
	data, err := os.ReadFile("../../../tools/jaeger/go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^\s*github\.com/jaegertracing/jaeger (v\S+)`).FindSubmatch(data)
	if m == nil || string(m[1]) != JaegerVersion {
		t.Errorf("tools/jaeger/go.mod pins %q, JaegerVersion is %q", m, JaegerVersion)
	}
}
