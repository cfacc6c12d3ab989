package evaluator

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// tenEvaluators are the ten of the overhead target (issue 25: under 50 ms
// for ten evaluators on a 1,000-line change): six regexes over the added
// lines, one over the actor's output, two JSON Schemas, one exact match.
const tenEvaluators = `[
 {"name":"no-todo","kind":"regex","must_not_match":"\\b(TODO|FIXME|XXX)\\b"},
 {"name":"no-console","kind":"regex","must_not_match":"console\\.(log|debug)","paths":"**/*.js"},
 {"name":"no-aws-key","kind":"regex","must_not_match":"AKIA[0-9A-Z]{16}"},
 {"name":"no-private-key","kind":"regex","must_not_match":"-----BEGIN [A-Z ]*PRIVATE KEY-----"},
 {"name":"no-debugger","kind":"regex","must_not_match":"\\bdebugger;"},
 {"name":"license-header","kind":"regex","must_match":"Copyright","paths":"src/*.go"},
 {"name":"no-secret-in-output","kind":"regex","in":"actor_output","must_not_match":"sk-[A-Za-z0-9]{20,}"},
 {"name":"config-schema","kind":"json_schema","paths":"config/*.json","schema":{"type":"object","required":["name"],"properties":{"name":{"type":"string"},"port":{"type":"integer","minimum":1}}}},
 {"name":"package-schema","kind":"json_schema","paths":"package.json","schema":{"type":"object","required":["name","version"]}},
 {"name":"version","kind":"file_equals","file":"VERSION","expected":"1.0.0\n"}
]`

// bigChange writes a worktree and a 1,000-added-line change across ten
// files (eight source files, two JSON configurations).
func bigChange(b *testing.B) (string, []unidiff.File) {
	dir := b.TempDir()
	var diff strings.Builder
	for i := range 8 {
		name := fmt.Sprintf("src/file%d.go", i)
		if i%2 == 1 {
			name = fmt.Sprintf("web/file%d.js", i)
		}
		fmt.Fprintf(&diff, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -1,0 +1,124 @@\n", name, name, name, name)
		var body strings.Builder
		for j := range 124 {
			line := fmt.Sprintf("\tvalue%d := compute(%d, \"some text of a typical length\") // note", j, j)
			body.WriteString(line + "\n")
			diff.WriteString("+" + line + "\n")
		}
		testkit.WriteFile(b, filepath.Join(dir, filepath.FromSlash(name)), body.String())
	}
	for i := range 2 {
		name := fmt.Sprintf("config/c%d.json", i)
		json := fmt.Sprintf(`{"name":"svc%d","port":%d}`, i, 8080+i)
		fmt.Fprintf(&diff, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,4 @@\n+%s\n+\n+\n+\n", name, name, name, json)
		testkit.WriteFile(b, filepath.Join(dir, filepath.FromSlash(name)), json+"\n\n\n\n")
	}
	testkit.WriteFile(b, filepath.Join(dir, "VERSION"), "1.0.0\n")
	files := unidiff.Parse([]byte(diff.String()))
	added := 0
	for _, f := range files {
		added += f.Added
	}
	if added != 1000 {
		b.Fatalf("the change adds %d lines, want 1000", added)
	}
	return dir, files
}

// BenchmarkTenEvaluators measures one task's evaluator overhead: compiling
// the rubric's ten evaluators and running them over a 1,000-line change.
func BenchmarkTenEvaluators(b *testing.B) {
	dir, files := bigChange(b)
	es := specs(b, tenEvaluators)
	actor := strings.Repeat("I changed the files and the tests pass. ", 100)
	b.ResetTimer()
	for b.Loop() {
		set, err := compileLocal(es, dir)
		if err != nil {
			b.Fatal(err)
		}
		res := set.Run(context.Background(), Change{Files: files, Dir: dir, ActorOutput: actor})
		if len(res) != 10 || !res[0].Passed || !res[9].Passed {
			b.Fatalf("unexpected results: %+v", res)
		}
	}
}
