package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakellm"
)

const stopVerdict = `{"score":0.81,"passed":true,"judge_type":"standard","feedback_summary":"Fine (E2E-STOP)","confidence":0.7}`

// TestCrossFamilyStopHook runs the built stop-gate binary on a turn that
// changed a file, its advisory judge seated on another family: the real
// Codex CLI, and the openai provider, whose call the hook hands to the
// tribunal-session beside it (provider-call). Both against the fake.
func TestCrossFamilyStopHook(t *testing.T) {
	cases := []struct {
		name, api string
		stop      func(url string) map[string]any
	}{
		{"codex", fakellm.Responses, func(url string) map[string]any {
			return map[string]any{"provider": "codex", "model": "gpt-5-mini", "base_url": url + "/v1", "api_key_env": "E2E_DUMMY_KEY"}
		}},
		{"openai", fakellm.Chat, func(url string) map[string]any {
			return map[string]any{"provider": "openai", "model": "qwen3:8b", "base_url": url + "/v1", "api_key_env": "E2E_DUMMY_KEY"}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newCrossWorld(t, c.name, "")
			p, err := buildPlugin()
			if err != nil {
				t.Fatal(err)
			}
			w.api.Add(fakellm.Rule{API: c.api, Reply: fakellm.Text(stopVerdict)})
			stop := c.stop(w.api.URL)
			stop["enabled"] = true
			data, _ := json.Marshal(map[string]any{"tribunal": map[string]any{"stop_hook": stop}})
			if err := os.WriteFile(filepath.Join(w.home, ".claude", "settings.json"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(w.repo, "new.txt"), []byte("hello\n"), 0o644)
			in, _ := json.Marshal(map[string]any{"hook_event_name": "Stop", "session_id": "e2e-stop-" + c.name,
				"cwd": w.repo, "last_assistant_message": "Added new.txt.", "stop_hook_active": false})
			cmd := exec.Command(filepath.Join(p.Dir, "bin", "stop-gate"))
			cmd.Env = w.environ()
			cmd.Stdin = bytes.NewReader(in)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			done := make(chan error, 1)
			go func() { done <- cmd.Run() }()
			select {
			case err := <-done:
				if err != nil {
					t.Fatalf("stop-gate: %v\n%s", err, stderr.String())
				}
			case <-time.After(3 * time.Minute):
				cmd.Process.Kill()
				t.Fatal("stop-gate did not finish")
			}
			if stdout.Len() != 0 || stderr.Len() != 0 {
				t.Errorf("stop-gate printed stdout %q stderr %q", stdout.String(), stderr.String())
			}
			// Advisory mode: the judge runs detached after the hook returned.
			awaitJudgesIn(t, w.onlooker, 2*time.Minute)
			if n := len(w.api.RequestsTo(c.api)); n == 0 {
				t.Fatalf("no %s request reached the fake: %+v", c.api, w.api.Requests())
			}
			files, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", "stop-*.json"))
			if len(files) != 1 {
				t.Fatalf("stop files: %v", files)
			}
			raw, _ := os.ReadFile(files[0])
			var sf struct {
				Verdict struct {
					Score    float64 `json:"score"`
					Feedback string  `json:"feedback_summary"`
					Model    string  `json:"judge_model_id"`
				} `json:"verdict"`
				Judge struct{ Provider, Family string } `json:"judge"`
			}
			if err := json.Unmarshal(raw, &sf); err != nil {
				t.Fatal(err)
			}
			if sf.Verdict.Score != 0.81 || sf.Verdict.Feedback != "Fine (E2E-STOP)" || sf.Judge.Provider != c.name || !strings.Contains(sf.Verdict.Model, "/") {
				t.Errorf("stop file = %s", raw)
			}
		})
	}
}
