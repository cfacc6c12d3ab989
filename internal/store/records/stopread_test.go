package records

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

func TestReadStopFileRejects(t *testing.T) {
	valid := func(task, outcome, score string) string {
		return `{"task_id":` + task + `,"outcome":` + outcome + `,"verdict":{"score":` + score + `,"passed":true}}`
	}
	cases := []struct {
		name, content, want string
	}{
		{"empty", "", "the file is empty"},
		{"blank", " \n", "the file is empty"},
		{"array", `[1]`, "not a JSON object"},
		{"string", `"x"`, "not a JSON object"},
		{"truncated", `{"task_id":"` + tid + `",`, "cannot decode it"},
		{"wrong type", `{"task_id":5}`, "cannot decode it"},
		{"no task id", `{"outcome":"accepted","verdict":{"score":0.9}}`, "task_id is missing"},
		{"null task id", valid(`null`, `"accepted"`, `0.9`), "task_id is missing"},
		{"path task id", valid(`"../../etc/passwd"`, `"accepted"`, `0.9`), `task_id "../../etc/passwd" is not a ULID`},
		{"lowercase task id", valid(`"01hz0000000000000000000001"`, `"accepted"`, `0.9`), "is not a ULID"},
		{"task id with I", valid(`"01HZ000000000000000000000I"`, `"accepted"`, `0.9`), "is not a ULID"},
		{"task id overflow", valid(`"81HZ0000000000000000000001"`, `"accepted"`, `0.9`), "is not a ULID"},
		{"short task id", valid(`"01HZ"`, `"accepted"`, `0.9`), "is not a ULID"},
		{"outcome", valid(`"`+tid+`"`, `"exhausted_iterations"`, `0.9`), `outcome "exhausted_iterations" is neither`},
		{"no outcome", `{"task_id":"` + tid + `","verdict":{"score":0.9}}`, `outcome "" is neither`},
		{"no verdict", `{"task_id":"` + tid + `","outcome":"accepted"}`, "verdict is missing"},
		{"no score", `{"task_id":"` + tid + `","outcome":"accepted","verdict":{}}`, "verdict.score (missing) is not a number"},
		{"score above", valid(`"`+tid+`"`, `"accepted"`, `1.01`), "verdict.score 1.01 is not a number in [0,1]"},
		{"score below", valid(`"`+tid+`"`, `"accepted"`, `-0.1`), "verdict.score -0.1 is not"},
		{"score string", valid(`"`+tid+`"`, `"accepted"`, `"0.9"`), `verdict.score "0.9" is not`},
		{"score null", valid(`"`+tid+`"`, `"accepted"`, `null`), "verdict.score null is not"},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, "stop-"+strings.ReplaceAll(c.name, " ", "-")+".json")
			testkit.WriteFile(t, p, c.content)
			a, err := ReadStopFile(p)
			if !errors.Is(err, ErrCorrupt) {
				t.Fatalf("err = %v, want ErrCorrupt", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("err = %q, want it to contain %q", err, c.want)
			}
			if a.ModTime.IsZero() || a.Path != p {
				t.Errorf("a corrupt file still reports its path and mtime: %+v", a)
			}
		})
	}
}

func TestReadStopFileBoundaries(t *testing.T) {
	dir := t.TempDir()
	for _, s := range []string{"0", "1", "0.0", "1e0"} {
		p := filepath.Join(dir, "stop-b.json")
		testkit.WriteFile(t, p, `{"task_id":"`+tid+`","outcome":"accepted","verdict":{"score":`+s+`,"passed":true}}`)
		if _, err := ReadStopFile(p); err != nil {
			t.Errorf("score %s: %v", s, err)
		}
	}
}

func TestReadStopFileTimeFallsBackToMtime(t *testing.T) {
	dir := t.TempDir()
	mtime := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, wa := range []string{``, `,"written_at":"yesterday"`, `,"written_at":7`} {
		p := filepath.Join(dir, "stop-m.json")
		testkit.WriteFile(t, p, `{"task_id":"`+tid+`","outcome":"accepted","verdict":{"score":0.9}`+wa+`}`)
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		a, err := ReadStopFile(p)
		if wa == `,"written_at":7` {
			// A mistyped field is a file the Stop hook did not write.
			if !errors.Is(err, ErrCorrupt) {
				t.Errorf("written_at 7: err = %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", wa, err)
		}
		if !a.TimeFromMtime || !a.WrittenAt.Equal(mtime) {
			t.Errorf("%q: WrittenAt %v from mtime %v", wa, a.WrittenAt, a.TimeFromMtime)
		}
	}
}

func TestReadStopFileLimits(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "stop-big.json")
	testkit.WriteFile(t, big, `{"task_id":"`+tid+`","outcome":"accepted","verdict":{"score":0.9,"feedback_summary":"`+
		strings.Repeat("x", maxStopFile)+`"}}`)
	if _, err := ReadStopFile(big); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("big file: %v", err)
	}
	if _, err := ReadStopFile(filepath.Join(dir, "stop-missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	d := filepath.Join(dir, "stop-dir.json")
	if err := os.Mkdir(d, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadStopFile(d); !errors.Is(err, ErrCorrupt) {
		t.Errorf("directory: %v", err)
	}
}

func TestListStopFiles(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"stop-b.json", "stop-a.json", "manifest.json", "stop-.json", ".stop-x.json.tmp-1", "stop-c.json.tmp", "stopx.json"} {
		testkit.WriteFile(t, filepath.Join(dir, n), "{}")
	}
	if err := os.Mkdir(filepath.Join(dir, "stop-d.json"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "stop-a.json"), filepath.Join(dir, "stop-e.json")); err != nil {
		t.Fatal(err)
	}
	got, err := ListStopFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "stop-a.json"), filepath.Join(dir, "stop-b.json")}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %v, want %v", got, want)
	}
	if got, err := ListStopFiles(filepath.Join(dir, "absent")); err != nil || got != nil {
		t.Errorf("absent dir: %v %v", got, err)
	}
}
