package gitstate

import (
	"path/filepath"
	"slices"

	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
)

// WithoutSecrets returns s without the untracked files that look like
// secrets under rule (by name, or by a private key in their first bytes,
// read from root), and those files. What it leaves out never reaches the
// diff, the diff stat or the fingerprint, so neither the judge's prompt nor
// the Stop hook's decision to judge depends on a secret's content.
func (s State) WithoutSecrets(root string, rule secretfiles.Rule) (State, []string) {
	keep, leftOut := rule.Split(s.Untracked, func(rel string) []byte {
		return secretfiles.Head(filepath.Join(root, filepath.FromSlash(rel)))
	})
	if len(leftOut) == 0 {
		return s, nil
	}
	s.Changed = slices.Clone(s.Changed)
	s.Untracked = keep
	return s, leftOut
}
