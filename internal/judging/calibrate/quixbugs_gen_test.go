package calibrate

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// generateQuixBugs derives the cases from upstream at quixbugsCommit and
// replaces tests/ and LICENSE with upstream's files; the labels are left
// for the tests to decide.
func generateQuixBugs(t *testing.T) []Case {
	if *quixbugsSrc == "" {
		t.Fatal("-update-quixbugs needs -quixbugs-src DIR, a clone of https://github.com/jkoppel/QuixBugs")
	}
	src, err := filepath.Abs(*quixbugsSrc)
	if err != nil {
		t.Fatal(err)
	}
	gitDir := src
	if _, err := os.Stat(filepath.Join(src, ".git")); err == nil {
		gitDir = filepath.Join(src, ".git")
	}
	// Standard output alone: a warning on standard error must not end up
	// in a file.
	g := testkit.NewGit(t)
	upstreamGit := func(args ...string) string { return g.Run(src, append([]string{"--git-dir=" + gitDir}, args...)...) }
	show := func(p string) string { return upstreamGit("show", quixbugsCommit+":"+p) }
	if err := os.RemoveAll(filepath.Join(quixbugsDir, "tests")); err != nil {
		t.Fatal(err)
	}
	upstream := map[string]string{"LICENSE": show("LICENSE")}
	for _, p := range []string{"python_testcases/load_testdata.py", "python_testcases/node.py"} {
		upstream["tests/"+p] = show(p)
	}
	var cases []Case
	for _, p := range strings.Fields(upstreamGit("ls-tree", "--name-only", quixbugsCommit, "python_programs/")) {
		name := strings.TrimSuffix(path.Base(p), ".py")
		if !strings.HasSuffix(p, ".py") || strings.HasSuffix(name, "_test") || name == "node" {
			continue // upstream's old graph test drivers and their Node class
		}
		tests := show("python_testcases/test_" + name + ".py")
		upstream["tests/python_testcases/test_"+name+".py"] = tests
		if strings.Contains(tests, "load_json_testcases") {
			upstream["tests/json_testcases/"+name+".json"] = show("json_testcases/" + name + ".json")
		}
		buggy := show(p)
		fixed, doc, err := fixQuixBugs(name, buggy, show("correct_python_programs/"+name+".py"))
		if err != nil {
			t.Fatal(err)
		}
		var extra map[string]string
		if strings.Contains(tests, "from node import Node") {
			// The tests build graphs of Node: judges see the class.
			extra = map[string]string{"node.py": upstream["tests/python_testcases/node.py"]}
		}
		task := quixbugsTask(name, doc)
		cases = append(cases,
			quixbugsCase(t, name+"-fix", task, name+".py", buggy, fixed, extra,
				"QuixBugs "+name+": upstream's fix (correct_python_programs/"+name+".py) applied to its buggy program"),
			quixbugsCase(t, name+"-break", task, name+".py", fixed, buggy, extra,
				"QuixBugs "+name+": upstream's one-line defect (python_programs/"+name+".py) put into the fixed program"))
	}
	testkit.WriteFiles(t, quixbugsDir, upstream)
	return cases
}

// fixQuixBugs splits upstream's buggy file into its code and its trailing
// docstring, and returns the fixed file (the first version of the program
// in the correct file, followed by the same docstring) and the docstring.
func fixQuixBugs(name, buggy, correct string) (fixed, doc string, err error) {
	lines := strings.Split(buggy, "\n")
	var quotes []int
	for i, l := range lines {
		if strings.TrimSpace(l) == `"""` {
			quotes = append(quotes, i)
		}
	}
	if len(quotes) < 2 || strings.TrimSpace(strings.Join(lines[quotes[len(quotes)-1]+1:], "")) != "" {
		return "", "", fmt.Errorf("python_programs/%s.py does not end with its docstring", name)
	}
	open, shut := quotes[len(quotes)-2], quotes[len(quotes)-1]
	code := strings.TrimRight(strings.Join(lines[:open], "\n"), "\n")
	doc = strings.Trim(strings.Join(lines[open+1:shut], "\n"), "\n")
	var first []string
	seen := false
	for _, l := range strings.Split(correct, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), `"""`) {
			break // upstream's alternative versions, kept in a string
		}
		if strings.HasPrefix(l, "def "+name+"(") {
			if seen {
				break // a second version of the function
			}
			seen = true
		}
		first = append(first, l)
	}
	if !seen {
		return "", "", fmt.Errorf("correct_python_programs/%s.py does not define %s", name, name)
	}
	// The buggy file's leading blank lines and trailing docstring stay as
	// they are, so the diff is the defect alone.
	lead := code[:len(code)-len(strings.TrimLeft(code, "\n"))]
	fixed = lead + strings.Trim(strings.Join(first, "\n"), "\n") + buggy[len(code):]
	return fixed, doc, nil
}

func quixbugsTask(name, doc string) string {
	return fmt.Sprintf("`%s` in `%s.py` must meet the specification in the file's docstring, repeated here. "+
		"Change `%s.py` so that it does, keeping the function's name and parameters.\n\n%s", name, name, name, doc)
}

// quixbugsCase is the change from one version of file to the other, as
// git diff shows it.
func quixbugsCase(t *testing.T, id, task, file, from, to string, extra map[string]string, notes string) Case {
	files := map[string]string{file: from}
	for p, c := range extra {
		files[p] = c
	}
	diff := caseDiff(t, testkit.NewGit(t), files, map[string]string{file: to})
	changed := 0
	for _, l := range strings.Split(diff, "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++") && !strings.HasPrefix(l, "---") {
			changed++
		}
	}
	if changed == 0 || changed > maxDefectLines {
		t.Fatalf("%s: the diff changes %d lines, not the defect's 1 to %d:\n%s", id, changed, maxDefectLines, diff)
	}
	return Case{ID: id, Task: task, Diff: diff, Notes: notes, Files: files}
}
