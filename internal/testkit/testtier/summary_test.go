package testtier

import (
	"strings"
	"testing"
)

const suiteJSON = `{"Action":"start","Package":"m/a"}
{"Action":"run","Package":"m/a","Test":"TestOK"}
{"Action":"output","Package":"m/a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"m/a","Test":"TestOK","Output":"    a_test.go:9: chatter nobody needs\n"}
{"Action":"pass","Package":"m/a","Test":"TestOK"}
{"Action":"run","Package":"m/a","Test":"TestCLI"}
{"Action":"output","Package":"m/a","Test":"TestCLI","Output":"    harness_test.go:40: skipped: the CLI tests (run: make test-e2e)\n"}
{"Action":"skip","Package":"m/a","Test":"TestCLI"}
{"Action":"output","Package":"m/a","Output":"PASS\n"}
{"Action":"output","Package":"m/a","Output":"ok  \tm/a\t0.5s\n"}
{"Action":"pass","Package":"m/a"}
{"Action":"run","Package":"m/b","Test":"TestCLI2"}
{"Action":"output","Package":"m/b","Test":"TestCLI2","Output":"    b_test.go:7: skipped: the CLI tests (run: make test-e2e)\n"}
{"Action":"skip","Package":"m/b","Test":"TestCLI2"}
{"Action":"output","Package":"m/b","Test":"TestCLI3","Output":"    h_test.go:70: note: claude on PATH is not the pinned version\n"}
{"Action":"output","Package":"m/b","Test":"TestCLI4","Output":"    h_test.go:70: note: claude on PATH is not the pinned version\n"}
{"Action":"run","Package":"m/b","Test":"TestBad"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"    b_test.go:12: got 1, want 2\n"}
{"Action":"output","Package":"m/b","Test":"TestBad","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"fail","Package":"m/b","Test":"TestBad"}
{"Action":"output","Package":"m/b","Output":"FAIL\n"}
{"Action":"output","Package":"m/b","Output":"FAIL\tm/b\t0.1s\n"}
{"Action":"fail","Package":"m/b"}
{"Action":"output","Package":"m/c","Output":"?   \tm/c\t[no test files]\n"}
{"Action":"skip","Package":"m/c"}
`

func TestSummarize(t *testing.T) {
	var out strings.Builder
	failed, err := Summarize(strings.NewReader(suiteJSON), &out)
	if err != nil {
		t.Fatal(err)
	}
	if !failed {
		t.Error("a failing package was not reported as a failure")
	}
	want := "ok  \tm/a\t0.5s\n" +
		"    b_test.go:12: got 1, want 2\n--- FAIL: TestBad (0.00s)\nFAIL\nFAIL\tm/b\t0.1s\n" +
		"?   \tm/c\t[no test files]\n" +
		"skipped: the CLI tests (run: make test-e2e) — 2 tests\n" +
		"note: claude on PATH is not the pinned version\n"
	if out.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestSummarizeBuildFailure(t *testing.T) {
	in := `{"ImportPath":"m/d","Action":"build-output","Output":"d.go:3:1: syntax error\n"}
{"ImportPath":"m/d","Action":"build-fail"}
{"Action":"output","Package":"m/d","Output":"FAIL\tm/d [build failed]\n"}
{"Action":"fail","Package":"m/d"}
`
	var out strings.Builder
	failed, err := Summarize(strings.NewReader(in), &out)
	if err != nil || !failed {
		t.Fatalf("failed %v, err %v; want a failure", failed, err)
	}
	if want := "d.go:3:1: syntax error\nFAIL\tm/d [build failed]\n"; out.String() != want {
		t.Errorf("summary %q, want %q", out.String(), want)
	}
}
