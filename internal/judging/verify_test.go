package judging

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// verifyTape refuses the verifier's calls only, when refuse is set.
type verifyTape struct {
	*tape
	refuse error
}

func (t verifyTape) Budget(role string, n int) error {
	if role == "verify" {
		return t.refuse
	}
	return t.tape.Budget(role, n)
}

// TestVerifiedFindings: with severity.verify on, each finding that would
// block is put to the verifier with its cited code before the gate
// weighs it. A refuted one is kept, marked, and does not block; a
// confirmed one blocks; a failed call (or a refused budget) leaves it
// counting and says so. A finding below the policy is never asked about.
func TestVerifiedFindings(t *testing.T) {
	for _, tc := range []struct {
		name    string
		off     bool
		answer  string
		callErr error
		refuse  error
		passed  bool
		outcome string
		warned  bool
	}{
		{name: "refuted", answer: `{"verdict":"refuted","reason":"line 2 checks the bound"}`, passed: true, outcome: severity.Refuted},
		{name: "confirmed", answer: `{"verdict":"confirmed","reason":"no check"}`, outcome: severity.Confirmed},
		{name: "call fails", callErr: errors.New("overloaded"), outcome: severity.VerifyFailed, warned: true},
		{name: "answer unreadable", answer: `{"verdict":"maybe"}`, outcome: severity.VerifyFailed, warned: true},
		{name: "budget refuses", refuse: errors.New("over budget"), outcome: severity.VerifyFailed, warned: true},
		{name: "off", off: true, outcome: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var asked []claude.Call
			run := claude.RunnerFunc(func(_ context.Context, c claude.Call) (claude.Result, error) {
				switch c.Role {
				case "meta":
					return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
				case "verify":
					mu.Lock()
					asked = append(asked, c)
					mu.Unlock()
					if tc.callErr != nil {
						return claude.Result{}, tc.callErr
					}
					return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(tc.answer)}, nil
				}
				return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true,"findings":[` +
					`{"severity":"critical","message":"Clamp never checks the bound","file":"lim.go","line":2},` +
					`{"severity":"minor","message":"name could be clearer"}]}`)}, nil
			})
			var warnings []string
			j := loadVerifyJury(t, run, !tc.off, func(w string) { warnings = append(warnings, w) })
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "lim.go"), []byte("func Clamp(v, max int) int {\n\tif v > max {\n\t\treturn max\n\t}\n\treturn v\n}\n"), 0o644)
			it := &Round{Report: IterationReport{IterationID: "01J00000000000000000000ITR"}}
			err := j.Judge(context.Background(), Input{TaskID: "T", Task: "clamp v", Dir: dir, Diff: "d", Isolated: true}, it, verifyTape{&tape{}, tc.refuse})
			if err != nil {
				t.Fatal(err)
			}
			if it.Gate.Passed != tc.passed {
				t.Errorf("gate passed %v (%s); want %v", it.Gate.Passed, it.Gate.FailedCriterion, tc.passed)
			}
			// Both judges reported both findings; all four are kept.
			if len(it.Findings) != 4 {
				t.Fatalf("%d findings kept, want 4", len(it.Findings))
			}
			for _, f := range it.Findings {
				want := tc.outcome
				if f.Severity != "critical" {
					want = ""
				}
				if f.Verification != want {
					t.Errorf("%s finding: verification %q, want %q (%s)", f.Severity, f.Verification, want, f.VerificationNote)
				}
			}
			wantAsked := 2
			if tc.off || tc.refuse != nil {
				wantAsked = 0
			}
			if len(asked) != wantAsked {
				t.Fatalf("verifier asked %d time(s), want %d", len(asked), wantAsked)
			}
			if (len(warnings) > 0) != tc.warned || tc.warned && !strings.Contains(warnings[0], "failed, so it counts") {
				t.Errorf("warnings %q; want a fail-safe warning: %v", warnings, tc.warned)
			}
			switch tc.outcome {
			case severity.Refuted:
				if it.Report.RefutedFindings != 2 || it.Report.PassedWithoutVerification == nil || *it.Report.PassedWithoutVerification {
					t.Errorf("refuted %d, without verification %v; want 2 and a block", it.Report.RefutedFindings, it.Report.PassedWithoutVerification)
				}
			case severity.VerifyFailed:
				if it.Report.VerificationFailures != 2 || it.Report.PassedWithoutVerification != nil {
					t.Errorf("failures %d, without verification %v", it.Report.VerificationFailures, it.Report.PassedWithoutVerification)
				}
			}
			for _, c := range asked {
				if c.Model != config.DefaultVerifyModel || c.Tools == nil || len(c.Tools) != 0 ||
					!strings.Contains(c.Prompt, "2: \tif v > max {") || !strings.Contains(c.Prompt, "lim.go, lines 1-6") {
					t.Errorf("verify call: model %q, tools %v, prompt:\n%s", c.Model, c.Tools, c.Prompt)
				}
			}
		})
	}
}

func loadVerifyJury(t *testing.T, run claude.Runner, on bool, warn func(string)) *Jury {
	t.Helper()
	home := t.TempDir()
	os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
	settings := `{"tribunal":{"session":{"judge_types":["standard","adversarial"]},"severity":{"fail_at_or_above":"critical","verify":{"enabled":` +
		map[bool]string{true: "true", false: "false"}[on] + `}}}}`
	os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(settings), 0o644)
	j, err := Load(Options{}, env.Env{Home: home, Claude: run, Warn: warn, Sandbox: func() claude.SandboxSupport { return claude.SandboxSupport{OK: true} }})
	if err != nil {
		t.Fatal(err)
	}
	if j.Verifies() != on {
		t.Fatalf("Verifies() = %v", j.Verifies())
	}
	return j
}

// TestVerifyProviderChecked: the verifier's provider is checked before
// any call, like a seat's, and a bad one is a configuration error naming
// its key; with the step off it is not read at all.
func TestVerifyProviderChecked(t *testing.T) {
	for _, on := range []bool{true, false} {
		home := t.TempDir()
		os.MkdirAll(filepath.Join(home, ".claude"), 0o755)
		settings := `{"tribunal":{"severity":{"verify":{"enabled":` + map[bool]string{true: "true", false: "false"}[on] +
			`,"provider":"openai","model":"small","base_url":"http://127.0.0.1:9/v1","api_key_env":"UNSET_VERIFY_KEY"}}}}`
		os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte(settings), 0o644)
		_, err := Load(Options{}, env.Env{Home: home, Getenv: func(string) string { return "" }})
		var ce *ConfigError
		if on && (!errors.As(err, &ce) || !strings.Contains(err.Error(), "tribunal.severity.verify") || !strings.Contains(err.Error(), "UNSET_VERIFY_KEY")) {
			t.Errorf("on: err = %v", err)
		}
		if !on && err != nil {
			t.Errorf("off: err = %v", err)
		}
	}
}
