package prompts

import (
	"strconv"
	"strings"
)

// JudgeInput is everything a loop judge is shown in its user turn (spec §4.3–4.5,
// spec §7.4 step 4).
type JudgeInput struct {
	Task        string
	Criteria    []Criterion
	ActorOutput string
	Threshold   float64
	JudgeType   string // the seat's effective type, e.g. "standard"
	Iteration   int    // the 0-based iteration number n
	// DiffStat is an optional summary of the working-tree changes (for
	// example `git diff --stat` plus untracked paths). Judges must read the
	// changed files; naming them saves the read-only judges a blind search.
	DiffStat string
	// Diff is the Actor's change as a (bounded) unified diff against the
	// snapshot the task started from: exactly the work under review, and
	// none of the user's own earlier edits.
	Diff string
	// Isolated says the Actor worked in a task worktree started from a
	// snapshot of the user's tree, so anything the diff does not show was
	// there before the task.
	Isolated bool
	// Dismissed are the findings people dismissed on the files under
	// review, with their reasons (internal/dismiss); none, no section.
	Dismissed []Dismissed
	// Answer, when set, makes this the judging of an answer (ActorOutput)
	// to a question rather than of a change: no diff, no working tree.
	Answer *AnswerCase
	// Directives are the rubric's directives (spec §2.6), shown in a
	// section of their own after the threshold; none, no section.
	Directives []string
}

// JudgePrompt builds the user-turn prompt for one judge seat. The agent
// file supplies the role and the calibration rules; this prompt supplies the
// case: task, rubric, threshold and the Actor's output, with every
// untrusted text fenced by unforgeable markers.
func JudgePrompt(in JudgeInput) string {
	if in.Answer != nil {
		return answerPrompt(in)
	}
	names := criterionNames(in.Criteria)
	// Every variable text goes into the token derivation, not only the
	// fenced ones, so the token occurs nowhere in the prompt but its markers.
	dismissed := dismissedText(in.Dismissed)
	texts := []string{in.Task, in.ActorOutput, in.DiffStat, in.JudgeType}
	if in.Diff != "" {
		texts = append(texts, in.Diff)
	}
	if dismissed != "" {
		texts = append(texts, dismissed)
	}
	texts = append(texts, in.Directives...)
	f := newFencer(append(texts, names...)...)
	judgeType := in.JudgeType
	if judgeType == "" {
		judgeType = "standard"
	}
	var b strings.Builder

	b.WriteString("# Tribunal jury assignment\n\n")
	b.WriteString("You hold the `" + cell(judgeType) + "` seat on the jury for iteration " + strconv.Itoa(in.Iteration) +
		" of this task (iteration 0 is the Actor's first attempt). Score the work on its merits; the iteration number must not move your score.\n\n")
	b.WriteString(f.notice() + "\n\n")

	b.WriteString("## Task given to the Actor\n\n")
	f.wrap(&b, "TASK", in.Task)

	writeScoring(&b, in, names, "work", ", and is a coverage gap rather than a safe middle choice")

	if strings.TrimSpace(in.DiffStat) != "" {
		b.WriteString("\n## What changed in the working tree\n\n")
		f.wrap(&b, "DIFF STAT", in.DiffStat)
	}
	if in.Isolated {
		b.WriteString("\n## The Actor's change\n\n")
		if strings.TrimSpace(in.Diff) == "" {
			b.WriteString("The Actor changed no file relative to the snapshot the task started from.\n")
		} else {
			b.WriteString("This is the Actor's whole change so far, as a unified diff against the snapshot of the working tree the task started from. " +
				"Anything in the working tree that this diff does not show was there before the task and is not the Actor's work. " +
				"Long diffs are shortened; read the files for what is omitted.\n\n")
			f.wrap(&b, "DIFF", in.Diff)
		}
	}

	writeDismissed(&b, f, dismissed)

	b.WriteString("\n## The Actor's final message\n\n")
	if strings.TrimSpace(in.ActorOutput) == "" {
		b.WriteString("The Actor's final message was empty; judge the working tree as you find it.\n\n")
	}
	f.wrap(&b, "ACTOR OUTPUT", in.ActorOutput)

	b.WriteString("\n## What to do\n\n")
	b.WriteString("The Actor worked in your current working directory, and its changes are in the working tree now. ")
	b.WriteString("Read the files it created or modified before you score: its message is a claim to check, not evidence. ")
	b.WriteString("Then return your verdict as one JSON object: through the StructuredOutput tool if it is offered, otherwise as your whole final message with no prose and no code fence. ")
	b.WriteString("Do not include judge_id, iteration_id, task_id or model ids; the orchestrator adds them.\n")
	b.WriteString("\nOptionally list concrete problems in `findings`, each with a `severity` on the ladder info < low < minor < moderate < major < critical < blocker, a one-line `message`, the `file` and `line` where it is, and optionally the rubric `criterion` it bears on. ")
	b.WriteString("Use critical or blocker only for a defect that makes the work unsafe or unusable; the project may block on them whatever the score.\n")
	return b.String()
}

// writeScoring is a jury prompt's rubric, score threshold and the
// rubric's directives, the same for a change and an answer: thing names
// what is judged ("work", "answer"), omitted adds to the sentence on an
// omitted criterion key.
func writeScoring(b *strings.Builder, in JudgeInput, names []string, thing, omitted string) {
	b.WriteString("\n## Rubric\n\n")
	rubricTable(b, in.Criteria)
	b.WriteString("\nThe keys of `criterion_scores` are exactly these names, as JSON strings: " + jsonStrings(names) + ". ")
	b.WriteString("Score every criterion you can: 0 means assessed and failed; an omitted key means not assessed" + omitted + ". ")
	b.WriteString("A criterion whose lowest score across the jury falls below its min_pass blocks the " + thing + " on its own.\n")
	b.WriteString("\n## Score threshold\n\n")
	b.WriteString("The jury's aggregate score must reach " + fmtConfigured(in.Threshold) +
		". Set `passed` to your own call: true when the " + thing + " clears this threshold and no criterion you scored is below its min_pass.\n")
	writeDirectives(b, in.Directives)
}
