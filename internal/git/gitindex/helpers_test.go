package gitindex

import (
	"crypto/sha1" //nolint:gosec // the index's own checksum is SHA-1
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// repo is a scratch repository driven by the git CLI (testkit's, isolated
// from the user's configuration: a global index.version or
// feature.manyFiles would change the index under test).
type repo struct {
	*testkit.Repo
	t   *testing.T
	g   *testkit.Git
	dir string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	g := testkit.NewGit(t)
	r := g.Init(filepath.Join(t.TempDir(), "repo"))
	return &repo{Repo: r, t: t, g: g, dir: r.Dir}
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	return r.Git(args...)
}

func (r *repo) write(rel, content string) {
	r.t.Helper()
	r.WriteFile(rel, content)
}

func (r *repo) index() string { return filepath.Join(r.dir, ".git", "index") }

// commit makes a commit of a.txt and b/c.txt and returns its id, which
// tests also use as a gitlink's commit (git does not look gitlinks up).
func (r *repo) commit() string {
	r.write("a.txt", "a\n")
	r.write("b/c.txt", "c\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "init")
	return r.git("rev-parse", "HEAD")
}

// rewrite replaces the index file with edit's change of its bytes
// (header and entries, the checksum left off) and a checksum that
// matches, so that only the change itself can be refused.
func (r *repo) rewrite(edit func(body []byte) []byte) {
	r.t.Helper()
	data, err := os.ReadFile(r.index())
	if err != nil {
		r.t.Fatal(err)
	}
	body := edit(append([]byte(nil), data[:len(data)-sha1.Size]...))
	sum := sha1.Sum(body)
	if err := os.WriteFile(r.index(), append(body, sum[:]...), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// setCount writes n into the header's entry count.
func setCount(body []byte, n uint32) []byte {
	binary.BigEndian.PutUint32(body[8:12], n)
	return body
}

// stageZero is `git ls-files --stage -z`'s stage-0 records, each as
// "mode oid path".
func (r *repo) stageZero(gitlinksOnly bool) []string {
	var out []string
	for _, rec := range strings.Split(r.git("ls-files", "--stage", "-z"), "\x00") {
		info, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(info)
		if !ok || len(f) != 3 || f[2] != "0" || gitlinksOnly && f[0] != "160000" {
			continue
		}
		out = append(out, f[0]+" "+f[1]+" "+p)
	}
	return out
}

// updateIndexInfo feeds `git update-index --index-info` (mode, object,
// stage, TAB, path per line): the way to write unmerged entries.
func (r *repo) updateIndexInfo(stdin string) {
	r.t.Helper()
	if _, err := r.g.TryInput(r.dir, stdin, "update-index", "--index-info"); err != nil {
		r.t.Fatal(err)
	}
}
