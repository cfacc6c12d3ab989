// Package fakeclaude is a scriptable stand-in for the claude CLI that
// end-to-end tests put on PATH.
//
// It records every call (argv, stdin, selected environment) to
// $FAKE_CLAUDE_LOG as one JSON line, refuses to run without the recursion
// guard (exit 3, so a forgotten guard fails loudly), and replies according
// to a script: either the FAKE_CLAUDE_* variables (one reply for every call)
// or the JSON rules file named by $FAKE_CLAUDE_SCRIPT (a reply chosen per
// call by role, by prompt text and by how many times the rule matched).
// With $FAKE_CLAUDE_ESCAPE set, each call first starts a process that
// escapes its process group (see escape) and writes that pid there.
package fakeclaude

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Reply is what one call answers.
type Reply struct {
	// Structured is the structured_output object of a --json-schema run;
	// JSON null is kept (the CLI's "never called the tool" case).
	Structured json.RawMessage `json:"structured,omitempty"`
	// Text is the envelope's result text, or the whole stdout with Raw.
	Text string `json:"text,omitempty"`
	// Raw prints Text alone instead of a result envelope, like the CLI
	// without --output-format json or a thin wrapper script.
	Raw     bool    `json:"raw,omitempty"`
	IsError bool    `json:"is_error,omitempty"`
	Exit    int     `json:"exit,omitempty"`
	Stderr  string  `json:"stderr,omitempty"`
	DelayMS int     `json:"delay_ms,omitempty"`
	Cost    float64 `json:"cost,omitempty"`
	// NoUsage leaves out the envelope's usage and reports a cost of 0:
	// what a stub answers, which tribunal must not take for a verdict
	// (spec §4.8). Every other reply reports 100 input and 20 output
	// tokens, as the real CLI always reports usage.
	NoUsage bool `json:"no_usage,omitempty"`
	// InputTokens and OutputTokens, when set, are the usage reported
	// instead of 100 and 20: a bench's calls of the size real ones are.
	InputTokens  int `json:"input_tokens,omitempty"`
	OutputTokens int `json:"output_tokens,omitempty"`
	// Hang sleeps for an hour after starting a grandchild that sleeps too,
	// writing both pids to $FAKE_CLAUDE_PIDS, so tests can prove the whole
	// process group was killed.
	Hang bool `json:"hang,omitempty"`
	// Empty prints nothing at all.
	Empty bool `json:"empty,omitempty"`
	// Write creates these files (path relative to the call's directory →
	// content): an actor's edits.
	Write map[string]string `json:"write,omitempty"`
	// Shell is a command run with sh -c in the call's directory after the
	// writes: an actor's edits that Write cannot make (modes, links, pipes,
	// files outside the work tree). Its output goes to stderr.
	Shell string `json:"shell,omitempty"`
}

// Rule matches calls and gives their reply.
type Rule struct {
	// Role is matched against the role the fake infers from the system
	// prompt: "actor", "pairwise", "standard", "adversarial", "security", "meta",
	// "stop" or "other".
	Role           string `json:"role,omitempty"`
	PromptContains string `json:"prompt_contains,omitempty"`
	// PromptMatches is a regular expression the prompt must match: where
	// one text stands relative to another (a pairwise prompt's change A
	// or B), which a substring cannot say.
	PromptMatches string `json:"prompt_matches,omitempty"`
	// Times limits how many calls the rule answers (0 = unlimited); a used
	// up rule falls through to later ones.
	Times int   `json:"times,omitempty"`
	Reply Reply `json:"reply"`
}

// Script is the rules file.
type Script struct {
	Rules []Rule `json:"rules"`
}

// Call is one recorded invocation.
type Call struct {
	Args  []string          `json:"args"`
	Stdin string            `json:"stdin"`
	Role  string            `json:"role"`
	Dir   string            `json:"dir"`
	Env   map[string]string `json:"env"`
	PID   int               `json:"pid"`
	Start time.Time         `json:"start"`
	End   time.Time         `json:"end"`
	Reply int               `json:"rule"`
}

// Main runs the fake and returns its exit status.
func Main() int {
	if os.Getenv("TRIBUNAL_NESTED") == "" {
		fmt.Fprintln(os.Stderr, "fake claude: TRIBUNAL_NESTED is not set: the recursion guard is missing")
		return 3
	}
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		v := os.Getenv("FAKE_CLAUDE_VERSION")
		if v == "" {
			v = "2.1.332 (Claude Code, fake)"
		}
		fmt.Println(v)
		return 0
	}
	if len(os.Args) > 2 && os.Args[1] == "auth" && os.Args[2] == "status" {
		return authStatus(os.Getenv("FAKE_CLAUDE_AUTH"))
	}
	stdin, _ := io.ReadAll(os.Stdin)
	args := os.Args[1:]
	role := inferRole(flagValue(args, "--system-prompt")+flagValue(args, "--append-system-prompt"), string(stdin))
	call := Call{Args: args, Stdin: string(stdin), Role: role, PID: os.Getpid(), Start: time.Now(), Env: map[string]string{}}
	call.Dir, _ = os.Getwd()
	// GITHUB_TOKEN is recorded so that a script can prove it never
	// reaches a child (internal/llm/secretenv).
	for _, k := range []string{"TRIBUNAL_NESTED", "CLAUDE_CODE_MAX_OUTPUT_TOKENS", "CLAUDE_CODE_DISABLE_CLAUDE_MDS", "GITHUB_TOKEN"} {
		call.Env[k] = os.Getenv(k)
	}
	reply, idx, err := choose(role, string(stdin))
	call.Reply = idx
	if err != nil {
		fmt.Fprintln(os.Stderr, "fake claude:", err)
		return 4
	}
	defer func() {
		call.End = time.Now()
		record(call)
	}()
	if p := os.Getenv("FAKE_CLAUDE_ESCAPE"); p != "" {
		escape(p)
	}
	return respond(reply)
}

// authStatus answers `claude auth status` as the CLI does (its JSON, exit
// 1 when not logged in) for state: "" logged in through claude.ai, "key"
// by ANTHROPIC_API_KEY, "none" not logged in; anything else is printed as
// is with exit 1, a CLI without the command.
func authStatus(state string) int {
	switch state {
	case "":
		fmt.Println(`{"loggedIn": true, "authMethod": "claude.ai", "apiProvider": "firstParty"}`)
	case "key":
		fmt.Println(`{"loggedIn": true, "authMethod": "api_key", "apiProvider": "firstParty", "apiKeySource": "ANTHROPIC_API_KEY"}`)
	case "none":
		fmt.Println(`{"loggedIn": false, "authMethod": "none", "apiProvider": "firstParty"}`)
		return 1
	default:
		fmt.Println(state)
		return 1
	}
	return 0
}

func respond(r Reply) int {
	for path, content := range r.Write {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "fake claude:", err)
			return 4
		}
	}
	if r.Shell != "" {
		cmd := exec.Command("sh", "-c", r.Shell)
		cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "fake claude: shell:", err)
			return 4
		}
	}
	if r.Hang {
		hang()
	}
	if r.DelayMS > 0 {
		time.Sleep(time.Duration(r.DelayMS) * time.Millisecond)
	}
	if r.Stderr != "" {
		fmt.Fprintln(os.Stderr, r.Stderr)
	}
	switch {
	case r.Empty:
	case r.Raw:
		fmt.Print(r.Text)
	default:
		env := map[string]any{
			"type": "result", "subtype": "success", "is_error": r.IsError,
			"num_turns": 2, "session_id": "00000000-0000-4000-8000-000000000000",
			"total_cost_usd": r.Cost,
			"usage":          map[string]int{"input_tokens": cmp.Or(r.InputTokens, 100), "output_tokens": cmp.Or(r.OutputTokens, 20)},
		}
		if r.NoUsage {
			delete(env, "usage")
		}
		if r.IsError {
			env["terminal_reason"] = "api_error"
			env["result"] = r.Text
		} else {
			env["terminal_reason"] = "completed"
			env["result"] = r.Text
		}
		if r.Structured != nil {
			env["structured_output"] = r.Structured
			if r.Text == "" && string(r.Structured) != "null" {
				env["result"] = string(r.Structured)
			}
		}
		out, _ := json.Marshal(env)
		fmt.Println(string(out))
	}
	if r.Exit == 0 && r.IsError {
		return 1
	}
	return r.Exit
}

func hang() {
	child := exec.Command("sleep", "3600")
	if err := child.Start(); err == nil {
		if p := os.Getenv("FAKE_CLAUDE_PIDS"); p != "" {
			os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())+"\n"+strconv.Itoa(child.Process.Pid)+"\n"), 0o644)
		}
	}
	time.Sleep(time.Hour)
}

// escape starts a process that leaves the call's process group and
// session (as a tool's daemon may) and so outlives the call and its
// caller, sleeping with whatever descriptors this process inherited; its
// pid goes to path.
func escape(path string) {
	child := exec.Command("sleep", "120")
	child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if child.Start() == nil {
		os.WriteFile(path, []byte(strconv.Itoa(child.Process.Pid)+"\n"), 0o644)
		child.Process.Release()
	}
}

func choose(role, stdin string) (Reply, int, error) {
	path := os.Getenv("FAKE_CLAUDE_SCRIPT")
	if path == "" {
		return envReply(), -1, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return Reply{}, -1, err
	}
	var s Script
	if err := json.Unmarshal(data, &s); err != nil {
		return Reply{}, -1, fmt.Errorf("script %s: %w", path, err)
	}
	// Use counts persist beside the script so that "times" spans the
	// separate processes of one test. A lock keeps parallel judges honest.
	unlock := lock(path + ".lock")
	defer unlock()
	counts := map[int]int{}
	if data, err := os.ReadFile(path + ".counts"); err == nil {
		json.Unmarshal(data, &counts)
	}
	for i, r := range s.Rules {
		if r.Role != "" && r.Role != role {
			continue
		}
		if r.PromptContains != "" && !strings.Contains(stdin, r.PromptContains) {
			continue
		}
		if r.PromptMatches != "" {
			re, err := regexp.Compile(r.PromptMatches)
			if err != nil {
				return Reply{}, -1, fmt.Errorf("script %s: rule %d: %w", path, i, err)
			}
			if !re.MatchString(stdin) {
				continue
			}
		}
		if r.Times > 0 && counts[i] >= r.Times {
			continue
		}
		counts[i]++
		out, _ := json.Marshal(counts)
		os.WriteFile(path+".counts", out, 0o644)
		return r.Reply, i, nil
	}
	return Reply{}, -1, fmt.Errorf("no rule matches role %q", role)
}

func envReply() Reply {
	r := Reply{
		// A literal \n in the variable stands for a newline: testscript
		// cannot put one in an env line.
		Text:   strings.ReplaceAll(os.Getenv("FAKE_CLAUDE_TEXT"), `\n`, "\n"),
		Raw:    os.Getenv("FAKE_CLAUDE_RAW") != "",
		Stderr: os.Getenv("FAKE_CLAUDE_STDERR"),
		Hang:   os.Getenv("FAKE_CLAUDE_HANG") != "",
		Empty:  os.Getenv("FAKE_CLAUDE_EMPTY") != "",
	}
	if s := os.Getenv("FAKE_CLAUDE_STRUCTURED"); s != "" {
		r.Structured = json.RawMessage(s)
	}
	r.IsError = os.Getenv("FAKE_CLAUDE_IS_ERROR") != ""
	r.NoUsage = os.Getenv("FAKE_CLAUDE_NO_USAGE") != ""
	r.Exit, _ = strconv.Atoi(os.Getenv("FAKE_CLAUDE_EXIT"))
	r.DelayMS, _ = strconv.Atoi(os.Getenv("FAKE_CLAUDE_DELAY_MS"))
	r.Cost, _ = strconv.ParseFloat(os.Getenv("FAKE_CLAUDE_COST"), 64)
	return r
}

// inferRole reads the role from the agent prompt's title line ("# Tribunal
// Standard Judge", …): the bodies mention each other's roles, the titles
// do not.
func inferRole(system, stdin string) string {
	for _, line := range strings.Split(system, "\n") {
		if !strings.HasPrefix(line, "# ") {
			continue
		}
		t := strings.ToLower(line)
		switch {
		case strings.Contains(t, "actor"):
			return "actor"
		case strings.Contains(t, "pairwise"):
			return "pairwise"
		case strings.Contains(t, "synthesiser"):
			return "synthesiser"
		case strings.Contains(t, "meta-judge"):
			return "meta"
		case strings.Contains(t, "adversarial"):
			return "adversarial"
		case strings.Contains(t, "security"):
			return "security"
		case strings.Contains(t, "standard"):
			return "standard"
		}
	}
	if strings.Contains(stdin, "doing an advisory review of a Claude Code turn") {
		return "stop"
	}
	if strings.Contains(stdin, "You are a Tribunal verifier") {
		return "verify"
	}
	return "other"
}

func flagValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if strings.HasPrefix(a, name+"=") {
			return a[len(name)+1:]
		}
	}
	return ""
}

func record(c Call) {
	path := os.Getenv("FAKE_CLAUDE_LOG")
	if path == "" {
		return
	}
	line, _ := json.Marshal(c)
	unlock := lock(path + ".lock")
	defer unlock()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	f.Write(append(line, '\n'))
}

func lock(path string) func() {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return func() {}
	}
	syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}
}
