package claude

import (
	"slices"
	"testing"
)

func TestWithReadOnlyTools(t *testing.T) {
	base := Call{Role: "stop", Model: "m", Tools: []string{}, AllowedTools: []string{"Bash"}, MaxTurns: 2}
	c := base.WithReadOnlyTools(ReadOnlyJudgeTurns)
	args := Args(c)
	for _, want := range [][]string{
		{"--tools", "Read,Grep,Glob"},
		{"--max-turns", "6"},
		{"--strict-mcp-config"},
	} {
		if !containsRun(args, want) {
			t.Errorf("argv %q lacks %q", args, want)
		}
	}
	if slices.Contains(args, "--allowedTools") {
		t.Errorf("argv %q pre-approves tools: reads outside the worktree would be allowed", args)
	}
	if len(base.Tools) != 0 || base.MaxTurns != 2 {
		t.Errorf("WithReadOnlyTools changed its receiver: %+v", base)
	}
	c.Tools[0] = "Bash"
	if ReadOnlyTools[0] != "Read" {
		t.Error("the returned call shares ReadOnlyTools' backing array")
	}
}

func containsRun(args, run []string) bool {
	for i := 0; i+len(run) <= len(args); i++ {
		if slices.Equal(args[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func TestNeedApproval(t *testing.T) {
	for _, tc := range []struct {
		tools, want []string
	}{
		{nil, nil},
		{[]string{"Read"}, nil},
		{[]string{"Read", "Grep", "Glob"}, nil},
		{[]string{"Read", "Grep", "Glob", "Bash"}, []string{"Bash"}},
		{[]string{"Read", "Edit", "Write", "Bash", "Grep", "Glob"}, []string{"Edit", "Write", "Bash"}},
		{[]string{"WebFetch"}, []string{"WebFetch"}},
	} {
		if got := NeedApproval(tc.tools); !slices.Equal(got, tc.want) {
			t.Errorf("NeedApproval(%q) = %q, want %q", tc.tools, got, tc.want)
		}
	}
}
