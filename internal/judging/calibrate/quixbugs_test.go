package calibrate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/testkit"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
)

// The QuixBugs set lives in testdata/calibration/quixbugs: cases derived
// from QuixBugs (github.com/jkoppel/QuixBugs, MIT licence), 40 Python
// programs each with a one-line defect and its fix. Two cases per program,
// with the same task (the program's docstring as its specification):
//
//	<name>-fix    files: the buggy program; diff: buggy → fixed; accept
//	<name>-break  files: the fixed program; diff: fixed → buggy; reject
//
// The buggy file is upstream's python_programs/<name>.py unchanged; the
// fixed file is the same with its code replaced by the first version of
// the program in correct_python_programs/<name>.py (upstream's correct
// files carry alternative versions after it), so the two differ only in
// the defect. tests/ holds upstream's python_testcases and json_testcases
// unchanged; run_tests.py (ours) runs them without pytest.
//
// `go test ./internal/judging/calibrate -run TestQuixBugsSet -update-quixbugs
// -quixbugs-src DIR` regenerates cases.jsonl, tests/ and LICENSE from a
// clone of upstream at quixbugsCommit. Without the flag the test applies
// every shipped diff to its files, runs upstream's tests on the result and
// fails on any label the tests contradict. PROVENANCE.md says the rest.
var (
	updateQuixBugs = flag.Bool("update-quixbugs", false, "regenerate testdata/calibration/quixbugs from -quixbugs-src")
	quixbugsSrc    = flag.String("quixbugs-src", "", "a clone of github.com/jkoppel/QuixBugs holding commit "+quixbugsCommit)
)

const (
	quixbugsDir = "../../../testdata/calibration/quixbugs"
	// quixbugsCommit is the upstream commit the set is derived from
	// (2022-08-29, the head of master when the set was made).
	quixbugsCommit = "4257f44b0ff1181dedaedee6a447e133219fcebf"
	// maxDefectLines bounds the changed lines of a case's diff: upstream's
	// defects are one line, plus at most a comment upstream also changed.
	// A bigger diff means the transform misread a file.
	maxDefectLines = 4
)

// TestQuixBugsSet is in the calibration tier: it runs upstream's tests
// with python3 once per case.
func TestQuixBugsSet(t *testing.T) {
	if !*updateQuixBugs {
		testtier.Require(t, testtier.Calibration)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		testtier.Missing(t, testtier.Calibration, "the python3 command", "apt-get install python3")
	}
	if _, err := exec.LookPath("git"); err != nil {
		testtier.Missing(t, testtier.Calibration, "the git command", "apt-get install git")
	}
	var cases []Case
	if *updateQuixBugs {
		cases = generateQuixBugs(t)
	} else {
		cases = readCasesFile(t, filepath.Join(quixbugsDir, "cases.jsonl"))
		provenance, err := os.ReadFile(filepath.Join(quixbugsDir, "PROVENANCE.md"))
		if err != nil || !bytes.Contains(provenance, []byte(quixbugsCommit)) {
			t.Errorf("PROVENANCE.md does not name commit %s (%v)", quixbugsCommit, err)
		}
	}
	runs := runQuixBugs(t, python, cases)
	if *updateQuixBugs {
		for i := range cases {
			cases[i].Label = runs[cases[i].ID].label()
		}
		writeCasesFile(t, filepath.Join(quixbugsDir, "cases.jsonl"), cases)
	}
	var wrong []string
	programs := map[string]int{}
	var skips []string
	for _, c := range cases {
		r := runs[c.ID]
		name, kind, _ := strings.Cut(c.ID, "-")
		programs[name]++
		// The id says which way the diff goes; the tests decide.
		meant := map[string]string{"fix": "accept", "break": "reject"}[kind]
		if meant == "" {
			wrong = append(wrong, fmt.Sprintf("%s: an id ends in -fix or -break", c.ID))
		}
		if r.label() != meant || c.Label != r.label() {
			wrong = append(wrong, fmt.Sprintf("%s: labelled %s, meant to %s, the tests say %s (%s)", c.ID, c.Label, meant, r.label(), r.summary()))
		}
		for _, s := range r.Skipped {
			skips = append(skips, fmt.Sprintf("%s %s (%s)", c.ID, s.Test, s.Why))
		}
	}
	for name, n := range programs {
		if n != 2 {
			wrong = append(wrong, fmt.Sprintf("%s has %d cases; each program has a -fix and a -break", name, n))
		}
	}
	if len(wrong) > 0 {
		sort.Strings(wrong)
		t.Fatalf("labels contradicted by upstream's tests:\n%s", strings.Join(wrong, "\n"))
	}
	if len(programs) != 40 {
		t.Errorf("the set covers %d programs; QuixBugs has 40 and every one is runnable", len(programs))
	}
	t.Logf("%d programs, %d cases, every label re-derived from upstream's tests; tests skipped by upstream's own rules: %s",
		len(programs), len(cases), strings.Join(skips, "; "))
}

// quixbugsRun is what run_tests.py printed for one case.
type quixbugsRun struct {
	Passed  int `json:"passed"`
	Skipped []struct {
		Test string `json:"test"`
		Why  string `json:"why"`
	} `json:"skipped"`
	Failed *struct {
		Test string `json:"test"`
		Why  string `json:"why"`
	} `json:"failed"`
}

func (r quixbugsRun) label() string {
	if r.Failed == nil && r.Passed > 0 {
		return "accept"
	}
	return "reject"
}

func (r quixbugsRun) summary() string {
	if r.Failed != nil {
		return fmt.Sprintf("%d passed, then %s failed: %s", r.Passed, r.Failed.Test, r.Failed.Why)
	}
	return fmt.Sprintf("%d passed", r.Passed)
}

// runQuixBugs applies every case's diff to its files in a fresh directory
// and runs upstream's tests on the changed program, a few at a time.
func runQuixBugs(t *testing.T, python string, cases []Case) map[string]quixbugsRun {
	runner, err := filepath.Abs(filepath.Join(quixbugsDir, "run_tests.py"))
	if err != nil {
		t.Fatal(err)
	}
	tests, _ := filepath.Abs(filepath.Join(quixbugsDir, "tests"))
	dirs := make([]string, len(cases))
	g := testkit.NewGit(t)
	for i, c := range cases {
		dirs[i] = t.TempDir()
		testkit.WriteFiles(t, dirs[i], c.Files)
		g.Init(dirs[i])
		patch := filepath.Join(t.TempDir(), "change.diff")
		if err := os.WriteFile(patch, []byte(c.Diff), 0o644); err != nil {
			t.Fatal(err)
		}
		g.Run(dirs[i], "apply", patch)
	}
	var (
		mu   sync.Mutex
		runs = map[string]quixbugsRun{}
		wg   sync.WaitGroup
		sem  = make(chan struct{}, runtime.NumCPU())
	)
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			name, _, _ := strings.Cut(c.ID, "-")
			r, err := runQuixBugsCase(python, runner, filepath.Join(dirs[i], name+".py"), name, tests)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				t.Errorf("%s: %v", c.ID, err)
				return
			}
			runs[c.ID] = r
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return runs
}

// runQuixBugsCase runs one program. run_tests.py bounds each test by CPU
// time; the wall-clock limit here only stops a runner that hangs.
func runQuixBugsCase(python, runner, program, name, tests string) (quixbugsRun, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, runner, program, name, tests)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		return quixbugsRun{}, fmt.Errorf("run_tests.py: %v\n%s%s", err, out, stderr.Bytes())
	}
	var r quixbugsRun
	if err := json.Unmarshal(out, &r); err != nil {
		return r, fmt.Errorf("run_tests.py printed %q: %v", out, err)
	}
	if (err != nil) != (r.Failed != nil) {
		return r, fmt.Errorf("run_tests.py's exit status (%v) disagrees with its report %s", err, out)
	}
	return r, nil
}

func readCasesFile(t *testing.T, path string) []Case {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ReadCases(f, func(line int, why string) { t.Errorf("%s:%d: %s", path, line, why) })
	if err != nil {
		t.Fatal(err)
	}
	return cases
}

func writeCasesFile(t *testing.T, path string, cases []Case) {
	var b bytes.Buffer
	for _, c := range cases {
		line, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
