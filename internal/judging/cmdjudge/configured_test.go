package cmdjudge

import (
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
)

// TestConfigured pins how settings become runnable specs: the directory
// and environment of the run, and an invalid judge refused by its key.
func TestConfigured(t *testing.T) {
	js := []config.CommandJudge{{Key: "tribunal.command_judges.tests", Name: "tests",
		Command: []string{"go", "test"}, Timeout: time.Minute, PassScore: 1, Required: true}}
	got, err := Configured(js, "/repo", []string{testPath})
	if err != nil || len(got) != 1 {
		t.Fatalf("Configured = %+v, %v", got, err)
	}
	s := got[0].Spec
	if s.Name != "tests" || s.Dir != "/repo" || s.Timeout != time.Minute || len(s.Env) != 1 || !got[0].Required {
		t.Errorf("spec = %+v", got[0])
	}
	js = append(js, config.CommandJudge{Key: "tribunal.command_judges.bad", Name: "bad", PassScore: 1})
	if _, err := Configured(js, "/repo", nil); err == nil || !strings.HasPrefix(err.Error(), "tribunal.command_judges.bad: ") {
		t.Errorf("an empty command must be an error naming the key, got %v", err)
	}
}
