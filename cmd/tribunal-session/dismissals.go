package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

const dismissalsHelp = `usage: tribunal-session dismissals [--json]

Every dismissal in effect here: your own (tribunal-session dismiss), the
repository's shared file .tribunal/dismissed, and the inline ones in the
code ("tribunal: dismiss CRITERION — REASON" comments) — each with who,
when, why, where the finding was, and how many findings it has kept from
being raised since.

Exit status: 0 listed; 1 listed, but an inline dismissal is invalid (no
reason, no criterion: each is named on stderr, and dismisses nothing); 2
usage error or not inside a git repository.
`

// listedDismissal is one line of dismissals' output.
type listedDismissal struct {
	dismiss.Entry
	Suppressed     int    `json:"suppressed"`
	LastSuppressed string `json:"last_suppressed,omitempty"`
}

func (c *cli) dismissalsCmd(ctx context.Context, args []string) int {
	var asJSON bool
	pos, code := c.historyFlags("dismissals", dismissalsHelp, args, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "")
	})
	if code >= 0 {
		return code
	}
	if len(pos) != 0 {
		c.errorf("dismissals takes no arguments, got %q", pos[0])
		c.hint("tribunal-session dismissals -h")
		return exitUsage
	}
	h, ok := c.locate(ctx, "dismissals", "")
	if !ok {
		return exitUsage
	}
	d := c.dismisser(ctx, h)
	var all []dismiss.Entry
	unread := false // a list that could not be read: the listing is incomplete
	for _, read := range []func() ([]dismiss.Entry, error){
		func() ([]dismiss.Entry, error) { return dismiss.ReadPersonal(d.personalPath()) },
		func() ([]dismiss.Entry, error) { return dismiss.ReadShared(d.sharedPath()) },
	} {
		es, err := read()
		if err != nil {
			c.errorf("dismissals: %v", err)
			c.linkHint(err)
			unread = true
		}
		all = append(all, es...)
	}
	inline, problems := d.inline(ctx)
	all = append(all, inline...)
	count, last, err := dismiss.CountSuppressions(d.project.Dir + string(os.PathSeparator) + records.SuppressionsFile)
	if err != nil {
		c.warning(err.Error())
	}
	out := make([]listedDismissal, 0, len(all))
	for _, e := range all {
		key := e.Fingerprint
		if e.Scope == dismiss.InCode {
			key = e.File + ":" + strconv.Itoa(e.Line)
		}
		out = append(out, listedDismissal{Entry: e, Suppressed: count[key], LastSuppressed: last[key]})
	}
	for _, p := range problems {
		c.errorf("%s", p)
	}
	if len(problems) > 0 {
		c.hint("write the reason after the criterion: // tribunal: dismiss CRITERION — why it does not apply")
	}
	if asJSON {
		c.printJSON(struct {
			Dismissals []listedDismissal `json:"dismissals"`
			Problems   []string          `json:"problems"`
		}{out, append([]string{}, problems...)})
	} else {
		c.printDismissals(out)
	}
	return boolExit(len(problems) > 0 || unread)
}

func boolExit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// printDismissals is the text listing: one block per dismissal.
func (c *cli) printDismissals(ds []listedDismissal) {
	if len(ds) == 0 {
		fmt.Fprintln(c.stdout, "no dismissals here")
		return
	}
	for _, d := range ds {
		where := d.File
		if d.Line > 0 {
			where += ":" + strconv.Itoa(d.Line)
		}
		head := d.Fingerprint + " " + d.Scope
		if d.Scope == dismiss.InCode {
			head = d.Scope
		}
		fmt.Fprintf(c.stdout, "%s %s\n", head, oneLine(strings.TrimSpace(where+" "+d.Topic), 300))
		if d.Message != "" {
			fmt.Fprintf(c.stdout, "  finding: %s\n", oneLine(d.Message, 300))
		}
		fmt.Fprintf(c.stdout, "  why: %s\n", oneLine(d.Reason, 500))
		if d.By != "" || d.At != "" {
			fmt.Fprintf(c.stdout, "  by %s at %s\n", oneLine(firstNonEmpty(d.By, "?"), 200), firstNonEmpty(d.At, "?"))
		}
		if d.Source != "" {
			fmt.Fprintf(c.stdout, "  from: %s (finding %d)\n", d.Source, d.Index)
		}
		line := fmt.Sprintf("  suppressed %d finding(s) since", d.Suppressed)
		if d.LastSuppressed != "" {
			line += ", last at " + d.LastSuppressed
		}
		fmt.Fprintln(c.stdout, line)
	}
}

// inline finds the inline dismissals in the tracked files of the work
// tree (git grep), and the invalid ones.
func (d *dismisser) inline(ctx context.Context) ([]dismiss.Entry, []string) {
	out, err := d.c.git(os.Environ())(ctx, d.root, "grep", "-n", "-I", "-F", "--no-color", "--no-textconv", "-e", dismiss.InlineMarker)
	if err != nil {
		return nil, nil // exit 1: no match
	}
	var es []dismiss.Entry
	var problems []string
	for _, l := range strings.Split(string(out), "\n") {
		file, rest, ok := strings.Cut(l, ":")
		num, text, ok2 := strings.Cut(rest, ":")
		n, err := strconv.Atoi(num)
		if !ok || !ok2 || err != nil || file == dismiss.SharedFile {
			continue
		}
		topic, reason, found, perr := dismiss.ParseInline(text)
		switch {
		case !found:
		case perr != nil:
			problems = append(problems, fmt.Sprintf("%s:%d: %v; it dismisses nothing", file, n, perr))
		default:
			es = append(es, dismiss.Entry{Scope: dismiss.InCode, File: file, Line: n, Topic: topic, Reason: reason})
		}
	}
	return es, problems
}
