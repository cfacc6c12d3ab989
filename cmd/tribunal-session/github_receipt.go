package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/present/reviewfmt"
	"github.com/tribunal-cc/tribunal/internal/store/receipt"
)

// githubReceipt checks the pull request's head for a valid receipt
// against the allowed signers of its base commit, writes the result as a
// comment body (--markdown) and the step outputs receipt and
// receipt-signer, and exits as verify-receipt does (0, 30–34; 2 when the
// base allows no one).
func (c *cli) githubReceipt(ctx context.Context, args []string) int {
	fs := flag.NewFlagSet("github receipt", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	markdown := fs.String("markdown", "", "")
	reviewFollows := fs.Bool("review-follows", false, "")
	if err := fs.Parse(args); err != nil {
		return c.flagError("github receipt", fs, err)
	}
	if *markdown == "" || fs.NArg() > 0 {
		c.errorf("github receipt: --markdown FILE is required and nothing else is taken but --review-follows")
		c.hint("tribunal-session github receipt --markdown \"$RUNNER_TEMP/receipt.md\"")
		return exitUsage
	}
	pr, ok := c.githubEvent("receipt")
	if !ok {
		return exitUsage
	}
	g, ref, ok := c.receiptRepo("github receipt")
	if !ok {
		return exitUsage
	}
	signers, ok := c.baseSigners(ctx, g, pr.Base)
	if !ok {
		return exitUsage
	}
	r, err := receipt.VerifyHead(ctx, g, ref, pr.Head, pr.Base, signers)
	if err != nil {
		c.errorf("github receipt: check the head %s of pull request #%d: %v", shortID(pr.Head), pr.Number, err)
		c.hint("fetch the head and enough history for its merge base: git fetch origin %s %s", pr.Base, pr.Head)
		return exitUsage
	}
	check := reviewfmt.ReceiptCheck{Head: pr.Head, Ref: ref, SignersFrom: pr.Base, Status: r.Status.String(),
		Valid: r.Status == receipt.Valid, ReviewFollows: *reviewFollows && r.Status != receipt.Valid}
	for _, f := range r.Findings {
		if f.Status == receipt.Valid && check.Principal == "" {
			check.Principal = f.Principal
		}
		check.Detail = append(check.Detail, fmt.Sprintf("%s %s: %s", f.Status, f.Principal, f.Reason))
	}
	c.printResult(r, ref)
	if r.Status == receipt.TreeMismatch {
		c.hint(judgedHint)
	}
	if err := os.WriteFile(*markdown, []byte(reviewfmt.ReceiptMarkdown(check)), 0o600); err != nil {
		c.errorf("github receipt: write %s: %v", *markdown, err)
		return exitPublishFailed
	}
	if code := c.githubOutputs("receipt", [][2]string{
		{"receipt", strings.ReplaceAll(r.Status.String(), " ", "-")}, {"receipt-signer", check.Principal},
	}); code != 0 {
		return code
	}
	return exitFor[r.Status]
}

// baseSigners reads .tribunal/allowed_signers from the base commit: the
// pull request under check must not be able to name its own signers.
func (c *cli) baseSigners(ctx context.Context, g receipt.Git, base string) (receipt.Signers, bool) {
	data, err := g.FileAt(ctx, base, receipt.SignersFile)
	if err != nil {
		c.errorf("github receipt: read the allowed signers from the base: %v", err)
		if errors.Is(err, receipt.ErrNoFile) {
			c.hint("commit %s on the base branch (each signer adds the line 'tribunal-session receipt --public-key' prints); the pull request's own copy is not trusted", receipt.SignersFile)
		} else {
			c.hint("fetch the base commit: git fetch origin %s", base)
		}
		return receipt.Signers{}, false
	}
	signers, warnings, err := receipt.ParseSigners(base[:min(len(base), 12)]+":"+receipt.SignersFile, data, time.Local)
	for _, w := range warnings {
		c.warning(w)
	}
	if err != nil {
		c.errorf("github receipt: %v", err)
		c.hint("each line is <principal> [options] ssh-ed25519 <base64 key> [comment], as receipt --public-key prints it; options are namespaces=\"…\", valid-after=\"…\" and valid-before=\"…\", comma-separated")
		return receipt.Signers{}, false
	}
	return signers.At(time.Now()), true
}
