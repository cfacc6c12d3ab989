package reviewfmt

import (
	"fmt"
	"strings"
)

// ReceiptCheck is what CI found when it looked for a receipt on a pull
// request's head instead of (or before) reviewing it.
type ReceiptCheck struct {
	// Head is the commit checked, Ref the notes ref read and SignersFrom
	// the commit whose allowed-signers file was trusted (the base).
	Head, Ref, SignersFrom string
	// Status is verify-receipt's word for the head (valid, missing, …)
	// and Valid whether it lets the pull request pass.
	Status string
	Valid  bool
	// Principal signed the valid receipt; Detail is verify-receipt's line
	// for each receipt on the commit (untrusted: a receipt that failed
	// its signature check says whatever its writer wrote).
	Principal string
	Detail    []string
	// ReviewFollows: no valid receipt, so a fresh review decides.
	ReviewFollows bool
}

// ReceiptMarkdown is the PR comment and job summary for a receipt check.
// It starts with Marker, so the one review comment is kept up to date
// whether a receipt or a review decided the last push.
func ReceiptMarkdown(c ReceiptCheck) string {
	var b strings.Builder
	b.WriteString(Marker + "\n")
	head := codeSpan(shortCommit(c.Head), 16)
	if c.Valid {
		fmt.Fprintf(&b, "## tribunal receipt: valid\n\n")
		fmt.Fprintf(&b, "The head commit %s carries a receipt signed by %s, an allowed signer on the base %s, for exactly this tree with a verdict that passed. No review was run: the change was judged where it was made.\n\n",
			head, codeSpan(c.Principal, maxCell), codeSpan(shortCommit(c.SignersFrom), 16))
	} else {
		fmt.Fprintf(&b, "## tribunal receipt: %s\n\n", inline(c.Status, 40))
		fmt.Fprintf(&b, "The head commit %s has no valid receipt in %s (%s).", head, codeSpan(c.Ref, maxCell), inline(c.Status, 40))
		if c.ReviewFollows {
			b.WriteString(" A fresh review decides instead.\n\n")
		} else {
			b.WriteString(" This job requires one.\n\n")
		}
	}
	if len(c.Detail) > 0 {
		b.WriteString("<details><summary>verify-receipt</summary>\n\n")
		b.WriteString(codeBlock(strings.Join(c.Detail, "\n"), maxCell))
		b.WriteString("\n\n</details>\n\n")
	}
	if !c.Valid {
		b.WriteString("To give this commit a receipt: judge the change with `/tribunal` (or `tribunal-session review`), commit it, run `tribunal-session receipt HEAD`, and push the notes with `git push origin " + c.Ref + "`. The signer's line must be in `.tribunal/allowed_signers` on the base branch.\n")
	}
	return b.String()
}

func shortCommit(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
