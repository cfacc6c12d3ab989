package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/severity"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

const dismissHelp = `usage: tribunal-session dismiss TASK_ID|SESSION_ID|last FINDING --reason "…" [--shared]
       tribunal-session dismiss --undo FINGERPRINT [--shared]

Records that a finding does not apply, so that no judge raises it again —
the Stop hook's, a /tribunal run's or a review's — until the code it points
at changes. FINDING is the finding's number as 'show' lists it ([1], [2], …
in a task's last iteration; an advisory verdict's one finding, its
feedback, is 1) or its fingerprint (tf2:…, as review prints it).

A dismissal is keyed on the finding's file, its criterion and the code
around the cited line in your work tree: moving that code keeps it
dismissed, editing it raises the finding again. Judges are told what was
dismissed and why. Every dismissal and undo is a signed ledger entry;
'tribunal-session dismissals' lists them.

  --reason TEXT   why the finding does not apply (required)
  --shared        write it to the repository's .tribunal/dismissed (commit
                  it to share it with the team) instead of your own list
  --undo FP       remove the dismissal of fingerprint FP

In the code, a comment dismisses findings of one criterion on its line and
the 3 lines below it:  // tribunal: dismiss CRITERION — REASON

It prints the dismissed finding's fingerprint on stdout (what --undo takes).

Exit status: 0 recorded (or dismissed already); 2 usage error, unknown id, no such finding, no
reason, or not inside a git repository.
`

// dismissFlags are dismiss's options.
type dismissFlags struct {
	reason, undo string
	shared       bool
}

func (c *cli) dismissCmd(ctx context.Context, args []string) int {
	var f dismissFlags
	pos, code := c.historyFlags("dismiss", dismissHelp, args, func(fs *flag.FlagSet) {
		fs.StringVar(&f.reason, "reason", "", "")
		fs.StringVar(&f.undo, "undo", "", "")
		fs.BoolVar(&f.shared, "shared", false, "")
	})
	if code >= 0 {
		return code
	}
	h, ok := c.locate(ctx, "dismiss", "run it inside the git repository whose finding you dismiss")
	if !ok {
		return exitUsage
	}
	d := c.dismisser(ctx, h)
	if f.undo != "" {
		if len(pos) != 0 || f.reason != "" {
			c.errorf("dismiss: --undo takes only the fingerprint (and --shared)")
			return exitUsage
		}
		return d.undo(f.undo, f.shared)
	}
	if len(pos) != 2 {
		c.errorf("dismiss takes a task or verdict id and a finding, got %d argument(s)", len(pos))
		c.hint(`tribunal-session dismiss last 1 --reason "why it does not apply"`)
		return exitUsage
	}
	if strings.TrimSpace(f.reason) == "" {
		c.errorf("dismiss: --reason is required: say why the finding does not apply")
		c.hint("%s", `tribunal-session dismiss `+pos[0]+` `+pos[1]+` --reason "b is checked by every caller"`)
		return exitUsage
	}
	return d.add(pos[0], pos[1], f)
}

// dismisser is one dismiss or dismissals command's context.
type dismisser struct {
	c        *cli
	root     string
	project  store.Project
	logPath  string
	onlooker string
	by       string
	now      time.Time
}

func (c *cli) dismisser(ctx context.Context, h here) *dismisser {
	return &dismisser{c: c, root: h.repo.WorktreeRoot, project: h.project, logPath: h.logPath,
		onlooker: h.onlooker, by: c.who(ctx, h.repo.WorktreeRoot), now: time.Now().UTC()}
}

// who names the person: git's user.name and user.email, else $USER.
func (c *cli) who(ctx context.Context, root string) string {
	git := c.git(os.Environ())
	name, _ := git(ctx, root, "config", "user.name")
	email, _ := git(ctx, root, "config", "user.email")
	n, e := strings.TrimSpace(string(name)), strings.TrimSpace(string(email))
	switch {
	case n != "" && e != "":
		return n + " <" + e + ">"
	case n != "" || e != "":
		return n + e
	}
	return firstNonEmpty(c.getenv("USER"), "unknown")
}

func (d *dismisser) personalPath() string {
	return filepath.Join(d.project.Dir, records.DismissalsFile)
}

func (d *dismisser) sharedPath() string {
	return filepath.Join(d.root, filepath.FromSlash(dismiss.SharedFile))
}

// add dismisses finding `which` of the record id names.
func (d *dismisser) add(id, which string, f dismissFlags) int {
	c := d.c
	ref, ok := resolveOne(c, "dismiss", id, here{project: d.project}.record, hintIDs)
	if !ok {
		return exitUsage
	}
	source, findings, err := d.findingsOf(ref)
	if err != nil {
		c.errorf("dismiss: %v", err)
		return exitUsage
	}
	idx, finding, ok := d.pick(findings, which)
	if !ok {
		c.errorf("dismiss: %s has no finding %q (it has %d)", source, which, len(findings))
		c.hint("tribunal-session show %s lists its findings, numbered [1], [2], …", id)
		return exitUsage
	}
	lines := dismiss.Lines(d.root, finding.File)
	if finding.File != "" && finding.Line > 0 && dismiss.ContextOf(lines, finding.Line) == "" {
		c.errorf("dismiss: the finding cites %s:%d, which is not in your work tree: its dismissal could never match", finding.File, finding.Line)
		c.hint("apply the task's change first (tribunal-session apply %s), then dismiss its finding", source)
		return exitUsage
	}
	e := dismiss.Entry{Fingerprint: dismiss.Fingerprint(finding, dismiss.ContextOf(lines, finding.Line)), Source: source, Index: idx,
		File: finding.File, Line: finding.Line, Topic: finding.Criterion, Severity: finding.Severity, Message: finding.Message,
		Reason: strings.Join(strings.Fields(f.reason), " "), By: d.by, At: d.now.Format(time.RFC3339)}
	if e.Topic == "" && e.File == "" {
		e.Topic = finding.Severity
	}
	scope, err := d.store(e, f.shared)
	if err != nil {
		c.errorf("dismiss: %v", err)
		c.linkHint(err)
		return exitUsage
	}
	if scope == "" {
		c.progressf("finding %d of %s is already dismissed (%s)", idx, source, e.Fingerprint)
		fmt.Fprintln(c.stdout, e.Fingerprint)
		return 0
	}
	e.Scope = scope
	d.ledger("dismiss", e)
	c.progressf("dismissed finding %d of %s (%s, %s): %s", idx, source, e.Fingerprint, scope, oneLine(e.Reason, 200))
	if f.shared {
		c.progressf("commit %s to share it with the team", dismiss.SharedFile)
	}
	fmt.Fprintln(c.stdout, e.Fingerprint)
	return 0
}

// store adds e to the personal list or the shared file; the scope is ""
// when the fingerprint is dismissed there already.
func (d *dismisser) store(e dismiss.Entry, shared bool) (string, error) {
	if shared {
		path := d.sharedPath()
		es, err := dismiss.ReadShared(path)
		if err != nil {
			return "", err
		}
		for _, x := range es {
			if x.Fingerprint == e.Fingerprint {
				return "", nil
			}
		}
		if err := dismiss.AppendShared(path, e); err != nil {
			return "", err
		}
		return dismiss.Shared, nil
	}
	scope := dismiss.Personal
	err := dismiss.UpdatePersonal(d.personalPath(), func(es []dismiss.Entry) ([]dismiss.Entry, error) {
		for _, x := range es {
			if x.Fingerprint == e.Fingerprint {
				scope = ""
				return nil, dismiss.ErrUnchanged
			}
		}
		return append(es, e), nil
	})
	return scope, err
}

// undo removes the dismissal of fingerprint fp.
func (d *dismisser) undo(fp string, shared bool) int {
	c := d.c
	e := dismiss.Entry{Fingerprint: fp, By: d.by, At: d.now.Format(time.RFC3339)}
	if shared {
		path := d.sharedPath()
		text, err := dismiss.ReadSharedText(path)
		if err != nil {
			c.errorf("dismiss: %v", err)
			c.linkHint(err)
			return exitUsage
		}
		out, removed := dismiss.RemoveShared(text, fp)
		if !removed {
			c.errorf("dismiss: %s does not dismiss %s", dismiss.SharedFile, fp)
			c.hint("tribunal-session dismissals lists the dismissals and their fingerprints")
			return exitUsage
		}
		if err := dismiss.ReplaceShared(path, out); err != nil {
			c.errorf("dismiss: %v", err)
			c.linkHint(err)
			return exitUsage
		}
		e.Scope = dismiss.Shared
	} else {
		errNotDismissed := errors.New("not dismissed")
		err := dismiss.UpdatePersonal(d.personalPath(), func(es []dismiss.Entry) ([]dismiss.Entry, error) {
			left := dismiss.Without(es, fp)
			if len(left) == len(es) {
				return nil, errNotDismissed
			}
			for _, x := range es {
				if x.Fingerprint == fp {
					e.Source, e.File, e.Line, e.Topic, e.Message = x.Source, x.File, x.Line, x.Topic, x.Message
				}
			}
			return left, nil
		})
		if errors.Is(err, errNotDismissed) {
			c.errorf("dismiss: you have not dismissed %s", fp)
			c.hint("tribunal-session dismissals lists the dismissals (--shared undoes one of %s)", dismiss.SharedFile)
			return exitUsage
		}
		if err != nil {
			c.errorf("dismiss: %v", err)
			return exitUsage
		}
		e.Scope = dismiss.Personal
	}
	d.ledger("undo", e)
	c.progressf("undid the dismissal %s (%s): judges may raise the finding again", fp, e.Scope)
	return 0
}

// ledger appends the dismissal (or its undoing) to the signed ledger; a
// failure is a warning, as for every other entry.
func (d *dismisser) ledger(action string, e dismiss.Entry) {
	id := e.Source
	if id == "" {
		id = e.Fingerprint
	}
	rec := struct {
		Action string `json:"action"`
		dismiss.Entry
	}{action, e}
	if _, err := ledger.Append(ledger.PathFor(d.project.Dir), ledger.KeyDir(d.onlooker), ledger.KindDismiss,
		ledger.Fields{TaskID: id}, rec, d.now); err != nil {
		d.c.warning(fmt.Sprintf("the dismissal is not in the ledger: %v", err))
	}
}

// findingsOf lists the findings of a record in the order `show` numbers
// them: a task's last iteration's, or an advisory verdict's one finding
// (its feedback, on no file).
func (d *dismisser) findingsOf(ref history.Ref) (string, []severity.Finding, error) {
	if ref.Kind == history.KindAdvisory {
		v, err := history.ShowAdvisory(d.project.Dir, d.logPath, ref.StopPath)
		if err != nil {
			return "", nil, err
		}
		if strings.TrimSpace(v.Feedback) == "" {
			return v.TaskID, nil, nil
		}
		return v.TaskID, []severity.Finding{{Severity: "advisory", Criterion: "stop", Message: v.Feedback}}, nil
	}
	v := history.ShowTask(d.project.Dir, d.logPath, ref.TaskID)
	for i := len(v.Iterations) - 1; i >= 0; i-- {
		if g := v.Iterations[i].Gate; g != nil {
			return ref.TaskID, g.Findings, nil
		}
	}
	return ref.TaskID, nil, nil
}

// pick finds the finding named by its 1-based number or its fingerprint
// (computed in the work tree).
func (d *dismisser) pick(fs []severity.Finding, which string) (int, severity.Finding, bool) {
	if n, err := strconv.Atoi(strings.Trim(which, "[]")); err == nil {
		if n < 1 || n > len(fs) {
			return 0, severity.Finding{}, false
		}
		return n, fs[n-1], true
	}
	for i, f := range fs {
		if dismiss.Of(d.root, f) == which {
			return i + 1, f, true
		}
	}
	return 0, severity.Finding{}, false
}

// linkHint says what to do about a symbolic link in the repository's
// .tribunal, which tribunal neither reads nor writes through.
func (c *cli) linkHint(err error) {
	if errors.Is(err, store.ErrLinkInRepo) {
		c.hint("make .tribunal a real directory of the repository, with real files (git rm the link, then mkdir .tribunal); a link there could point anywhere")
	}
}
