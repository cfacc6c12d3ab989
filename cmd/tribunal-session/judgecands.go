package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/judging/answer"
	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

// candidatesUsage is the hint after a bad --candidates command line.
const candidatesUsage = "tribunal-session judge --candidates a.txt b.txt [c.txt …] --question TEXT [--strategy best|rank|merge]"

// splitCandidates takes --candidates and the files after it (up to the
// next flag; "-" is standard input) out of args: Go's flag package stops
// at the first argument that is not a flag, so the list could not follow
// it otherwise. --candidates=FILE starts the list with FILE.
func splitCandidates(args []string) (files, rest []string, seen bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return files, append(rest, args[i:]...), seen
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || a == "-" || name != "candidates" {
			rest = append(rest, a)
			continue
		}
		seen = true
		if hasVal {
			files = append(files, val)
		}
		for i+1 < len(args) && (args[i+1] == "-" || !strings.HasPrefix(args[i+1], "-")) {
			files = append(files, args[i+1])
			i++
		}
	}
	return files, rest, seen
}

// checkCandidateFlags refuses a --candidates or --strategy command line
// that cannot be judged (spec §7.20), before anything is read.
func (c *cli) checkCandidateFlags(f *judgeFlags) int {
	bad := func(hint, format string, args ...any) int {
		c.errorf("judge: "+format, args...)
		c.hint("%s", hint)
		return exitUsage
	}
	on := f.set["candidates"]
	switch {
	case !on && f.set["strategy"]:
		return bad(candidatesUsage, "--strategy is for --candidates")
	case !on:
		return 0
	case f.answer != "":
		return bad(candidatesUsage, "--candidates and --answer both name the answer: judge several with --candidates, one with --answer")
	case f.cases != "":
		return bad("--cases judges many answers to many questions, each on its own; --candidates compares answers to one question", "--candidates does not go with --cases")
	case len(f.candidates) < 2:
		return bad(candidatesUsage, "--candidates needs at least 2 answers; judge one with --answer")
	case len(f.candidates) > session.MaxCandidates:
		return bad(candidatesUsage, "--candidates takes at most %d answers (got %d): each is judged by the whole jury, and every pair of accepted ones twice more", session.MaxCandidates, len(f.candidates))
	case !oneOf(f.strategy, session.Strategies):
		return bad(candidatesUsage, "unknown --strategy %q (one of %s)", f.strategy, strings.Join(session.Strategies, ", "))
	case f.set["latency-ms"] || f.set["cost-usd"]:
		return bad("judge each answer's figures with --answer FILE --latency-ms N --cost-usd N", "--latency-ms and --cost-usd report one answer's figures; they do not go with --candidates")
	}
	return 0
}

// stdinUsers counts the inputs that read standard input: only one can.
func stdinUsers(f *judgeFlags) int {
	n := 0
	for _, v := range append([]string{f.answer, f.cases, f.expected}, f.candidates...) {
		if v == "-" {
			n++
		}
	}
	if strings.HasPrefix(f.question, "@-") {
		n++
	}
	return n
}

// readCandidates reads every candidate with --answer's checks (empty,
// binary, over the bound): the first with the question, expected answer
// and context they all share, the others as its answer replaced.
func (c *cli) readCandidates(f judgeFlags, in judgeInputs) ([]answer.Case, error) {
	first := f
	first.answer = f.candidates[0]
	k, err := c.readCase(first, in)
	if err != nil {
		return nil, err
	}
	k.ID = f.candidates[0]
	out := []answer.Case{k}
	for i, path := range f.candidates[1:] {
		text, err := c.readText(path, fmt.Sprintf("candidate %d", i+2), in.max)
		if err != nil {
			return nil, err
		}
		o := k
		o.ID, o.Answer = path, text
		out = append(out, o)
	}
	return out, nil
}

// candidatesVerdict is `judge --candidates --json`: the set, every
// candidate's verdict, the comparisons, and the chosen answer's verdict.
type candidatesVerdict struct {
	ID          string             `json:"id"`
	Strategy    string             `json:"strategy"`
	Used        string             `json:"strategy_used"`
	Note        string             `json:"note,omitempty"`
	Winner      *int               `json:"winner"`
	TieBreak    string             `json:"tie_break,omitempty"`
	Order       []int              `json:"order,omitempty"`
	Candidates  []candidateVerdict `json:"candidates"`
	Comparisons []records.Pairwise `json:"comparisons"`
	Merged      *answerVerdict     `json:"merged,omitempty"`
	// Verdict is the chosen answer's: the winner's or the merged one's.
	Verdict *answerVerdict `json:"verdict"`
	CostUSD *float64       `json:"cost_usd,omitempty"`
}

type candidateVerdict struct {
	Index    int           `json:"index"`
	File     string        `json:"file"`
	Finalist bool          `json:"finalist"`
	Wins     int           `json:"pairwise_wins"`
	Verdict  answerVerdict `json:"verdict"`
}

// judgeCandidates judges the candidates by f.strategy, prints the result,
// signs the chosen answer's verdict and exits by it.
func (c *cli) judgeCandidates(ctx context.Context, f judgeFlags, a *session.Answerer, cases []answer.Case) int {
	if f.strategy == session.StrategyMerge {
		if err := a.SynthesiserClash(); err != nil {
			c.configError(err)
			return exitUsage
		}
	}
	res, runErr := a.Candidates(ctx, f.strategy, cases, f.candidates)
	if res == nil {
		c.errorf("judge: %v", runErr)
		return exitAborted
	}
	out := candidatesOf(res, a, cases)
	if f.json {
		if err := json.NewEncoder(c.stdout).Encode(out); err != nil {
			c.errorf("judge: %v", err)
		}
	} else {
		c.printCandidates(out)
	}
	if runErr != nil {
		c.errorf("judge: %v", runErr)
	}
	if out.Verdict == nil {
		c.errorf("judge: no answer was chosen: every candidate stopped before its verdict")
		return exitAborted
	}
	if f.signedOut != "" {
		if err := c.writeSigned(f, *out.Verdict); err != nil {
			c.errorf("judge: the signed verdict was not written: %v", err)
			return exitAborted
		}
		c.progressf("judge: signed verdict of answer %s written to %s", out.Verdict.ID, f.signedOut)
	}
	return out.Verdict.exit()
}

// candidatesOf turns a judged set into what is printed.
func candidatesOf(res *session.CandidatesResult, a *session.Answerer, cases []answer.Case) candidatesVerdict {
	b := res.Record
	out := candidatesVerdict{ID: res.ID, Strategy: b.Strategy, Used: b.Used, Note: b.Note, TieBreak: b.TieBreak, Order: b.Order,
		Candidates: []candidateVerdict{}, Comparisons: b.Comparisons}
	if out.Comparisons == nil {
		out.Comparisons = []records.Pairwise{}
	}
	for i, k := range b.Candidates {
		cv := candidateVerdict{Index: k.Index, File: k.File, Finalist: k.Finalist, Wins: k.Wins}
		if ar := res.Answers[i]; ar != nil {
			cv.Verdict = verdictOf(ar, a, res.Errors[i])
		} else {
			cv.Verdict = failedVerdict(cases[i], res.Errors[i])
		}
		out.Candidates = append(out.Candidates, cv)
	}
	if b.Winner > 0 {
		w := b.Winner
		out.Winner = &w
		out.Verdict = &out.Candidates[w-1].Verdict
	}
	if res.Merged != nil {
		m := verdictOf(res.Merged, a, res.MergedErr)
		out.Merged, out.Verdict = &m, &m
	}
	return out
}

// printCandidates is the text form: what was chosen and its verdict
// (best, merge), or every candidate in rank order with its verdict.
func (c *cli) printCandidates(out candidatesVerdict) {
	if out.Note != "" {
		fmt.Fprintf(c.stdout, "note: --strategy %s: %s\n", out.Strategy, safetext.Inline(out.Note, 500))
	}
	for _, p := range out.Comparisons {
		fmt.Fprintln(c.stdout, history.ComparisonLine(p))
	}
	switch {
	case out.Merged != nil:
		fmt.Fprintf(c.stdout, "merged answer (set %s), written from the accepted candidates and judged by the jury:\n", out.ID)
		c.printVerdict(*out.Merged)
	case out.Used == session.StrategyRank:
		fmt.Fprintf(c.stdout, "rank of %d candidates (set %s):\n", len(out.Candidates), out.ID)
		for n, idx := range out.Order {
			k := out.Candidates[idx-1]
			fmt.Fprintf(c.stdout, "%d. candidate %d (%s): %s\n", n+1, k.Index, safetext.Inline(k.File, 200), standingWords(k))
			c.printVerdict(k.Verdict)
		}
	case out.Winner != nil:
		k := out.Candidates[*out.Winner-1]
		fmt.Fprintf(c.stdout, "★ best: candidate %d (%s) of %d, %s (set %s)\n", k.Index, safetext.Inline(k.File, 200), len(out.Candidates), standingWords(k), out.ID)
		c.printVerdict(k.Verdict)
	default:
		fmt.Fprintf(c.stdout, "no answer chosen (set %s): every candidate stopped before its verdict\n", out.ID)
	}
}

// standingWords is a candidate's pairwise standing.
func standingWords(k candidateVerdict) string {
	if !k.Finalist {
		return fmt.Sprintf("not compared (%s)", k.Verdict.Outcome)
	}
	return fmt.Sprintf("%d pairwise win(s)", k.Wins)
}
