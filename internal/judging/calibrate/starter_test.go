package calibrate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// The starter set lives in testdata/calibration at the repository root:
// one directory per program, each with
//
//	task.md                the task, as a judge is shown it
//	base/                  the program before the change, with its old tests
//	task_test.go           the task's own tests (never shown to a judge)
//	variants/<name>/       the changed files of one attempt, and NOTE, one
//	                       line on what the attempt is
//
// `go test ./internal/judging/calibrate -run TestStarterSet -update-starter`
// regenerates testdata/calibration/cases.jsonl from them: each case's diff
// is `git diff` from base to the variant and its label comes from running
// the full suite (old tests and the task's tests) on the changed program.
// Without the flag the test re-derives every label from cases.jsonl itself
// (applying each diff to its files and running the tests) and fails on any
// label the tests contradict.
var updateStarter = flag.Bool("update-starter", false, "regenerate testdata/calibration/cases.jsonl")

const starterDir = "../../../testdata/calibration"

// TestStarterSet is the calibration tier (make test-calibration): it runs
// every program's test suite once per case. -update-starter asks for it
// by itself.
func TestStarterSet(t *testing.T) {
	if !*updateStarter {
		testtier.Require(t, testtier.Calibration)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		testtier.Missing(t, testtier.Calibration, "the go command", "put Go on PATH")
	}
	if _, err := exec.LookPath("git"); err != nil {
		testtier.Missing(t, testtier.Calibration, "the git command", "apt-get install git")
	}
	var cases []Case
	if *updateStarter {
		cases = generateStarter(t)
	} else {
		cases = readStarter(t)
	}
	labels := deriveLabels(t, goBin, cases)
	var wrong []string
	for _, c := range cases {
		// The variant's name says what its author meant; the tests decide.
		// A disagreement means the program or its tests are wrong.
		meant := "reject"
		if strings.HasPrefix(strings.TrimPrefix(c.ID, programOf(t, c.ID)+"-"), "correct") {
			meant = "accept"
		}
		if labels[c.ID] != meant {
			wrong = append(wrong, fmt.Sprintf("%s: meant to %s, but the tests say %s", c.ID, meant, labels[c.ID]))
		}
		if strings.HasSuffix(c.ID, "-old-tests-only") && labels[c.ID+oldOnly] != "accept" {
			wrong = append(wrong, fmt.Sprintf("%s: meant to pass the old tests, but does not", c.ID))
		}
	}
	if *updateStarter {
		for i := range cases {
			cases[i].Label = labels[cases[i].ID]
		}
		writeStarter(t, cases)
	}
	accepts := 0
	for _, c := range cases {
		if c.Label == "accept" {
			accepts++
		}
		if c.Label != labels[c.ID] {
			wrong = append(wrong, fmt.Sprintf("%s: labelled %s, the tests say %s", c.ID, c.Label, labels[c.ID]))
		}
	}
	if len(wrong) > 0 {
		t.Fatalf("labels contradicted by the tests:\n%s", strings.Join(wrong, "\n"))
	}
	if len(cases) < 40 {
		t.Errorf("the starter set has %d cases; it promises at least 40", len(cases))
	}
	t.Logf("%d cases (%d accept, %d reject), every label re-derived from the tests", len(cases), accepts, len(cases)-accepts)
}

func readStarter(t *testing.T) []Case {
	f, err := os.Open(filepath.Join(starterDir, "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ReadCases(f, func(line int, why string) { t.Errorf("cases.jsonl:%d: %s", line, why) })
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func writeStarter(t *testing.T, cases []Case) {
	var b bytes.Buffer
	for _, c := range cases {
		line, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(starterDir, "cases.jsonl"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// caseDiff is git's diff from the files base to base with changed written
// over it, as a case holds it.
func caseDiff(t *testing.T, g *testkit.Git, base, changed map[string]string) string {
	t.Helper()
	r := g.Init(t.TempDir())
	testkit.WriteFiles(t, r.Dir, base)
	r.Commit("base")
	testkit.WriteFiles(t, r.Dir, changed)
	g.Run(r.Dir, "add", "-A")
	return g.Run(r.Dir, "diff", "--cached", "--no-color", "--no-ext-diff")
}

// readTree returns the regular files under dir as slash path → content.
func readTree(t *testing.T, dir string) map[string]string {
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// programs lists the starter programs in order: the directories with a
// task.md (quixbugs/ is another set).
func programs(t *testing.T) []string {
	entries, err := os.ReadDir(starterDir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(starterDir, e.Name(), "task.md")); e.IsDir() && err == nil {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// generateStarter builds the cases from the programs: label unset (the
// tests decide it).
func generateStarter(t *testing.T) []Case {
	g := testkit.NewGit(t)
	var cases []Case
	for _, prog := range programs(t) {
		dir := filepath.Join(starterDir, prog)
		task, err := os.ReadFile(filepath.Join(dir, "task.md"))
		if err != nil {
			t.Fatal(err)
		}
		base := readTree(t, filepath.Join(dir, "base"))
		variants, err := os.ReadDir(filepath.Join(dir, "variants"))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range variants {
			changed := readTree(t, filepath.Join(dir, "variants", v.Name()))
			note := strings.TrimSpace(changed["NOTE"])
			delete(changed, "NOTE")
			diff := caseDiff(t, g, base, changed)
			if diff == "" {
				t.Fatalf("%s/%s changes nothing", prog, v.Name())
			}
			cases = append(cases, Case{
				ID: prog + "-" + v.Name(), Task: strings.TrimSpace(string(task)), Diff: diff,
				Notes: note, Files: base,
			})
		}
	}
	return cases
}

// deriveLabels applies every case's diff to its files in one module, adds
// the program's task tests, runs `go test` once over all of them, and
// returns accept for each case whose package passed, reject otherwise.
func deriveLabels(t *testing.T, goBin string, cases []Case) map[string]string {
	root := t.TempDir()
	testkit.WriteFiles(t, root, map[string]string{"go.mod": "module calib\n\ngo 1.26\n"})
	for _, c := range cases {
		testkit.WriteFiles(t, filepath.Join(root, c.ID), c.Files)
	}
	g := testkit.NewGit(t)
	g.Init(root).Commit("base")
	for _, c := range cases {
		patch := filepath.Join(t.TempDir(), "change.diff")
		if err := os.WriteFile(patch, []byte(c.Diff), 0o644); err != nil {
			t.Fatal(err)
		}
		g.Run(root, "apply", "--directory="+c.ID, patch)
		prog := programOf(t, c.ID)
		tests, err := os.ReadFile(filepath.Join(starterDir, prog, "task_test.go"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(c.ID, "-old-tests-only") {
			// The same change without the task's tests: it must pass.
			copyTree(t, filepath.Join(root, c.ID), filepath.Join(root, c.ID+oldOnly))
		}
		testkit.WriteFiles(t, filepath.Join(root, c.ID), map[string]string{"task_test.go": string(tests)})
	}
	cmd := exec.Command(goBin, "test", "-count=1", "-json", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	out, _ := cmd.Output() // failing packages make go test exit 1
	result := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var ev struct{ Action, Package, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Test != "" {
			continue
		}
		id := strings.TrimPrefix(ev.Package, "calib/")
		switch ev.Action {
		case "pass":
			result[id] = "accept"
		case "fail":
			result[id] = "reject"
		}
	}
	for _, c := range cases {
		if _, ok := result[c.ID]; !ok {
			t.Fatalf("go test reported nothing for %s:\n%s", c.ID, out)
		}
		if _, ok := result[c.ID+oldOnly]; strings.HasSuffix(c.ID, "-old-tests-only") && !ok {
			t.Fatalf("go test reported nothing for %s:\n%s", c.ID, out)
		}
	}
	return result
}

// oldOnly suffixes the package that runs an old-tests-only change against
// the old tests alone.
const oldOnly = "-without-task-tests"

func copyTree(t *testing.T, from, to string) {
	testkit.WriteFiles(t, to, readTree(t, from))
}

// programOf maps a case id back to its program directory.
func programOf(t *testing.T, id string) string {
	for _, p := range programs(t) {
		if strings.HasPrefix(id, p+"-") {
			return p
		}
	}
	t.Fatalf("case %s belongs to no program", id)
	return ""
}
