package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/fakeapi"
	"github.com/tribunal-cc/tribunal/internal/fakegithub"
	"github.com/tribunal-cc/tribunal/internal/reviewfmt"
)

// A finding whose text tries to mention, link and inject HTML: the comment
// must carry it inert.
const reviewFlaw = "Retry loops forever on 500 @octocat <b>see</b> [here](https://evil.example) (E2E-REVIEW-FLAW)"

// TestReviewAction runs the GitHub Action's script (ci/github/review.sh
// run, what action.yml runs) as GitHub would on two pushes to one pull
// request: a pull_request payload in GITHUB_EVENT_PATH, the output and
// summary files, the real tribunal-session and Claude Code CLI judging
// against the fake Messages API, and a fake GitHub API on loopback that
// records the comment calls. The first push's review creates the comment,
// the second's edits it.
func TestReviewAction(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	sessionBin := filepath.Join(w.plugin.Dir, "bin", "tribunal-session")
	if err := exec.Command(sessionBin, "help", "review").Run(); err != nil {
		t.Skip("skipped: the Action's end-to-end run needs 'tribunal-session review', which this build lacks")
	}
	if err := os.Symlink(sessionBin, filepath.Join(w.pathDir, "tribunal-session")); err != nil {
		t.Fatal(err)
	}
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	scriptReviewJudges(w.api)
	gh := fakegithub.Start("ghs_e2e")
	defer gh.Close()

	base := strings.TrimSpace(w.git("rev-parse", "HEAD"))
	w.git("checkout", "-q", "-b", "retry")
	heads := []string{}
	for i, body := range []string{"for {\n\tsend()\n}\n", "for i := 0; i < 3; i++ {\n\tsend()\n}\n"} {
		w.writeFile("retry.go", "package retry\n\nfunc Retry() {\n"+body+"}\n")
		w.git("add", "-A")
		w.git("commit", "-q", "-m", fmt.Sprintf("retry, push %d", i+1))
		heads = append(heads, strings.TrimSpace(w.git("rev-parse", "HEAD")))
	}
	for i, head := range heads {
		job := t.TempDir()
		event := filepath.Join(job, "event.json")
		payload := `{"action":"synchronize","pull_request":{"number":7,"title":"Add retry","body":"Retry sends up to 3 times.",` +
			`"base":{"sha":"` + base + `","repo":{"full_name":"acme/widgets"}},"head":{"sha":"` + head + `","repo":{"full_name":"acme/widgets"}}}}`
		if err := os.WriteFile(event, []byte(payload), 0o644); err != nil {
			t.Fatal(err)
		}
		w.git("checkout", "-q", head)
		cmd := exec.Command("bash", filepath.Join(root, "ci", "github", "review.sh"), "run")
		cmd.Dir = w.repo
		cmd.Env = append(w.environ(),
			"GITHUB_ACTIONS=true", "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH="+event,
			"GITHUB_OUTPUT="+filepath.Join(job, "output"), "GITHUB_STEP_SUMMARY="+filepath.Join(job, "summary.md"),
			"GITHUB_API_URL="+gh.URL, "GITHUB_REPOSITORY=acme/widgets", "GITHUB_TOKEN=ghs_e2e",
			"RUNNER_TEMP="+job, "INPUT_COMMENT=true", "INPUT_GATE=false")
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("push %d: review.sh run: %v\n%s\n%s", i+1, err, out, w.api.Summary())
		}
		t.Logf("push %d reviewed in %v", i+1, time.Since(start).Round(time.Millisecond))
		outputs, _ := os.ReadFile(filepath.Join(job, "output"))
		summary, _ := os.ReadFile(filepath.Join(job, "summary.md"))
		for _, want := range []string{"base<<", "outcome<<", "review-id<<", "sarif<<", "comment-url<<"} {
			if !strings.Contains(string(outputs), want) {
				t.Errorf("push %d: $GITHUB_OUTPUT lacks %s:\n%s\n%s", i+1, want, outputs, out)
			}
		}
		if !strings.HasPrefix(string(summary), reviewfmt.Marker) {
			t.Errorf("push %d: the job summary is not the review:\n%s", i+1, summary)
		}
	}
	comments := gh.Comments(7)
	if len(comments) != 1 {
		t.Fatalf("%d comments on the pull request, want one kept up to date", len(comments))
	}
	if calls := gh.Calls(); len(calls) != 2 || calls[0].Method != "POST" || calls[1].Method != "PATCH" {
		t.Errorf("comment writes = %+v, want one POST then one PATCH", calls)
	}
	body := comments[0].Body
	if !strings.Contains(body, "E2E-REVIEW-FLAW") || strings.Contains(body, "@octocat") || strings.Contains(body, "<b>") {
		t.Errorf("the comment does not carry the second review's finding inertly:\n%s", body)
	}
}

// scriptReviewJudges answers every judge of the review with a verdict that
// fails the change and cites retry.go, and the meta-judge with "sound".
func scriptReviewJudges(api *fakeapi.Server) {
	api.Add(fakeapi.Rule{Name: "meta-judge", Match: fakeapi.Match{SystemContains: roleMarkers["meta"]},
		Replies: []fakeapi.Reply{fakeapi.Structured(map[string]any{"verdict_quality": "sound", "bias_detected": false, "confidence": 0.7})}})
	api.Add(fakeapi.Rule{Name: "review judge", Match: fakeapi.Match{Tool: fakeapi.StructuredOutputTool},
		Respond: func(*fakeapi.Request) fakeapi.Reply {
			return fakeapi.Structured(map[string]any{
				"score": 0.4, "passed": false, "confidence": 0.8, "feedback_summary": "The retry never stops.",
				"criterion_scores": map[string]float64{"correctness": 0.4, "completeness": 0.6, "safety": 0.9, "clarity": 0.7},
				"findings": []map[string]any{{"severity": "major", "file": "retry.go", "line": 4, "message": reviewFlaw, "criterion": "correctness"}},
			})
		}})
}
