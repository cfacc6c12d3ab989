//go:build !linux

package gitstate

import "github.com/tribunal-cc/tribunal/internal/git/gitindex"

// statMatches is not implemented outside Linux (the stat fields differ):
// ProvenClean never proves, and the hook runs git.
func statMatches(string, gitindex.Entry) bool { return false }
