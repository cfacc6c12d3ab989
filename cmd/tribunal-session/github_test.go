package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakegithub"
)

// ghJob is one GitHub Actions job's environment: the event payload, the
// output and summary files, the API (a fake on loopback) and the token.
type ghJob struct {
	t   *testing.T
	dir string
	env map[string]string
}

func newJob(t *testing.T, gh *fakegithub.Server, event string) *ghJob {
	dir := t.TempDir()
	j := &ghJob{t: t, dir: dir, env: map[string]string{
		"GITHUB_EVENT_NAME":   "pull_request",
		"GITHUB_EVENT_PATH":   filepath.Join(dir, "event.json"),
		"GITHUB_OUTPUT":       filepath.Join(dir, "output"),
		"GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary.md"),
		"GITHUB_API_URL":      gh.URL,
		"GITHUB_REPOSITORY":   "acme/widgets",
		"GITHUB_TOKEN":        "ghs_test",
	}}
	j.write("event.json", event)
	return j
}

func (j *ghJob) write(name, content string) string {
	p := filepath.Join(j.dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		j.t.Fatal(err)
	}
	return p
}

func (j *ghJob) read(name string) string {
	b, _ := os.ReadFile(filepath.Join(j.dir, name))
	return string(b)
}

func (j *ghJob) run(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, func(k string) string { return j.env[k] }, strings.NewReader(""), &stdout, &stderr, stdTerminal)
	return code, stdout.String(), stderr.String()
}

func prEvent(head, headRepo string) string {
	return `{"action":"synchronize","number":7,"pull_request":{"number":7,"title":"Add retry","body":"Retries 3 times.",` +
		`"base":{"sha":"1111111111111111111111111111111111111111","repo":{"full_name":"acme/widgets"}},` +
		`"head":{"sha":"` + head + `","repo":{"full_name":"` + headRepo + `"}}}}`
}

// reviewOutputs stands in for `tribunal-session review --output md=…
// --output sarif=…` until the review command exists: the files it
// writes, rendered by reviewfmt.
func reviewOutputs(j *ghJob, r reviewfmt.Review) (md, sarif string) {
	data, err := reviewfmt.SARIF(r, "test")
	if err != nil {
		j.t.Fatal(err)
	}
	return j.write("review.md", reviewfmt.Markdown(r, reviewfmt.MarkdownOptions{})), j.write("review.sarif", string(data))
}

// TestGitHubTwoPushes runs the Action's steps as GitHub runs them on two
// pushes to one pull request: one comment is created, then edited.
func TestGitHubTwoPushes(t *testing.T) {
	gh := fakegithub.Start("ghs_test")
	defer gh.Close()
	heads := []string{"2222222222222222222222222222222222222222", "3333333333333333333333333333333333333333"}
	outcomes := []string{reviewfmt.OutcomeRejected, reviewfmt.OutcomeAccepted}
	var commentID string
	for i, head := range heads {
		j := newJob(t, gh, prEvent(head, "acme/widgets"))
		code, out, errOut := j.run("github", "prepare", "--task-file", filepath.Join(j.dir, "task.md"))
		if code != 0 || out != "1111111111111111111111111111111111111111 "+head+" 7\n" {
			t.Fatalf("push %d: prepare = %d, %q, %s", i+1, code, out, errOut)
		}
		if got := j.read("task.md"); got != "Add retry\n\nRetries 3 times.\n" {
			t.Errorf("task file = %q", got)
		}
		md, sarif := reviewOutputs(j, reviewfmt.Review{ID: "01JDZ8Q5W3K4M6N8P0R2S4T6V" + string(rune('0'+i)), Outcome: outcomes[i], Reason: "push " + head[:4], Head: head})
		code, _, errOut = j.run("github", "publish", "--markdown", md, "--sarif", sarif)
		if code != 0 {
			t.Fatalf("push %d: publish = %d: %s", i+1, code, errOut)
		}
		outputs := j.read("output")
		for _, want := range []string{"base<<", "head<<TRIBUNAL_EOF\n" + head + "\n", "outcome<<TRIBUNAL_EOF\n" + outcomes[i] + "\n", "review-id<<", "sarif<<TRIBUNAL_EOF\n" + sarif + "\n", "comment-url<<"} {
			if !strings.Contains(outputs, want) {
				t.Errorf("push %d: $GITHUB_OUTPUT lacks %q:\n%s", i+1, want, outputs)
			}
		}
		id := outputs[strings.Index(outputs, "comment-id<<TRIBUNAL_EOF\n")+len("comment-id<<TRIBUNAL_EOF\n"):]
		id = id[:strings.IndexByte(id, '\n')]
		if commentID != "" && id != commentID {
			t.Errorf("push %d: comment %s, want the same comment %s", i+1, id, commentID)
		}
		commentID = id
		if summary := j.read("summary.md"); !strings.HasPrefix(summary, reviewfmt.Marker) || !strings.Contains(summary, "push "+head[:4]) {
			t.Errorf("push %d: job summary = %q", i+1, summary)
		}
	}
	comments := gh.Comments(7)
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "Accepted") {
		t.Fatalf("comments = %+v, want one with the second push's review", comments)
	}
	if calls := gh.Calls(); len(calls) != 2 || calls[0].Method != "POST" || calls[1].Method != "PATCH" {
		t.Errorf("writes = %+v, want one POST then one PATCH", calls)
	}
}

// TestGitHubForkAndPush covers the two events a review cannot comment on:
// a fork's pull request (read-only token: a warning, the summary still
// written, exit 0) and a push (no pull request: a usage error that says
// what to do).
func TestGitHubForkAndPush(t *testing.T) {
	gh := fakegithub.Start("ghs_test")
	defer gh.Close()
	gh.ReadOnly = true
	j := newJob(t, gh, prEvent("2222222222222222222222222222222222222222", "mallory/widgets"))
	md, sarif := reviewOutputs(j, reviewfmt.Review{ID: "01JDZ8Q5W3K4M6N8P0R2S4T6V8", Outcome: reviewfmt.OutcomeRejected})
	code, _, errOut := j.run("github", "publish", "--markdown", md, "--sarif", sarif)
	if code != 0 || !strings.Contains(errOut, "comes from a fork") || !strings.Contains(j.read("summary.md"), reviewfmt.Marker) {
		t.Errorf("fork: publish = %d, summary %q, stderr:\n%s", code, j.read("summary.md"), errOut)
	}
	if len(gh.Comments(7)) != 0 {
		t.Error("a comment was stored through a read-only token")
	}

	j = newJob(t, gh, `{"ref":"refs/heads/main","after":"2222222222222222222222222222222222222222"}`)
	j.env["GITHUB_EVENT_NAME"] = "push"
	code, _, errOut = j.run("github", "prepare", "--task-file", filepath.Join(j.dir, "task.md"))
	if code != exitUsage || !strings.Contains(errOut, "tribunal: error: github prepare:") || !strings.Contains(errOut, `"push"`) || !strings.Contains(errOut, "hint: trigger the workflow with 'on: pull_request'") {
		t.Errorf("push event: prepare = %d, stderr:\n%s", code, errOut)
	}
}
