package calibrate

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// advisoryTask stands in for the user's request, which the Stop hook
// does not record: the judges weigh the turn's change on its own.
const advisoryTask = "The changes made in one turn of a Claude Code session (judged then by the Stop hook's advisory judge). The user's request for the turn is not recorded: judge whether the change is correct and complete on its own terms."

// advisoryCases labels the changes the Stop hook's advisory judge saw,
// from the diff kept beside each judgement record: still in the work tree
// is an accept (kept), undone a reject; a finding dismissed as wrong makes
// an otherwise undecided one an accept. Identical diffs count once.
func (in HistoryInput) advisoryCases(ctx context.Context, dismissed map[string][]string) ([]Case, []Skipped) {
	paths, _ := records.ListRecords(in.ProjectDir)
	var cases []Case
	var skipped []Skipped
	seen := map[[32]byte]bool{}
	for _, path := range paths {
		a, err := records.ReadRecord(path)
		if err != nil || (a.Outcome != records.OutcomeAccepted && a.Outcome != records.OutcomeRejected) {
			continue
		}
		data, err := records.ReadText(strings.TrimSuffix(path, records.JSONExt)+records.JudgementDiffExt, records.MaxDiff)
		if err != nil || strings.TrimSpace(string(data)) == "" {
			continue
		}
		sum := sha256.Sum256(data)
		if seen[sum] {
			continue
		}
		seen[sum] = true
		c, why := in.advisoryCase(ctx, a, string(data), dismissed[a.TaskID])
		if why != "" {
			skipped = append(skipped, Skipped{ID: a.TaskID, Why: "advisory verdict: " + why})
			continue
		}
		cases = append(cases, c)
	}
	return cases, skipped
}

func (in HistoryInput) advisoryCase(ctx context.Context, a records.Advisory, diff string, dismissals []string) (Case, string) {
	c := Case{ID: a.TaskID, Task: advisoryTask, Diff: diff}
	state := in.stillThere(ctx, diff)
	switch {
	case state == "there":
		c.Label, c.Source = judgestats.Accept, "the turn's change, kept: still in the working tree"
	case state == "undone":
		c.Label, c.Source = judgestats.Reject, "the turn's change, undone in the working tree"
	case len(dismissals) > 0:
		c.Label, c.Source = judgestats.Accept, fmt.Sprintf("the advisory judge's finding dismissed as wrong (%q)", dismissals[0])
	default:
		return Case{}, "its change was edited over since: neither kept as it was nor undone"
	}
	c.Source = HistorySource + c.Source
	files, err := in.preImage(ctx, diff, state)
	if err != nil {
		return Case{}, "its starting files cannot be rebuilt: " + err.Error()
	}
	c.Files = files
	return c, ""
}

// preImage rebuilds the files a turn's diff changes as they were before
// it: the work tree's own when the change is undone; when it is still
// there, the work tree's copies with the diff applied in reverse, in a
// scratch repository (the work tree is never written).
func (in HistoryInput) preImage(ctx context.Context, diff, state string) (map[string]string, error) {
	parsed := unidiff.Parse([]byte(withGitHeaders(diff)))
	files := map[string]string{}
	src := in.WorkTree
	if state == "there" {
		scratch, err := os.MkdirTemp(in.TempDir, "tribunal-history-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(scratch)
		for _, f := range parsed {
			if f.NewPath == "" {
				continue
			}
			if !safePath(f.NewPath) {
				return nil, fmt.Errorf("unsafe path %q", f.NewPath)
			}
			data, err := os.ReadFile(filepath.Join(in.WorkTree, filepath.FromSlash(f.NewPath)))
			if err != nil {
				return nil, err
			}
			full := filepath.Join(scratch, filepath.FromSlash(f.NewPath))
			if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
				return nil, err
			}
			if err := os.WriteFile(full, data, 0o600); err != nil {
				return nil, err
			}
		}
		patch := filepath.Join(scratch, ".tribunal-change.patch")
		if err := os.WriteFile(patch, []byte(diff), 0o600); err != nil {
			return nil, err
		}
		if _, err := in.Git(ctx, scratch, "init", "-q"); err != nil {
			return nil, err
		}
		if _, err := in.Git(ctx, scratch, "apply", "--reverse", "--whitespace=nowarn", patch); err != nil {
			return nil, err
		}
		src = scratch
	}
	for _, f := range parsed {
		if f.OldPath == "" {
			continue
		}
		if !safePath(f.OldPath) {
			return nil, fmt.Errorf("unsafe path %q", f.OldPath)
		}
		data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(f.OldPath)))
		if err != nil {
			return nil, err
		}
		files[f.OldPath] = string(data)
	}
	return files, nil
}
