package surface

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestConfigNotice: a settings problem reaches the user in the
// systemMessage, beside the verdicts' note in the same one object, once
// per content of the settings; clean settings write no marker.
func TestConfigNotice(t *testing.T) {
	e := newEnv(t)
	if out, _ := e.start("s0", nil); out != "" {
		t.Fatalf("clean settings, nothing on disk: stdout %q", out)
	}
	if _, err := os.Stat(filepath.Join(e.onlooker, "tribunal-cache", "settings-noticed")); !os.IsNotExist(err) {
		t.Errorf("clean settings left a marker directory: %v", err)
	}
	e.settings(`{"tribunal":{"stop_hook":{"enabled":true,"skip_if_no_file_chnges":false}}}`)
	e.stop("s1", t1, 0.42, e.now.Add(-time.Hour))
	out, errs := e.start("s2", nil)
	var o struct {
		SystemMessage      string `json:"systemMessage"`
		HookSpecificOutput struct {
			AdditionalContext string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &o); err != nil || strings.Count(out, "\n") != 1 {
		t.Fatalf("want one JSON object: %v\n%s", err, out)
	}
	wantMsg := "tribunal: 1 problem(s) in your tribunal settings; until they are fixed tribunal may not do what they say:\n- " +
		filepath.Join(e.repo, ".claude", "settings.json") + ": unknown key \"tribunal.stop_hook.skip_if_no_file_chnges\" (did you mean \"skip_if_no_file_changes\"?)\n" +
		"Run `tribunal-session doctor` for every check and what to do."
	if o.SystemMessage != wantMsg {
		t.Errorf("systemMessage:\n%s\nwant\n%s", o.SystemMessage, wantMsg)
	}
	if !strings.Contains(o.HookSpecificOutput.AdditionalContext, "rejected, score 0.42") {
		t.Errorf("the verdict note is missing: %q", o.HookSpecificOutput.AdditionalContext)
	}
	if !strings.Contains(errs, "unknown key") {
		t.Errorf("stderr keeps the warning: %q", errs)
	}
	// Said: the next start is quiet, until the settings change.
	if out, _ := e.start("s3", nil); out != "" {
		t.Errorf("second start: %q", out)
	}
	e.settings(`{"tribunal":{"stop_hook":{"enabled":true,"skip_if_no_file_chnges":true}}}`)
	if out, _ := e.start("s4", nil); !strings.Contains(out, `"systemMessage":"tribunal: 1 problem(s)`) || strings.Contains(out, "hookSpecificOutput") {
		t.Errorf("after a change: %q", out)
	}
}

func TestConfigMessageCapsTheList(t *testing.T) {
	msg := ConfigMessage([]string{"a", "b\x1b[2Jc", "d", "e", "f"})
	want := "tribunal: 5 problem(s) in your tribunal settings; until they are fixed tribunal may not do what they say:\n- a\n- b [2Jc\n- d\n- and 2 more\nRun `tribunal-session doctor` for every check and what to do."
	if msg != want {
		t.Errorf("ConfigMessage =\n%s\nwant\n%s", msg, want)
	}
}
