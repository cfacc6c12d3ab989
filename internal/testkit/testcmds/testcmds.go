// Package testcmds holds the custom testscript commands and setup shared by
// the end-to-end tests of every binary.
package testcmds

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/store/records"
	"github.com/tribunal-cc/tribunal/internal/testkit/schemacheck"
)

// Setup gives every script an isolated home, Onlooker directory, git
// identity and fake-claude call log.
func Setup(env *testscript.Env) error {
	work := env.WorkDir
	home := filepath.Join(work, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	env.Setenv("HOME", home)
	env.Setenv("ONLOOKER_DIR", filepath.Join(work, "onlooker"))
	env.Setenv("FAKE_CLAUDE_LOG", filepath.Join(work, "claude-calls.jsonl"))
	env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	env.Setenv("GIT_AUTHOR_NAME", "Test")
	env.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	env.Setenv("GIT_COMMITTER_NAME", "Test")
	env.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
	env.Setenv("GIT_TERMINAL_PROMPT", "0")
	// Stand-ins for bubblewrap and socat first on PATH: tribunal then
	// gives the adversarial judge its sandboxed Bash on every machine
	// (claude.CheckSandbox), so the scripts' argv and summaries do not
	// depend on what the host has installed. The fake claude runs neither.
	stubs := filepath.Join(work, "sandbox-stubs")
	if err := os.MkdirAll(stubs, 0o755); err != nil {
		return err
	}
	for _, name := range []string{"bwrap", "socat"} {
		if err := os.WriteFile(filepath.Join(stubs, name), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
			return err
		}
	}
	env.Setenv("PATH", stubs+string(os.PathListSeparator)+env.Getenv("PATH"))
	return nil
}

// Cmds are the custom commands:
//
//	hookinput FILE key=value...      write a hook stdin object (stop_hook_active=true is a boolean)
//	validate-events FILE [N]         every line schema-valid; exactly N lines when given
//	json FILE PATH VALUE             gjson PATH of FILE equals VALUE (raw JSON text, or a bare string)
//	! json FILE PATH                 PATH is absent
//	calls N                          the fake claude was called exactly N times
//	call-arg N FLAG VALUE            call N (0-based, or the first call of role N) had FLAG VALUE in its argv
//	call-stdin N TEXT                call N's stdin contains TEXT
//	pids-dead FILE                   every pid listed in FILE is gone (within 3s)
//	stopfile VAR                     set VAR to the single stop-*.json under $ONLOOKER_DIR
//	sleep DURATION                   sleep
//	mode FILE PERM                   FILE has permission bits PERM (octal)
//	eventtypes FILE                  print each event's event_type (short form), one per line, to stdout
//	glob PATTERN N                   PATTERN (filepath.Glob, env expanded) matches exactly N paths
//	waitfile FILE [DURATION]         wait until FILE exists (default 30s)
//	mkrepo DIR [enabled]             git repo with one commit; "enabled" turns the stop hook on in DIR/.claude/settings.json
//	fakellm VAR API REPLY            serve internal/testkit/fakellm (see fakellm.go); VAR is its URL
//	                                 (REPLY fail:STATUS:MSG, or echo:STATUS:MSG to quote the credentials)
//
// ledger.go adds mkledger, ledgerpath and exitcode; backdate.go adds backdate, which makes a record older; jaeger.go adds jaeger-trace (the otel tier's); scrub.go adds scrub, which readies an
// output that holds ids, times or paths for `cmp` against a golden file.
var Cmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"hookinput":       hookInput,
	"validate-events": validateEvents,
	"json":            jsonCmd,
	"calls":           calls,
	"call-arg":        callArg,
	"call-stdin":      callStdin,
	"pids-dead":       pidsDead,
	"stopfile":        stopFile,
	"sleep":           sleepCmd,
	"mode":            modeCmd,
	"mkrepo":          mkrepo,
	"eventtypes":      eventTypes,
	"glob":            globCmd,
	"waitfile":        waitFile,
	"fakellm":         fakeLLM,
}

func hookInput(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: hookinput FILE key=value...")
	}
	obj := map[string]any{"hook_event_name": "Stop", "stop_hook_active": false}
	for _, kv := range args[1:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			ts.Fatalf("hookinput: %q is not key=value", kv)
		}
		switch {
		case v == "true" || v == "false":
			obj[k] = v == "true"
		case v == "@absent":
			delete(obj, k)
		default:
			obj[k] = strings.ReplaceAll(v, `\n`, "\n")
		}
	}
	data, err := json.Marshal(obj)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), data, 0o644))
}

func validateEvents(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: validate-events FILE [N]")
	}
	n, err := schemacheck.ValidateLog(ts.MkAbs(args[0]))
	if neg {
		if err == nil {
			ts.Fatalf("events unexpectedly valid")
		}
		return
	}
	ts.Check(err)
	if len(args) > 1 {
		want, _ := strconv.Atoi(args[1])
		if n != want {
			ts.Fatalf("%s has %d events, want %d", args[0], n, want)
		}
	}
}

func jsonCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 2 {
		ts.Fatalf("usage: json FILE PATH [VALUE]")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	if !gjson.ValidBytes(data) {
		ts.Fatalf("%s is not valid JSON", args[0])
	}
	got := gjson.GetBytes(data, args[1])
	if len(args) == 2 {
		if got.Exists() == neg {
			ts.Fatalf("%s: %s exists=%v", args[0], args[1], got.Exists())
		}
		return
	}
	want := args[2]
	match := got.Exists() && (got.Raw == want || (got.Type == gjson.String && got.String() == want))
	if match == neg {
		ts.Fatalf("%s: %s = %s, want %s%s", args[0], args[1], got.Raw, map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

func readCalls(ts *testscript.TestScript) []gjson.Result {
	data, err := os.ReadFile(ts.Getenv("FAKE_CLAUDE_LOG"))
	if os.IsNotExist(err) {
		return nil
	}
	ts.Check(err)
	var out []gjson.Result
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		out = append(out, gjson.Parse(sc.Text()))
	}
	return out
}

func calls(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 1 {
		ts.Fatalf("usage: calls N")
	}
	want, _ := strconv.Atoi(args[0])
	got := len(readCalls(ts))
	if (got == want) == neg {
		ts.Fatalf("fake claude was called %d times, want %d", got, want)
	}
}

// nthCall finds call N (0-based), or, when s is a role name such as
// "standard", the first call the fake attributed to that role: parallel
// judges start in any order.
func nthCall(ts *testscript.TestScript, s string) gjson.Result {
	cs := readCalls(ts)
	n, err := strconv.Atoi(s)
	if err != nil {
		for _, c := range cs {
			if c.Get("role").String() == s {
				return c
			}
		}
		ts.Fatalf("no call with role %q among %d calls", s, len(cs))
	}
	if n >= len(cs) {
		ts.Fatalf("only %d calls recorded", len(cs))
	}
	return cs[n]
}

func callArg(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: call-arg N FLAG VALUE")
	}
	c := nthCall(ts, args[0])
	found := false
	argv := c.Get("args").Array()
	for i := 0; i+1 < len(argv); i++ {
		if argv[i].String() == args[1] && argv[i+1].String() == args[2] {
			found = true
		}
	}
	if found == neg {
		ts.Fatalf("call %s argv %s: %s %s found=%v", args[0], c.Get("args").Raw, args[1], args[2], found)
	}
}

func callStdin(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: call-stdin N TEXT")
	}
	c := nthCall(ts, args[0])
	has := strings.Contains(c.Get("stdin").String(), args[1])
	if has == neg {
		ts.Fatalf("call %s stdin contains %q = %v", args[0], args[1], has)
	}
}

func pidsDead(ts *testscript.TestScript, neg bool, args []string) {
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	deadline := time.Now().Add(3 * time.Second)
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		for {
			// Signal 0 probes for existence; a zombie still answers, so
			// also read its state.
			alive := syscall.Kill(pid, 0) == nil && !zombie(pid)
			if !alive {
				break
			}
			if time.Now().After(deadline) {
				ts.Fatalf("process %d is still running", pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

func zombie(pid int) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && i+2 < len(s) && s[i+2] == 'Z'
}

func stopFile(ts *testscript.TestScript, neg bool, args []string) {
	matches, _ := filepath.Glob(filepath.Join(ts.Getenv("ONLOOKER_DIR"), "tribunal", "*", records.StopPrefix+"*"+records.JSONExt))
	if neg {
		if len(matches) != 0 {
			ts.Fatalf("unexpected stop files: %v", matches)
		}
		return
	}
	if len(matches) != 1 {
		ts.Fatalf("want exactly one stop file, found %v", matches)
	}
	if len(args) == 1 {
		ts.Setenv(args[0], matches[0])
	}
}

func sleepCmd(ts *testscript.TestScript, neg bool, args []string) {
	d, err := time.ParseDuration(args[0])
	ts.Check(err)
	time.Sleep(d)
}

func modeCmd(ts *testscript.TestScript, neg bool, args []string) {
	fi, err := os.Stat(ts.MkAbs(args[0]))
	ts.Check(err)
	want, err := strconv.ParseUint(args[1], 8, 32)
	ts.Check(err)
	if (uint64(fi.Mode().Perm()) == want) == neg {
		ts.Fatalf("%s has mode %o, want %s", args[0], fi.Mode().Perm(), args[1])
	}
}

func mkrepo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: mkrepo DIR [enabled]")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o755))
	ts.Check(os.WriteFile(filepath.Join(dir, "README.md"), []byte("# demo\n"), 0o644))
	ts.Check(os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n"), 0o644))
	if len(args) > 1 && args[1] == "enabled" {
		ts.Check(os.MkdirAll(filepath.Join(dir, ".claude"), 0o755))
		ts.Check(os.WriteFile(filepath.Join(dir, ".claude", "settings.json"),
			[]byte(`{"tribunal":{"stop_hook":{"enabled":true}}}`+"\n"), 0o644))
	}
	for _, argv := range [][]string{
		{"init", "-q", "-b", "main"},
		{"add", "-A"},
		{"commit", "-q", "-m", "initial"},
	} {
		if err := ts.Exec("git", append([]string{"-C", dir}, argv...)...); err != nil {
			ts.Fatalf("git %v: %v", argv, err)
		}
	}
}

func eventTypes(ts *testscript.TestScript, neg bool, args []string) {
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		t := strings.TrimPrefix(gjson.Get(line, "event_type").String(), "tribunal.")
		fmt.Fprintln(ts.Stdout(), t)
	}
}

func globCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: glob PATTERN N")
	}
	matches, err := filepath.Glob(ts.MkAbs(args[0]))
	ts.Check(err)
	want, _ := strconv.Atoi(args[1])
	if (len(matches) == want) == neg {
		ts.Fatalf("%s matches %d paths, want %d: %v", args[0], len(matches), want, matches)
	}
}

func waitFile(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: waitfile FILE [DURATION]")
	}
	limit := 30 * time.Second
	if len(args) > 1 {
		d, err := time.ParseDuration(args[1])
		ts.Check(err)
		limit = d
	}
	deadline := time.Now().Add(limit)
	for {
		if fi, err := os.Stat(ts.MkAbs(args[0])); err == nil && fi.Size() > 0 {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("%s did not appear within %v", args[0], limit)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Params are the testscript parameters every binary's end-to-end tests
// share: scripts in dir, explicit exec, the shared setup and commands, and
// golden updates with -u.
func Params(dir string, update bool) testscript.Params {
	return testscript.Params{
		Dir:                 dir,
		RequireExplicitExec: true,
		UpdateScripts:       update,
		Setup:               Setup,
		Cmds:                Cmds,
		Condition:           condition,
	}
}

// condition answers the scripts' [race] condition: a script whose run
// starts hundreds of scripted model processes skips that part under the
// race detector, where each start of the instrumented binary costs ten
// times as much, when the concurrency it would exercise is already
// raced by its package's own tests.
func condition(cond string) (bool, error) {
	if cond == "race" {
		return raceBuild, nil
	}
	return false, fmt.Errorf("unknown condition %q", cond)
}
