package retention

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

// Usage is what a project's store holds: its records, the bytes of their
// files (the artifacts), and the ledger's size.
// Its JSON is `config --json`'s "store" object.
type Usage struct {
	Tasks       int   `json:"tasks"`
	Reviews     int   `json:"reviews"`
	Answers     int   `json:"answers"`
	Advisories  int   `json:"advisories"`
	RecordBytes int64 `json:"record_bytes"`
	LedgerBytes int64 `json:"ledger_bytes"`
}

// Measure counts the project's records and their bytes as a prune of
// everything would (Scan with a cutoff in the future, nothing kept), and
// the ledger's files; it changes nothing.
func Measure(projectDir string, now time.Time) (Usage, error) {
	plan, err := Scan(Options{ProjectDir: projectDir, Cutoff: now.Add(24 * time.Hour), sizesOnly: true})
	if err != nil {
		return Usage{}, err
	}
	var u Usage
	for _, r := range plan.Prune {
		switch r.Kind {
		case KindTask:
			u.Tasks++
		case KindReview:
			u.Reviews++
		case KindAnswer:
			u.Answers++
		default:
			u.Advisories++
		}
		u.RecordBytes += r.Bytes
	}
	for _, p := range []string{ledger.PathFor(projectDir), ledger.HeadPath(ledger.PathFor(projectDir))} {
		if fi, err := os.Stat(p); err == nil {
			u.LedgerBytes += fi.Size()
		} else if !errors.Is(err, fs.ErrNotExist) {
			return u, fmt.Errorf("measure the ledger: %w", err)
		}
	}
	return u, nil
}
