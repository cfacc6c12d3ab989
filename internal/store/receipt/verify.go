package receipt

import (
	"context"
	"errors"
	"fmt"
)

// Status is what verify finds for a receipt or a commit. The order is
// severity: a commit's status is Valid when one of its receipts is valid
// and no line of its note is edited, else its worst finding's; a range's
// is its worst commit's (spec §11.5).
type Status int

// The statuses, least severe first.
const (
	Valid Status = iota
	Missing
	NotPassed
	TreeMismatch
	NotAllowed
	BadSignature
)

var statusWords = [...]string{"valid", "missing", "not passed", "tree mismatch", "signer not allowed", "signature bad"}

func (s Status) String() string { return statusWords[s] }

// Finding is one receipt's (or one bad line's) status and why.
type Finding struct {
	Status Status
	// Line is the note's line; Receipt is set when the line verified.
	Line    int
	Receipt *Receipt
	// Principal is the allowed-signers name of the signer.
	Principal string
	Reason    string
}

// Result is one commit's verification.
type Result struct {
	Commit   Commit
	Status   Status
	Findings []Finding
}

// Check verifies one commit's note (nil: none) against the allowed
// signers: each receipt's signature, its signer, the tree it vouches for,
// its judged base (base: see BaseCheck) and whether its verdict passed.
func Check(c Commit, note []byte, signers Signers, base BaseCheck) Result {
	res := Result{Commit: c, Status: Missing}
	if note == nil {
		return res
	}
	entries := ParseNote(note)
	if len(entries) == 0 {
		res.Findings = append(res.Findings, Finding{Status: Missing, Reason: "the note holds no receipt"})
		return res
	}
	res.Status = Valid
	best, worst := BadSignature, Valid
	for _, e := range entries {
		f := checkEntry(c, e, signers, base)
		res.Findings = append(res.Findings, f)
		best, worst = min(best, f.Status), max(worst, f.Status)
	}
	// Another signer's receipt that fails for want of a place in the
	// allowed-signers file (or for another tree) is normal in a team; a
	// line that is not what its signer wrote is evidence that the note
	// was edited, and fails the commit even beside a valid receipt.
	if best != Valid || worst == BadSignature {
		res.Status = worst
	}
	return res
}

func checkEntry(c Commit, e Entry, signers Signers, base BaseCheck) Finding {
	f := Finding{Line: e.Line}
	if e.Err != nil {
		f.Status, f.Reason = BadSignature, e.Err.Error()
		return f
	}
	r := e.Receipt
	f.Receipt = &r
	p, why, ok := signers.Allowed(r.Signer.PublicKey)
	f.Principal = p
	switch {
	case !ok && why == "":
		f.Status = NotAllowed
		f.Reason = fmt.Sprintf("signed by %s, which the allowed-signers file does not list", r.Signer.Fingerprint)
	case !ok:
		f.Status = NotAllowed
		f.Reason = fmt.Sprintf("signed by %s, which the allowed-signers file lists but does not allow to sign receipts now: %s", r.Signer.Fingerprint, why)
	case r.Tree != c.Tree:
		f.Status = TreeMismatch
		f.Reason = fmt.Sprintf("the receipt vouches for tree %s (written for commit %s); this commit's tree is %s", r.Tree, r.Commit, c.Tree)
	case r.Judged.Tree != c.Tree:
		f.Status = TreeMismatch
		f.Reason = fmt.Sprintf("the judges saw tree %s, not this commit's tree %s (a receipt matched by change, before receipts required the judged tree)", r.Judged.Tree, c.Tree)
	default:
		f.Status, f.Reason = judgedAndPassed(r, base)
	}
	return f
}

// judgedAndPassed is the last two checks of a receipt whose signer and
// tree hold: its judged base (which may run git), then its verdict.
func judgedAndPassed(r Receipt, base BaseCheck) (Status, string) {
	if why := base(r); why != "" {
		return TreeMismatch, why
	}
	if !r.Passed {
		return NotPassed, fmt.Sprintf("the recorded verdict is %q, which does not pass", r.Outcome)
	}
	return Valid, r.Summary()
}

// VerifyRange checks every commit of spec against signers.
func VerifyRange(ctx context.Context, g Git, ref, spec string, signers Signers) ([]Result, error) {
	commits, err := g.Commits(ctx, spec)
	if err != nil {
		return nil, err
	}
	if len(commits) == 0 {
		return nil, errors.New("the range " + spec + " holds no commit")
	}
	notes, err := g.Notes(ctx, ref, commits)
	if err != nil {
		return nil, err
	}
	known := make(map[string]string, len(commits))
	for _, c := range commits {
		known[c.ID] = c.Tree
	}
	out := make([]Result, 0, len(commits))
	for _, c := range commits {
		bound := ""
		if len(c.Parents) > 0 {
			bound = c.Parents[0]
		}
		out = append(out, Check(c, notes[c.ID], signers, g.BaseCheckFor(ctx, c, bound, known)))
	}
	return out, nil
}

// VerifyHead checks a pull request's head commit against signers, as
// the change from its merge base with target: a receipt vouches for it
// only when its judges saw that change (BaseCheck with the merge base as
// the bound).
func VerifyHead(ctx context.Context, g Git, ref, head, target string, signers Signers) (Result, error) {
	commits, err := g.Commits(ctx, head)
	if err != nil {
		return Result{}, err
	}
	if len(commits) != 1 {
		return Result{}, fmt.Errorf("%q is not one commit", head)
	}
	mb, err := g.MergeBase(ctx, target, commits[0].ID)
	if err != nil {
		return Result{}, err
	}
	notes, err := g.Notes(ctx, ref, commits)
	if err != nil {
		return Result{}, err
	}
	c := commits[0]
	return Check(c, notes[c.ID], signers, g.BaseCheckFor(ctx, c, mb, nil)), nil
}

// Worst is the most severe status of results (Valid for none).
func Worst(results []Result) Status {
	w := Valid
	for _, r := range results {
		w = max(w, r.Status)
	}
	return w
}
