package reviewfmt

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// multitool finds the pinned SARIF validator's native binary that
// scripts/install-claude.sh installs (package.json). Its npm wrapper runs
// through a shell, which would split "Sarif;Gh", so the test runs the
// binary itself.
func multitool(t *testing.T) string {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join("..", "..", "..", "node_modules", "@microsoft", "sarif-multitool-*", "Sarif.Multitool"))
	for _, m := range matches {
		if exec.Command(m, "--version").Run() == nil {
			abs, err := filepath.Abs(m)
			if err != nil {
				t.Fatal(err)
			}
			return abs
		}
	}
	testtier.Missing(t, testtier.E2E, "@microsoft/sarif-multitool", "run scripts/install-claude.sh")
	return ""
}

// validate runs `sarif-multitool validate` with SARIF's own rules and
// GitHub code scanning's (Gh) on path and returns every error and warning
// it reported, one line each.
func validate(t *testing.T, bin, path string) []string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "validation.sarif")
	cmd := exec.Command(bin, "validate", path, "--rule-kind", "Sarif;Gh", "--output", out, "--log", "ForceOverwrite")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sarif-multitool validate %s: %v\n%s", path, err, b)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
			} `json:"invocations"`
			Results []struct {
				RuleID  string `json:"ruleId"`
				Level   string `json:"level"`
				Message struct {
					Text      string   `json:"text"`
					Arguments []string `json:"arguments"`
				} `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil {
		t.Fatalf("read the validator's log %s: %v", out, err)
	}
	var problems []string
	for _, run := range log.Runs {
		for _, inv := range run.Invocations {
			if !inv.ExecutionSuccessful {
				problems = append(problems, "the validator's run did not succeed")
			}
		}
		for _, r := range run.Results {
			if r.Level == "" || r.Level == "error" || r.Level == "warning" { // SARIF's default level is warning
				problems = append(problems, fmt.Sprintf("%s %s %s", r.Level, r.RuleID, strings.Join(r.Message.Arguments, "; ")))
			}
		}
	}
	return problems
}

// TestSARIFValidates runs the real validator on every golden SARIF file
// and on a review of 1,000 findings; a broken log must fail it, so the
// reading of the validator's output is proved too.
func TestSARIFValidates(t *testing.T) {
	testtier.Require(t, testtier.E2E)
	bin := multitool(t)
	goldens, _ := filepath.Glob(filepath.Join("testdata", "*.sarif"))
	if len(goldens) == 0 {
		t.Fatal("no golden SARIF files in testdata")
	}
	for _, g := range goldens {
		if p := validate(t, bin, g); len(p) > 0 {
			t.Errorf("%s is not valid SARIF for code scanning:\n%s", g, strings.Join(p, "\n"))
		}
	}

	big := filepath.Join(t.TempDir(), "big.sarif")
	data, err := SARIF(manyFindings(1000), "1.2.3")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(big, data, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	p := validate(t, bin, big)
	t.Logf("%s%d-finding SARIF file (%d bytes) validated in %v", testtier.NotePrefix, 1000, len(data), time.Since(start).Round(time.Millisecond))
	if len(p) > 0 {
		t.Errorf("the 1,000-finding SARIF file is not valid:\n%s", strings.Join(p, "\n"))
	}

	broken := filepath.Join(t.TempDir(), "broken.sarif")
	if err := os.WriteFile(broken, []byte(`{"version":"2.1.0","runs":[{"tool":{},"results":[{"message":{}}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := validate(t, bin, broken); len(p) == 0 {
		t.Error("the validator found nothing wrong in a log with no driver: its output is not being read")
	}
}

// manyFindings is a review with n located findings across every rung.
func manyFindings(n int) Review {
	r := samples["rejected"]
	r.Findings = nil
	names := []string{"info", "low", "minor", "moderate", "major", "critical", "blocker"}
	for i := range n {
		r.Findings = append(r.Findings, Finding{
			Judge: "correctness", Criterion: fmt.Sprintf("criterion-%d", i%12), Severity: names[i%len(names)],
			File: fmt.Sprintf("pkg/p%d/file %d.go", i%40, i), Line: i%500 + 1,
			Message:     fmt.Sprintf("Finding %d: `x` <b>may</b> be nil @someone [link](https://example.com)", i),
			Fingerprint: fmt.Sprintf("tf1:%032x", i),
		})
	}
	return r
}
