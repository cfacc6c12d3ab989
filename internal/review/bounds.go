package review

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/git/secretfiles"
	"github.com/tribunal-cc/tribunal/internal/git/worktree"
)

// What a review leaves out before it reads anything (spec §8.1): the
// untracked files that look like secrets (the one rule tasks and the Stop
// hook use, internal/git/secretfiles) and the files over the size limits (the
// one rule tasks use, worktree.Limits.Bound). Both are decided from names,
// a secret sniff's first bytes and sizes, so a 300 MB file costs a stat
// or an object header, never a read, and a secret reaches no prompt and
// no record; each is named in the review's omitted notes.

// maxSizeNotes bounds the omitted notes of files over the size limits;
// one line counts the rest.
const maxSizeNotes = 10

// excludeSpec is the pathspec that keeps path out of a diff, whatever
// characters it holds.
func excludeSpec(path string) string { return ":(top,exclude,literal)" + path }

// rawEntry is one file of a `diff-tree --raw` / `diff-index --raw` list.
type rawEntry struct {
	path             string
	oldMode, newMode string
}

// parseRaw reads `--raw -z --no-renames` output: ":old new oldsha newsha
// status\0path\0" per file.
func parseRaw(out []byte) ([]rawEntry, error) {
	var entries []rawEntry
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(fields) == 1 && fields[0] == "" {
		return nil, nil
	}
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(meta) < 5 {
			return nil, fmt.Errorf("unexpected raw diff record %q", fields[i])
		}
		entries = append(entries, rawEntry{path: fields[i+1], oldMode: meta[0], newMode: meta[1]})
	}
	return entries, nil
}

// blobSizes maps paths to the sizes of their blobs in commit, from the
// tree's entries alone (`ls-tree -l`: no blob is read). Paths are taken
// literally, in bounded batches.
func blobSizes(ctx context.Context, git projectkey.GitRunner, root, commit string, paths []string) (map[string]int64, error) {
	const batch = 500
	sizes := map[string]int64{}
	for len(paths) > 0 {
		n := min(batch, len(paths))
		args := append([]string{"--literal-pathspecs", "ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--"}, paths[:n]...)
		out, err := git(ctx, root, args...)
		if err != nil {
			return nil, fmt.Errorf("list the sizes of the changed files in %s: %w", commit, err)
		}
		for _, rec := range strings.Split(string(out), "\x00") {
			meta, p, ok := strings.Cut(rec, "\t")
			if f := strings.Fields(meta); ok && len(f) == 4 {
				if size, err := strconv.ParseInt(f[3], 10, 64); err == nil {
					sizes[p] = size
				}
			}
		}
		paths = paths[n:]
	}
	return sizes, nil
}

// rangeBound sizes every file the range changes (the larger of its two
// sides: a patch prints both) and returns the pathspecs that keep the
// files over c.limits out of the patch, with their notes in c.Omitted.
func (c *Change) rangeBound(ctx context.Context, git projectkey.GitRunner, root string) ([]string, error) {
	raw, err := git(ctx, root, "diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-ext-diff", "--no-textconv", c.Base, c.Head)
	if err != nil {
		return nil, fmt.Errorf("list the files of %s..%s: %w", c.Base, c.Head, err)
	}
	entries, err := parseRaw(raw)
	if err != nil || len(entries) == 0 {
		return nil, err
	}
	sides := func(commit string, present func(rawEntry) bool) (map[string]int64, error) {
		var paths []string
		for _, e := range entries {
			if present(e) {
				paths = append(paths, e.path)
			}
		}
		return blobSizes(ctx, git, root, commit, paths)
	}
	news, err := sides(c.Head, func(e rawEntry) bool { return e.newMode != "000000" })
	if err != nil {
		return nil, err
	}
	olds, err := sides(c.Base, func(e rawEntry) bool { return e.oldMode != "000000" })
	if err != nil {
		return nil, err
	}
	files := make([]worktree.Sized, len(entries))
	for i, e := range entries {
		files[i] = worktree.Sized{Path: e.path, Size: max(news[e.path], olds[e.path])}
	}
	return c.leaveOut(files), nil
}

// leaveOut bounds files with c.limits: the files over them get a note in
// c.Omitted and an exclude pathspec, returned.
func (c *Change) leaveOut(files []worktree.Sized) []string {
	_, out := c.limits.Bound(files)
	var excludes []string
	for i, r := range out {
		excludes = append(excludes, excludeSpec(r.Path))
		switch {
		case i < maxSizeNotes:
			c.Omitted = append(c.Omitted, worktree.RefusalLine(r)+"; left out unread")
		case i == maxSizeNotes:
			c.Omitted = append(c.Omitted, fmt.Sprintf("and %d more files over the size limits, left out unread", len(out)-maxSizeNotes))
		}
	}
	return excludes
}

// secretNote is the omitted note naming the untracked files left out as
// secrets, by path only.
func secretNote(leftOut []string) []string {
	if line := secretfiles.Describe(leftOut); line != "" {
		return []string{line + " (never read into a prompt or a record)"}
	}
	return nil
}
