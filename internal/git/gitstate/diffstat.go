package gitstate

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// maxUntrackedListed is how many untracked paths DiffStat names before
// summarising the rest in one line.
const maxUntrackedListed = 50

// DiffStat summarises the work tree's changes for a judge's prompt: the
// --stat of the staged and unstaged changes against HEAD (against the empty
// tree on an unborn branch), computed by the read-only `git diff-index` as
// Diff does, then one line per untracked
// file, ` <path> (new, untracked)`, for up to 50 of them and a closing
// ` … and N more untracked files`. spec §8.4 shows unstaged changes only; spec §B.18
// leaves the scope open, and a turn that staged or created files deserves to
// show them. Only the last maxBytes bytes are returned (spec §8.4 keeps 4000),
// starting on a UTF-8 boundary; maxBytes <= 0 means no limit. A clean tree
// yields "".
func DiffStat(ctx context.Context, git projectkey.GitRunner, root string, maxBytes int) (string, error) {
	st, err := Status(ctx, git, root)
	if err != nil {
		return "", err
	}
	base := "HEAD"
	if st.Head == InitialHead {
		if base, err = emptyTree(ctx, git, root); err != nil {
			return "", err
		}
	}
	var b strings.Builder
	out, err := git(ctx, root, diffCmd("diff-index", []string{"--stat", "-M", "--no-color", "--no-ext-diff", "--no-textconv"}, base)...)
	if err != nil {
		return "", fmt.Errorf("diff stat of %q: %w", root, err)
	}
	b.Write(out)
	for i, p := range st.Untracked {
		if i == maxUntrackedListed {
			fmt.Fprintf(&b, " … and %d more untracked files\n", len(st.Untracked)-maxUntrackedListed)
			break
		}
		fmt.Fprintf(&b, " %s (new, untracked)\n", displayPath(p))
	}
	return lastBytes(b.String(), maxBytes), nil
}

// displayPath quotes a path the way git's --stat does for names with control
// characters or quotes, so a newline in a file name cannot forge a line.
func displayPath(p string) string {
	for _, r := range p {
		if r < 0x20 || r == 0x7f || r == '"' || r == '\\' || r == utf8.RuneError {
			return strconv.Quote(p)
		}
	}
	return p
}

// lastBytes keeps the final max bytes of s, dropping a leading partial UTF-8
// sequence that the cut left behind.
func lastBytes(s string, max int) string {
	if max <= 0 {
		return s
	}
	return safetext.Tail(s, max)
}

// emptyTree asks git for the id of the empty tree in this repository's
// hash algorithm (SHA-1 or SHA-256); hash-object without -w stores nothing.
func emptyTree(ctx context.Context, git projectkey.GitRunner, root string) (string, error) {
	out, err := git(ctx, root, "hash-object", "-t", "tree", os.DevNull)
	if err != nil {
		return "", fmt.Errorf("empty tree id in %q: %w", root, err)
	}
	return strings.TrimSpace(string(out)), nil
}
