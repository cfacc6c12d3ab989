package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/tribunal-cc/tribunal/internal/judging/bestof"
)

// filesSeen is a Runner that, while the command "runs", reads every file
// its command line names (FILE or --flag=FILE, @FILE) under the private
// directory, with its mode, and answers res.
type filesSeen struct {
	args  []string
	dir   string
	dirOK bool
	files map[string]string // base name → "mode text"
	res   Result
}

func (f *filesSeen) run(_ context.Context, args []string, _ string) Result {
	f.args, f.files = args, map[string]string{}
	f.dir = filepath.Dir(args[3])
	if st, err := os.Stat(f.dir); err == nil && st.Mode().Perm() == 0o700 {
		f.dirOK = true
	}
	for _, a := range args {
		if _, v, ok := strings.Cut(a, "="); ok {
			a = strings.TrimPrefix(v, "@")
		}
		if !strings.HasPrefix(a, f.dir+string(filepath.Separator)) {
			continue
		}
		st, err := os.Stat(a)
		data, rerr := os.ReadFile(a)
		if err != nil || rerr != nil {
			f.files[filepath.Base(a)] = fmt.Sprint("unreadable: ", err, rerr)
			continue
		}
		f.files[filepath.Base(a)] = fmt.Sprintf("%o %s", st.Mode().Perm(), data)
	}
	return f.res
}

// TestVerifyCandidates: candidates become `judge --json --candidates
// F1 F2 …` with every text in a private file (0600 in a 0700 directory)
// the command reads, gone once the call is answered; the set's JSON is
// the result, a run with no verdict an error result, a refusal of judge
// the tool's error.
func TestVerifyCandidates(t *testing.T) {
	cases := []struct {
		name, args string
		res        Result
		want       string // the command line, D the private directory
		files      map[string]string
		isErr      bool
		out        string
	}{
		{"default strategy", `{"candidates":["Paris","Lyon"],"question":"capital?"}`, Result{Stdout: `{"winner":1}`},
			"judge --json --candidates D/candidate-1.txt D/candidate-2.txt --strategy=best --question=@D/question.txt",
			map[string]string{"candidate-1.txt": "600 Paris", "candidate-2.txt": "600 Lyon", "question.txt": "600 capital?"}, false, `{"winner":1}`},
		{"every option", `{"candidates":["a","-b","@c"],"strategy":"rank","question":"@q","expected":"e","match":"exact","context":["c1","c2"],"criteria":["k1","-k2"],"rubric":"strict"}`,
			Result{Stdout: `{"winner":2}`, Code: 10},
			"judge --json --candidates D/candidate-1.txt D/candidate-2.txt D/candidate-3.txt --strategy=rank --question=@D/question.txt --expected=D/expected.txt --match=exact --rubric=strict --context=D/context-1.txt --context=D/context-2.txt --criterion=k1 --criterion=-k2",
			map[string]string{"candidate-1.txt": "600 a", "candidate-2.txt": "600 -b", "candidate-3.txt": "600 @c", "question.txt": "600 @q",
				"expected.txt": "600 e", "context-1.txt": "600 c1", "context-2.txt": "600 c2"}, false, `{"winner":2}`},
		{"no verdict", `{"candidates":["a","b"],"strategy":"merge","question":"q"}`,
			Result{Stdout: `{"winner":null,"verdict":null}`, Stderr: "tribunal: error: judge: no answer was chosen\n", Code: 3},
			"judge --json --candidates D/candidate-1.txt D/candidate-2.txt --strategy=merge --question=@D/question.txt",
			map[string]string{"candidate-1.txt": "600 a", "candidate-2.txt": "600 b", "question.txt": "600 q"}, true, "no answer was chosen"},
		{"judge refuses", `{"candidates":["a","b"],"question":"q","match":"exact"}`,
			Result{Stderr: "tribunal: error: judge: --match says how to compare with an expected answer, and there is none\ntribunal: hint: pass --expected FILE with --match\n", Code: 2},
			"judge --json --candidates D/candidate-1.txt D/candidate-2.txt --strategy=best --question=@D/question.txt --match=exact",
			map[string]string{"candidate-1.txt": "600 a", "candidate-2.txt": "600 b", "question.txt": "600 q"}, true, "hint: pass --expected FILE with --match"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := &filesSeen{res: tc.res}
			out, isErr := call(t, connect(t, Options{Run: f.run}), ToolVerify, tc.args)
			if isErr != tc.isErr || !strings.Contains(out, tc.out) {
				t.Fatalf("got (error %v) %q, want error %v with %q", isErr, out, tc.isErr, tc.out)
			}
			if got := strings.ReplaceAll(strings.Join(f.args, " "), f.dir, "D"); got != tc.want {
				t.Fatalf("ran\n%s\nwant\n%s", got, tc.want)
			}
			if !f.dirOK || fmt.Sprint(f.files) != fmt.Sprint(tc.files) {
				t.Fatalf("the command read (directory 0700: %v) %v, want %v", f.dirOK, f.files, tc.files)
			}
			if _, err := os.Stat(f.dir); !os.IsNotExist(err) {
				t.Fatalf("%s is still there after the call (%v)", f.dir, err)
			}
		})
	}
}

// TestVerifyCandidatesCleanup: the private directory goes when the call
// is cancelled while judge runs, and when the run panics.
func TestVerifyCandidatesCleanup(t *testing.T) {
	in := VerifyInput{Candidates: []string{"a", "b"}, Question: "q"}
	var dir string
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := func(ctx context.Context, args []string, _ string) Result {
		dir = filepath.Dir(args[3])
		if _, err := os.Stat(args[3]); err != nil {
			t.Errorf("the candidate is not there while judge runs: %v", err)
		}
		cancel() // the client cancels the call
		<-ctx.Done()
		return Result{Stderr: "tribunal: error: judge: stopped\n", Code: 3}
	}
	if _, _, err := (tools{Options{Run: cancelled}}).candidates(ctx, in); err == nil || !strings.Contains(err.Error(), "stopped") {
		t.Fatalf("cancelled: %v, want judge's error", err)
	}
	if _, err := os.Stat(dir); dir == "" || !os.IsNotExist(err) {
		t.Fatalf("cancelled: %q is still there (%v)", dir, err)
	}
	dir = ""
	panics := func(_ context.Context, args []string, _ string) Result {
		dir = filepath.Dir(args[3])
		panic("the runner failed")
	}
	func() {
		defer func() { _ = recover() }()
		_, _, _ = (tools{Options{Run: panics}}).candidates(context.Background(), in)
	}()
	if _, err := os.Stat(dir); dir == "" || !os.IsNotExist(err) {
		t.Fatalf("panicked: %q is still there (%v)", dir, err)
	}
}

// TestVerifyCandidatesRefusals: a set judge --candidates would refuse is
// the tool's error, and nothing runs or is written.
func TestVerifyCandidatesRefusals(t *testing.T) {
	six := `["1","2","3","4","5","6"]`
	cases := []struct {
		name, args string
		nested     bool
		want       string
	}{
		{"one candidate", `{"candidates":["a"],"question":"q"}`, false, "candidates needs at least 2 answers (got 1)"},
		{"no candidates", `{"candidates":[],"question":"q"}`, false, "candidates needs at least 2 answers (got 0)"},
		{"six candidates", `{"candidates":` + six + `,"question":"q"}`, false, "candidates takes at most 5 answers (got 6)"},
		{"answer and candidates", `{"answer":"a","candidates":["b","c"],"question":"q"}`, false, "answer and candidates both name what to judge"},
		{"strategy without candidates", `{"answer":"a","strategy":"best","question":"q"}`, false, "strategy is for candidates"},
		{"bad strategy", `{"candidates":["a","b"],"strategy":"vote","question":"q"}`, false, `unknown strategy "vote" (one of best, rank, merge)`},
		{"empty text", `{"candidates":["a"," \n"],"question":"q"}`, false, "candidate 2 is empty"},
		{"neither", `{"question":"q"}`, false, "the answer is empty, and there are no candidates"},
		{"no question", `{"candidates":["a","b"],"question":""}`, false, "question is empty"},
		{"nested", `{"candidates":["a","b"],"question":"q"}`, true, "refused: this server runs inside a child that tribunal started (TRIBUNAL_NESTED is set)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{}
			out, isErr := call(t, connect(t, Options{Run: r.run, Nested: tc.nested}), ToolVerify, tc.args)
			if !isErr || !strings.Contains(out, "tribunal: error: verify: "+tc.want) || !strings.Contains(out, "tribunal: hint: ") {
				t.Fatalf("got (error %v) %q, want an error with %q and a hint", isErr, out, tc.want)
			}
			if len(r.calls) != 0 {
				t.Fatalf("a command ran: %q", r.calls)
			}
		})
	}
}

// TestVerifySchemaSaysTheBounds: the input schema tells the model the
// bounds bestof holds a set to, and that answer is no longer required.
func TestVerifySchemaSaysTheBounds(t *testing.T) {
	s, err := jsonschema.For[VerifyInput](nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Properties["candidates"].Description; !strings.Contains(d, fmt.Sprintf("%d to %d answers", bestof.Min, bestof.Max)) {
		t.Errorf("candidates' description %q does not say %d to %d", d, bestof.Min, bestof.Max)
	}
	for _, name := range bestof.Strategies {
		if !strings.Contains(s.Properties["strategy"].Description, name) {
			t.Errorf("strategy's description does not name %s", name)
		}
	}
	if fmt.Sprint(s.Required) != "[question]" {
		t.Errorf("required %v, want [question]", s.Required)
	}
}
