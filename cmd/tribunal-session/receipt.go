package main

import (
	"context"
	"crypto/ed25519"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/git/projectkey"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/session"
	"github.com/tribunal-cc/tribunal/internal/store"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
	"github.com/tribunal-cc/tribunal/internal/store/receipt"
)

// judgedHint follows a tree mismatch: what a receipt can vouch for.
const judgedHint = "a receipt vouches only for the change its judges saw, from its judged base to this commit's tree: judge the change again from where it starts (tribunal-session review --base <merge base>) and write its receipt"

// exitFor is verify-receipt's exit status for a status: 0 and 30–34 in
// order of severity, so that a range's status is its worst commit's.
var exitFor = map[receipt.Status]int{
	receipt.Valid:        0,
	receipt.Missing:      exitReceiptMissing,
	receipt.NotPassed:    exitReceiptNotPassed,
	receipt.TreeMismatch: exitReceiptTree,
	receipt.NotAllowed:   exitReceiptSigner,
	receipt.BadSignature: exitReceiptBad,
}

// receiptRepo is the git of the current directory's repository and the
// notes ref receipts use (the user's tribunal.receipts.notes_ref, else
// the default).
func (c *cli) receiptRepo(name string) (receipt.Git, string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		c.errorf("%s: cannot determine the current directory: %v", name, err)
		return receipt.Git{}, "", false
	}
	root, err := projectkey.FindWorktreeRoot(dir)
	if err != nil {
		c.errorf("%s: %q is not inside a git work tree", name, dir)
		c.hint("run it inside the repository whose commits carry the receipts")
		return receipt.Git{}, "", false
	}
	cfg := config.Load(config.Sources{PluginRoot: c.getenv("CLAUDE_PLUGIN_ROOT"), Home: c.home(), WorktreeRoot: root, Warn: c.warning})
	ref := cfg.ReceiptsRef()
	if ref == "" {
		ref = receipt.DefaultRef
	}
	if !strings.HasPrefix(ref, "refs/notes/") || strings.ContainsAny(ref, " \t\n:") {
		c.errorf("%s: tribunal.receipts.notes_ref %q is not a notes ref", name, ref)
		c.hint("name a ref under refs/notes/, e.g. %s", receipt.DefaultRef)
		return receipt.Git{}, "", false
	}
	return receipt.Git{Path: "git", Env: os.Environ(), Dir: root}, ref, true
}

// receiptCmd writes receipts for recorded verdicts, or prints the
// allowed-signers line of the user's key.
func (c *cli) receiptCmd(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("receipt", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pub := fs.Bool("public-key", false, "print your allowed-signers line")
	principal := fs.String("principal", "", "the name --public-key prints")
	dry := fs.Bool("dry-run", false, "say what would be written")
	if err := fs.Parse(args); err != nil {
		return c.flagError("receipt", fs, err)
	}
	if (*pub && fs.NArg() != 0) || (!*pub && fs.NArg() != 1) {
		c.errorf("usage: tribunal-session receipt [--dry-run] <commit|range>, or receipt --public-key [--principal NAME]")
		return exitUsage
	}
	g, ref, ok := c.receiptRepo("receipt")
	if !ok {
		return exitUsage
	}
	if *pub {
		return c.publicKeyLine(ctx, g, *principal)
	}
	h, ok := c.locate(ctx, "receipt", hintHistory)
	if !ok {
		return exitUsage
	}
	project := h.project
	commits, err := g.Commits(ctx, fs.Arg(0))
	if err != nil {
		c.errorf("receipt: %v", err)
		c.hint("give a commit (HEAD, a hash) or a range (main..HEAD)")
		return exitUsage
	}
	tasks, warnings := session.AcceptedTasks(project.Dir, c.receiptAudit(project))
	matches, more, err := receipt.MatchTasks(ctx, g, commits, tasks)
	for _, w := range append(warnings, more...) {
		c.warning(w)
	}
	if err != nil {
		c.errorf("receipt: %v", err)
		return exitAborted
	}
	return c.writeReceipts(ctx, g, ref, commits, matches, *dry)
}

// receiptAudit is the project's ledger read for the entries receipts
// name; nil when it has none.
func (c *cli) receiptAudit(project store.Project) *ledger.Audit {
	a, err := ledger.ReadAudit(ledger.PathFor(project.Dir))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			c.warnf("the ledger cannot be read, so receipts name no ledger entry: %v", err)
		}
		return nil
	}
	if a.Err != nil {
		c.warnf("the ledger does not verify from entry %d on; receipts name only entries before it (tribunal-session verify says more)", a.Holds)
	}
	return &a
}

func (c *cli) writeReceipts(ctx context.Context, g receipt.Git, ref string, commits []receipt.Commit, ms []receipt.Match, dry bool) int {
	matched := map[string]bool{}
	refused := 0
	for _, m := range ms {
		matched[m.Commit.ID] = true
		if m.Refused != "" {
			refused++
			fmt.Fprintf(c.stdout, "%s no receipt: task %s produced this tree, but %s\n", shortID(m.Commit.ID), m.Task.TaskID, m.Refused)
		}
	}
	for _, cm := range commits {
		if !matched[cm.ID] {
			fmt.Fprintf(c.stdout, "%s no receipt: no recorded accepted task produced this tree\n", shortID(cm.ID))
		}
	}
	if refused > 0 {
		c.hint("a receipt vouches only for what a judge saw: commit the work a task starts from before running it, or judge the whole change (tribunal-session review --base <branch point>)")
	}
	if len(ms) == 0 {
		c.hint("a receipt follows an accepted /tribunal task whose tree a commit holds; 'tribunal-session log --outcome accepted' lists them")
		return exitReceiptMissing
	}
	if refused == len(ms) {
		return exitReceiptTree
	}
	rs, err := receipt.Receipts(ctx, g, ms)
	if err != nil {
		c.errorf("receipt: %v", err)
		return exitAborted
	}
	if dry {
		for _, m := range ms {
			if m.Refused != "" {
				continue
			}
			fmt.Fprintf(c.stdout, "%s would get a receipt: task %s (%s)\n", shortID(m.Commit.ID), m.Task.TaskID, m.Rule)
		}
		return 0
	}
	written, err := receipt.Write(ctx, g, receipt.Options{Ref: ref, KeyDir: c.keyDir(), Now: time.Now()}, rs)
	for _, w := range written {
		for _, warn := range w.Warnings {
			c.warning(warn)
		}
		fmt.Fprintf(c.stdout, "%s receipt written (%s): %s\n", shortID(w.Receipt.Commit), w.Receipt.Judged.Match, w.Receipt.Summary())
	}
	if err != nil {
		c.errorf("receipt: %v", err)
		return exitAborted
	}
	c.progressf("%d receipt(s) in %s; share them with: git push origin %s", len(written), ref, ref)
	if refused > 0 {
		return exitReceiptTree
	}
	return 0
}

// publicKeyLine prints the allowed-signers line of the user's signing key
// (creating the key on first use, as the ledger does).
func (c *cli) publicKeyLine(ctx context.Context, g receipt.Git, principal string) int {
	key, err := ledger.LoadOrCreateKey(c.keyDir())
	if err != nil {
		c.errorf("receipt --public-key: %v", err)
		return exitAborted
	}
	if principal == "" {
		principal = g.UserEmail(ctx)
	}
	if principal == "" {
		principal = "me"
		c.warning("git has no user.email here; the line names you \"me\": pass --principal NAME")
	}
	pub := key.Public().(ed25519.PublicKey)
	fmt.Fprintln(c.stdout, receipt.SignerLine(principal, pub))
	c.progressf("key %s; add the line to %s in the repository (one line per person who may sign receipts)", ledger.Fingerprint(pub), receipt.SignersFile)
	return 0
}

// verifyReceiptCmd checks the receipts of a commit or range.
func (c *cli) verifyReceiptCmd(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("verify-receipt", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	signersPath := fs.String("allowed-signers", "", "the allowed-signers file")
	if err := fs.Parse(args); err != nil {
		return c.flagError("verify-receipt", fs, err)
	}
	if fs.NArg() != 1 {
		c.errorf("usage: tribunal-session verify-receipt [--allowed-signers FILE] <commit|range>")
		return exitUsage
	}
	g, ref, ok := c.receiptRepo("verify-receipt")
	if !ok {
		return exitUsage
	}
	// The repository's own file is read through no symbolic link (a
	// committed .tribunal link could name any file as the trust list); a
	// file the user names is theirs to link.
	depth := 0
	if *signersPath == "" {
		*signersPath = filepath.Join(g.Dir, filepath.FromSlash(receipt.SignersFile))
		depth = strings.Count(receipt.SignersFile, "/") + 1
	}
	signers, ok := c.readSigners("verify-receipt", *signersPath, depth)
	if !ok {
		return exitUsage
	}
	results, err := receipt.VerifyRange(ctx, g, ref, fs.Arg(0), signers)
	if err != nil {
		c.errorf("verify-receipt: %v", err)
		c.hint("give a commit (HEAD, a hash) or a range (main..HEAD)")
		return exitUsage
	}
	counts := map[receipt.Status]int{}
	for _, r := range results {
		counts[r.Status]++
		c.printResult(r, ref)
	}
	worst := receipt.Worst(results)
	var parts []string
	for s := receipt.Valid; s <= receipt.BadSignature; s++ {
		if counts[s] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[s], s))
		}
	}
	fmt.Fprintf(c.stdout, "%d commit(s): %s; exit %d (%s)\n", len(results), strings.Join(parts, ", "), exitFor[worst], worst)
	if worst == receipt.TreeMismatch {
		c.hint(judgedHint)
	}
	return exitFor[worst]
}

// readSigners reads the allowed-signers file at path for command cmd,
// whose name its errors carry (verify-receipt, verdict verify).
func (c *cli) readSigners(cmd, path string, linkDepth int) (receipt.Signers, bool) {
	data, err := store.ReadRepoFile(path, linkDepth, maxSignersFile)
	if errors.Is(err, store.ErrLinkInRepo) {
		c.errorf("%s: cannot read the allowed-signers file: %v", cmd, err)
		c.linkHint(err)
		return receipt.Signers{}, false
	}
	if err != nil {
		shown := path
		if linkDepth > 0 { // the repository's own file, named from its root
			shown = receipt.SignersFile
		}
		c.errorf("%s: cannot read the allowed-signers file: %v", cmd, err)
		c.hint("create it: tribunal-session receipt --public-key >> %s (each signer adds their line), or name another with --allowed-signers FILE", shown)
		return receipt.Signers{}, false
	}
	signers, warnings, err := receipt.ParseSigners(path, data, time.Local)
	for _, w := range warnings {
		c.warning(w)
	}
	if err != nil {
		c.errorf("%s: %v", cmd, err)
		c.hint("each line is <principal> [options] ssh-ed25519 <base64 key> [comment], as receipt --public-key prints it; options are namespaces=\"…\", valid-after=\"…\" and valid-before=\"…\", comma-separated")
		return receipt.Signers{}, false
	}
	if signers.Len() == 0 {
		c.warnf("%s allows no ssh-ed25519 key: every signer will be refused", path)
	}
	return signers.At(time.Now()), true
}

// printResult prints one commit's line and a line per receipt in it.
func (c *cli) printResult(r receipt.Result, ref string) {
	if len(r.Findings) == 0 {
		fmt.Fprintf(c.stdout, "%s %s: no receipt in %s\n", shortID(r.Commit.ID), r.Status, ref)
		return
	}
	fmt.Fprintf(c.stdout, "%s %s\n", shortID(r.Commit.ID), r.Status)
	for _, f := range r.Findings {
		who := ""
		if f.Principal != "" {
			who = " by " + f.Principal
		}
		fmt.Fprintf(c.stdout, "  %s%s: %s\n", f.Status, who, safetext.OneLine(f.Reason, 1000))
	}
}

// receiptNote says, after an accepted change reached the working tree,
// how its verdict follows it into a commit: the receipt waits for the
// commit that holds the change (spec §11.3).
func (c *cli) receiptNote(rep *session.Report) {
	if rep.Isolation != nil && rep.Isolation.State == "applied" {
		c.progressf("task %s: once you commit the change, 'tribunal-session receipt HEAD' attaches this verdict to the commit as a signed git note", rep.TaskID)
	}
}

// maxSignersFile bounds the allowed-signers file (one short line a signer).
const maxSignersFile = 1 << 20
