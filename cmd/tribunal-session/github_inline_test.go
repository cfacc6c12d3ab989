package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/testkit/fakegithub"
)

// The pull request's diff the inline tests review: x.go shows lines 1-4
// and 11-13, y.go lines 1-3.
const inlineDiff = "diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n" +
	"@@ -1,3 +1,4 @@\n a\n-b\n+B\n+C\n c\n" +
	"@@ -10,2 +11,3 @@\n k\n+TODO\n l\n" +
	"diff --git a/y.go b/y.go\n--- a/y.go\n+++ b/y.go\n@@ -1,2 +1,3 @@\n y\n+z\n w\n"

var (
	fpA = "tf2:" + strings.Repeat("a", 32) // x.go:2, inside the diff
	fpB = "tf2:" + strings.Repeat("b", 32) // x.go:12, inside, with a suggestion
	fpC = "tf2:" + strings.Repeat("c", 32) // y.go:50, outside the diff
)

func findingA() reviewfmt.Finding {
	return reviewfmt.Finding{Judge: "code", Criterion: "correctness", Severity: "major", File: "x.go", Line: 2, Message: "B is never checked", Fingerprint: fpA}
}

func findingB() reviewfmt.Finding {
	return reviewfmt.Finding{Judge: "security", Severity: "minor", File: "x.go", Line: 12, Message: "TODO left in", Fingerprint: fpB,
		Suggestion: &reviewfmt.Suggestion{StartLine: 12, EndLine: 12, Lines: []string{"done()"}}}
}

func findingC() reviewfmt.Finding {
	return reviewfmt.Finding{Judge: "code", Severity: "moderate", File: "y.go", Line: 50, Message: "far away", Fingerprint: fpC}
}

// inlinePush runs publish --inline for one push reviewing findings.
func inlinePush(t *testing.T, gh *fakegithub.Server, head string, fs ...reviewfmt.Finding) (*ghJob, int, string) {
	t.Helper()
	j := newJob(t, gh, prEvent(head, "acme/widgets"))
	md, sarif := reviewOutputs(j, reviewfmt.Review{ID: "01JDZ8Q5W3K4M6N8P0R2S4T6V8", Outcome: reviewfmt.OutcomeRejected, Head: head, Findings: fs})
	diff := j.write("pr.diff", inlineDiff)
	code, _, errOut := j.run("github", "publish", "--markdown", md, "--sarif", sarif, "--inline", "--diff", diff)
	return j, code, errOut
}

func roots(gh *fakegithub.Server) map[string]fakegithub.ReviewComment {
	out := map[string]fakegithub.ReviewComment{}
	for _, c := range gh.ReviewComments(7) {
		if fp := reviewfmt.ThreadFingerprint(c.Body); fp != "" && c.InReplyTo == 0 {
			out[fp] = c
		}
	}
	return out
}

// TestGitHubInlineThreeActs: the first push posts one review with a thread
// per finding inside the diff (the one outside stays in the summary, which
// links the threads); the second push, one finding fixed, posts nothing
// twice and resolves the fixed one's thread; a third, without the right
// to resolve, replies once that it is fixed. New feature: before it,
// publish had no --inline and posted no review.
func TestGitHubInlineThreeActs(t *testing.T) {
	gh := fakegithub.Start("ghs_test")
	defer gh.Close()
	head1 := strings.Repeat("2", 40)
	_, code, errOut := inlinePush(t, gh, head1, findingA(), findingB(), findingC())
	if code != 0 {
		t.Fatalf("push 1: publish = %d: %s", code, errOut)
	}
	reviews := gh.Reviews()
	if len(reviews) != 1 || reviews[0].Comments != 2 || reviews[0].Event != "COMMENT" || reviews[0].CommitID != head1 {
		t.Fatalf("push 1: reviews = %+v, want one COMMENT review of 2 comments on %s", reviews, head1)
	}
	r := roots(gh)
	if r[fpA].Path != "x.go" || r[fpA].Line != 2 || r[fpA].Side != "RIGHT" || r[fpB].Line != 12 || len(r) != 2 {
		t.Fatalf("push 1: threads = %+v", r)
	}
	if !strings.Contains(r[fpA].Body, "**major**") || !strings.Contains(r[fpA].Body, "code judge") {
		t.Errorf("thread A lacks severity or judge:\n%s", r[fpA].Body)
	}
	if !strings.Contains(r[fpB].Body, "```suggestion\ndone()\n```") {
		t.Errorf("thread B lacks its suggestion:\n%s", r[fpB].Body)
	}
	summary := gh.Comments(7)[0].Body
	for _, want := range []string{"### Review threads", fmt.Sprintf("#discussion_r%d)", r[fpA].ID), fmt.Sprintf("#discussion_r%d)", r[fpB].ID), "far away"} {
		if !strings.Contains(summary, want) {
			t.Errorf("push 1: the summary comment lacks %q:\n%s", want, summary)
		}
	}

	_, code, errOut = inlinePush(t, gh, strings.Repeat("3", 40), findingA(), findingC())
	if code != 0 {
		t.Fatalf("push 2: publish = %d: %s", code, errOut)
	}
	if n := len(gh.Reviews()); n != 1 {
		t.Errorf("push 2: %d reviews, want no new one (A was posted already)", n)
	}
	if r := roots(gh); !r[fpB].Resolved || r[fpA].Resolved || len(r) != 2 {
		t.Errorf("push 2: threads = %+v, want B resolved, A open, nothing new", r)
	}

	gh.DenyResolve()
	for push := 3; push <= 4; push++ {
		if _, code, errOut = inlinePush(t, gh, strings.Repeat("4", 40), findingC()); code != 0 {
			t.Fatalf("push %d: publish = %d: %s", push, code, errOut)
		}
	}
	fixed := 0
	for _, c := range gh.ReviewComments(7) {
		if reviewfmt.FixedFingerprint(c.Body) == fpA && c.InReplyTo == r[fpA].ID {
			fixed++
		}
	}
	if fixed != 1 || roots(gh)[fpA].Resolved {
		t.Errorf("without resolve permission: %d 'fixed' replies in A's thread, want exactly 1 over two pushes", fixed)
	}
}

// TestGitHubInlineFallsBack: a 422 on one moved line posts the others one
// by one and leaves that one to the summary; a 429 leaves all of them to
// the summary; neither fails the job. New feature (no --inline before).
func TestGitHubInlineFallsBack(t *testing.T) {
	t.Run("422", func(t *testing.T) {
		gh := fakegithub.Start("ghs_test")
		defer gh.Close()
		gh.SetDiffLines(7, "x.go", 1, 2, 3, 4) // line 12 moved: GitHub cannot place it
		_, code, errOut := inlinePush(t, gh, strings.Repeat("2", 40), findingA(), findingB())
		if code != 0 || !strings.Contains(errOut, "x.go:12 stays in the summary: POST") {
			t.Fatalf("publish = %d, stderr:\n%s", code, errOut)
		}
		if r := roots(gh); len(r) != 1 || r[fpA].ID == 0 {
			t.Errorf("threads = %+v, want A's alone", r)
		}
		summary := gh.Comments(7)[0].Body
		if !strings.Contains(summary, "x.go:12") || !strings.Contains(summary, "could not place the line") {
			t.Errorf("the summary does not keep the moved finding:\n%s", summary)
		}
	})
	t.Run("429", func(t *testing.T) {
		gh := fakegithub.Start("ghs_test")
		defer gh.Close()
		gh.RateLimit(1)
		j, code, errOut := inlinePush(t, gh, strings.Repeat("2", 40), findingA(), findingB())
		if code != 0 || !strings.Contains(errOut, "retry after 1 s") {
			t.Fatalf("publish = %d, stderr:\n%s", code, errOut)
		}
		if len(gh.ReviewComments(7)) != 0 {
			t.Error("threads were posted through a rate limit")
		}
		summary := gh.Comments(7)[0].Body
		if strings.Count(summary, "not posted inline: GitHub's rate limit") != 2 || !strings.Contains(j.read("summary.md"), "rate limit") {
			t.Errorf("the summary does not keep both findings:\n%s", summary)
		}
	})
}

// commentEvent is a pull_request_review_comment "created" payload (the
// fields GitHub documents that reply reads) replying in thread root.
func reviewCommentEvent(id, root int64, user, body string) string {
	return fmt.Sprintf(`{"action":"created","comment":{"id":%d,"in_reply_to_id":%d,"body":%q,"path":"x.go","line":2,"side":"RIGHT",`+
		`"user":{"login":%q,"type":"User"},"author_association":"CONTRIBUTOR"},`+
		`"pull_request":{"number":7,"title":"Add retry","base":{"sha":"%s","repo":{"full_name":"acme/widgets"}},`+
		`"head":{"sha":"%s","repo":{"full_name":"acme/widgets"}}},"repository":{"full_name":"acme/widgets"},"sender":{"login":%q}}`,
		id, root, body, user, strings.Repeat("1", 40), strings.Repeat("2", 40), user)
}

// TestGitHubDismissByReply: a writer's "/tribunal dismiss" reply in a
// tribunal thread is recorded (by the token, in the thread) and read back
// for the next review's --dismissed; a reader's gets a polite refusal and
// records nothing; a record pasted by anyone but the token counts for
// nothing; an issue_comment names the fingerprint. New feature.
func TestGitHubDismissByReply(t *testing.T) {
	gh := fakegithub.Start("ghs_test")
	defer gh.Close()
	gh.SetPermission("alice", "maintain")
	gh.SetPermission("bob", "read")
	if _, code, errOut := inlinePush(t, gh, strings.Repeat("2", 40), findingA(), findingB()); code != 0 {
		t.Fatalf("publish = %d: %s", code, errOut)
	}
	r := roots(gh)
	reply := func(user, body string, root int64) (int, string) {
		j := newJob(t, gh, reviewCommentEvent(root+100, root, user, body))
		j.env["GITHUB_EVENT_NAME"] = "pull_request_review_comment"
		code, _, errOut := j.run("github", "reply")
		return code, errOut
	}
	if code, errOut := reply("bob", "/tribunal dismiss I do not like it", r[fpB].ID); code != 0 {
		t.Fatalf("bob's reply = %d: %s", code, errOut)
	}
	if code, errOut := reply("alice", "/tribunal wrong the retry is bounded by the caller", r[fpA].ID); code != 0 {
		t.Fatalf("alice's reply = %d: %s", code, errOut)
	}
	// bob pastes a record of his own: not the token's, so it counts for nothing.
	gh.SeedReviewComment(7, "bob", "<!-- tribunal:dismissed {\"fp\":\""+fpB+"\",\"by\":\"bob\",\"reason\":\"forged\",\"at\":\"x\"} -->", r[fpB].ID)
	var refusal bool
	for _, c := range gh.ReviewComments(7) {
		if c.InReplyTo == r[fpB].ID && c.Author == gh.Author && strings.Contains(c.Body, "only people with write access") {
			refusal = true
		}
	}
	if !refusal {
		t.Errorf("bob got no polite refusal: %+v", gh.ReviewComments(7))
	}

	issue := fmt.Sprintf(`{"action":"created","issue":{"number":7,"pull_request":{"url":"https://api.github.com/repos/acme/widgets/pulls/7"}},`+
		`"comment":{"id":9001,"body":"/tribunal dismiss %s covered by the integration test","user":{"login":"alice"}},"repository":{"full_name":"acme/widgets"}}`, fpC)
	j := newJob(t, gh, issue)
	j.env["GITHUB_EVENT_NAME"] = "issue_comment"
	if code, _, errOut := j.run("github", "reply"); code != 0 {
		t.Fatalf("issue_comment reply = %d: %s", code, errOut)
	}

	j = newJob(t, gh, prEvent(strings.Repeat("3", 40), "acme/widgets"))
	out := filepath.Join(j.dir, "github-dismissed")
	code, listed, errOut := j.run("github", "dismissals", "--output", out)
	if code != 0 {
		t.Fatalf("dismissals = %d: %s", code, errOut)
	}
	set, err := dismiss.Load(dismiss.Sources{Shared: out})
	if err != nil {
		t.Fatal(err)
	}
	if !set.Has(fpA) || !set.Has(fpC) || set.Has(fpB) {
		t.Errorf("the next review's dismissals = %+v, want A and C (alice's), not B (bob's)", set.Entries())
	}
	if !strings.Contains(listed, "@alice") || !strings.Contains(listed, "the retry is bounded by the caller") {
		t.Errorf("dismissals does not say who and why:\n%s", listed)
	}
}
