package calibrate

import (
	"testing"

	"github.com/tribunal-cc/tribunal/internal/env"
	"github.com/tribunal-cc/tribunal/internal/git/unidiff"
	"github.com/tribunal-cc/tribunal/internal/judging"
)

// TestDirectivesMoveEveryKey: a rubric's directives change what every
// judge is asked (spec §2.6), so a verdict cached under one set of
// directives must not answer under another — the jury's fingerprint (which
// keys the review cache, session.Reviewer.Fingerprint), and calibrate's
// cache key all move when a directive is added, reworded or reordered.
func TestDirectivesMoveEveryKey(t *testing.T) {
	const head = `{"id":"default","criteria":[{"name":"correctness","weight":1,"min_pass":0}]`
	rubrics := map[string]string{
		"none":      head + `}`,
		"one":       head + `,"directives":["Treat a data race as a blocker."]}`,
		"reworded":  head + `,"directives":["Treat a data race as a major finding."]}`,
		"two":       head + `,"directives":["Treat a data race as a blocker.","Ignore formatting."]}`,
		"reordered": head + `,"directives":["Ignore formatting.","Treat a data race as a blocker."]}`,
	}
	c := Case{ID: "x", Task: "t", Diff: "d"}
	files := unidiff.Parse([]byte("diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1 +1 @@\n-a\n+b\n"))
	home := t.TempDir()
	seen := map[string]string{}
	for name, raw := range rubrics {
		j, err := judging.Load(judging.Options{Rubric: []byte(raw)}, env.Env{Home: home, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		keys := map[string]string{
			"jury fingerprint (the review cache's)": j.Fingerprint(judging.Work{Task: "t", ActorOutput: "a"}),
			"calibrate cache key":                   cacheKey(juryJudge{j}.fingerprint(c, files), c),
		}
		for kind, k := range keys {
			if other, ok := seen[kind+k]; ok {
				t.Errorf("%s: rubrics %q and %q share a key", kind, other, name)
			}
			seen[kind+k] = name
		}
	}
}
