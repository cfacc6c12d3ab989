package evaluator

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/rubric"
)

// specs decodes evaluators the way a rubric declares them.
func specs(t testing.TB, evaluators string) []rubric.Evaluator {
	t.Helper()
	r, err := rubric.Parse(json.RawMessage(`{"id":"r","criteria":[{"name":"a","weight":1,"min_pass":0.5}],"evaluators":` + evaluators + `}`))
	if err != nil {
		t.Fatal(err)
	}
	es, err := r.Evaluators()
	if err != nil {
		t.Fatalf("Evaluators: %v", err)
	}
	return es
}

// change is a diff adding lines to app.js, config/a.json and main.go.
const change = "diff --git a/app.js b/app.js\n--- a/app.js\n+++ b/app.js\n@@ -1,2 +1,3 @@\n x();\n+console.log(\"debug\");\n y();\n" +
	"diff --git a/config/a.json b/config/a.json\nnew file mode 100644\n--- /dev/null\n+++ b/config/a.json\n@@ -0,0 +1 @@\n+{\"port\": \"80\"}\n" +
	"diff --git a/main.go b/main.go\n--- a/main.go\n+++ b/main.go\n@@ -10,1 +10,2 @@\n func main() {}\n+// TODO: later\n"

func worktree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"app.js":           "x();\nconsole.log(\"debug\");\ny();\n",
		"config/a.json":    `{"port": "80"}` + "\n",
		"main.go":          "package main\n",
		"VERSION":          "1.2.3\n",
		"schemas/cfg.json": `{"type":"object","properties":{"port":{"type":"integer"}},"required":["port"]}`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRun(t *testing.T) {
	dir := worktree(t)
	files := unidiff.Parse([]byte(change))
	tests := []struct {
		name       string
		evaluator  string
		actor      string
		wantPassed bool
		summary    string // substring of Summary
		findings   []string
	}{
		{"regex must not match, hit", `{"name":"no-console","kind":"regex","must_not_match":"console\\.log","paths":"*.js"}`, "",
			false, "1 of 1 added line(s) in *.js match", []string{"app.js:2"}},
		{"regex must not match, glob excludes", `{"name":"no-console","kind":"regex","must_not_match":"console\\.log","paths":"src/**/*.js"}`, "",
			true, "none of 0 added line(s) in src/**/*.js", nil},
		{"regex must not match, every file", `{"name":"no-todo","kind":"regex","must_not_match":"TODO"}`, "",
			false, "1 of 3 added line(s) match /TODO/", []string{"main.go:11"}},
		{"regex must match, present", `{"name":"logs","kind":"regex","must_match":"console"}`, "", true, "app.js:2 matches", nil},
		{"regex must match, absent", `{"name":"changelog","kind":"regex","must_match":"^## ","paths":"CHANGELOG.md"}`, "",
			false, "no added line matches", []string{":0"}},
		{"actor output must not match", `{"name":"no-secret","kind":"regex","in":"actor_output","must_not_match":"sk-[a-z0-9]{8}"}`, "Done.\nkey sk-abcdefgh1 here",
			false, "line 2 of the actor's output matches /sk-[a-z0-9]{8}/", []string{":0"}},
		{"actor output must match", `{"name":"claims-tests","kind":"regex","in":"actor_output","must_match":"(?i)tests pass"}`, "All Tests Pass.", true, "matches", nil},
		{"schema fails", `{"name":"cfg","kind":"json_schema","paths":"config/*.json","schema_file":"schemas/cfg.json"}`, "",
			false, "1 of 1 changed file(s) in config/*.json fail the schema", []string{"config/a.json:0"}},
		{"schema passes", `{"name":"cfg","kind":"json_schema","paths":"config/*.json","schema":{"type":"object","properties":{"port":{"type":"string"}}}}`, "",
			true, "1 changed file(s) in config/*.json satisfy the schema", nil},
		{"format is asserted", `{"name":"cfg","kind":"json_schema","paths":"config/*.json","schema":{"properties":{"port":{"format":"ipv4"}}}}`, "",
			false, "fail the schema", []string{"config/a.json:0"}},
		{"schema, no file selected", `{"name":"cfg","kind":"json_schema","paths":"other/*.json","schema":{}}`, "", true, "no changed file matches", nil},
		{"file equals", `{"name":"version","kind":"file_equals","file":"VERSION","expected":"1.2.3\n"}`, "", true, "has the expected content", nil},
		{"file differs", `{"name":"version","kind":"file_equals","file":"VERSION","expected":"1.2.4\n"}`, "",
			false, `at line 1: has "1.2.3\n", expected "1.2.4\n"`, []string{"VERSION:1"}},
		{"file shorter", `{"name":"version","kind":"file_equals","file":"VERSION","expected":"1.2.3\nmore\n"}`, "",
			false, `at line 2: has end of file, expected "more\n"`, []string{"VERSION:2"}},
		{"file missing", `{"name":"version","kind":"file_equals","file":"NOPE","expected":""}`, "", false, "NOPE does not exist", []string{":0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			set, err := compileLocal(specs(t, "["+tc.evaluator+"]"), dir)
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			res := set.Run(context.Background(), Change{Files: files, Dir: dir, ActorOutput: tc.actor})
			if len(res) != 1 {
				t.Fatalf("got %d results", len(res))
			}
			r := res[0]
			if r.Passed != tc.wantPassed || !strings.Contains(r.Summary, tc.summary) {
				t.Errorf("passed=%v summary=%q; want passed=%v, summary containing %q", r.Passed, r.Summary, tc.wantPassed, tc.summary)
			}
			var got []string
			for _, f := range r.Findings {
				if strings.Contains(f.Message, "sk-abc") || strings.Contains(f.Message, "console.log(") {
					t.Errorf("a finding quotes the matched text: %q", f.Message)
				}
				got = append(got, fmt.Sprintf("%s:%d", f.File, f.Line))
				if f.Severity != "major" || f.Judge != "evaluator:"+r.Name {
					t.Errorf("finding %+v: want severity major, judge evaluator:%s", f, r.Name)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.findings) {
				t.Errorf("findings at %v, want %v (%+v)", got, tc.findings, r.Findings)
			}
		})
	}
}

func TestFindingsAreCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -0,0 +1,30 @@\n")
	for range 30 {
		b.WriteString("+TODO\n")
	}
	set, err := compileLocal(specs(t, `[{"name":"t","kind":"regex","must_not_match":"TODO","severity":"minor","required":false}]`), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := set.Run(context.Background(), Change{Files: unidiff.Parse([]byte(b.String()))})[0]
	if len(r.Findings) != MaxFindings || !strings.HasPrefix(r.Summary, "30 of 30") || r.Required || r.Findings[0].Severity != "minor" {
		t.Errorf("%d findings, summary %q, required %v, severity %s", len(r.Findings), r.Summary, r.Required, r.Findings[0].Severity)
	}
}

func TestCompileErrors(t *testing.T) {
	dir := worktree(t)
	if err := os.WriteFile(filepath.Join(dir, "bad.json"), []byte(`{"type":`), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, evaluator, want string
	}{
		{"missing schema file", `{"name":"s","kind":"json_schema","paths":"*.json","schema_file":"schemas/none.json"}`,
			"evaluator s: schema_file schemas/none.json: no such file in "},
		{"schema file not JSON", `{"name":"s","kind":"json_schema","paths":"*.json","schema_file":"bad.json"}`,
			"evaluator s: schema_file bad.json: not valid JSON"},
		{"unsupported keyword", `{"name":"s","kind":"json_schema","paths":"*.json","schema":{"type":"object","requried":["a"]}}`,
			`evaluator s: schema: #: unsupported keyword "requried" (did you mean "required"?)`},
		{"unsupported keyword deep", `{"name":"s","kind":"json_schema","paths":"*.json","schema":{"properties":{"a":{"items":[{"x-ui":1}]}}}}`,
			`evaluator s: schema: #/properties/a/items/0: unsupported keyword "x-ui"`},
		{"unsupported format", `{"name":"s","kind":"json_schema","paths":"*.json","schema":{"type":"string","format":"phone"}}`,
			`evaluator s: schema: #: unsupported format phone (the formats checked: date, date-time`},
		{"content keywords are not asserted, so refused", `{"name":"s","kind":"json_schema","paths":"*.json","schema":{"contentMediaType":"application/json"}}`,
			`unsupported keyword "contentMediaType"`},
		{"invalid schema", `{"name":"s","kind":"json_schema","paths":"*.json","schema":{"type":"strin"}}`,
			"evaluator s: schema: invalid schema"},
		{"external ref", `{"name":"s","kind":"json_schema","paths":"*.json","schema":{"$ref":"other.json"}}`,
			"schemas must be self-contained"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := compileLocal(specs(t, "["+tc.evaluator+"]"), dir)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Compile error = %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestSchemaFileStaysInTheWorktree(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "s.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "s.json"), filepath.Join(dir, "link.json")); err != nil {
		t.Skip("no symlinks:", err)
	}
	_, err := compileLocal(specs(t, `[{"name":"s","kind":"json_schema","paths":"*.json","schema_file":"link.json"}]`), dir)
	if err == nil || !strings.Contains(err.Error(), "schema_file link.json") {
		t.Errorf("a schema file linked from outside the worktree was read: %v", err)
	}
}

func TestSourcesFollowTheSchemaFile(t *testing.T) {
	dir := worktree(t)
	es := specs(t, `[{"name":"cfg","kind":"json_schema","paths":"*.json","schema_file":"schemas/cfg.json"},{"name":"t","kind":"regex","must_match":"x"}]`)
	before, err := compileLocal(es, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "schemas", "cfg.json"), []byte(`{"type":"array"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	after, err := compileLocal(es, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(before.Sources()) != 1 || fmt.Sprint(before.Sources()) == fmt.Sprint(after.Sources()) {
		t.Errorf("Sources %q then %q: an edited schema file must change them", before.Sources(), after.Sources())
	}
	if (*Set)(nil).Sources() != nil {
		t.Error("a nil Set has sources")
	}
}

// TestFIFOTargetDoesNotHang: a change that turns a file an evaluator reads
// into a named pipe must not hang the run in open(2) waiting for a writer
// (it did, until the judge's 120 s timeout). Each such file is reported as
// unreadable instead.
func TestFIFOTargetDoesNotHang(t *testing.T) {
	dir := worktree(t)
	for _, name := range []string{"VERSION", "config/a.json"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip("no FIFOs:", err)
		}
	}
	set, err := compileLocal(specs(t, `[{"name":"cfg","kind":"json_schema","paths":"config/*.json","schema":{}},`+
		`{"name":"version","kind":"file_equals","file":"VERSION","expected":"1.2.3\n"}]`), dir)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan []Result, 1)
	go func() { done <- set.Run(context.Background(), Change{Files: unidiff.Parse([]byte(change)), Dir: dir}) }()
	select {
	case res := <-done:
		for _, r := range res {
			if r.Passed || !strings.Contains(r.Summary+fmt.Sprint(r.Findings), "not a regular file") {
				t.Errorf("%s: passed=%v summary=%q findings=%v; want a failure naming the pipe", r.Name, r.Passed, r.Summary, r.Findings)
			}
		}
	case <-time.After(10 * time.Second):
		// Release the blocked opens so the test binary can finish.
		for _, name := range []string{"VERSION", "config/a.json"} {
			if w, err := os.OpenFile(filepath.Join(dir, filepath.FromSlash(name)), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
		}
		t.Fatal("Run still blocked after 10 s on an evaluator target that is a FIFO")
	}
}
