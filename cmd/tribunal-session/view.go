package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/history"
	"github.com/tribunal-cc/tribunal/internal/present/report"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/records"
)

const viewHelp = `usage: tribunal-session view [TASK_ID|SESSION_ID|last] [-o FILE] [--open]

Writes one self-contained HTML page (styles, script and chart inline; no
network) and prints its path. For a task: the outcome and the gate's
reason, the score per iteration against the threshold, each iteration's
criteria × judges grid, dissent, trust, meta-judge, findings, what the
actor changed and the recorded model output, and the task's ledger
entries with whether verify holds for them. Without an id: an index of
every task and advisory verdict of this project on a timeline,
filterable by outcome, with a page for each task beside it. A tune run's
id (tribunal-session tune) gives its page: the outcome and its reason,
every candidate with its train figures, every held-out pair, the diff.

  -o FILE   where to write the page (without an id: the index; the task
            pages go beside it). Default: the project's view/ directory
            under the tribunal store.
  --open    open the page with the platform's opener ($BROWSER if set).

Exit status: 0 written; 3 written, but a recorded file is missing or
corrupt (each is named on stderr and in a banner on the page); 2 usage
error, unknown or ambiguous id, or not inside a git repository.
`

func (c *cli) viewCmd(ctx context.Context, args []string) int {
	var out string
	var open bool
	pos, code := c.historyFlags("view", viewHelp, args, func(fs *flag.FlagSet) {
		fs.StringVar(&out, "o", "", "")
		fs.BoolVar(&open, "open", false, "")
	})
	if code >= 0 {
		return code
	}
	if len(pos) > 1 {
		c.errorf("view takes at most one id, got %d", len(pos))
		c.hint("tribunal-session log lists the ids")
		return exitUsage
	}
	h, ok := c.locate(ctx, "view", hintHistory)
	if !ok {
		return exitUsage
	}
	now := time.Now()
	var path string
	var damaged bool
	var err error
	if len(pos) == 0 {
		path, damaged, err = c.writeIndex(h.project, h.logPath, out, now)
	} else if id, ok := tuneRunID(h.project.Dir, pos[0]); ok {
		path, err = c.writeTunePage(h.project, id, out, now)
	} else {
		ref, ok := resolveOne(c, "view", pos[0], h.record, hintIDs)
		if !ok {
			return exitUsage
		}
		path, damaged, err = c.writeOne(h.project, h.logPath, ref, out, now)
	}
	if err != nil {
		c.errorf("view: %v", err)
		c.hint("choose another place with -o FILE")
		return exitIncomplete
	}
	fmt.Fprintln(c.stdout, path)
	if open {
		// The page is written either way: a missing opener is a warning.
		if err := c.openPage(path); err != nil {
			c.warnf("view: cannot open %q: %v", path, err)
			c.hint("open the file in a browser yourself, or set BROWSER to your browser's command")
		}
	}
	return exitStatus(damaged)
}

// pageName is the file name of a record's page: the task id, a judgement
// record's "verdict-<task id>", or the stop file's name.
func pageName(ref history.Ref) string {
	if ref.Kind == history.KindAdvisory && records.IsJudgementPath(ref.StopPath) {
		return "verdict-" + strings.TrimSuffix(filepath.Base(ref.StopPath), records.JSONExt) + ".html"
	}
	if ref.Kind == history.KindAdvisory {
		return strings.TrimSuffix(filepath.Base(ref.StopPath), records.JSONExt) + ".html"
	}
	return ref.TaskID + ".html"
}

// viewDir is where pages go by default: beside the records, never in the
// repository (the page holds model output and paths of this machine).
func viewDir(project store.Project) string { return filepath.Join(project.Dir, "view") }

func (c *cli) writeOne(project store.Project, logPath string, ref history.Ref, out string, now time.Time) (string, bool, error) {
	path := out
	// A page in the view directory links the index an earlier 'view'
	// wrote there; a page elsewhere stands alone.
	index := ""
	if path == "" {
		path = filepath.Join(viewDir(project), pageName(ref))
		if _, err := os.Stat(filepath.Join(viewDir(project), "index.html")); err == nil {
			index = "index.html"
		}
	}
	var buf bytes.Buffer
	var problems []records.Problem
	if ref.Kind == history.KindAdvisory {
		v, err := history.ShowAdvisory(project.Dir, logPath, ref.StopPath)
		if err != nil {
			return "", false, err
		}
		problems = v.Problems
		if err := report.Advisory(&buf, v, index, now); err != nil {
			return "", false, err
		}
	} else {
		v := history.ShowTask(project.Dir, logPath, ref.TaskID)
		problems = v.Problems
		if err := report.Task(&buf, report.TaskInput{View: v, Ledger: c.ledgerAudit(project), IndexHref: index, Now: now}); err != nil {
			return "", false, err
		}
	}
	c.reportProblems(problems)
	if err := writePage(path, buf.Bytes()); err != nil {
		return "", false, err
	}
	return path, len(problems) > 0, nil
}

// writeIndex writes the index page and every task's page beside it.
func (c *cli) writeIndex(project store.Project, logPath, out string, now time.Time) (string, bool, error) {
	res := history.Log(project.Dir, logPath, history.LogOptions{})
	c.reportProblems(res.Problems)
	path := out
	if path == "" {
		path = filepath.Join(viewDir(project), "index.html")
	} else if fi, err := os.Stat(path); (err == nil && fi.IsDir()) || strings.HasSuffix(path, string(filepath.Separator)) {
		path = filepath.Join(path, "index.html")
	}
	dir := filepath.Dir(path)
	damaged := len(res.Problems) > 0
	audit := c.ledgerAudit(project)
	for _, e := range res.Entries {
		if e.Kind == history.KindAdvisory {
			v, err := history.ShowAdvisory(project.Dir, logPath, e.Ref(project.Dir).StopPath)
			if err != nil {
				// Log could read it a moment ago; it is listed without a page.
				continue
			}
			var buf bytes.Buffer
			if err := report.Advisory(&buf, v, filepath.Base(path), now); err != nil {
				return "", damaged, err
			}
			if err := writePage(filepath.Join(dir, pageName(e.Ref(project.Dir))), buf.Bytes()); err != nil {
				return "", damaged, err
			}
			continue
		}
		v := history.ShowTask(project.Dir, logPath, e.TaskID)
		// A task's own problems are on its page; the index lists only
		// what it could not read itself.
		var buf bytes.Buffer
		if err := report.Task(&buf, report.TaskInput{View: v, Ledger: audit, IndexHref: filepath.Base(path), Now: now}); err != nil {
			return "", damaged, err
		}
		if err := writePage(filepath.Join(dir, pageName(e.Ref(project.Dir))), buf.Bytes()); err != nil {
			return "", damaged, err
		}
	}
	var buf bytes.Buffer
	err := report.Index(&buf, report.IndexInput{Project: project.Dir, Log: res, Now: now,
		Href: func(e history.Entry) string {
			return pageName(e.Ref(project.Dir))
		}})
	if err != nil {
		return "", damaged, err
	}
	return path, damaged, writePage(path, buf.Bytes())
}

// ledgerAudit reads the project's ledger for display; nil when the
// project has none. A ledger that cannot be read at all is reported and
// the pages are written without it.
func (c *cli) ledgerAudit(project store.Project) *ledger.Audit {
	a, err := ledger.ReadAudit(ledger.PathFor(project.Dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		c.errorf("view: the ledger %q: %v", ledger.PathFor(project.Dir), err)
		return nil
	}
	return &a
}

func writePage(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return store.WriteFileAtomic(path, data, 0o600)
}

// openPage opens path with $BROWSER when it is set (as xdg-open does),
// else the platform's opener. Openers return at once; a $BROWSER that is
// the browser itself is left running after a few seconds.
func (c *cli) openPage(path string) error {
	var argv []string
	if b := strings.Fields(c.getenv("BROWSER")); len(b) > 0 {
		argv = append(b, path)
	} else {
		switch runtime.GOOS {
		case "darwin":
			argv = []string{"open", path}
		case "windows":
			argv = []string{"rundll32", "url.dll,FileProtocolHandler", path}
		default:
			argv = []string{"xdg-open", path}
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		return err
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		return nil
	}
}
