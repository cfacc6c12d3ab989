package testcmds

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/oklog/ulid/v2"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// backdate VAR PROJECTDIR ID DAYS makes the record ID (a task, a review or
// an advisory verdict) DAYS days older without waiting: a record's time is
// its ULID's, so it is renamed to the ULID with the same random part and a
// time DAYS earlier — every file and directory name and every mention in
// the project's files and in the pending entries. The signed ledger is
// left alone (its entries keep naming the old id). VAR is set to the new id.
func init() {
	Cmds["backdate"] = backdate
}

func backdate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: backdate VAR PROJECTDIR ID DAYS")
	}
	project, old := ts.MkAbs(args[1]), args[2]
	days, err := strconv.Atoi(args[3])
	ts.Check(err)
	u, err := ulid.ParseStrict(old)
	ts.Check(err)
	t := ulid.Time(u.Time()).Add(-time.Duration(days) * 24 * time.Hour)
	ts.Check(u.SetTime(ulid.Timestamp(t)))
	id := u.String()
	roots := []string{project, filepath.Join(ts.Getenv("ONLOOKER_DIR"), records.PendingDirName)}
	var paths []string
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if path == root || strings.HasPrefix(d.Name(), ledger.FileName) {
				return nil
			}
			if d.Type().IsRegular() {
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				if bytes.Contains(data, []byte(old)) {
					if err := os.WriteFile(path, bytes.ReplaceAll(data, []byte(old), []byte(id)), 0o600); err != nil {
						return err
					}
				}
			}
			if strings.Contains(d.Name(), old) {
				paths = append(paths, path)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			ts.Fatalf("backdate: %v", err)
		}
	}
	// Deepest first, so a directory is renamed after what is inside it.
	sort.Slice(paths, func(i, j int) bool { return len(paths[i]) > len(paths[j]) })
	for _, p := range paths {
		ts.Check(os.Rename(p, filepath.Join(filepath.Dir(p), strings.ReplaceAll(filepath.Base(p), old, id))))
	}
	if len(paths) == 0 {
		ts.Fatalf("backdate: no file of %s is named %s", args[1], old)
	}
	ts.Setenv(args[0], id)
}
