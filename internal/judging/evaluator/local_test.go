package evaluator

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging/schemaengine"
	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/rubric"
	"github.com/tribunal-cc/tribunal/internal/testkit"
)

// compileLocal is Compile with the validator answering in this process,
// as the tribunal-schema program would.
func compileLocal(es []rubric.Evaluator, root string) (*Set, error) {
	return Compile(context.Background(), es, root, schemaengine.Local{})
}

// counting records each request before answering it in-process: one
// record per run of the helper.
type counting struct {
	reqs []schemaproto.Request
	err  error
}

func (c *counting) Validate(ctx context.Context, req *schemaproto.Request) (*schemaproto.Response, error) {
	c.reqs = append(c.reqs, *req)
	if c.err != nil {
		return nil, c.err
	}
	return schemaengine.Local{}.Validate(ctx, req)
}

// shape is each request as "schemas/documents".
func (c *counting) shape() string {
	var s []string
	for _, r := range c.reqs {
		s = append(s, fmt.Sprintf("%d/%d", len(r.Schemas), len(r.Documents)))
	}
	return strings.Join(s, " ")
}

// TestOneHelperRunPerLoadAndRound: a rubric's schemas are compiled in one
// run of the helper and a round's files validated in one; nothing runs it
// without a json_schema evaluator, nor a round that selects no file.
func TestOneHelperRunPerLoadAndRound(t *testing.T) {
	dir := worktree(t)
	files := unidiff.Parse([]byte(change))
	two := `[{"name":"cfg","kind":"json_schema","paths":"config/*.json","schema_file":"schemas/cfg.json"},` +
		`{"name":"no-todo","kind":"regex","must_not_match":"TODO"},` +
		`{"name":"any","kind":"json_schema","paths":"**/*.json","schema":{"type":"object"}}]`
	tests := []struct {
		name, evaluators string
		files            []unidiff.File
		load, round      string
	}{
		{"two schemas, one file each", two, files, "2/0", "2/2"},
		{"no file selected", two, unidiff.Parse([]byte("diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1,2 @@\n x\n+y\n")), "2/0", ""},
		{"no json_schema evaluator", `[{"name":"no-todo","kind":"regex","must_not_match":"TODO"},{"name":"v","kind":"file_equals","file":"VERSION","expected":"1.2.3\n"}]`,
			files, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := &counting{}
			set, err := Compile(context.Background(), specs(t, tc.evaluators), dir, v)
			if err != nil {
				t.Fatal(err)
			}
			if v.shape() != tc.load {
				t.Errorf("load ran the helper as %q, want %q", v.shape(), tc.load)
			}
			v.reqs = nil
			set.Run(context.Background(), Change{Files: tc.files, Dir: dir})
			if v.shape() != tc.round {
				t.Errorf("the round ran the helper as %q, want %q", v.shape(), tc.round)
			}
		})
	}
	// Nothing to validate needs no validator at all.
	set, err := Compile(context.Background(), specs(t, `[{"name":"no-todo","kind":"regex","must_not_match":"TODO"}]`), dir, nil)
	if err != nil || len(set.Run(context.Background(), Change{Files: files, Dir: dir})) != 1 {
		t.Errorf("a rubric without schemas and no validator: %v", err)
	}
}

// TestLargeRoundsAreSplit: a round whose selected files exceed one
// request together is validated in as few requests as fit, each within
// the bound the helper holds (Local checks it), every file judged.
func TestLargeRoundsAreSplit(t *testing.T) {
	dir := t.TempDir()
	var diff strings.Builder
	body := strings.Repeat(" ", schemaproto.MaxItemBytes-8) + "{}"
	const n = 12 // 12 items of ~5.6 MiB encoded: two requests under 64 MiB
	for i := range n {
		name := fmt.Sprintf("d/%02d.json", i)
		testkit.WriteFile(t, filepath.Join(dir, filepath.FromSlash(name)), body)
		fmt.Fprintf(&diff, "diff --git a/%s b/%s\nnew file mode 100644\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1 @@\n+{}\n", name, name, name)
	}
	v := &counting{}
	set, err := Compile(context.Background(), specs(t, `[{"name":"obj","kind":"json_schema","paths":"d/*.json","schema":{"type":"object"}}]`), dir, v)
	if err != nil {
		t.Fatal(err)
	}
	v.reqs = nil
	r := set.Run(context.Background(), Change{Files: unidiff.Parse([]byte(diff.String())), Dir: dir})[0]
	if v.shape() != "1/11 1/1" || !r.Passed || r.Summary != "12 changed file(s) in d/*.json satisfy the schema" {
		t.Errorf("requests %q, passed %v, summary %q", v.shape(), r.Passed, r.Summary)
	}
}

// TestFailedHelperFailsTheFiles: a helper that fails during a round
// fails each file it was to check, so a required evaluator blocks.
func TestFailedHelperFailsTheFiles(t *testing.T) {
	dir := worktree(t)
	v := &counting{}
	set, err := Compile(context.Background(), specs(t, `[{"name":"cfg","kind":"json_schema","paths":"config/*.json","schema":{}}]`), dir, v)
	if err != nil {
		t.Fatal(err)
	}
	v.err = errors.New("tribunal-schema: timed out after 2m0s and was killed")
	r := set.Run(context.Background(), Change{Files: unidiff.Parse([]byte(change)), Dir: dir})[0]
	if r.Passed || len(r.Findings) != 1 || r.Findings[0].Message != "cannot validate: tribunal-schema: timed out after 2m0s and was killed" {
		t.Errorf("passed %v, findings %+v", r.Passed, r.Findings)
	}
}

// TestMissingHelperAtLoad: a rubric with a json_schema evaluator and no
// helper is an error naming the evaluator; one whose schema fails the
// checks made here reports that, before any helper is needed.
func TestMissingHelperAtLoad(t *testing.T) {
	dir := worktree(t)
	missing := &counting{err: &schemaproto.MissingError{Dir: "/opt/tribunal/bin"}}
	_, err := Compile(context.Background(), specs(t, `[{"name":"cfg","kind":"json_schema","paths":"*.json","schema":{}}]`), dir, missing)
	if err == nil || err.Error() != "evaluator cfg: tribunal-schema is not installed in /opt/tribunal/bin" {
		t.Errorf("error %v", err)
	}
	missing.reqs = nil
	_, err = Compile(context.Background(), specs(t, `[{"name":"cfg","kind":"json_schema","paths":"*.json","schema":{"tpye":1}}]`), dir, missing)
	if err == nil || !strings.Contains(err.Error(), `unsupported keyword "tpye"`) || len(missing.reqs) != 0 {
		t.Errorf("error %v after %d helper runs; want the keyword, and none", err, len(missing.reqs))
	}
}

// TestPrepareDefersTheCompile: Prepare reads the schemas and runs no
// helper; Check then runs it once and reports the first evaluator whose
// schema does not compile, as Compile would; a Set that validates files
// still sends the schemas it read.
func TestPrepareDefersTheCompile(t *testing.T) {
	dir := worktree(t)
	bad := `[{"name":"ok","kind":"json_schema","paths":"**/*.json","schema":{"type":"object"}},` +
		`{"name":"broken","kind":"json_schema","paths":"**/*.json","schema":{"type":"objekt"}}]`
	v := &counting{}
	set, err := Prepare(specs(t, bad), dir, v)
	if err != nil || v.shape() != "" {
		t.Fatalf("Prepare: %v, helper runs %q; want none", err, v.shape())
	}
	err = set.Check(context.Background())
	_, compileErr := Compile(context.Background(), specs(t, bad), dir, schemaengine.Local{})
	if err == nil || compileErr == nil || err.Error() != compileErr.Error() || !strings.HasPrefix(err.Error(), "evaluator broken: ") {
		t.Fatalf("Check: %v; Compile: %v; want the same error naming broken", err, compileErr)
	}
	if v.shape() != "2/0" {
		t.Errorf("Check ran the helper as %q, want one run of 2 schemas", v.shape())
	}

	v = &counting{}
	set, err = Prepare(specs(t, `[{"name":"cfg","kind":"json_schema","paths":"config/*.json","schema_file":"schemas/cfg.json"}]`), dir, v)
	if err != nil {
		t.Fatal(err)
	}
	set.Run(context.Background(), Change{Files: unidiff.Parse([]byte(change)), Dir: dir})
	if v.shape() != "1/1" {
		t.Errorf("a prepared Set's round ran the helper as %q, want 1/1", v.shape())
	}
}
