package session

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
)

// evaluatorRubric is a user rubric whose one evaluator forbids a new TODO.
const evaluatorRubric = `{"rubrics":[{"id":"checked","criteria":[{"name":"correctness","weight":1,"min_pass":0.5}],
	"evaluators":[{"name":"no-todo","kind":"regex","must_not_match":"TODO"}]}]}`

// TestEvaluatorsSeeTheChange runs a task whose actor writes a file with a
// TODO, isolated and in place: either way the evaluators read the lines
// the change adds (the task's patch, or the working tree against HEAD)
// and block the gate.
func TestEvaluatorsSeeTheChange(t *testing.T) {
	for _, inPlace := range []bool{false, true} {
		t.Run(map[bool]string{false: "isolated", true: "in place"}[inPlace], func(t *testing.T) {
			repo := newRepo(t, "")
			home := t.TempDir()
			if err := os.MkdirAll(filepath.Join(home, ".onlooker"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".onlooker", "tribunal.json"), []byte(evaluatorRubric), 0o644); err != nil {
				t.Fatal(err)
			}
			runner := claude.RunnerFunc(func(_ context.Context, c claude.Call) (claude.Result, error) {
				switch c.Role {
				case "actor":
					err := os.WriteFile(filepath.Join(c.Dir, "work.go"), []byte("package work\n\n// TODO: finish\n"), 0o644)
					return claude.Result{Envelope: true, Text: "done"}, err
				case "meta":
					return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
				}
				return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"score":0.9,"passed":true}`)}, nil
			})
			vars := map[string]string{"ONLOOKER_DIR": filepath.Join(home, "onlooker")}
			rep, err := Run(context.Background(), Options{Task: "t", Dir: repo, RubricID: "checked", MaxIterations: 1, InPlace: inPlace}, Deps{
				Env: env.Env{Getenv: func(k string) string { return vars[k] }, Home: home, Claude: runner, Git: projectkey.ExecGit("git", os.Environ())},
			})
			if err != nil {
				t.Fatal(err)
			}
			it := rep.Iterations[0]
			if len(it.Commands) != 1 || it.Commands[0].Passed || !strings.Contains(it.Commands[0].Feedback, "(first work.go:3)") {
				t.Fatalf("evaluator results %+v", it.Commands)
			}
			if rep.Outcome == Accepted || it.Gate.FailedCriterion != "evaluator:no-todo" {
				t.Errorf("outcome %s, gate %+v: a failed required evaluator must block", rep.Outcome, it.Gate)
			}
		})
	}
}
