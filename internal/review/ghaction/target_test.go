package ghaction

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestCheckTarget(t *testing.T) {
	const (
		base  = "1111111111111111111111111111111111111111"
		head  = "2222222222222222222222222222222222222222"
		merge = "3333333333333333333333333333333333333333"
	)
	pr := PullRequest{Number: 7, Base: base, Head: head}
	tests := []struct {
		name     string
		event    string
		ws       Workspace
		accepted bool
		risk     string // "" no risk
		refused  bool
	}{
		{"pull_request, head checked out", "pull_request", Workspace{HEAD: head}, false, "", false},
		{"pull_request_review, head", "pull_request_review", Workspace{HEAD: head}, false, "", false},
		{"target, base checked out", "pull_request_target", Workspace{HEAD: base}, false, "", false},
		{"target, default branch tip", "pull_request_target", Workspace{HEAD: merge, Parents: []string{base}}, false, "", false},
		{"target, head checked out", "pull_request_target", Workspace{HEAD: head, HeadIsAncestor: true, FilesAreHead: true}, false, "HEAD is the pull request's head commit", true},
		{"target, shallow merge ref", "pull_request_target", Workspace{HEAD: merge, Parents: []string{base, head}}, false, "is a merge of the pull request's head", true},
		{"target, built on the head", "pull_request_target", Workspace{HEAD: merge, HeadIsAncestor: true}, false, "contains the pull request's head", true},
		{"target, head's files over base", "pull_request_target", Workspace{HEAD: base, FilesAreHead: true}, false, "the work tree holds the files", true},
		{"target, head checked out, accepted", "pull_request_target", Workspace{HEAD: head}, true, "HEAD is the pull request's head commit", false},
		{"target, base, accepted", "pull_request_target", Workspace{HEAD: base}, true, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckTarget(tt.event, pr, tt.ws, tt.accepted)
			if tt.risk == "" && got.Risk != "" || !strings.Contains(got.Risk, tt.risk) || got.Refused != tt.refused {
				t.Fatalf("CheckTarget = %+v, want risk %q refused %v", got, tt.risk, tt.refused)
			}
			sum := got.Summary()
			switch {
			case tt.risk == "" && sum != "":
				t.Errorf("a summary without a risk: %q", sum)
			case tt.risk != "" && (!strings.Contains(sum, "pull_request_target") || !strings.Contains(sum, AcceptHeadInput)):
				t.Errorf("the summary does not name the risk and the input: %q", sum)
			case tt.refused != strings.Contains(sum, "refused"), tt.accepted && tt.risk != "" && !strings.Contains(sum, "accepts this risk"):
				t.Errorf("the summary does not say refused/accepted: %q", sum)
			}
		})
	}
}

// TestReadWorkspace reads real checkouts: the base, the head, a merge of
// the head (full and as a shallow clone keeps it), the head's files over
// the base, and a clone without the head.
func TestReadWorkspace(t *testing.T) {
	r := testkit.GitRepo(t)
	run := func(ctx context.Context, args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "git", args...)
		cmd.Dir, cmd.Env = r.Dir, r.Env
		out, err := cmd.Output()
		return string(out), err
	}
	r.WriteFile("a.go", "package a\n")
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "base")
	base := r.Git("rev-parse", "HEAD")
	r.Git("checkout", "-q", "-b", "pr")
	r.WriteFile("a.go", "package a // evil\n")
	r.Git("commit", "-q", "-am", "head")
	head := r.Git("rev-parse", "HEAD")
	r.Git("checkout", "-q", "main")
	r.WriteFile("b.go", "package a\n")
	r.Git("add", "-A")
	r.Git("commit", "-q", "-m", "main moves on")
	r.Git("merge", "-q", "--no-edit", "pr")
	merge := r.Git("rev-parse", "HEAD")

	check := func(name, want string, wantWS func(Workspace) bool) {
		t.Helper()
		ws, err := ReadWorkspace(context.Background(), run, head)
		if err != nil || !wantWS(ws) {
			t.Fatalf("%s: ReadWorkspace = %+v, %v", name, ws, err)
		}
		got := CheckTarget("pull_request_target", PullRequest{Base: base, Head: head}, ws, false)
		if !strings.Contains(got.Risk, want) || want == "" && got.Risk != "" {
			t.Fatalf("%s: risk %q, want %q", name, got.Risk, want)
		}
	}
	r.Git("checkout", "-q", base)
	check("base", "", func(ws Workspace) bool { return ws.HEAD == base && !ws.HeadIsAncestor && !ws.FilesAreHead })
	r.Git("checkout", "-q", head)
	check("head", "HEAD is the pull request's head", func(ws Workspace) bool { return ws.HEAD == head && ws.HeadIsAncestor })
	r.Git("checkout", "-q", merge)
	check("merge", "is a merge", func(ws Workspace) bool { return ws.HeadIsAncestor && len(ws.Parents) == 2 })
	r.Git("checkout", "-q", base)
	r.Git("checkout", head, "--", ".")
	check("head's files over the base", "the work tree holds the files", func(ws Workspace) bool { return ws.HEAD == base && ws.FilesAreHead })
	r.Git("checkout", "-q", "-f", base)
	r.Git("update-ref", "-d", "refs/heads/pr")
	r.Git("checkout", "-q", "-f", "main")
	r.Git("reset", "-q", "--hard", "HEAD~1") // main before the merge
	r.Git("reflog", "expire", "--expire=now", "--all")
	r.Git("gc", "-q", "--prune=now")
	check("head not in the clone", "", func(ws Workspace) bool { return !ws.HeadIsAncestor && !ws.FilesAreHead })
}
