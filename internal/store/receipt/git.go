package receipt

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/proc/childenv"
)

// Git runs the user's own git in one repository, the way every git child
// of tribunal runs (childenv.GitArgs, GitEnv), with a stdin when one is
// given: notes are read in one batch and written by `git notes`, so that
// git's notes.rewriteRef and notes merging see exactly what git wrote.
type Git struct {
	// Path is the git executable, Env the environment it starts from and
	// Dir the repository's work tree.
	Path string
	Env  []string
	Dir  string
}

func (g Git) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, g.Path, childenv.GitArgs(args...)...)
	cmd.Dir = g.Dir
	cmd.Env = childenv.GitEnv(g.Env)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if len(msg) > 500 {
			msg = msg[len(msg)-500:]
		}
		return stdout.Bytes(), fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, msg)
	}
	return stdout.Bytes(), nil
}

// Commit is one commit of a range: its id, tree and parents.
type Commit struct {
	ID      string
	Tree    string
	Parents []string
}

// Commits lists what spec names: a range (A..B, A...B, ^A B) as git
// rev-list reads it, or else one commit. It is newest first.
func (g Git) Commits(ctx context.Context, spec string) ([]Commit, error) {
	args := []string{"rev-list", "--no-commit-header", "--format=%H %T %P"}
	if !isRange(spec) {
		args = append(args, "--no-walk")
	}
	out, err := g.run(ctx, nil, append(args, "--end-of-options", spec)...)
	if err != nil {
		return nil, fmt.Errorf("%q names no commit or range here: %w", spec, err)
	}
	var cs []Commit
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		cs = append(cs, Commit{ID: f[0], Tree: f[1], Parents: f[2:]})
	}
	return cs, nil
}

func isRange(spec string) bool {
	return strings.Contains(spec, "..") || strings.HasPrefix(spec, "^")
}

// Notes reads the notes under ref of the given commits: commit id → note
// text, for the commits that have one.
func (g Git) Notes(ctx context.Context, ref string, commits []Commit) (map[string][]byte, error) {
	tip, err := g.Tip(ctx, ref)
	if err != nil {
		return nil, err
	}
	return g.NotesAt(ctx, tip, commits)
}

// NotesAt reads the notes of the given commits from the notes commit tip
// ("" for none): one ls-tree and one cat-file --batch, whatever the number
// of notes. A note's path in the notes tree is the annotated commit's id,
// split into directories by git's fanout.
func (g Git) NotesAt(ctx context.Context, tip string, commits []Commit) (map[string][]byte, error) {
	notes := map[string][]byte{}
	if tip == "" {
		return notes, nil
	}
	out, err := g.run(ctx, nil, "ls-tree", "-r", "-z", tip)
	if err != nil {
		return nil, err
	}
	blobOf := map[string]string{}
	for _, entry := range strings.Split(string(out), "\x00") {
		meta, path, ok := strings.Cut(entry, "\t")
		if f := strings.Fields(meta); ok && len(f) == 3 && f[1] == "blob" {
			blobOf[strings.ReplaceAll(path, "/", "")] = f[2]
		}
	}
	var want []string
	var in bytes.Buffer
	for _, c := range commits {
		if b, ok := blobOf[c.ID]; ok {
			want = append(want, c.ID)
			in.WriteString(b + "\n")
		}
	}
	if len(want) == 0 {
		return notes, nil
	}
	out, err = g.run(ctx, in.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	br := bufio.NewReader(bytes.NewReader(out))
	for _, c := range want {
		body, err := readBatchObject(br)
		if err != nil {
			return nil, fmt.Errorf("read the note of %s: %w", c, err)
		}
		notes[c] = body
	}
	return notes, nil
}

// readBatchObject reads one "<id> <type> <size>\n<content>\n" record of
// cat-file --batch.
func readBatchObject(br *bufio.Reader) ([]byte, error) {
	head, err := br.ReadString('\n')
	if err != nil {
		return nil, err
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return nil, fmt.Errorf("cat-file: %q", strings.TrimSpace(head))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil {
		return nil, fmt.Errorf("cat-file size %q", f[2])
	}
	body := make([]byte, n+1)
	if _, err := io.ReadFull(br, body); err != nil {
		return nil, err
	}
	return body[:n], nil
}

// NoteWrite is one commit's new note.
type NoteWrite struct {
	Commit string
	Note   []byte
}

// WriteNotes replaces the notes of the given commits under ref in one
// notes commit made by git fast-import, git's own bulk writer (it lays
// out the notes tree, fanout and all, as `git notes` does). The commit's
// parent is base, the ref's commit the notes were read at ("" for a ref
// that did not exist): fast-import refuses to move the ref unless that
// is still its tip, so a writer that raced this one is never overwritten
// and this write fails instead. `git notes add` gives no such guarantee.
func (g Git) WriteNotes(ctx context.Context, ref, base string, writes []NoteWrite) error {
	ident, err := g.run(ctx, nil, "var", "GIT_COMMITTER_IDENT")
	if err != nil {
		return fmt.Errorf("git has no identity to write the notes commit with: %w", err)
	}
	var in bytes.Buffer
	msg := fmt.Sprintf("%sreceipts for %d commit(s)\n", summaryPrefix, len(writes))
	fmt.Fprintf(&in, "feature done\ncommit %s\ncommitter %s\ndata %d\n%s", ref, strings.TrimSpace(string(ident)), len(msg), msg)
	if base != "" {
		fmt.Fprintf(&in, "from %s\n", base)
	}
	for _, w := range writes {
		fmt.Fprintf(&in, "N inline %s\ndata %d\n%s\n", w.Commit, len(w.Note), w.Note)
	}
	in.WriteString("\ndone\n")
	if _, err := g.run(ctx, in.Bytes(), "fast-import", "--quiet"); err != nil {
		return fmt.Errorf("write %d receipt note(s) to %s (if another writer updated it meanwhile, run the command again): %w", len(writes), ref, err)
	}
	return nil
}

// Tip is the commit ref points at, "" when it does not exist.
func (g Git) Tip(ctx context.Context, ref string) (string, error) {
	out, err := g.run(ctx, nil, "for-each-ref", "--format=%(objectname)", ref)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// ErrNoFile is FileAt's error when the commit has no such file.
var ErrNoFile = errors.New("no such file in the commit")

// FileAt is the content of path in commit rev: CI reads the allowed
// signers from the branch a change merges into, never from the change.
func (g Git) FileAt(ctx context.Context, rev, path string) ([]byte, error) {
	if _, err := g.run(ctx, nil, "cat-file", "-e", rev+"^{commit}"); err != nil {
		return nil, fmt.Errorf("commit %s is not in the repository: %w", rev, err)
	}
	out, err := g.run(ctx, nil, "cat-file", "blob", rev+":"+path)
	if err != nil {
		return nil, fmt.Errorf("%s in commit %s: %w", path, short(rev), ErrNoFile)
	}
	return out, nil
}

// DiffArgs render the judged diff whose SHA-256 a receipt carries: fixed
// options, so that the digest does not depend on the user's diff
// settings, and full object ids so that it pins binary content too.
var DiffArgs = []string{"diff-tree", "-p", "--binary", "--full-index", "--no-renames", "--no-color",
	"--no-ext-diff", "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/"}

// DiffDigest is the hex SHA-256 of the diff from tree a to tree b.
func (g Git) DiffDigest(ctx context.Context, a, b string) (string, error) {
	out, err := g.run(ctx, nil, append(append([]string{}, DiffArgs...), a, b)...)
	if err != nil {
		return "", fmt.Errorf("the diff %s..%s: %w", a, b, err)
	}
	sum := sha256.Sum256(out)
	return hex.EncodeToString(sum[:]), nil
}

// Trees resolves each revision to its tree id ("" for one that is not in
// the repository any more, such as a task commit that git gc removed).
func (g Git) Trees(ctx context.Context, revs []string) ([]string, error) {
	var in bytes.Buffer
	for _, r := range revs {
		in.WriteString(r + "^{tree}\n")
	}
	out, err := g.run(ctx, in.Bytes(), "cat-file", "--batch-check=%(objectname) %(objecttype)")
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	trees := make([]string, len(revs))
	for i := range revs {
		if i < len(lines) {
			if f := strings.Fields(lines[i]); len(f) == 2 && f[1] == "tree" {
				trees[i] = f[0]
			}
		}
	}
	return trees, nil
}

// UserEmail is the e-mail address git would author a commit with here
// (user.email, or GIT_AUTHOR_EMAIL), "" when git has none.
func (g Git) UserEmail(ctx context.Context) string {
	out, err := g.run(ctx, nil, "var", "GIT_AUTHOR_IDENT")
	if err != nil {
		return ""
	}
	_, rest, ok := strings.Cut(string(out), "<")
	email, _, ok2 := strings.Cut(rest, ">")
	if !ok || !ok2 {
		return ""
	}
	return strings.TrimSpace(email)
}
