package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/testkit/testcmds"
)

// TestProfilesCallsPerAccepted measures the model calls and tokens each
// profile spends per accepted task (docs/profiles.md), running every case
// of the shipped calibration sets as a task through `run --profile P` with
// the scripted fake model. The fake's answers follow the case's label, the
// same for every profile, so the figures compare what the profiles' loops
// spend on the same jury, not how well any model judges (see
// benchCaseScript for the script). A measurement, not a check: it runs only
// when TRIBUNAL_BENCH_PROFILES is set (scripts/bench-profiles.sh);
// TRIBUNAL_BENCH_CASES bounds the cases taken from each set.
func TestProfilesCallsPerAccepted(t *testing.T) {
	if os.Getenv("TRIBUNAL_BENCH_PROFILES") == "" {
		t.Skip("set TRIBUNAL_BENCH_PROFILES=1 to measure (scripts/bench-profiles.sh)")
	}
	limit, _ := strconv.Atoi(os.Getenv("TRIBUNAL_BENCH_CASES"))
	var cases []benchCase
	for _, f := range []string{"../../testdata/calibration/cases.jsonl", "../../testdata/calibration/quixbugs/cases.jsonl"} {
		cases = append(cases, readBenchCases(t, f, limit)...)
	}
	p := testcmds.Params("testdata/benchprofiles", false)
	p.Cmds = maps.Clone(p.Cmds)
	p.Cmds["profilebench"] = func(ts *testscript.TestScript, neg bool, profiles []string) {
		for _, profile := range profiles {
			var s benchSum
			for _, c := range cases {
				s.add(runBenchCase(ts, profile, c))
			}
			t.Log(s.line(profile))
		}
	}
	testscript.Run(t, p)
}

type benchCase struct {
	ID, Task, Label string
}

func readBenchCases(t *testing.T, path string, limit int) []benchCase {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []benchCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() && (limit <= 0 || len(out) < limit) {
		var c benchCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, c)
	}
	return out
}

// The sizes of the scripted calls: the price table's typical tokens
// (internal/present/history/prices.go), so that tokens add up as a real
// task's would.
var benchTokens = map[string][2]int{"actor": {60000, 4000}, "judge": {30000, 1500}, "meta": {8000, 800}}

// benchCaseScript is the fake model's script for one case. The actor's
// first pass writes "attempt 1", every later one "attempt 2". Judges of an
// accept case pass at once (0.88), confident (0.9) — except one case in
// four, where the adversarial judge is only 0.7 confident; judges of a
// reject case fail (0.45, confident) until the change holds "attempt 2",
// and then pass — except one reject case in three, which no retry fixes.
// The meta-judge, when called, finds the jury sound.
func benchCaseScript(c benchCase) string {
	h := fnv.New32a()
	h.Write([]byte(c.ID))
	n := h.Sum32()
	verdict := func(score, conf float64, passed bool) string {
		return fmt.Sprintf(`{"structured":{"score":%v,"passed":%v,"confidence":%v,"criterion_scores":{"correctness":%v,"completeness":%v,"safety":0.9,"clarity":0.9}},"input_tokens":%d,"output_tokens":%d}`,
			score, passed, conf, score, score, benchTokens["judge"][0], benchTokens["judge"][1])
	}
	actor := func(text string) string {
		return fmt.Sprintf(`{"text":"Done.","write":{"solution.txt":"%s\n"},"input_tokens":%d,"output_tokens":%d}`, text, benchTokens["actor"][0], benchTokens["actor"][1])
	}
	var rules []string
	rules = append(rules, `{"role":"actor","times":1,"reply":`+actor("tribunal-bench attempt 1")+`}`,
		`{"role":"actor","reply":`+actor("tribunal-bench attempt 2")+`}`)
	for _, role := range []string{"standard", "adversarial", "security"} {
		conf := 0.9
		if role == "adversarial" && c.Label == "accept" && n%4 == 0 {
			conf = 0.7
		}
		switch {
		case c.Label == "accept":
			rules = append(rules, `{"role":"`+role+`","reply":`+verdict(0.88, conf, true)+`}`)
		case n%3 == 0:
			rules = append(rules, `{"role":"`+role+`","reply":`+verdict(0.45, conf, false)+`}`)
		default:
			rules = append(rules, `{"role":"`+role+`","prompt_contains":"tribunal-bench attempt 2","reply":`+verdict(0.86, conf, true)+`}`,
				`{"role":"`+role+`","reply":`+verdict(0.45, conf, false)+`}`)
		}
	}
	rules = append(rules, fmt.Sprintf(`{"role":"meta","reply":{"structured":{"verdict_quality":"sound","bias_detected":false},"input_tokens":%d,"output_tokens":%d}}`,
		benchTokens["meta"][0], benchTokens["meta"][1]))
	return `{"rules":[` + strings.Join(rules, ",\n") + `]}`
}

// benchRun is what one task spent.
type benchRun struct {
	accepted      bool
	calls, tokens int
	metaSkipped   int
	rounds        int
	// usd prices the calls' tokens by the price table.
	usd float64
}

func runBenchCase(ts *testscript.TestScript, profile string, c benchCase) benchRun {
	work := ts.Getenv("WORK")
	script, task := filepath.Join(work, "bench-script.json"), filepath.Join(work, "bench-task.txt")
	ts.Check(os.WriteFile(script, []byte(benchCaseScript(c)), 0o644))
	// The fake counts each rule's uses beside its script ("times"): each
	// case starts from none, or its actor's first pass would not be one.
	if err := os.Remove(script + ".counts"); err != nil && !os.IsNotExist(err) {
		ts.Fatalf("%v", err)
	}
	ts.Check(os.WriteFile(task, []byte(c.Task), 0o644))
	ts.Setenv("FAKE_CLAUDE_SCRIPT", script)
	_ = ts.Exec("tribunal-session", "run", "--json", "--profile", profile, "--task-file", task) // 10: not accepted
	var rep struct {
		Outcome     string `json:"outcome"`
		ArtifactDir string `json:"artifact_dir"`
		Iterations  []struct {
			Meta struct {
				Skipped bool `json:"skipped"`
			} `json:"meta"`
		} `json:"iterations"`
	}
	if err := json.Unmarshal([]byte(ts.ReadFile("stdout")), &rep); err != nil || rep.ArtifactDir == "" {
		ts.Fatalf("%s under %s: no report (%v): %s", c.ID, profile, err, ts.ReadFile("stderr"))
	}
	r := benchRun{accepted: rep.Outcome == "accepted", rounds: len(rep.Iterations)}
	for _, it := range rep.Iterations {
		if it.Meta.Skipped {
			r.metaSkipped++
		}
	}
	files, _ := filepath.Glob(filepath.Join(rep.ArtifactDir, "iteration-*", "calls", "*.json"))
	for _, f := range files {
		var call struct {
			Role  string `json:"role"`
			Model string `json:"model"`
			Usage struct {
				In  *int `json:"input_tokens"`
				Out *int `json:"output_tokens"`
			} `json:"usage"`
		}
		data, err := os.ReadFile(f)
		ts.Check(err)
		ts.Check(json.Unmarshal(data, &call))
		r.calls++
		if u := call.Usage; u.In != nil && u.Out != nil {
			r.tokens += *u.In + *u.Out
			if _, price, ok := history.TableCost(call.Role, call.Model); ok {
				r.usd += (float64(*u.In)*price.InputPerM + float64(*u.Out)*price.OutputPerM) / 1e6
			}
		}
	}
	// The next case starts from the same tree.
	ts.Check(ts.Exec("git", "reset", "-q", "--hard"))
	ts.Check(ts.Exec("git", "clean", "-qfd"))
	return r
}

// benchSum adds a profile's runs up.
type benchSum struct {
	tasks, accepted, calls, tokens, acceptedCalls, rounds, skipped int
	usd                                                            float64
}

func (s *benchSum) add(r benchRun) {
	s.tasks++
	s.calls += r.calls
	s.tokens += r.tokens
	s.usd += r.usd
	s.rounds += r.rounds
	s.skipped += r.metaSkipped
	if r.accepted {
		s.accepted++
		s.acceptedCalls += r.calls
	}
}

func (s benchSum) line(profile string) string {
	per := func(n int) float64 { return float64(n) / float64(max(s.accepted, 1)) }
	return fmt.Sprintf("profile %-8s tasks %3d  accepted %3d  calls/accepted %5.2f  tokens/accepted %7.0f  $/accepted %.2f  calls of an accepted task %5.2f  meta-judge skipped in %d of %d rounds",
		profile, s.tasks, s.accepted, per(s.calls), per(s.tokens), s.usd/float64(max(s.accepted, 1)), per(s.acceptedCalls), s.skipped, s.rounds)
}
