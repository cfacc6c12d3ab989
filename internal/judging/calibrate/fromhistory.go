package calibrate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// HistorySource prefixes the source of a case labelled from the user's
// own decisions, so that the report can say whose judgement the labels
// are.
const HistorySource = "history: "

// HistoryInput is where the user's decisions are read from. Nothing in
// it is written.
type HistoryInput struct {
	// ProjectDir is the project's directory in the store.
	ProjectDir string
	// WorkTree is the repository's work tree, where an applied change is
	// looked for (still there, or undone) and its starting files are read
	// from git.
	WorkTree string
	// SharedDismissals is the repository's committed dismissals file.
	SharedDismissals string
	Git              projectkey.GitRunner
	// TempDir holds the patches `git apply --check` reads.
	TempDir string
}

// Skipped is a record that gave no case, and why.
type Skipped struct {
	ID  string `json:"id"`
	Why string `json:"why"`
}

// ErrNoDecisions is a history in which the user decided nothing that
// labels a change.
var ErrNoDecisions = errors.New("no decision to learn from")

// taskReport is what a task's report.json says that labels it.
type taskReport struct {
	Task      string             `json:"task"`
	Outcome   string             `json:"outcome"`
	Isolation *records.Isolation `json:"isolation"`
}

// FromHistory builds labelled cases from what the user decided about the
// project's /tribunal tasks: a change applied to the working tree and
// still there is an accept; one discarded, or applied and since undone
// in the working tree, is a reject; a task left unapplied whose finding
// the user dismissed as wrong is an accept (the user overruled the
// judge's objection), and so is a reviewed range with a dismissed finding
// (reviewCase). The changes the Stop hook judged are labelled the same
// way (advisoryCases). Every case names where its label came from.
// It reads only: no record, ref or file of the user's is changed.
func FromHistory(ctx context.Context, in HistoryInput) ([]Case, []Skipped, error) {
	dismissed, err := dismissedSources(in)
	if err != nil {
		return nil, nil, err
	}
	recs, _ := records.ProjectRecs(in.ProjectDir)
	var cases []Case
	var skipped []Skipped
	for i := len(recs) - 1; i >= 0; i-- { // oldest first
		id := recs[i].TaskID
		if recs[i].Advisory != nil {
			continue // advisoryCases labels these
		}
		c, why := in.recordCase(ctx, id, dismissed[id])
		if why != "" {
			skipped = append(skipped, Skipped{ID: id, Why: why})
			continue
		}
		cases = append(cases, c)
	}
	ac, as := in.advisoryCases(ctx, dismissed)
	cases, skipped = append(cases, ac...), append(skipped, as...)
	if len(cases) == 0 {
		return nil, skipped, fmt.Errorf("%w: the project's history (%d record(s)) has no change you applied, discarded, kept or undid, and no finding you dismissed",
			ErrNoDecisions, len(recs))
	}
	return cases, skipped, nil
}

// recordCase labels the record in task directory id by its kind (its
// manifest says it; one whose manifest cannot be read is taken for a
// task, as the log lists it), or says why it cannot.
func (in HistoryInput) recordCase(ctx context.Context, id string, dismissals []string) (Case, string) {
	var m records.Manifest
	_ = records.ReadJSON(filepath.Join(in.ProjectDir, id, records.ManifestFile), &m)
	switch m.Kind {
	case records.KindReview:
		return in.reviewCase(ctx, id, dismissals)
	case records.KindAnswer:
		// An answer is not a change: there is no diff a case could hold.
		return Case{}, "an answer (judge): not a change, nothing to label"
	}
	return in.taskCase(ctx, id, dismissals)
}

// dismissedSources maps each task or verdict id to the reasons the user
// gave for dismissing its findings.
func dismissedSources(in HistoryInput) (map[string][]string, error) {
	set, err := dismiss.Load(dismiss.Sources{Shared: in.SharedDismissals, Personal: filepath.Join(in.ProjectDir, records.DismissalsFile)})
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, e := range set.Entries() {
		if e.Source != "" {
			out[e.Source] = append(out[e.Source], e.Reason)
		}
	}
	return out, nil
}

// taskCase labels one task, or says why it cannot.
func (in HistoryInput) taskCase(ctx context.Context, id string, dismissals []string) (Case, string) {
	var rep taskReport
	if err := records.ReadJSON(filepath.Join(in.ProjectDir, id, records.ReportFile), &rep); err != nil {
		return Case{}, "no readable report.json (the run did not finish?)"
	}
	iso := rep.Isolation
	if iso == nil || iso.Mode != "worktree" {
		return Case{}, "run --in-place: no kept change to label"
	}
	diff, err := records.IterationDiff(in.ProjectDir, id, 0, false)
	if err != nil || strings.TrimSpace(diff) == "" {
		return Case{}, "no stored diff"
	}
	c := Case{ID: id, Task: rep.Task, Diff: diff}
	switch {
	case iso.State == "discarded":
		c.Label, c.Source = judgestats.Reject, "discarded with `tribunal-session discard`"
	case iso.State == "applied":
		switch in.stillThere(ctx, diff) {
		case "there":
			c.Label, c.Source = judgestats.Accept, "applied to the working tree and still there"
		case "undone":
			c.Label, c.Source = judgestats.Reject, "applied, then undone in the working tree"
		default:
			return Case{}, "applied, then edited over: neither kept as it was nor undone"
		}
	case iso.State == "kept" && len(dismissals) > 0:
		c.Label = judgestats.Accept
		c.Source = fmt.Sprintf("a finding dismissed as wrong (%q)", dismissals[0])
	default:
		return Case{}, fmt.Sprintf("no decision of yours recorded (its change is %s)", iso.State)
	}
	c.Source = HistorySource + c.Source
	if c.Task == "" {
		return Case{}, "no task text in report.json"
	}
	files, why := in.startingFiles(ctx, iso.Snapshot, diff)
	if why != "" {
		return Case{}, why
	}
	c.Files = files
	return c, ""
}

// reviewCase labels a review (`tribunal-session review`) one of whose
// findings the user dismissed as wrong: an accept, the user having
// overruled the judge. A review keeps no diff; a range review's is
// rebuilt from its two commits when the repository still has them.
func (in HistoryInput) reviewCase(ctx context.Context, id string, dismissals []string) (Case, string) {
	if len(dismissals) == 0 {
		return Case{}, "review: no finding of it dismissed"
	}
	var rev records.Review
	var man records.Manifest
	if records.ReadJSON(filepath.Join(in.ProjectDir, id, records.ReviewFile), &rev) != nil ||
		records.ReadJSON(filepath.Join(in.ProjectDir, id, records.ManifestFile), &man) != nil {
		return Case{}, "review: no readable review.json or manifest.json"
	}
	if rev.Change != "range" || rev.Base == "" || rev.Head == "" {
		return Case{}, fmt.Sprintf("review of a %s change: its diff was not kept", rev.Change)
	}
	out, err := in.Git(ctx, in.WorkTree, "diff", "--no-color", "--no-ext-diff", "--no-textconv", "--no-renames", rev.Base, rev.Head)
	if err != nil || len(strings.TrimSpace(string(out))) == 0 {
		return Case{}, fmt.Sprintf("review: its commits %.12s..%.12s are no longer in the repository", rev.Base, rev.Head)
	}
	task := man.TaskSummary
	if strings.TrimSpace(task) == "" {
		task = "The change reviewed by tribunal-session review (no task was given): judge whether it is correct and complete on its own terms."
	}
	c := Case{ID: id, Task: task, Diff: string(out), Label: judgestats.Accept,
		Source: HistorySource + fmt.Sprintf("a finding of the review dismissed as wrong (%q)", dismissals[0])}
	files, why := in.startingFiles(ctx, rev.Base, c.Diff)
	if why != "" {
		return Case{}, "review: " + why
	}
	c.Files = files
	return c, ""
}

// stillThere says whether a change is in the work tree ("there"), undone
// ("undone": its pre-image is back) or neither (""), with `git apply
// --check`, which reads the work tree and changes nothing.
func (in HistoryInput) stillThere(ctx context.Context, diff string) string {
	f, err := os.CreateTemp(in.TempDir, "tribunal-history-*.patch")
	if err != nil {
		return ""
	}
	defer os.Remove(f.Name())
	_, err = io.WriteString(f, diff)
	f.Close()
	if err != nil {
		return ""
	}
	if _, err := in.Git(ctx, in.WorkTree, "apply", "--check", "--reverse", "--whitespace=nowarn", f.Name()); err == nil {
		return "there"
	}
	if _, err := in.Git(ctx, in.WorkTree, "apply", "--check", "--whitespace=nowarn", f.Name()); err == nil {
		return "undone"
	}
	return ""
}

// startingFiles reads, from the task's starting snapshot commit, every
// file the diff changes or deletes, so that the case's diff applies in
// the judges' directory as it did in the task.
func (in HistoryInput) startingFiles(ctx context.Context, snapshot, diff string) (map[string]string, string) {
	files := map[string]string{}
	for _, f := range unidiff.Parse([]byte(withGitHeaders(diff))) {
		if f.OldPath == "" {
			continue
		}
		if !safePath(f.OldPath) {
			return nil, fmt.Sprintf("the diff names an unsafe path %q", f.OldPath)
		}
		out, err := in.Git(ctx, in.WorkTree, "show", "--no-textconv", "--no-ext-diff", snapshot+":"+f.OldPath)
		if err != nil {
			return nil, fmt.Sprintf("its starting snapshot %.12s is no longer in the repository", snapshot)
		}
		files[f.OldPath] = string(out)
	}
	return files, ""
}

// WriteCases writes cases as a cases file a person can review and edit:
// a header saying how, then one JSON line per case, its label's source in
// "source". It refuses to overwrite an existing file.
func WriteCases(path string, cases []Case, skipped []Skipped) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString("# Cases labelled from your own decisions (tribunal-session calibrate --from-history).\n")
	b.WriteString("# Review them before use: change a \"label\" you disagree with, delete a line to drop a case.\n")
	b.WriteString("# Then: tribunal-session calibrate --cases " + filepath.Base(path) + "\n")
	sort.SliceStable(skipped, func(i, j int) bool { return skipped[i].ID < skipped[j].ID })
	for _, s := range skipped {
		fmt.Fprintf(&b, "# not a case: %s: %s\n", s.ID, s.Why)
	}
	for _, c := range cases {
		line, err := json.Marshal(c)
		if err != nil {
			f.Close()
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if _, err := io.WriteString(f, b.String()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
