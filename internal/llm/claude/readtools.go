package claude

import "slices"

// ReadOnlyTools are the built-in tools that let a judge look at the files
// of its working directory without changing anything.
var ReadOnlyTools = []string{"Read", "Grep", "Glob"}

// ReadOnlyJudgeTurns caps the turns of a judge given ReadOnlyTools: a few
// rounds of looking plus the turn that returns the structured answer. It
// bounds the cost and the time of an advisory judge that would otherwise
// keep exploring.
const ReadOnlyJudgeTurns = 6

// WithReadOnlyTools returns c restricted to ReadOnlyTools with at most
// maxTurns turns. The tools are deliberately not pre-approved
// (AllowedTools is cleared): Claude Code lets a -p session read inside its
// working directory (c.Dir) without approval and denies a read anywhere
// else as an unapproved tool use, which keeps the judge inside the
// worktree (e2e TestStopHookReadToolsStayInTheWorktree). MCP servers stay
// off (StrictMCP) so no other tool can appear.
func (c Call) WithReadOnlyTools(maxTurns int) Call {
	c.Tools = append([]string(nil), ReadOnlyTools...)
	c.AllowedTools = nil
	c.MaxTurns = maxTurns
	c.StrictMCP = true
	return c
}

// NeedApproval returns the tools a -p session cannot use unless they are
// pre-approved: every tool in tools except ReadOnlyTools. The read-only
// tools are left out on purpose: unapproved, Claude Code serves them
// inside the session's working directory and refuses them anywhere else,
// so a judge working in a task's worktree cannot read the user's other
// files (spec §4). Pre-approving Read would lift that limit.
func NeedApproval(tools []string) []string {
	var out []string
	for _, t := range tools {
		if !slices.Contains(ReadOnlyTools, t) {
			out = append(out, t)
		}
	}
	return out
}
