package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging/answer"
	"github.com/tribunal-cc/tribunal/internal/judging/evaluator"
	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
	"github.com/tribunal-cc/tribunal/internal/llm/prompts"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

// judgeFlags are judge's command line (spec §7.20).
type judgeFlags struct {
	answer, question, expected, match  string
	format, schema, rubric, signedOut  string
	keyFile                            string
	signingKey                         ed25519.PrivateKey
	cases, sessionID, profile          string
	quorum                             rules.Policy
	context, criteria                  []string
	candidates                         []string
	strategy                           string
	json                               bool
	jobs                               int
	latency, cost, maxLatency, maxCost float64
	budget                             float64
	set                                map[string]bool
}

// judgeUsage is the hint after every bad judge command line.
const judgeUsage = "tribunal-session judge -h lists the flags: --answer FILE|- [--question TEXT|@FILE] [--expected FILE] … or --cases FILE|-"

func (c *cli) judgeFlags(args []string) (judgeFlags, int) {
	f := judgeFlags{set: map[string]bool{}}
	var seen bool
	f.candidates, args, seen = splitCandidates(args)
	if seen {
		f.set["candidates"] = true
	}
	fs := flag.NewFlagSet("judge", flag.ContinueOnError)
	// --candidates takes every file after it (splitCandidates); it is
	// defined here too so that a mistyped flag is told of it.
	fs.Func("candidates", "", func(string) error { return nil })
	fs.StringVar(&f.strategy, "strategy", session.StrategyBest, "")
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.answer, "answer", "", "")
	fs.StringVar(&f.question, "question", "", "")
	fs.StringVar(&f.question, "task", "", "")
	fs.StringVar(&f.expected, "expected", "", "")
	fs.StringVar(&f.match, "match", "", "")
	fs.Func("context", "", func(v string) error { f.context = append(f.context, v); return nil })
	fs.Func("criterion", "", func(v string) error {
		if strings.TrimSpace(v) == "" {
			return fmt.Errorf("the criterion is empty")
		}
		f.criteria = append(f.criteria, v)
		return nil
	})
	fs.StringVar(&f.format, "format", answer.FormatText, "")
	fs.StringVar(&f.schema, "schema", "", "")
	fs.StringVar(&f.rubric, "rubric", "answer", "")
	fs.BoolVar(&f.json, "json", false, "")
	fs.StringVar(&f.signedOut, "signed-out", "", "")
	fs.StringVar(&f.keyFile, "key", "", "")
	fs.StringVar(&f.cases, "cases", "", "")
	fs.IntVar(&f.jobs, "jobs", 1, "")
	fs.Float64Var(&f.latency, "latency-ms", 0, "")
	fs.Float64Var(&f.cost, "cost-usd", 0, "")
	fs.Float64Var(&f.maxLatency, "max-latency-ms", 0, "")
	fs.Float64Var(&f.maxCost, "max-cost-usd", 0, "")
	fs.Float64Var(&f.budget, "budget-usd", 0, "")
	fs.StringVar(&f.sessionID, "session-id", "", "")
	quorumFlag(fs, &f.quorum)
	profile := profileFlag(fs)
	if err := fs.Parse(args); err != nil {
		return f, c.flagError("judge", fs, err)
	}
	if f.profile = *profile; !c.checkProfile("judge", f.profile) {
		return f, exitUsage
	}
	if fs.NArg() > 0 {
		c.errorf("judge: unexpected argument %q", fs.Arg(0))
		c.hint("%s", positionalAnswerHint(fs.Arg(0)))
		return f, exitUsage
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	return f, c.checkJudgeFlags(&f)
}

// positionalAnswerHint is the hint for a stray argument: a file given
// without --answer is the commonest slip, so when the word names a regular
// file the hint offers the flag; anything else gets the usage line.
func positionalAnswerHint(arg string) string {
	if fi, err := os.Stat(arg); err == nil && fi.Mode().IsRegular() {
		return fmt.Sprintf("did you mean --answer %s? the answer is named with --answer FILE|-", shellWord(arg))
	}
	return judgeUsage
}

// shellWord quotes a path for a shell when it needs it, so the command a
// hint offers can be pasted as it is ("my reply.txt" stays one word).
func shellWord(s string) string {
	plain := strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._/-+:@=,", r))
	}) < 0
	if plain && s != "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// checkJudgeFlags refuses a command line no judging can use, before
// anything is read or recorded.
func (c *cli) checkJudgeFlags(f *judgeFlags) int {
	bad := func(hint, format string, args ...any) int {
		c.errorf("judge: "+format, args...)
		c.hint("%s", hint)
		return exitUsage
	}
	if code := c.checkCandidateFlags(f); code != 0 {
		return code
	}
	switch {
	case f.set["question"] && f.set["task"]:
		return bad(judgeUsage, "--question and --task both give the question; pass one")
	case !f.set["candidates"] && (f.answer == "") == (f.cases == ""):
		return bad(judgeUsage, "name the answer with --answer FILE|-, or a batch with --cases FILE|- (one of the two)")
	case f.cases != "" && (f.set["question"] || f.set["task"] || f.expected != "" || len(f.context) > 0 || f.set["latency-ms"] || f.set["cost-usd"]):
		return bad("each case's line gives its question, answer, expected answer, context, latency_ms and cost_usd", "--cases reads every case from its file; --question, --expected, --context, --latency-ms and --cost-usd are for one --answer")
	case f.keyFile != "" && f.signedOut == "":
		return bad("--key names the key --signed-out signs with: judge --answer FILE --signed-out OUT --key KEY", "--key without --signed-out signs nothing")
	case f.cases != "" && f.signedOut != "":
		return bad("sign one answer at a time: judge --answer FILE --signed-out FILE", "--signed-out writes one verdict; it does not go with --cases")
	case f.cases == "" && f.set["jobs"]:
		return bad(judgeUsage, "--jobs is for --cases")
	case f.jobs < 1 || f.jobs > 64:
		return bad(judgeUsage, "--jobs must be 1 to 64 (got %d)", f.jobs)
	case f.expected != "" && strings.TrimSpace(f.question) == "" && f.cases == "":
		return bad("an expected answer is the answer to a question: pass --question TEXT (or @FILE) with it", "--expected needs the question it answers")
	case f.match != "" && f.expected == "" && f.cases == "":
		return bad("pass --expected FILE with --match", "--match says how to compare with an expected answer, and there is none")
	case f.match != "" && !oneOf(f.match, answer.Matches):
		return bad(judgeUsage, "unknown --match %q (one of %s)", f.match, strings.Join(answer.Matches, ", "))
	case f.format != answer.FormatText && f.format != answer.FormatJSON:
		return bad(judgeUsage, "unknown --format %q (text or json)", f.format)
	case f.schema != "" && f.set["format"] && f.format != answer.FormatJSON:
		return bad("a schema is for a JSON answer: --format json --schema FILE", "--schema with --format %s", f.format)
	case stdinUsers(f) > 1:
		return bad(judgeUsage, "only one input can read standard input")
	}
	for _, k := range []string{"latency-ms", "cost-usd", "max-latency-ms", "max-cost-usd"} {
		if v := map[string]float64{"latency-ms": f.latency, "cost-usd": f.cost, "max-latency-ms": f.maxLatency, "max-cost-usd": f.maxCost}[k]; f.set[k] && v < 0 {
			return bad(judgeUsage, "--%s must not be negative (got %s)", k, strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	if f.set["budget-usd"] && f.budget <= 0 {
		return bad(judgeUsage, "--budget-usd must be above 0")
	}
	if f.schema != "" {
		f.format = answer.FormatJSON
	}
	return 0
}

func oneOf(s string, list []string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// judgeInputs is what judge read before anything is set up.
type judgeInputs struct {
	root   string
	max    int64
	schema *evaluator.Schema
}

func (c *cli) judgeCmd(ctx context.Context, args []string) int {
	f, code := c.judgeFlags(args)
	if code != 0 {
		return code
	}
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("cannot determine the current directory: %v", err)
		return exitUsage
	}
	root, err := projectkey.FindWorktreeRoot(dir)
	if err != nil {
		c.errorf("judge: %q is not inside a git repository", dir)
		c.hint("run judge inside a repository: its settings, rubrics and store are the project's")
		return exitUsage
	}
	_, limits := c.changeBounds(root)
	in := judgeInputs{root: root, max: limits.File()}
	if f.schema != "" {
		if in.schema, err = c.readSchema(ctx, f.schema, in.max); err != nil {
			return c.inputFailed(err)
		}
	}
	var cases []answer.Case
	switch {
	case f.cases != "":
		cases, err = c.readCases(f, in)
	case f.set["candidates"]:
		cases, err = c.readCandidates(f, in)
	default:
		var one answer.Case
		one, err = c.readCase(f, in)
		cases = []answer.Case{one}
	}
	if err == nil && in.schema != nil {
		err = schemaBound(cases)
	}
	if err == nil && f.signedOut != "" {
		err = signedOutDir(f.signedOut)
	}
	if err == nil && f.keyFile != "" {
		// Read before any judging: a key that cannot sign would leave a
		// recorded verdict with no file.
		if f.signingKey, err = ledger.ReadKeyFile(f.keyFile); err != nil {
			err = &answer.InputError{Err: fmt.Errorf("--key: %w", err), Hint: "name a key file tribunal-session keygen --out wrote (mode 0600)"}
		}
	}
	if err != nil {
		return c.inputFailed(err)
	}
	return c.judgeAll(ctx, f, dir, cases)
}

// schemaBound refuses, before anything is judged, an answer larger than
// the validator takes (schemaproto.MaxItemBytes, the evaluators' bound on
// a file): its schema check could only fail.
func schemaBound(cases []answer.Case) error {
	for i, k := range cases {
		if len(k.Answer) > schemaproto.MaxItemBytes {
			which := "the answer"
			if len(cases) > 1 {
				which = fmt.Sprintf("answer %d", i+1)
			}
			return &answer.InputError{Err: fmt.Errorf("%s is over %d MiB, the most --schema validates", which, schemaproto.MaxItemBytes>>20),
				Hint: "judge a smaller JSON answer against the schema, or leave out --schema"}
		}
	}
	return nil
}

// signedOutDir refuses a --signed-out FILE whose directory is not there
// before anything is judged: a verdict recorded but not written out would
// cost a model spend for nothing.
func signedOutDir(path string) error {
	st, err := os.Stat(filepath.Dir(path))
	if err != nil || !st.IsDir() {
		return &answer.InputError{Err: fmt.Errorf("--signed-out %s: its directory %s does not exist", path, filepath.Dir(path)),
			Hint: "name a file in an existing directory"}
	}
	return nil
}

// inputFailed prints a refused input: exit 2, nothing recorded.
func (c *cli) inputFailed(err error) int {
	var ie *answer.InputError
	if errors.As(err, &ie) {
		c.errorf("judge: %v", ie.Err)
		c.hint("%s", ie.Hint)
		return exitUsage
	}
	c.errorf("judge: %v", err)
	c.hint("%s", judgeUsage)
	return exitUsage
}

// readSchema compiles --schema FILE with the evaluators' rules.
func (c *cli) readSchema(ctx context.Context, path string, max int64) (*evaluator.Schema, error) {
	fh, err := store.OpenRegular(path)
	var data []byte
	if err == nil {
		data, err = io.ReadAll(io.LimitReader(fh, max+1))
		fh.Close()
	}
	if err != nil {
		return nil, &answer.InputError{Err: fmt.Errorf("cannot read the schema: %w", err), Hint: "name a JSON Schema file with --schema FILE"}
	}
	if len(data) > schemaproto.MaxItemBytes {
		return nil, &answer.InputError{Err: fmt.Errorf("the schema %s is over %d MiB", path, schemaproto.MaxItemBytes>>20),
			Hint: "a schema is one self-contained JSON Schema (draft 2020-12) using known keywords only"}
	}
	s, err := evaluator.CompileSchema(ctx, c.schemas(), "answer", data)
	if missing := (*schemaproto.MissingError)(nil); errors.As(err, &missing) {
		return nil, &answer.InputError{Err: fmt.Errorf("--schema %s: %w", path, err), Hint: schemaproto.Hint}
	}
	if err != nil {
		return nil, &answer.InputError{Err: fmt.Errorf("the schema %s does not parse: %w", path, err),
			Hint: "a schema is one self-contained JSON Schema (draft 2020-12) using known keywords only"}
	}
	return s, nil
}

// readText reads one text input: FILE, or - for standard input.
func (c *cli) readText(path, what string, max int64) (string, error) {
	if path == "-" {
		return answer.ReadText(c.stdin, what+" (standard input)", max)
	}
	// A FIFO or a device is refused, not waited on (store.OpenRegular).
	fh, err := store.OpenRegular(path)
	if err != nil {
		return "", &answer.InputError{Err: fmt.Errorf("cannot read %s: %w", what, err), Hint: "name an existing regular file, or - for standard input"}
	}
	defer fh.Close()
	return answer.ReadText(fh, what+" "+path, max)
}

// readCase reads one answer and what it is held to.
func (c *cli) readCase(f judgeFlags, in judgeInputs) (answer.Case, error) {
	k := answer.Case{Format: f.format, Schema: in.schema, Match: f.match, Criteria: f.criteria}
	var err error
	if k.Answer, err = c.readText(f.answer, "the answer", in.max); err != nil {
		return k, err
	}
	k.Question = strings.TrimSpace(f.question)
	if file, ok := strings.CutPrefix(k.Question, "@"); ok {
		if k.Question, err = c.readText(file, "the question", in.max); err != nil {
			return k, err
		}
		k.Question = strings.TrimSpace(k.Question)
	}
	if k.Question == "" {
		k.Question = noQuestion
	}
	if f.expected != "" {
		if k.Expected, err = c.readText(f.expected, "the expected answer", in.max); err != nil {
			return k, err
		}
		k.HasExpected = true
	}
	for _, p := range f.context {
		text, err := c.readText(p, "the context", in.max)
		if err != nil {
			return k, err
		}
		k.Context = append(k.Context, prompts.Source{Name: p, Text: text})
	}
	if f.set["latency-ms"] {
		k.LatencyMS = &f.latency
	}
	if f.set["cost-usd"] {
		k.CostUSD = &f.cost
	}
	f.budgets(&k)
	return k, nil
}

// noQuestion is the question when nobody gave one.
const noQuestion = "Nobody said what the question was: judge the answer on its own terms — is it correct, clear and well founded?"

// budgets puts the --max-* budgets on a case.
func (f judgeFlags) budgets(k *answer.Case) {
	if f.set["max-latency-ms"] {
		k.MaxLatencyMS = &f.maxLatency
	}
	if f.set["max-cost-usd"] {
		k.MaxCostUSD = &f.maxCost
	}
}

// readCases reads --cases: every case is read and checked before any is
// judged.
func (c *cli) readCases(f judgeFlags, in judgeInputs) ([]answer.Case, error) {
	var r io.Reader = c.stdin
	if f.cases != "-" {
		fh, err := store.OpenRegular(f.cases)
		if err != nil {
			return nil, &answer.InputError{Err: fmt.Errorf("cannot read the cases: %w", err), Hint: "name a JSONL file with --cases FILE, or - for standard input"}
		}
		defer fh.Close()
		r = fh
	}
	lines, err := answer.ReadCases(r, in.max)
	if err != nil {
		return nil, err
	}
	out := make([]answer.Case, 0, len(lines))
	for _, l := range lines {
		ctx, _ := l.Sources()
		k := answer.Case{ID: l.ID, Question: firstNonEmpty(strings.TrimSpace(l.Question), noQuestion), Answer: l.Answer, Context: ctx, Format: f.format, Schema: in.schema,
			Match: f.match, LatencyMS: l.LatencyMS, CostUSD: l.CostUSD, Criteria: f.criteria}
		if l.Expected != nil {
			k.Expected, k.HasExpected = *l.Expected, true
		}
		f.budgets(&k)
		out = append(out, k)
	}
	return out, nil
}

// judgeAll sets the jury up once and judges every case.
func (c *cli) judgeAll(ctx context.Context, f judgeFlags, dir string, cases []answer.Case) int {
	environ := os.Environ()
	runner, err := c.judgesRunner(dir, environ, f.rubric)
	if err != nil {
		c.errorf("%v", err)
		c.hint("install Claude Code (https://docs.claude.com/claude-code), or set TRIBUNAL_CLAUDE_BIN to the claude executable")
		return exitUsage
	}
	opts := session.AnswerOptions{Dir: dir, RubricID: f.rubric, Profile: f.profile, GatePolicy: f.quorum, Quiet: f.cases != "",
		SessionID: firstNonEmpty(f.sessionID, c.getenv("CLAUDE_SESSION_ID"), c.getenv("CLAUDE_CODE_SESSION_ID"))}
	if f.set["budget-usd"] {
		opts.BudgetUSD = &f.budget
	}
	a, err := session.NewAnswer(ctx, opts, c.sessionDeps(runner, environ))
	if err != nil {
		c.configError(err)
		return exitUsage
	}
	defer a.Close()
	if f.set["candidates"] {
		return c.judgeCandidates(ctx, f, a, cases)
	}
	if f.cases != "" {
		return c.judgeBatch(ctx, f, a, cases)
	}
	return c.judgeOne(ctx, f, a, cases[0])
}
