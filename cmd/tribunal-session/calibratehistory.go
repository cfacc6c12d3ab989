package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tribunal-cc/tribunal/internal/dismiss"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/judging/calibrate"
	"github.com/tribunal-cc/tribunal/internal/judging/judgestats"
)

// fromHistoryFlags checks --from-history and --write-cases together:
// the cases built from history are always written for review first, so
// --from-history needs --write-cases FILE, takes no --cases and judges
// nothing. -1 means go on.
func (c *cli) fromHistoryFlags(fs *flag.FlagSet, opts calibrate.Options) int {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	switch {
	case opts.FromHistory && opts.WriteCases == "":
		c.errorf("calibrate: --from-history needs --write-cases FILE")
		c.hint("the cases are written for you to review and edit first; then run: tribunal-session calibrate --cases FILE")
		return exitUsage
	case !opts.FromHistory && set["write-cases"]:
		c.errorf("calibrate: --write-cases FILE goes with --from-history")
		return exitUsage
	case opts.FromHistory && opts.CasesPath != "":
		c.errorf("calibrate: --from-history builds the cases; it takes no --cases")
		c.hint("write them with --from-history --write-cases FILE, review them, then run --cases FILE")
		return exitUsage
	case opts.FromHistory:
		for _, other := range []string{"stop", "swap", "jobs", "rubric", "holdout", "against", "json"} {
			if set[other] {
				c.errorf("calibrate: --%s judges cases; --from-history only writes them", other)
				c.hint("write the cases first, then run: tribunal-session calibrate --cases FILE --%s …", other)
				return exitUsage
			}
		}
	}
	return -1
}

// calibrateFromHistory writes the cases labelled by the user's decisions
// in this repository's history to path. It reads the store, the
// dismissals and the work tree; it writes only path.
func (c *cli) calibrateFromHistory(ctx context.Context, dir, path string) int {
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		c.errorf("calibrate: %s already exists; --write-cases never overwrites a file", path)
		c.hint("give a new file name, or remove the old file first")
		return exitUsage
	}
	project, err := c.projectDir(ctx, dir)
	if err != nil {
		c.errorf("calibrate: %v", err)
		c.hint("run it inside the repository whose history you want to learn from")
		return exitUsage
	}
	root, _ := projectkey.FindWorktreeRoot(dir)
	cases, skipped, err := calibrate.FromHistory(ctx, calibrate.HistoryInput{
		ProjectDir: project.Dir, WorkTree: root, SharedDismissals: filepath.Join(root, filepath.FromSlash(dismiss.SharedFile)),
		Git: c.git(os.Environ()), TempDir: os.TempDir(),
	})
	for _, s := range skipped {
		c.progressf("%s: not a case: %s", s.ID, s.Why)
	}
	if errors.Is(err, calibrate.ErrNoDecisions) {
		c.errorf("calibrate: %v", err)
		c.hint("apply or discard a kept task (tribunal-session apply|discard ID), or dismiss a finding you think wrong (tribunal-session dismiss), then try again")
		return exitUsage
	}
	if err != nil {
		c.errorf("calibrate: %v", err)
		return exitUsage
	}
	if err := calibrate.WriteCases(path, cases, skipped); err != nil {
		c.errorf("calibrate: cannot write the cases: %v", err)
		return exitUsage
	}
	accept := 0
	for _, cs := range cases {
		if cs.Label == judgestats.Accept {
			accept++
		}
	}
	fmt.Fprintf(c.stdout, "wrote %d case(s) labelled from your decisions (%d accept, %d reject) to %s; review and edit them, then run: tribunal-session calibrate --cases %s\n",
		len(cases), accept, len(cases)-accept, path, path)
	return 0
}
