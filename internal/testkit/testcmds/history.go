package testcmds

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/tidwall/gjson"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/store/events"
)

// Commands for the history and SessionStart scripts, registered in Cmds:
//
//	projectdir VAR DIR               set VAR to the project directory ($ONLOOKER_DIR/tribunal/<key>) of the repository at DIR
//	count FILE REGEXP N              FILE ("stdout"/"stderr": the last command's) has exactly N non-overlapping matches
//	jsonset FILE KEY VALUE           set top-level KEY of the JSON object in FILE to the raw JSON VALUE ("@delete" removes it)
//	jsonvar VAR FILE PATH            set VAR to the gjson PATH of FILE ("stdout": the last command's; a string's value, else the raw JSON)
//	age FILE DURATION                set FILE's modification time to DURATION ago
func init() {
	Cmds["projectdir"] = projectDir
	Cmds["count"] = countCmd
	Cmds["jsonset"] = jsonSet
	Cmds["jsonvar"] = jsonVar
	Cmds["age"] = ageCmd
}

func projectDir(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: projectdir VAR DIR")
	}
	var env []string
	for _, k := range []string{"HOME", "PATH", "GIT_CONFIG_NOSYSTEM"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	repo, err := projectkey.Resolve(context.Background(), ts.MkAbs(args[1]), projectkey.ExecGit("git", env))
	ts.Check(err)
	dir, _ := events.ResolvePaths(ts.Getenv, ts.Getenv("HOME"))
	ts.Setenv(args[0], filepath.Join(dir, "tribunal", repo.Key))
}

func countCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: count FILE REGEXP N")
	}
	text := ts.ReadFile(args[0])
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	want, err := strconv.Atoi(args[2])
	ts.Check(err)
	got := len(re.FindAllStringIndex(text, -1))
	if (got == want) == neg {
		ts.Fatalf("%s has %d matches of %q, want %s%d", args[0], got, args[1], map[bool]string{true: "not ", false: ""}[neg], want)
	}
}

func jsonSet(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonset FILE KEY VALUE")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		ts.Fatalf("%s: not a JSON object: %v", args[0], err)
	}
	if args[2] == "@delete" {
		delete(obj, args[1])
	} else {
		if !json.Valid([]byte(args[2])) {
			ts.Fatalf("jsonset: %q is not JSON", args[2])
		}
		obj[args[1]] = json.RawMessage(args[2])
	}
	out, err := json.MarshalIndent(obj, "", "  ")
	ts.Check(err)
	ts.Check(os.WriteFile(path, append(out, '\n'), 0o600))
}

func jsonVar(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: jsonvar VAR FILE PATH")
	}
	got := gjson.Get(ts.ReadFile(args[1]), args[2])
	if !got.Exists() {
		ts.Fatalf("%s: %s is absent", args[1], args[2])
	}
	v := got.Raw
	if got.Type == gjson.String {
		v = got.String()
	}
	ts.Setenv(args[0], strings.TrimSpace(v))
}

func ageCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: age FILE DURATION")
	}
	d, err := time.ParseDuration(args[1])
	ts.Check(err)
	t := time.Now().Add(-d)
	if err := os.Chtimes(ts.MkAbs(args[0]), t, t); err != nil {
		ts.Fatalf("age: %v", fmt.Errorf("set the time of %q: %w", args[0], err))
	}
}
