package session

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/safetext"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/git/worktree"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// repoHint is said when there is no work tree to run a task in.
const repoHint = "run tribunal inside the git work tree the task is about (not a bare repository)"

// isolationHint is said when a work tree exists but a task worktree cannot
// be made from it.
const isolationHint = repoHint + ", or pass --in-place to let the actor edit the work tree directly"

// cleanupTimeout bounds the git work of finishing a task after a signal
// cancelled the run's context.
const cleanupTimeout = 2 * time.Minute

// isolate creates the task's worktree after cleaning what crashed runs
// left. A failure stops the task before any model call.
func (r *runner) isolate(ctx context.Context) error {
	if r.opts.InPlace {
		r.report.Isolation = &records.Isolation{Mode: "in_place", State: "in_place"}
		return nil
	}
	for _, id := range r.wt.Cleanup(ctx, r.repo.WorktreeRoot) {
		r.Note("removed the worktree and ref left by an interrupted task " + id)
	}
	for _, note := range r.wt.MigrateKept(ctx, r.repo.WorktreeRoot) {
		r.Note(note)
	}
	t, err := r.wt.Create(ctx, r.repo.WorktreeRoot, r.taskID)
	if err != nil {
		return &judging.ConfigError{Err: fmt.Errorf("cannot create the task's worktree: %w", err), Hint: isolationHint}
	}
	r.task, r.workDir = t, t.Path
	r.report.Isolation = &records.Isolation{Mode: "worktree", Branch: t.Branch, Worktree: t.Path, Snapshot: t.Snapshot, Head: t.Head, State: "running", Submodules: t.Submodules, LeftOut: t.LeftOut}
	if line := secretfiles.Describe(t.LeftOut); line != "" {
		r.Note(line)
	}
	for _, o := range t.TooLarge {
		// Named, never read: the snapshot (and so .git) holds nothing of it.
		r.Warn("left out of the task's snapshot, unread: " + worktree.RefusalLine(o))
	}
	if len(t.Submodules) > 0 {
		r.Warn(fmt.Sprintf("submodules are not checked out in the task worktree (%s); the actor cannot change them", strings.Join(t.Submodules, ", ")))
	}
	warm := ""
	if t.Warm {
		warm = ", a warm worktree from the pool"
	}
	r.progress("task %s: working in %s (ref %s%s); your working tree stays as it is until the change is accepted", r.taskID, t.Path, t.Branch, warm)
	return nil
}

// recordChange commits the actor's pass in the task worktree and stores
// its diffs against the previous iteration and against the snapshot. It
// returns the snapshot diff (what the judges review) and whether this pass
// changed anything.
func (r *runner) recordChange(ctx context.Context, it *iterationState, dir string) (string, bool, error) {
	prev := r.task.Head
	head, err := r.wt.Commit(ctx, r.task, fmt.Sprintf("tribunal: task %s, iteration %d", r.taskID, it.Report.Number+1))
	r.noteTamper()
	if err != nil {
		return "", false, err
	}
	it.Report.Refused = r.task.Refused
	r.report.Isolation.Refused = r.task.Refused
	for i, f := range r.task.Refused {
		if i == maxRefusedWarnings {
			r.Warn(fmt.Sprintf("not recorded: %d more file(s) (see the summary)", len(r.task.Refused)-i))
			break
		}
		r.Warn("not recorded: " + firstLine(worktree.RefusalLine(f), 500))
	}
	r.report.Isolation.Head = head
	previous, _, err := r.wt.Diff(ctx, r.task.Path, prev, head)
	if err != nil {
		return "", false, err
	}
	cumulative, files, err := r.wt.Diff(ctx, r.task.Path, r.task.Snapshot, head)
	if err != nil {
		return "", false, err
	}
	r.storeErr(storeWriteText(r.taskDir, filepath.Join(dir, records.DiffPreviousFile), r.capStored(previous), r.Redact))
	r.storeErr(storeWriteText(r.taskDir, filepath.Join(dir, records.DiffSnapshotFile), r.capStored(cumulative), r.Redact))
	r.write(filepath.Join(dir, records.FilesChangedFile), files)
	it.Report.Commit = head
	it.Report.Files = files
	r.report.Isolation.Files = files
	return cumulative, previous != "", nil
}

// finishIsolation decides the fate of the task's change: an accepted one is
// applied to the user's working tree (or kept on its ref when it cannot
// be applied cleanly); any other outcome leaves the user's tree alone and
// keeps the ref when the actor changed something. The worktree is
// removed either way.
func (r *runner) finishIsolation(ctx context.Context, outcome string) {
	if r.task == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cleanupTimeout)
	defer cancel()
	iso := r.report.Isolation
	r.checkActorState(ctx)
	r.wt.Guard(ctx, r.task)
	r.noteTamper()
	changed := r.wt.Changed(ctx, r.task)
	keep := changed
	switch {
	case !changed:
		iso.State = "unchanged"
	case outcome == Accepted && r.opts.candidate != nil:
		// A candidate's change waits for the best-of-N choice (RunCandidates
		// applies the winner's).
		iso.State = "kept"
	case outcome == Accepted:
		res, err := r.wt.Apply(ctx, r.task)
		switch {
		case err != nil:
			iso.State, iso.Error = "kept", "the change could not be applied: "+err.Error()
		case res.Applied:
			iso.State, keep = "applied", false
		case res.NoChange:
			iso.State, keep = "unchanged", false
		default:
			iso.State, iso.Conflicts = "kept", res.Conflicts
		}
	default:
		iso.State = "kept"
	}
	if err := r.wt.Finish(ctx, r.task, keep); err != nil {
		r.Warn(fmt.Sprintf("cleaning up the task worktree: %v", err))
	}
	iso.Worktree = ""
	switch iso.State {
	case "applied":
		r.progress("task %s: the accepted change is in your working tree (uncommitted, %d file(s))", r.taskID, len(iso.Files))
	case "kept":
		switch {
		case outcome != Accepted, r.opts.candidate != nil:
		case iso.Error != "":
			r.Warn(fmt.Sprintf("the accepted change was NOT applied (%s); it is kept as %s", firstLine(iso.Error, 500), iso.Branch))
		default:
			r.Warn(fmt.Sprintf("the accepted change was NOT applied: it conflicts with your edits (%s); it is kept as %s",
				firstLine(strings.Join(iso.Conflicts, ", "), 300), iso.Branch))
		}
	}
}

// noteTamper records the task's changes to the repository's git files
// (worktree.Guard) in the report and warns of each new one at once.
func (r *runner) noteTamper() {
	iso := r.report.Isolation
	if len(r.task.Tampered) == len(iso.GitTampered) {
		return
	}
	fresh := r.task.Tampered[len(iso.GitTampered):]
	iso.GitTampered = append([]records.Tamper(nil), r.task.Tampered...)
	r.Warn(worktree.TamperLine(fresh))
}

// maxRefusedWarnings bounds the stderr lines about refused files.
const maxRefusedWarnings = 10

// refusedCheck is the name of the check that blocks an iteration whose
// work could not all be recorded.
const refusedCheck = "recordable-files"

// refusedCommand is a failed required check naming what the iteration's
// commit did not record (nil when it recorded everything): the gate
// blocks, and the next actor reads why.
func refusedCommand(refused []records.Refusal) *records.Command {
	if len(refused) == 0 {
		return nil
	}
	lines := make([]string, 0, len(refused))
	for _, f := range refused {
		lines = append(lines, worktree.RefusalLine(f))
	}
	return &records.Command{Name: refusedCheck, Required: true,
		Feedback: "not recorded and taken out of the worktree: " + firstLine(strings.Join(lines, "; "), 2000)}
}

// refusedLines is the summary's list of what the last commit left out.
func refusedLines(r *Report) []string {
	if r.Isolation == nil {
		return nil
	}
	var lines []string
	for i, f := range r.Isolation.Refused {
		if i == maxSummaryFiles {
			lines = append(lines, fmt.Sprintf("- … and %d more (see report.json)", len(r.Isolation.Refused)-maxSummaryFiles))
			break
		}
		lines = append(lines, fmt.Sprintf("- `%s` %s", firstLine(f.Path, 300), firstLine(f.Reason, 300)))
	}
	return lines
}

// isolationLines is the summary's account of the user's working tree,
// after the line naming the untracked files the snapshot left out.
func isolationLines(r *Report) []string {
	iso := r.Isolation
	if iso == nil || iso.Mode != "worktree" {
		return nil
	}
	if line := secretfiles.Describe(iso.LeftOut); line != "" {
		return append([]string{"**Untracked secrets:** " + line + " — the actor and the judges never saw them."}, worktreeLines(r)...)
	}
	return worktreeLines(r)
}

// worktreeLines says what became of the user's working tree.
func worktreeLines(r *Report) []string {
	iso := r.Isolation
	id := r.TaskID
	if lines := candidateLines(r); lines != nil {
		return lines
	}
	switch iso.State {
	case "applied":
		if r.Outcome != Accepted {
			return []string{"**Your working tree:** the change, not accepted by the gate, was applied later with `tribunal-session apply`, as uncommitted changes."}
		}
		return []string{"**Your working tree:** the accepted change was applied as uncommitted changes (review with `git diff`; nothing was staged or committed)."}
	case "discarded":
		return []string{"**Your working tree:** unchanged — the change was discarded (`tribunal-session discard`)."}
	case "unchanged":
		return []string{"**Your working tree:** unchanged — the actor changed no file."}
	case "kept":
		var lines []string
		if r.Outcome == Accepted {
			if iso.Error != "" {
				lines = append(lines, fmt.Sprintf("**Your working tree:** unchanged — the accepted change could not be applied (%s).", inline(iso.Error, 500)))
			} else {
				lines = append(lines, fmt.Sprintf("**Your working tree:** unchanged — the accepted change does not apply cleanly beside your edits (%s).", inline(strings.Join(iso.Conflicts, ", "), 500)))
			}
			lines = append(lines, fmt.Sprintf("It is kept as `%s`: resolve the overlap and run `tribunal-session apply %s`, or inspect it with `git diff %s %s`; `tribunal-session discard %s` drops it.",
				iso.Branch, id, shortCommit(iso.Snapshot), iso.Branch, id))
			return lines
		}
		return []string{
			"**Your working tree:** unchanged — the change was not accepted.",
			fmt.Sprintf("It is kept as `%s`: `tribunal-session apply %s` applies it anyway, `tribunal-session discard %s` drops it.", iso.Branch, id, id),
		}
	}
	return []string{"**Your working tree:** unchanged."}
}

func shortCommit(c string) string {
	if len(c) > 12 {
		return c[:12]
	}
	return c
}

// maxSummaryFiles bounds the summary's file list; files.json has them all.
const maxSummaryFiles = 30

// changedFiles is the task's change as the summary lists it: the last
// iteration's files relative to the snapshot.
func changedFiles(r *Report) []records.FileChange {
	if r.Isolation == nil || len(r.Isolation.Files) == 0 {
		return nil
	}
	return r.Isolation.Files
}

// fileLine is one summary line for a changed file: status, path, counts.
func fileLine(f records.FileChange) string {
	name := inline(f.Path, 300)
	if f.OldPath != "" {
		name = inline(f.OldPath, 300) + " → " + name
	}
	counts := fmt.Sprintf("+%d −%d", f.Added, f.Deleted)
	if f.Binary {
		counts = "binary"
	}
	if n := f.Notes(); n != "" {
		counts += ", " + firstLine(n, 300)
	}
	return fmt.Sprintf("`%s` %s (%s)", name, f.Status, counts)
}

// UpdateIsolation records what became of a kept task's change after the
// run ("applied" or "discarded" by `tribunal-session apply`/`discard`) in
// its report.json and summary.md, so that show tells the current story,
// and returns the task's outcome (apply hints at a receipt only for an
// accepted one).
func UpdateIsolation(taskDir, state string) (outcome string, err error) {
	path := filepath.Join(taskDir, records.ReportFile)
	data, ok := store.ReadOptional(path, 64<<20, func(string) {})
	if !ok {
		return "", fmt.Errorf("no report.json in %q", taskDir)
	}
	var rep Report
	if err := json.Unmarshal(data, &rep); err != nil {
		return "", fmt.Errorf("read %q: %w", path, err)
	}
	if rep.Isolation == nil {
		return rep.Outcome, fmt.Errorf("%q records no task worktree", path)
	}
	rep.Isolation.State, rep.Isolation.Conflicts, rep.Isolation.Error = state, nil, ""
	if err := store.WriteJSON(path, &rep); err != nil {
		return rep.Outcome, err
	}
	return rep.Outcome, storeWriteText(taskDir, records.SummaryFile, Summary(&rep), nil)
}

// storedDiffBytes bounds one stored diff file in total. Each file's
// content is already bounded (worktree.PatchFileBytes), but thousands of
// files just under that bound would still make a record of gigabytes.
const storedDiffBytes = 16 << 20

// capStored keeps whole files of a diff up to storedDiffBytes and says at
// its top, and once on stderr, which files were left out (files.json
// still lists every file with its line counts).
func (r *runner) capStored(diff string) string {
	kept, left := unidiff.Cap(diff, storedDiffBytes-4096)
	if len(left) == 0 {
		return diff
	}
	names := left
	if len(names) > 10 {
		names = names[:10]
	}
	note := fmt.Sprintf("Note: this stored diff is capped at %d MiB in total; %d file(s) left out of it (files.json lists every file): %s",
		storedDiffBytes>>20, len(left), strings.Join(names, ", "))
	if len(left) > len(names) {
		note += fmt.Sprintf(", and %d more", len(left)-len(names))
	}
	note = safetext.OneLine(note, 3000)
	if !r.diffCapWarned {
		r.diffCapWarned = true
		r.Warn(note)
	}
	return note + "\n" + kept
}
