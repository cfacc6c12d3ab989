package testtier

import (
	"fmt"
	"strings"
	"testing"
)

func TestSelected(t *testing.T) {
	for _, tc := range []struct {
		list, tier string
		want       bool
	}{
		{"", "e2e", false},
		{"e2e", "e2e", true},
		{"browser,e2e", "e2e", true},
		{"browser, e2e", "e2e", true},
		{"all", "stress", true},
		{"e2e2", "e2e", false},
		{"browser", "e2e", false},
		{"ALL", "e2e", false},
	} {
		if got := Selected(tc.list, tc.tier); got != tc.want {
			t.Errorf("Selected(%q, %q) = %v, want %v", tc.list, tc.tier, got, tc.want)
		}
	}
}

// Every tier's lines start with the prefix make test collects, and name
// the target that runs the tier.
func TestLinesNameTheTarget(t *testing.T) {
	seen := map[string]bool{}
	for _, tier := range All {
		if seen[tier.Name] {
			t.Errorf("two tiers are named %q", tier.Name)
		}
		seen[tier.Name] = true
		for _, line := range []string{NotSelected(tier), MissingLine(tier, "chromium", "apt-get install chromium")} {
			if !strings.HasPrefix(line, SkipPrefix) || !strings.Contains(line, tier.What) {
				t.Errorf("line %q lacks the prefix or what the tier tests", line)
			}
		}
		if !strings.Contains(NotSelected(tier), "make test-"+tier.Name) {
			t.Errorf("%q does not say how to run tier %s", NotSelected(tier), tier.Name)
		}
	}
}

func TestRequire(t *testing.T) {
	for _, tc := range []struct {
		list string
		skip bool
	}{{"", true}, {"browser", true}, {"stress,e2e", false}, {"all", false}} {
		t.Setenv(Env, tc.list)
		r := &recorder{TB: t}
		Require(r, E2E)
		if got := r.skip != ""; got != tc.skip || (tc.skip && r.skip != NotSelected(E2E)) {
			t.Errorf("%s=%q: skip %q, want a skip: %v", Env, tc.list, r.skip, tc.skip)
		}
	}
}

// recorder stands in for a test: it keeps what Missing asked of it.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()           {}
func (r *recorder) Fatal(args ...any) { r.fatal = fmt.Sprint(args...) }
func (r *recorder) Skip(args ...any)  { r.skip = fmt.Sprint(args...) }

// A missing prerequisite skips with one line outside CI and fails in CI.
func TestMissing(t *testing.T) {
	for _, ci := range []string{"", "true"} {
		t.Setenv(CIEnv, ci)
		r := &recorder{TB: t}
		Missing(r, Browser, "chromium", "apt-get install chromium")
		line := MissingLine(Browser, "chromium", "apt-get install chromium")
		if ci == "" && (r.skip != line || r.fatal != "") {
			t.Errorf("outside CI: skip %q, fatal %q; want the skip %q", r.skip, r.fatal, line)
		}
		if ci != "" && (!strings.Contains(r.fatal, strings.TrimPrefix(line, SkipPrefix)) || r.skip != "") {
			t.Errorf("CI=%s: skip %q, fatal %q; want a failure saying %q", ci, r.skip, r.fatal, line)
		}
	}
}
