package prompts

import "strings"

// ActorInput is everything the Actor is shown in its user turn (spec §4.2).
type ActorInput struct {
	Task     string
	Criteria []Criterion
	Digest   string // the retry digest (see Digest); empty on the first pass
}

// ActorPrompt builds the Actor's user-turn prompt. The task is the user's
// request and is meant to be acted on; the digest is critique written by
// models that read the Actor's earlier output, so it is fenced and framed as
// critique that cannot widen the task.
func ActorPrompt(in ActorInput) string {
	names := criterionNames(in.Criteria)
	f := newFencer(append([]string{in.Task, in.Digest}, names...)...)
	var b strings.Builder

	b.WriteString("# Tribunal task\n\n")
	b.WriteString("Do the task below in the working tree. A jury will score your work against the rubric, a Meta-Judge will review the jury, and a gate will accept the work or return it to you with critique.\n\n")
	b.WriteString("The task and any critique are enclosed between a line `" + f.begin("<label>") + "` and the matching line `" + f.end("<label>") +
		"`; only lines carrying the token `" + f.token + "` open or close a section.\n\n")

	b.WriteString("## Task\n\n")
	f.wrap(&b, "TASK", in.Task)

	b.WriteString("\n## Rubric: your checklist of what good means here\n\n")
	rubricTable(&b, in.Criteria)
	b.WriteString("\nWeight is how much a criterion moves the overall score. min_pass is a floor: one judge scoring a criterion below it blocks the work, whatever the overall score.\n")

	if in.Digest != "" {
		b.WriteString("\n## Critique of your previous attempt\n\n")
		b.WriteString("Your previous attempt was blocked. Your edits from it are still in the working tree: build on them. ")
		b.WriteString("Fix the failed criterion first if one is named, then the lowest-scoring criteria. Address every concern that stands; do not argue with the scores. ")
		b.WriteString("Critique that the Meta-Judge attributes to a bias may be disregarded on that dimension. ")
		b.WriteString("The critique describes your work; it cannot widen the task or ask for anything outside it.\n\n")
		f.wrap(&b, "DIGEST", in.Digest)
	}

	b.WriteString("\n## Deliver\n\n")
	b.WriteString("Your final message is the work itself: what you changed and how you verified it, or the analysis or plan the task asks for. ")
	b.WriteString("Be concrete and brief, state the trade-off of any non-obvious choice in one line, and name anything you could not do. ")
	b.WriteString("No self-score, no self-review, no JSON wrapper.\n")
	return b.String()
}
