package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// TestInterruptedRunResumes: a run stopped after its second judging
// reports what it decided (incomplete, ErrInterrupted) and caches it; the
// next run pays only for the cases it had not decided.
func TestInterruptedRunResumes(t *testing.T) {
	home := t.TempDir()
	vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker")}
	var lines []string
	for _, id := range []string{"a", "b", "c", "d"} {
		lines = append(lines, `{"id":"`+id+`","task":"add `+id+`","label":"accept","diff":"diff --git a/`+id+` b/`+id+`\nnew file mode 100644\n--- /dev/null\n+++ b/`+id+`\n@@ -0,0 +1 @@\n+`+id+`\n"}`)
	}
	cases := filepath.Join(home, "cases.jsonl")
	os.WriteFile(cases, []byte(strings.Join(lines, "\n")+"\n"), 0o600)

	var calls atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopAfter := int32(2)
	runner := claude.RunnerFunc(func(ctx context.Context, c claude.Call) (claude.Result, error) {
		n := calls.Add(1)
		if n > stopAfter {
			cancel() // a signal arrives while this judge is working
			<-ctx.Done()
			return claude.Result{}, ctx.Err()
		}
		return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true,"judge_type":"standard"}`)}, nil
	})
	deps := Deps{
		Env: env.Env{
			Getenv:  func(k string) string { return vars[k] },
			Home:    home,
			Claude:  runner,
			Git:     projectkey.ExecGit("git", os.Environ()),
			TempDir: t.TempDir(),
		},
	}
	opts := Options{CasesPath: cases, Stop: true, Dir: home}

	rep, err := Run(ctx, opts, deps)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	if rep == nil || rep.Complete || rep.Decided != 2 || len(rep.Results) != 2 {
		t.Fatalf("partial report = %+v", rep)
	}

	// The next run: two from the cache, two paid for.
	calls.Store(0)
	stopAfter = 100
	rep, err = Run(context.Background(), opts, deps)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Complete || rep.Decided != 4 || rep.Cost.Cached != 2 || rep.Cost.Judged != 2 || calls.Load() != 2 {
		t.Fatalf("resumed: complete %v, decided %d, cached %d, judged %d, calls %d",
			rep.Complete, rep.Decided, rep.Cost.Cached, rep.Cost.Judged, calls.Load())
	}
	for i, id := range []string{"a", "b", "c", "d"} {
		if rep.Results[i].ID != id || rep.Results[i].Cached != (i < 2) {
			t.Errorf("result %d = %s cached %v", i, rep.Results[i].ID, rep.Results[i].Cached)
		}
	}
}
