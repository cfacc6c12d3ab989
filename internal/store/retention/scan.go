// Package retention prunes a project's old records — tasks, reviews and
// advisory verdicts with their artifacts and pending entries — naming each
// one in the signed ledger, which it only ever appends to.
package retention

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"

	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// The kinds of record a prune names.
const (
	KindTask     = "task"
	KindReview   = "review"
	KindAnswer   = "answer"
	KindAdvisory = "advisory"
)

// Record is one record old enough to prune: a task or review directory,
// or an advisory verdict (its judgement record, the diff its judge was
// shown, its session's stop file when that is this verdict), with every
// file that goes with it.
type Record struct {
	Kind string
	ID   string
	// Session is an advisory verdict's session directory name
	// ("stop-<session id>"); "" for a task or review.
	Session string
	// Time is when it was recorded: its ULID's time.
	Time time.Time
	// Files and Bytes count what pruning it removes.
	Files int
	Bytes int64
	// Digest is "sha256:" and the SHA-256 of the sha256sum-style listing
	// ("<hex>  <path from the project directory>\n", sorted by path) of
	// the record's own files: what the ledger entry commits to, so a
	// backup of the record can be checked against it later.
	Digest string
	// paths are removed, in order, after the ledger entry is written.
	paths []string
}

// Options say which project to prune and how old a record must be.
type Options struct {
	ProjectDir  string
	OnlookerDir string
	// Cutoff: records made before it are pruned.
	Cutoff time.Time
	// Keep reports the tasks that are never pruned whatever their age:
	// a kept change that can still be applied, a running task.
	Keep func(id string) bool
	// OlderThan is the age as the user gave it, for the ledger entry.
	OlderThan string
	// sizesOnly skips the digests: Measure needs counts and bytes only,
	// and reading every file of the store would slow `config` down.
	sizesOnly bool
}

// Plan is what a prune would remove, oldest first, and the old records it
// leaves because Keep holds them.
type Plan struct {
	Prune []Record
	Kept  []string
}

// Bytes is what the plan frees.
func (p Plan) Bytes() int64 {
	var n int64
	for _, r := range p.Prune {
		n += r.Bytes
	}
	return n
}

// Scan lists what a prune with opts removes; it changes nothing.
func Scan(opts Options) (Plan, error) {
	var plan Plan
	tasks, err := oldTasks(opts, &plan)
	if err != nil {
		return Plan{}, err
	}
	advisories, err := oldAdvisories(opts)
	if err != nil {
		return Plan{}, err
	}
	plan.Prune = append(tasks, advisories...)
	if err := attachPending(opts, plan.Prune); err != nil {
		return Plan{}, err
	}
	for i := range plan.Prune {
		if err := measure(opts.ProjectDir, &plan.Prune[i], opts.sizesOnly); err != nil {
			return Plan{}, err
		}
	}
	sort.SliceStable(plan.Prune, func(i, j int) bool { return plan.Prune[i].ID < plan.Prune[j].ID })
	return plan, nil
}

// idTime is the time a ULID names; false for anything that is not one.
func idTime(id string) (time.Time, bool) {
	u, err := ulid.ParseStrict(id)
	if err != nil || !records.ValidID(id) {
		return time.Time{}, false
	}
	return ulid.Time(u.Time()).UTC(), true
}

// oldTasks lists the task and review directories made before the cutoff,
// with the detached run and the page `view` wrote for each; the ones Keep
// holds go to plan.Kept instead.
func oldTasks(opts Options, plan *Plan) ([]Record, error) {
	entries, err := os.ReadDir(opts.ProjectDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %q: %w", opts.ProjectDir, err)
	}
	var out []Record
	for _, e := range entries {
		t, ok := idTime(e.Name())
		if !e.IsDir() || !ok || !t.Before(opts.Cutoff) {
			continue
		}
		if opts.Keep != nil && opts.Keep(e.Name()) {
			plan.Kept = append(plan.Kept, e.Name())
			continue
		}
		r := Record{Kind: KindTask, ID: e.Name(), Time: t}
		var m records.Manifest
		if records.ReadJSON(filepath.Join(opts.ProjectDir, e.Name(), records.ManifestFile), &m) == nil {
			switch m.Kind {
			case records.KindReview:
				r.Kind = KindReview
			case records.KindAnswer:
				r.Kind = KindAnswer
			}
		}
		r.paths = []string{e.Name(), filepath.Join(records.RunsDir, e.Name()), filepath.Join(ViewDir, e.Name()+".html")}
		out = append(out, r)
	}
	return out, nil
}

// ViewDir is where `tribunal-session view` writes its pages in a project
// directory; a pruned record's page goes with it.
const ViewDir = "view"

// oldAdvisories lists the advisory verdicts made before the cutoff: each
// judgement record with its diff and surfacing markers, and a session's
// stop file when the verdict it holds is that old (a stop file written
// before judgement records were kept is a record of its own).
func oldAdvisories(opts Options) ([]Record, error) {
	recs, err := records.ListRecords(opts.ProjectDir)
	if err != nil {
		return nil, err
	}
	byID := map[string]int{}
	var out []Record
	for _, path := range recs {
		id := strings.TrimSuffix(filepath.Base(path), records.JSONExt)
		t, ok := idTime(id)
		if !ok || !t.Before(opts.Cutoff) {
			continue
		}
		session := filepath.Base(filepath.Dir(path))
		patch := strings.TrimSuffix(path, records.JSONExt) + ".patch"
		byID[id] = len(out)
		out = append(out, Record{Kind: KindAdvisory, ID: id, Session: session, Time: t,
			paths: []string{rel(opts.ProjectDir, path), rel(opts.ProjectDir, patch), filepath.Join(records.MarkerDir, session+"."+id)}})
	}
	stops, err := records.ListStopFiles(opts.ProjectDir)
	if err != nil {
		return nil, err
	}
	for _, path := range stops {
		a, err := records.ReadStopFile(path)
		t, ok := idTime(a.TaskID)
		if err != nil || !ok || !t.Before(opts.Cutoff) {
			continue
		}
		if i, found := byID[a.TaskID]; found {
			out[i].paths = append(out[i].paths, rel(opts.ProjectDir, path))
			continue
		}
		out = append(out, Record{Kind: KindAdvisory, ID: a.TaskID, Session: a.Name, Time: t,
			paths: []string{rel(opts.ProjectDir, path), filepath.Join(records.MarkerDir, a.Name+"."+a.TaskID)}})
	}
	return out, nil
}

// attachPending adds to each advisory record the pending entry that waits
// to show it at its session's next prompt: a verdict that is gone can
// never be shown.
func attachPending(opts Options, recs []Record) error {
	if opts.OnlookerDir == "" {
		return nil
	}
	dir := filepath.Join(opts.OnlookerDir, records.PendingDirName)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("list %q: %w", dir, err)
	}
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), records.JSONExt) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		data, err := records.ReadText(path, records.MaxPending)
		if err != nil {
			continue
		}
		p, err := records.DecodePending(opts.OnlookerDir, data)
		if err != nil || filepath.Clean(p.ProjectDir) != filepath.Clean(opts.ProjectDir) {
			continue
		}
		for i := range recs {
			if recs[i].Kind == KindAdvisory && recs[i].ID == p.TaskID {
				recs[i].paths = append(recs[i].paths, path)
			}
		}
	}
	return nil
}

// rel is path relative to the project directory (paths outside it, the
// pending entries, stay absolute).
func rel(projectDir, path string) string {
	r, err := filepath.Rel(projectDir, path)
	if err != nil || strings.HasPrefix(r, "..") {
		return path
	}
	return r
}

// abs is where a record's path is.
func abs(projectDir, path string) string {
	if filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(projectDir, path)
}

// measure counts r's files and bytes and, unless sizesOnly, computes its
// digest, keeping only the paths that exist.
func measure(projectDir string, r *Record, sizesOnly bool) error {
	var listing []string
	var kept []string
	for _, p := range r.paths {
		root := abs(projectDir, p)
		if _, err := os.Lstat(root); err != nil {
			continue
		}
		kept = append(kept, p)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			if sizesOnly {
				fi, err := d.Info()
				if err == nil {
					r.Files++
					r.Bytes += fi.Size()
				}
				return err
			}
			sum, n, err := hashFile(path)
			if err != nil {
				return err
			}
			r.Files++
			r.Bytes += n
			if !filepath.IsAbs(p) {
				// A pending entry is only a pointer, outside the
				// project: the digest is of the record itself.
				listing = append(listing, sum+"  "+rel(projectDir, path)+"\n")
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("read record %s: %w", r.ID, err)
		}
	}
	r.paths = kept
	sort.Strings(listing)
	h := sha256.New()
	for _, l := range listing {
		io.WriteString(h, l)
	}
	r.Digest = "sha256:" + hex.EncodeToString(h.Sum(nil))
	return nil
}

func hashFile(path string) (string, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, err
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
