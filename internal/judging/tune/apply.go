package tune

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/jcs"
	"github.com/tribunal-cc/tribunal/internal/judging"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// ApplyInput is `tune apply ID`: which run, in which project and tree.
type ApplyInput struct {
	ProjectDir, WorktreeRoot, OnlookerDir string
	ID                                    string
	Env                                   env.Env
	Now                                   time.Time
}

// Applied is what `tune apply` did.
type Applied struct {
	ID       string    `json:"tune_id"`
	RubricID string    `json:"rubric_id"`
	File     string    `json:"file"`
	Gate     string    `json:"gate"`
	Lift     *Estimate `json:"lift,omitempty"`
	SHA256   string    `json:"rubric_sha256"`
	Time     string    `json:"time"`
}

// ErrNotApplicable is a run that cannot be applied: not shipped, or
// applied already. Nothing was changed.
var ErrNotApplicable = errors.New("cannot apply")

// Apply puts a shipped run's rubric in the repository's
// .claude/tribunal.json, checks that the configuration now selects exactly
// it (a TOML overlay of the same id would win: the file is put back and
// the apply refused), and records the act in the ledger and the run's
// directory.
func Apply(in ApplyInput) (Applied, error) {
	rec, err := ReadRecord(in.ProjectDir, in.ID)
	if err != nil {
		return Applied{}, err
	}
	dir := records.TunePath(in.ProjectDir, in.ID)
	switch {
	case rec.Result == nil || rec.Outcome != Ship || rec.Shipped == nil:
		return Applied{}, fmt.Errorf("%w: tune run %s did not ship (its outcome is %q)", ErrNotApplicable, in.ID, outcomeOf(rec))
	case exists(filepath.Join(dir, records.TuneAppliedFile)):
		return Applied{}, fmt.Errorf("%w: tune run %s is applied already", ErrNotApplicable, in.ID)
	case in.WorktreeRoot == "":
		return Applied{}, fmt.Errorf("%w: not inside a git repository", ErrNotApplicable)
	}
	file := filepath.Join(in.WorktreeRoot, ".claude", "tribunal.json")
	prev, err := rubric.Put(file, rec.Shipped)
	if err != nil {
		return Applied{}, fmt.Errorf("put the rubric in %s: %w", file, err)
	}
	if err := selects(in, rec); err != nil {
		restore(file, prev)
		return Applied{}, err
	}
	sum, err := jcs.SHA256(rec.Shipped)
	if err != nil {
		restore(file, prev)
		return Applied{}, err
	}
	a := Applied{ID: rec.ID, RubricID: rec.RubricID, File: file, Gate: rec.Gate, SHA256: sum, Time: in.Now.UTC().Format(time.RFC3339)}
	if rec.Decision != nil {
		a.Lift = rec.Decision.Lift
	}
	if _, err := ledger.Append(ledger.PathFor(in.ProjectDir), ledger.KeyDir(in.OnlookerDir), ledger.KindTune, ledger.Fields{TaskID: rec.ID}, a, in.Now); err != nil {
		restore(file, prev)
		return Applied{}, fmt.Errorf("record the apply in the ledger (the rubric file was put back): %w", err)
	}
	return a, store.WriteJSON(filepath.Join(dir, records.TuneAppliedFile), a)
}

// selects checks that the configuration's rubric of that id is now the
// shipped one.
func selects(in ApplyInput, rec Record) error {
	quiet := func(string) {}
	e := in.Env
	e.Warn, e.Relay = quiet, quiet
	j, err := judging.Load(judging.Options{RubricID: rec.RubricID, WorktreeRoot: in.WorktreeRoot}, e)
	if err != nil {
		return fmt.Errorf("the configuration does not load with the shipped rubric (the file was put back): %w", err)
	}
	if (Surface{Raw: j.Rubric().Raw}).Pretty() != (Surface{Raw: rec.Shipped}).Pretty() {
		return fmt.Errorf("%w: rubric %q still comes from another overlay (.claude/tribunal.toml wins over .claude/tribunal.json); the file was put back", ErrNotApplicable, rec.RubricID)
	}
	return nil
}

func restore(file string, prev []byte) {
	if prev == nil {
		os.Remove(file)
		return
	}
	os.WriteFile(file, prev, 0o644)
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func outcomeOf(rec Record) string {
	if rec.Result == nil {
		return ""
	}
	return rec.Outcome
}
