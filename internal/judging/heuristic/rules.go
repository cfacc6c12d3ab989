package heuristic

import (
	"fmt"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
)

// secretPatterns are credential shapes that no change should add: cloud
// and forge keys, private key blocks, and a quoted literal of 8+
// characters assigned to a secret-sounding name.
// They compile on first use (as do the patterns below), so a command that
// never runs the heuristics pays nothing for them at start.
var secretPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return mustCompileAll(`\bAKIA[0-9A-Z]{16}\b`,
		`-----BEGIN [A-Z ]*PRIVATE KEY-----`,
		`\bgh[pousr]_[A-Za-z0-9]{36,}`,
		`\bsk-[A-Za-z0-9_-]{20,}`,
		`\bxox[abprs]-[A-Za-z0-9-]{10,}`,
		`(?i)(password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token)["']?\s*[:=]\s*["'][^"'\s]{8,}["']`)
})

// todoPattern is a marker of unfinished work.
var todoPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(TODO|FIXME|XXX|HACK)\b`) })

// debugPatterns are debugging leftovers in code that is not a test.
var debugPatterns = sync.OnceValue(func() []*regexp.Regexp {
	return mustCompileAll(`\bconsole\.(log|debug)\(`,
		`(^|[^\w.])debugger\b`,
		`\bpdb\.set_trace\(|\bbreakpoint\(\)`,
		`\bbinding\.pry\b`,
		`\bvar_dump\(`,
		`\bdbg!\(`,
		`\bSystem\.out\.println\(`)
})

func mustCompileAll(srcs ...string) []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(srcs))
	for i, src := range srcs {
		out[i] = regexp.MustCompile(src)
	}
	return out
}

// testDecl is a line that declares a test in the common frameworks.
var testDecl = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(func Test|func Benchmark|def test_|(it|test|describe)\(|@Test\b|#\[test\])`)
})

// codeExts are the extensions counted as code (a change to them wants a
// test); anything else (docs, data, configuration) does not.
var codeExts = map[string]bool{
	".go": true, ".py": true, ".js": true, ".jsx": true, ".ts": true, ".tsx": true, ".mjs": true,
	".cjs": true, ".rb": true, ".java": true, ".kt": true, ".rs": true, ".c": true, ".h": true,
	".cc": true, ".cpp": true, ".hpp": true, ".cs": true, ".php": true, ".swift": true,
	".scala": true, ".sh": true,
}

// IsTest reports whether p is a test file: a _test/test_/.test./.spec.
// name, or a file under a test, tests, __tests__, spec or testdata
// directory.
func IsTest(p string) bool {
	base := path.Base(p)
	stem := strings.TrimSuffix(base, path.Ext(base))
	if strings.HasSuffix(stem, "_test") || strings.HasPrefix(base, "test_") ||
		strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec") || strings.HasSuffix(stem, "Test") {
		return true
	}
	for _, dir := range strings.Split(path.Dir(p), "/") {
		switch dir {
		case "test", "tests", "__tests__", "spec", "testdata":
			return true
		}
	}
	return false
}

// IsCode reports whether p is code by its extension.
func IsCode(p string) bool { return codeExts[strings.ToLower(path.Ext(p))] }

// check runs every rule over files, findings in file and line order.
func check(files []unidiff.File) []Finding {
	var out []Finding
	lines, added := 0, false
	testTouched := false
	var untested *Finding
	for _, f := range files {
		lines += f.Added + f.Deleted
		added = added || f.Added > 0 || f.Deleted > 0 || f.Binary
		p := f.Path()
		if IsTest(p) {
			testTouched = true
			out = append(out, removedTests(f)...)
		}
		if f.Binary || f.Generated {
			continue
		}
		for _, l := range f.Lines() {
			if l.Op != '+' {
				continue
			}
			out = append(out, lineFindings(p, l)...)
			if untested == nil && IsCode(p) && !IsTest(p) {
				untested = &Finding{Rule: "untested-code", Severity: "minor", File: p, Line: l.Number,
					Message: "code changed and no test file was added or changed"}
			}
		}
	}
	if !added {
		out = append(out, Finding{Rule: "empty-change", Severity: "major", Message: "the change is empty: nothing to judge"})
	}
	if untested != nil && !testTouched {
		out = append(out, *untested)
	}
	if lines > HugeLines || len(files) > HugeFiles {
		out = append(out, Finding{Rule: "huge-change", Severity: "minor",
			Message: fmt.Sprintf("%d lines in %d files: too large to review well; split it", lines, len(files))})
	}
	return out
}

// lineFindings are the rules read on one added line of file p.
func lineFindings(p string, l unidiff.Line) []Finding {
	var out []Finding
	for _, re := range secretPatterns() {
		if re.MatchString(l.Text) {
			out = append(out, Finding{Rule: "secret", Severity: "critical", File: p, Line: l.Number,
				Message: "a secret-like string is added"})
			break
		}
	}
	if todoPattern().MatchString(l.Text) {
		out = append(out, Finding{Rule: "todo", Severity: "minor", File: p, Line: l.Number,
			Message: "added " + todoPattern().FindString(l.Text) + " marks unfinished work"})
	}
	if IsCode(p) && !IsTest(p) {
		for _, re := range debugPatterns() {
			if m := re.FindString(l.Text); m != "" {
				out = append(out, Finding{Rule: "debug-print", Severity: "minor", File: p, Line: l.Number,
					Message: "debugging leftover " + strings.TrimSpace(m)})
				break
			}
		}
	}
	return out
}

// removedTests reports a test file deleted, or one that loses more test
// declarations than it gains. The finding names the file but no line: the
// removed lines are not in the judged tree.
func removedTests(f unidiff.File) []Finding {
	if f.Kind == unidiff.Deleted {
		return []Finding{{Rule: "removed-tests", Severity: "major",
			Message: "test file " + f.Path() + " is deleted"}}
	}
	gained, lost := 0, 0
	for _, l := range f.Lines() {
		if !testDecl().MatchString(l.Text) {
			continue
		}
		switch l.Op {
		case '+':
			gained++
		case '-':
			lost++
		}
	}
	if lost > gained {
		return []Finding{{Rule: "removed-tests", Severity: "major", File: f.Path(),
			Message: fmt.Sprintf("%d test declaration(s) removed, %d added", lost, gained)}}
	}
	return nil
}
