package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/testkit/fakegitlab"
)

// TestGitLabPublish drives `gitlab publish` as review.sh does, against
// the fake API: the note and the discussion are written with the CI
// variables; a missing variable or a bad flag is exit 2 with a hint; a
// note the API refuses is exit 1, a refused discussion a warning.
func TestGitLabPublish(t *testing.T) {
	api := fakegitlab.Start("glpat-t")
	defer api.Close()
	api.SetMergeRequest("42", 7, fakegitlab.Refs{BaseSHA: "b", StartSHA: "b", HeadSHA: "h"},
		[]fakegitlab.Diff{{OldPath: "a.go", NewPath: "a.go", Diff: "@@ -1 +1,2 @@\n x\n+y\n"}})
	dir := t.TempDir()
	md, js := filepath.Join(dir, "r.md"), filepath.Join(dir, "r.json")
	if err := os.WriteFile(md, []byte("<!-- tribunal-review -->\n## tribunal review: rejected\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(js, []byte(`{"findings":[{"severity":"major","file":"a.go","line":2,"message":"y is wrong","fingerprint":"tf2:ab120000"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"CI_API_V4_URL": api.URL, "CI_PROJECT_ID": "42", "CI_MERGE_REQUEST_IID": "7", "TRIBUNAL_GITLAB_TOKEN": "glpat-t"}
	publish := func(env map[string]string, args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), append([]string{"gitlab", "publish"}, args...), func(k string) string { return env[k] },
			strings.NewReader(""), &stdout, &stderr, stdTerminal)
		if stdout.Len() != 0 {
			t.Errorf("stdout = %q, want nothing", stdout.String())
		}
		return code, stderr.String()
	}
	if code, errs := publish(env, "--markdown", md, "--json", js); code != 0 || !strings.Contains(errs, "review note created on merge request !7; discussions: 1 posted") {
		t.Fatalf("publish: exit %d\n%s", code, errs)
	}
	if len(api.Notes("42", 7)) != 1 || len(api.Discussions("42", 7)) != 1 {
		t.Fatalf("notes %+v, discussions %+v", api.Notes("42", 7), api.Discussions("42", 7))
	}
	noToken := map[string]string{"CI_API_V4_URL": api.URL, "CI_PROJECT_ID": "42", "CI_MERGE_REQUEST_IID": "7"}
	if code, errs := publish(noToken, "--markdown", md, "--json", js); code != exitUsage || !strings.Contains(errs, "$TRIBUNAL_GITLAB_TOKEN is not set") ||
		!strings.Contains(errs, "CI_JOB_TOKEN cannot write notes") {
		t.Errorf("no token: exit %d\n%s", code, errs)
	}
	if code, errs := publish(env, "--markdown", md); code != exitUsage || !strings.Contains(errs, "--json FILE") {
		t.Errorf("no --json: exit %d\n%s", code, errs)
	}
	api.Fail("PUT", "/notes/", 503, 1)
	if err := os.WriteFile(md, []byte("<!-- tribunal-review -->\n## tribunal review: accepted\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, errs := publish(env, "--markdown", md, "--json", js); code != exitPublishFailed || !strings.Contains(errs, "tribunal: error: gitlab publish: keep the review note on merge request !7") {
		t.Errorf("note refused: exit %d\n%s", code, errs)
	}
}
