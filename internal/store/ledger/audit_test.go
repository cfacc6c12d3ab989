package ledger

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
)

func TestReadAudit(t *testing.T) {
	f := newFixture(t)
	want := f.fill(t, 5)
	a, err := ReadAudit(f.path)
	if err != nil || a.Err != nil {
		t.Fatalf("ReadAudit: %v, %v", err, a.Err)
	}
	if len(a.Entries) != 5 || a.Holds != 5 {
		t.Fatalf("%d entries, %d hold", len(a.Entries), a.Holds)
	}
	for i, e := range a.Entries {
		if e.Seq != want[i].Seq || e.TaskID != want[i].TaskID || e.Hash != want[i].Hash || !a.HoldsAt(e.Seq) {
			t.Errorf("entry %d: %+v, want %+v", i, e, want[i])
		}
	}
	if a.HoldsAt(5) || a.HoldsAt(-1) {
		t.Error("HoldsAt beyond the ledger")
	}

	// An entry altered after it was signed: it and everything after it
	// no longer hold; the ones before still do.
	data, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	lines[2] = strings.Replace(lines[2], `"task_id":"`, `"task_id":"X`, 1)
	if err := os.WriteFile(f.path, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	a, err = ReadAudit(f.path)
	var se *SignatureError
	if err != nil || !errors.As(a.Err, &se) || a.Holds != 2 {
		t.Fatalf("tampered: err %v, verify %v, holds %d; want a signature error at entry 2", err, a.Err, a.Holds)
	}
	if !a.HoldsAt(1) || a.HoldsAt(2) || a.HoldsAt(4) {
		t.Error("HoldsAt does not follow the break")
	}

	if _, err := ReadAudit(f.path + ".absent"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing ledger: %v", err)
	}
}
