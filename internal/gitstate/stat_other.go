//go:build !linux

package gitstate

// statMatches is not implemented outside Linux (the stat fields differ):
// ProvenClean never proves, and the hook runs git.
func statMatches(string, indexEntry) bool { return false }
