package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/llm/claude"
	"github.com/tribunal-cc/tribunal/internal/llm/provider"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakellm"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// The real Codex and Gemini CLIs (pinned in package.json beside Claude
// Code) sit a jury seat against internal/testkit/fakellm, offline:
//
//   - codex: `-c model_provider=tribunal -c model_providers.tribunal={…,
//     base_url=<fake>/v1, env_key=<var>, wire_api="responses"}` makes it
//     POST <fake>/v1/responses with the key from <var> (a dummy here).
//   - gemini: GOOGLE_GEMINI_BASE_URL=<fake> with GEMINI_API_KEY=<dummy> and
//     security.auth.selectedType "gemini-api-key" in its workspace
//     settings makes it POST <fake>/v1beta/models/<model>:streamGenerateContent.
//
// The actor and the meta-judge are in-memory fakes: what is under test is
// that each CLI's verdict reaches the gate, and that its API error is a
// judge failure.

// cliBin finds the real CLI name (codex, gemini) as claudeBin finds
// claude: on PATH, else the pinned copy in node_modules/.bin.
func cliBin(t *testing.T, name string) string {
	t.Helper()
	testtier.Require(t, testtier.E2E)
	return findCLI(t, name, "")
}

const crossVerdict = `{"score":0.88,"passed":true,"confidence":0.8,"feedback_summary":"Looks right (E2E-CROSS)","criterion_scores":{"correctness":0.9,"completeness":0.85,"safety":0.9,"clarity":0.8}}`

// crossWorld is a repository whose one standard seat runs on program (a
// CLI linked on PATH, or the openai provider), pointed at a fresh fake;
// the user's settings choose the provider.
type crossWorld struct {
	t        *testing.T
	api      *fakellm.Server
	home     string
	repo     string
	onlooker string
	env      map[string]string
}

func newCrossWorld(t *testing.T, program, model string) *crossWorld {
	var bin string
	if program != provider.OpenAI {
		bin = cliBin(t, program)
	} else {
		testtier.Require(t, testtier.E2E)
	}
	w := &crossWorld{t: t, api: fakellm.Start(t)}
	base := t.TempDir()
	w.home, w.repo, w.onlooker = filepath.Join(base, "home"), filepath.Join(base, "repo"), filepath.Join(base, "onlooker")
	pathDir := filepath.Join(base, "bin")
	for _, d := range []string{w.home, w.repo, w.onlooker, pathDir, filepath.Join(w.home, ".claude")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if bin != "" {
		if err := os.Symlink(bin, filepath.Join(pathDir, program)); err != nil {
			t.Fatal(err)
		}
	}
	baseURL := w.api.URL
	if program == provider.Codex {
		baseURL += "/v1"
	}
	settings := map[string]any{"tribunal": map[string]any{
		"session": map[string]any{"judge_types": []string{"standard"}, "max_iterations": 1},
		"judges": map[string]any{"standard": map[string]any{
			"provider": program, "model": model, "base_url": baseURL, "api_key_env": "E2E_DUMMY_KEY"}},
	}}
	data, _ := json.Marshal(settings)
	if err := os.WriteFile(filepath.Join(w.home, ".claude", "settings.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	w.env = map[string]string{
		"HOME": w.home, "ONLOOKER_DIR": w.onlooker, "E2E_DUMMY_KEY": "dummy-key-for-the-fake",
		"PATH": pathDir + ":" + os.Getenv("PATH"), "CODEX_HOME": filepath.Join(w.home, ".codex"),
		"NO_COLOR": "1", "TERM": "dumb",
	}
	os.MkdirAll(w.env["CODEX_HOME"], 0o700)
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"commit", "-q", "--allow-empty", "-m", "initial"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = w.repo
		cmd.Env = append(w.environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return w
}

func (w *crossWorld) environ() []string {
	var out []string
	for k, v := range w.env {
		out = append(out, k+"="+v)
	}
	return out
}

// run runs one task in process; the actor and the meta-judge are fakes, the
// standard seat is the real CLI.
func (w *crossWorld) run() *session.Report {
	w.t.Helper()
	rep, err := w.runErr()
	if err != nil {
		w.t.Fatalf("run: %v", err)
	}
	if len(rep.Iterations) != 1 || len(rep.Iterations[0].Judges) != 1 {
		w.t.Fatalf("report: %+v", rep)
	}
	return rep
}

// runErr runs the task and returns what the loop returned.
func (w *crossWorld) runErr() (*session.Report, error) {
	w.t.Helper()
	fake := claude.RunnerFunc(func(_ context.Context, c claude.Call) (claude.Result, error) {
		switch c.Role {
		case "actor":
			return claude.Result{Envelope: true, Text: "Wrote greeting.go."}, nil
		case "meta":
			return claude.Result{Envelope: true, Tokens: new(120), Structured: json.RawMessage(`{"verdict_quality":"sound","bias_detected":false}`)}, nil
		}
		w.t.Errorf("a %s call reached claude; the seat should run on the other CLI", c.Role)
		return claude.Result{}, os.ErrInvalid
	})
	var warnings []string
	rep, err := session.Run(context.Background(), session.Options{Task: "write a greeting module", Dir: w.repo}, session.Deps{
		Env: env.Env{
			Getenv:  func(k string) string { return w.env[k] },
			Home:    w.home,
			Warn:    func(s string) { warnings = append(warnings, s) },
			Claude:  fake,
			Git:     projectkey.ExecGit("git", w.environ()),
			Environ: w.environ(),
		},
	})
	if err != nil {
		err = fmt.Errorf("%w (warnings %q)", err, warnings)
	}
	return rep, err
}

func TestCrossFamilyCLIs(t *testing.T) {
	clis := []struct {
		program, model, api string
	}{
		{provider.Codex, "gpt-5-codex", fakellm.Responses},
		{provider.Gemini, "gemini-2.5-flash", fakellm.Gemini},
	}
	for _, c := range clis {
		t.Run(c.program+"/verdict reaches the gate", func(t *testing.T) {
			w := newCrossWorld(t, c.program, c.model)
			w.api.Add(fakellm.Rule{API: c.api, Reply: fakellm.Text(crossVerdict)})
			rep := w.run()
			j := rep.Iterations[0].Judges[0]
			if !rep.Iterations[0].Gate.Passed || rep.Outcome != session.Accepted {
				t.Fatalf("gate did not pass: %+v / judge %+v", rep.Iterations[0].Gate, j)
			}
			if j.Score == nil || *j.Score != 0.88 || j.Provider != c.program || j.Feedback != "Looks right (E2E-CROSS)" {
				t.Errorf("judge report = %+v", j)
			}
			if want := []string{provider.Spec{Provider: c.program}.FamilyName()}; strings.Join(rep.Families, ",") != want[0] {
				t.Errorf("families = %v, want %v", rep.Families, want)
			}
			reqs := w.api.RequestsTo(c.api)
			if len(reqs) == 0 || reqs[0].Model != c.model {
				t.Fatalf("the CLI did not call the fake's %s API with model %s: %+v", c.api, c.model, w.api.Requests())
			}
			if !strings.Contains(string(reqs[0].Body), "E2E") && !strings.Contains(string(reqs[0].Body), "greeting") {
				t.Errorf("the judge prompt did not reach the API")
			}
			verdicts, _ := filepath.Glob(filepath.Join(w.onlooker, "tribunal", "*", "*", "iteration-*", "verdicts", "*.json"))
			if len(verdicts) != 1 {
				t.Fatalf("verdict files: %v", verdicts)
			}
			data, _ := os.ReadFile(verdicts[0])
			var v struct {
				Provider string `json:"judge_provider"`
				Family   string `json:"judge_family"`
				Model    string `json:"judge_model_id"`
			}
			if json.Unmarshal(data, &v) != nil || v.Provider != c.program || v.Family == "" || !strings.HasSuffix(v.Model, "/"+c.model) {
				t.Errorf("verdict file does not record provider, family and model: %s", data)
			}
		})
		t.Run(c.program+"/API error is a judge failure", func(t *testing.T) {
			w := newCrossWorld(t, c.program, c.model)
			w.api.Add(fakellm.Rule{API: c.api, Reply: fakellm.Fail(http.StatusBadRequest, "E2E-REJECTED: model not found")})
			// The only seat failed: no usable verdict, so the task aborts
			// (a failure is not a verdict) naming the CLI's error.
			rep, err := w.runErr()
			if !errors.Is(err, session.ErrNoVerdict) {
				t.Fatalf("want the task aborted for want of a verdict, got %v", err)
			}
			if !strings.Contains(err.Error(), c.program+" reported an error") || !strings.Contains(err.Error(), "E2E-REJECTED") {
				t.Errorf("the abort does not name the CLI and its error: %v", err)
			}
			if rep != nil && len(rep.Iterations) == 1 {
				j := rep.Iterations[0].Judges[0]
				if !j.Failed || j.Passed || j.Score != nil {
					t.Errorf("want a failed seat; judge %+v", j)
				}
			}
		})
	}
}
