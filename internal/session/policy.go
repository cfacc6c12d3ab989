package session

import (
	"context"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/review"
)

// basePolicy reads the policy of an untrusted change's base (a range's
// merge base, the commit a diff applies to) into a private directory,
// before the configuration is loaded from it: the change under review
// never chooses the rubric, trust settings, command judges or dismissals
// it is judged under (spec §2.2). A trusted change (the user's own index
// or work tree) reads the work tree as before.
func (r *runner) basePolicy(ctx context.Context) error {
	c := r.untrusted
	if !c.Untrusted() || c.Base == "" {
		return nil
	}
	t, err := review.NewPolicyTree(ctx, r.Git, r.repo.WorktreeRoot, c.Base, r.Getenv("TMPDIR"), r.Warn)
	if err != nil {
		return &judging.ConfigError{Err: err, Hint: "fetch the base commit, or review the change in a full clone"}
	}
	r.policy = t
	return nil
}

// policyFile is judging.Options.PolicyFile: a further policy file (a
// schema_file) read from the base as well.
func (r *runner) policyFile(ctx context.Context) func(string) error {
	if r.policy == nil {
		return nil
	}
	return func(rel string) error { return r.policy.Fetch(ctx, rel) }
}

// policyRoot is where configuration is read: the base's policy tree for
// an untrusted change, "" (the work tree) otherwise.
func (r *runner) policyRoot() string {
	if r.policy == nil {
		return ""
	}
	return r.policy.Dir
}

// closePolicy removes the base's policy tree.
func (r *runner) closePolicy() {
	r.policy.Close()
	r.policy = nil
}

// sharedDismissals is the shared dismissal file a run reads: the base's
// for an untrusted change, else the judged tree's.
func (r *runner) sharedDismissals() string {
	dir := r.workDir
	if r.policy != nil {
		dir = r.policy.Dir
	}
	return filepath.Join(dir, filepath.FromSlash(dismiss.SharedFile))
}

// policyEdits are the policy files the untrusted change edits (none for
// a trusted one): the fixed list and every file fetched from the base.
func (r *runner) policyEdits(files []unidiff.File) []string {
	if r.policy == nil {
		return nil
	}
	return review.PolicyEdits(files, r.policy.Fetched...)
}

// untrustMarkers makes the run's dismissals ignore the inline markers on
// the lines files add: the change judged may not dismiss its own
// findings (a review's change, a task's actor's work).
func (r *runner) untrustMarkers(files []unidiff.File) {
	if r.dismissed == nil {
		return
	}
	r.dismissed.added = unidiff.AddedByPath(files)
}
