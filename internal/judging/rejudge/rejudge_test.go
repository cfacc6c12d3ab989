package rejudge

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

const (
	taskID = "01HZ0000000000000000000010"
	patch  = "diff --git a/x.txt b/x.txt\nnew file mode 100644\n--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1 @@\n+x\n"
)

// iteration writes one recorded iteration: gate "" means it ended before
// its gate; diff "" means no stored diff.
func iteration(t *testing.T, taskDir, id, gate, diff string) {
	d := filepath.Join(taskDir, "iteration-"+id)
	testkit.WriteFile(t, filepath.Join(d, "jury.json"), `[{"judge_id":"01HZ2000000000000000000001","judge_type":"standard","model":"m"}]`)
	testkit.WriteFile(t, filepath.Join(d, "verdicts", "01HZ2000000000000000000001.json"), `{"score":0.9,"passed":true}`)
	testkit.WriteFile(t, filepath.Join(d, "actor.md"), "did it\n")
	if gate != "" {
		testkit.WriteFile(t, filepath.Join(d, "consensus.json"), `{"aggregated_score":0.9,"passed":true,"aggregation_method":"mean"}`)
		testkit.WriteFile(t, filepath.Join(d, "meta.json"), `{"verdict_quality":"sound","bias_detected":false}`)
		testkit.WriteFile(t, filepath.Join(d, "gate.json"), gate)
	}
	if diff != "" {
		testkit.WriteFile(t, filepath.Join(d, records.DiffSnapshotFile), diff)
	}
}

// TestRejudgeIterations: a command-judge block that the judges pass is not
// a flip; an iteration without a gate or a diff is skipped with a reason;
// the recorded files are untouched and the result is stored beside them.
func TestRejudgeIterations(t *testing.T) {
	home := t.TempDir()
	vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker")}
	project := filepath.Join(home, "onlooker", "tribunal", "k")
	taskDir := filepath.Join(project, taskID)
	testkit.WriteFile(t, filepath.Join(taskDir, "manifest.json"), `{"task_id":"`+taskID+`","task_summary":"add x","rubric_id":"default"}`)
	testkit.WriteFile(t, filepath.Join(taskDir, "task.md"), "add x\n")
	commandBlock := `{"passed":false,"reason":"criterion_floor","failed_criterion":"command:tests","blocked_by":"command"}`
	iteration(t, taskDir, "01HZ1000000000000000000100", commandBlock, patch)
	iteration(t, taskDir, "01HZ1000000000000000000200", "", patch)
	iteration(t, taskDir, "01HZ1000000000000000000300", `{"passed":false,"reason":"low_score"}`, "")
	iteration(t, taskDir, "01HZ1000000000000000000400", `{"passed":false,"reason":"low_score"}`, patch)
	before, _ := os.ReadFile(filepath.Join(taskDir, "iteration-01HZ1000000000000000000100", "gate.json"))

	var mu sync.Mutex
	var prompts []string
	runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
		mu.Lock()
		if c.Role == "judge" {
			prompts = append(prompts, c.Prompt)
		}
		mu.Unlock()
		if c.Role == "meta" {
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		}
		return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.95,"passed":true}`)}, nil
	})
	res, err := Run(context.Background(), Options{TaskIDs: []string{taskID}, WorktreeRoot: "", ProjectDir: project}, Deps{
		Env: env.Env{
			Getenv:  func(k string) string { return vars[k] },
			Home:    home,
			Claude:  runner,
			Git:     projectkey.ExecGit("git", os.Environ()),
			TempDir: t.TempDir(),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	its := res.Tasks[0].Iterations
	if len(its) != 4 {
		t.Fatalf("iterations = %+v", its)
	}
	if its[0].Flipped || its[0].New == nil || !its[0].New.Passed || !strings.Contains(its[0].Note, "command judge") {
		t.Errorf("command block: %+v", its[0])
	}
	if !strings.Contains(its[1].Skipped, "ended before its gate") || !strings.Contains(its[2].Skipped, "no recorded diff") {
		t.Errorf("skips: %q, %q", its[1].Skipped, its[2].Skipped)
	}
	if !its[3].Flipped || res.Flips != 1 || res.Rejudged != 2 {
		t.Errorf("low score now passing: %+v; flips %d, rejudged %d", its[3], res.Flips, res.Rejudged)
	}
	if !strings.Contains(its[3].Note, "not recorded") {
		t.Errorf("note = %q: without a recorded commit the judges see the diff only", its[3].Note)
	}
	// Two iterations judged by the default panel of two.
	if len(prompts) != 4 || !strings.Contains(prompts[0], "+x") || !strings.Contains(prompts[0], "did it") {
		t.Errorf("%d calls; first prompt lacks the diff or the actor message", len(prompts))
	}
	after, _ := os.ReadFile(filepath.Join(taskDir, "iteration-01HZ1000000000000000000100", "gate.json"))
	if string(before) != string(after) {
		t.Error("a recorded gate.json was altered")
	}
	if stored, _ := filepath.Glob(filepath.Join(taskDir, "rejudge-*.json")); len(stored) != 1 || res.Tasks[0].Stored != stored[0] {
		t.Errorf("stored %v, reported %q", stored, res.Tasks[0].Stored)
	}
	ledger, _ := os.ReadFile(filepath.Join(project, "ledger.jsonl"))
	if !strings.Contains(string(ledger), `"kind":"rejudge"`) {
		t.Errorf("ledger = %s", ledger)
	}
}
