package session

import (
	"context"
	"encoding/json"
	"github.com/tribunal-cc/tribunal/internal/env"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// TestAdversarialBash: the adversarial judge gets Bash only inside Claude
// Code's sandbox; where none can run it gets no Bash, the run says so once
// (stderr and summary), and the seat's report and call record say which
// (docs/security.md §2.4).
func TestAdversarialBash(t *testing.T) {
	const line = "the adversarial judge ran without Bash: no sandbox (bubblewrap) on this machine; hint: apt-get install bubblewrap socat"
	for _, tc := range []struct {
		name    string
		support claude.SandboxSupport
		want    string
	}{
		{"sandbox available", claude.SandboxSupport{OK: true}, "sandboxed"},
		{"no sandbox", claude.SandboxSupport{Why: "no sandbox (bubblewrap) on this machine", Install: "apt-get install bubblewrap socat"}, "withheld"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			repo := newRepo(t, `{"tribunal":{"session":{"judge_types":["standard","adversarial"],"max_iterations":1}}}`)
			home := t.TempDir()
			vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker")}
			var mu sync.Mutex
			var calls []claude.Call
			var notes []string
			runner := claude.RunnerFunc(func(_ context.Context, c claude.Call) (claude.Result, error) {
				mu.Lock()
				calls = append(calls, c)
				mu.Unlock()
				switch c.Role {
				case "actor":
					return claude.Result{Envelope: true, Text: "done"}, nil
				case "meta":
					return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
				}
				return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true,"criterion_scores":{"correctness":0.9}}`)}, nil
			})
			checks := 0
			rep, err := Run(context.Background(), Options{Task: "t", Dir: repo}, Deps{
				Env: env.Env{
					Getenv:  func(k string) string { return vars[k] },
					Home:    home,
					Claude:  runner,
					Git:     projectkey.ExecGit("git", os.Environ()),
					Note:    func(s string) { notes = append(notes, s) },
					Sandbox: func() claude.SandboxSupport { checks++; return tc.support },
				},
			})
			if err != nil {
				t.Fatal(err)
			}
			if checks != 1 {
				t.Errorf("the sandbox was checked %d times, want once", checks)
			}
			var adv *claude.Call
			for i, c := range calls {
				if c.Role != "judge" {
					continue
				}
				if strings.Contains(c.SystemPrompt, "Adversarial") {
					adv = &calls[i]
				} else if c.SandboxBash || slices.Contains(c.Tools, "Bash") {
					t.Errorf("the standard judge got Bash: sandbox %v, tools %q", c.SandboxBash, c.Tools)
				}
			}
			if adv == nil {
				t.Fatalf("no adversarial judge call among %d calls", len(calls))
			}
			sandboxed := tc.want == "sandboxed"
			if adv.SandboxBash != sandboxed || slices.Contains(adv.Tools, "Bash") != sandboxed || slices.Contains(adv.AllowedTools, "Bash") {
				t.Errorf("adversarial call: sandbox %v, tools %q, pre-approved %q", adv.SandboxBash, adv.Tools, adv.AllowedTools)
			}
			for _, j := range rep.Iterations[0].Judges {
				want := ""
				if j.Type == "adversarial" {
					want = tc.want
				}
				if j.Bash != want {
					t.Errorf("%s judge report: bash %q, want %q", j.Type, j.Bash, want)
				}
			}
			records, _ := filepath.Glob(filepath.Join(rep.ArtifactDir, "iteration-*", "calls", "*adversarial*.json"))
			if len(records) != 1 {
				t.Fatalf("adversarial call records: %v", records)
			}
			data, _ := os.ReadFile(records[0])
			var rec struct {
				Bash string   `json:"bash"`
				Argv []string `json:"argv"`
			}
			if err := json.Unmarshal(data, &rec); err != nil || rec.Bash != tc.want {
				t.Errorf("call record says bash %q (%v), want %q", rec.Bash, err, tc.want)
			}
			if got := strings.Contains(strings.Join(rec.Argv, " "), `"sandbox"`); got != sandboxed {
				t.Errorf("recorded argv carries the sandbox settings: %v, want %v: %q", got, sandboxed, rec.Argv)
			}
			summary := Summary(rep)
			if sandboxed {
				if rep.BashNote != "" || len(notes) != 0 || strings.Contains(summary, "without Bash") {
					t.Errorf("a sandboxed run reports Bash withheld: note %q, notes %q", rep.BashNote, notes)
				}
				return
			}
			if rep.BashNote != line || strings.Count(summary, line+"\n") != 1 {
				t.Errorf("report note %q; summary:\n%s", rep.BashNote, summary)
			}
			if len(notes) != 1 || notes[0] != line {
				t.Errorf("notes %q, want the one line", notes)
			}
		})
	}
}
