package config

import (
	"testing"
	"time"
)

// TestRepositoryLayerPowers pins down what docs/security.md says a
// repository's settings can and cannot do to the user's choices: it can
// enable the advisory judge over the user's "off" and raise the budget,
// but it cannot unset the budget with null, and the judge's deadline stays
// under the hook's own limit whatever it asks for.
func TestRepositoryLayerPowers(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"stop_hook":{"enabled":false},"session":{"budget_usd":1}}`)

	e.tribunal(4, `{"stop_hook":{"enabled":true,"timeout_seconds":3600},"session":{"budget_usd":500}}`)
	c := e.load()
	st := c.StopHook()
	if !st.Enabled {
		t.Error("the repository layer did not enable the hook over the user's false")
	}
	if st.Timeout != MaxStopHookTimeout || MaxStopHookTimeout > 80*time.Second {
		t.Errorf("timeout = %v, want the cap %v", st.Timeout, MaxStopHookTimeout)
	}
	if !e.hasWarning("timeout_seconds", "above the hook's own limit") {
		t.Errorf("no warning about the capped timeout: %q", e.warnings)
	}
	p, err := c.Session(shippedRubric())
	if err != nil {
		t.Fatal(err)
	}
	if p.BudgetUSD == nil || *p.BudgetUSD != 500 {
		t.Errorf("budget = %v, want the repository's 500", p.BudgetUSD)
	}

	e.tribunal(4, `{"session":{"budget_usd":null}}`)
	p, err = e.load().Session(shippedRubric())
	if err != nil {
		t.Fatal(err)
	}
	if p.BudgetUSD == nil || *p.BudgetUSD != 1 {
		t.Errorf("budget after a repository null = %v, want the user's 1", p.BudgetUSD)
	}
}

// TestLedgerKeyIsUserLevel: the ledger's anchor comes from the user's own
// settings; a repository's is dropped with a warning, since whoever can
// write the repository must not choose the key its ledger is checked
// against.
func TestLedgerKeyIsUserLevel(t *testing.T) {
	const user, repo = "SHA256:user", "SHA256:repo"
	for _, tc := range []struct {
		name   string
		layers map[int]string
		want   string
		warns  int
	}{
		{"unset", nil, "", 0},
		{"user", map[int]string{2: user}, user, 0},
		{"user local", map[int]string{3: user}, user, 0},
		{"repository", map[int]string{4: repo}, "", 1},
		{"repository local", map[int]string{5: repo}, "", 1},
		{"repository over user", map[int]string{2: user, 4: repo, 5: repo}, user, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			for layer, key := range tc.layers {
				e.tribunal(layer, `{"trust":{"ledger_key":"`+key+`"}}`)
			}
			c := e.load()
			if got := c.LedgerKey(); got != tc.want {
				t.Errorf("LedgerKey() = %q, want %q", got, tc.want)
			}
			if len(e.warnings) != tc.warns || (tc.warns > 0 && !e.hasWarning("repository settings may not set the ledger's trust anchor", "tribunal.trust.ledger_key")) {
				t.Errorf("warnings %q", e.warnings)
			}
		})
	}
}

// TestOTLPEndpointIsUserLevel: where traces go is the user's choice; a
// repository that names a collector is ignored with a warning, and the
// user's own endpoint stands.
func TestOTLPEndpointIsUserLevel(t *testing.T) {
	e := newEnv(t)
	e.tribunal(4, `{"telemetry":{"otlp_endpoint":"http://evil.example:4318"}}`)
	if got := e.load().OTLPEndpoint(); got != "" {
		t.Errorf("a repository's endpoint was used: %q", got)
	}
	if !e.hasWarning("repository settings may not choose where traces", "tribunal.telemetry.otlp_endpoint") {
		t.Errorf("no warning about the repository's endpoint: %q", e.warnings)
	}
	e.tribunal(2, `{"telemetry":{"otlp_endpoint":"http://127.0.0.1:4318"}}`)
	if got := e.load().OTLPEndpoint(); got != "http://127.0.0.1:4318" {
		t.Errorf("OTLPEndpoint = %q, want the user's", got)
	}
}

// TestRetentionDaysIsUserLevel: how long records are kept is the user's
// to say (off by default); a repository's retention_days is dropped with a
// warning, since a repository that could shorten it could have
// `gc --records` erase the records of what was done to it. Not an integer
// of at least 1 is a warning too.
func TestRetentionDaysIsUserLevel(t *testing.T) {
	for _, tc := range []struct {
		name   string
		layers map[int]string
		want   int
		warns  int
	}{
		{"unset: off", nil, 0, 0},
		{"user", map[int]string{2: `90`}, 90, 0},
		{"repository", map[int]string{4: `1`}, 0, 1},
		{"repository over user", map[int]string{2: `90`, 5: `1`}, 90, 1},
		{"not a count", map[int]string{2: `0.5`}, 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			for layer, v := range tc.layers {
				e.tribunal(layer, `{"retention_days":`+v+`}`)
			}
			if got := e.load().RetentionDays(); got != tc.want {
				t.Errorf("RetentionDays() = %d, want %d", got, tc.want)
			}
			if len(e.warnings) != tc.warns || (tc.name == "repository" && !e.hasWarning("repository settings may not choose how long your records are kept", "tribunal.retention_days")) {
				t.Errorf("warnings %q", e.warnings)
			}
		})
	}
}
