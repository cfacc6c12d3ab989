package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakegithub"
)

// TestGitHubGuard runs `github guard` in a real checkout: a
// pull_request_target job with the head checked out is refused (exit 2,
// one error line and a hint, the summary naming the risk) unless the
// input accepts it; the base checked out, or a pull_request event, pass
// without a word.
func TestGitHubGuard(t *testing.T) {
	gh := fakegithub.Start("ghs_test")
	defer gh.Close()
	noSigners := func(*prRepo) string { return "" }
	for _, tc := range []struct {
		name, event, checkout string // checkout: "base" or "head"
		accept                bool
		code                  int
		stderr, summary       string // "" nothing at all
	}{
		{"target, base checked out", "pull_request_target", "base", false, 0, "", ""},
		{"target, head checked out", "pull_request_target", "head", false, exitUsage,
			"tribunal: error: refused to review: pull_request_target with the pull request's head checked out (HEAD is the pull request's head commit",
			"### tribunal refused to review"},
		{"target, head checked out, accepted", "pull_request_target", "head", true, 0,
			"accepted by the input allow-pull-request-target-head", "accepts this risk, so the review ran"},
		{"pull_request, head checked out", "pull_request", "head", false, 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newPRRepo(t, noSigners)
			r.git("checkout", "-q", map[string]string{"base": r.base, "head": r.head}[tc.checkout])
			t.Chdir(r.dir)
			j := newJob(t, gh, strings.Replace(prEvent(r.head, "mallory/widgets"), strings.Repeat("1", 40), r.base, 1))
			j.env["GITHUB_EVENT_NAME"] = tc.event
			args := []string{"github", "guard"}
			if tc.accept {
				args = append(args, "--accept-head-checkout")
			}
			code, out, errOut := j.run(args...)
			if code != tc.code || out != "" {
				t.Fatalf("github guard = %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			if tc.stderr == "" && errOut != "" || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("stderr = %q, want %q", errOut, tc.stderr)
			}
			if code != 0 && (strings.Count(errOut, "tribunal: error:") != 1 || !strings.Contains(errOut, "hint: check out the base (actions/checkout with no ref), or set allow-pull-request-target-head: true")) {
				t.Errorf("the refusal is not one error line and its hint:\n%s", errOut)
			}
			summary := j.read("summary.md")
			if tc.summary == "" && summary != "" || !strings.Contains(summary, tc.summary) {
				t.Errorf("job summary = %q, want %q", summary, tc.summary)
			}
			if tc.summary != "" && !strings.Contains(summary, "pull_request_target") {
				t.Errorf("the summary does not name the risk:\n%s", summary)
			}
		})
	}
	// A stray argument is a usage error, before anything is read.
	j := newJob(t, gh, `{"ref":"refs/heads/main"}`)
	j.env["GITHUB_EVENT_NAME"] = "pull_request_target"
	if code, _, _ := j.run("github", "guard", filepath.Join(j.dir, "x")); code != exitUsage {
		t.Errorf("guard with an argument = %d, want %d", code, exitUsage)
	}
}
