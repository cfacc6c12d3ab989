package receipt

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

// Options say where receipts go and who signs them.
type Options struct {
	// Ref is the notes ref (DefaultRef unless the user's settings say
	// otherwise); KeyDir the ledger's key directory, whose current key
	// signs (created on first use, as for the ledger).
	Ref    string
	KeyDir string
	Now    time.Time
}

// Written is one receipt that was written, with what the note merge had
// to drop.
type Written struct {
	Receipt  Receipt
	Warnings []string
}

// Write signs each receipt and merges it into its commit's note: one
// receipt per signer per commit, the newest (see Merge). All the notes
// are written in one notes commit (Git.WriteNotes), which fails rather
// than overwrite a concurrent writer's.
func Write(ctx context.Context, g Git, o Options, rs []Receipt) ([]Written, error) {
	key, err := ledger.LoadOrCreateKey(o.KeyDir)
	if err != nil {
		return nil, err
	}
	base, err := g.Tip(ctx, o.Ref)
	if err != nil {
		return nil, err
	}
	commits := make([]Commit, len(rs))
	for i, r := range rs {
		commits[i] = Commit{ID: r.Commit}
	}
	notes, err := g.NotesAt(ctx, base, commits)
	if err != nil {
		return nil, err
	}
	out := make([]Written, 0, len(rs))
	var writes []NoteWrite
	at := map[string]int{}
	for _, r := range rs {
		signed, err := Sign(r, key, o.Now)
		if err != nil {
			return nil, err
		}
		note, warnings, err := Merge(notes[r.Commit], signed)
		if err != nil {
			return nil, err
		}
		// A commit named twice gets one note: the later merge starts from
		// the earlier one.
		notes[r.Commit] = note
		if i, ok := at[r.Commit]; ok {
			writes[i].Note = note
		} else {
			at[r.Commit] = len(writes)
			writes = append(writes, NoteWrite{Commit: r.Commit, Note: note})
		}
		out = append(out, Written{Receipt: signed, Warnings: warnings})
	}
	if len(writes) == 0 {
		return out, nil
	}
	if err := g.WriteNotes(ctx, o.Ref, base, writes); err != nil {
		return nil, err
	}
	return out, nil
}

// ForReview writes the receipt of a review of the change base..head (h/
// review's `tribunal-session review` calls it once its verdict is
// recorded): it is attached to head, vouches for head's tree, and names
// base ("" for the empty tree) and the digest of the diff the judges
// read. v is the verdict as
// recorded (outcome, passed, scores, rubric, models, cost, time, task id
// and ledger entry).
func ForReview(ctx context.Context, g Git, o Options, base, head string, v Verdict) (Written, error) {
	return forChange(ctx, g, o, KindReview, base, head, v)
}

// ForCommit writes the receipt of an advisory verdict on one commit: its
// change from its first parent (from the empty tree for a root commit).
func ForCommit(ctx context.Context, g Git, o Options, commit string, v Verdict) (Written, error) {
	cs, err := g.Commits(ctx, commit)
	if err != nil {
		return Written{}, err
	}
	base := ""
	if len(cs) == 1 && len(cs[0].Parents) > 0 {
		base = cs[0].Parents[0]
	}
	return forChange(ctx, g, o, KindAdvisory, base, commit, v)
}

// forChange writes the receipt of the change base..head to head; base ""
// is the empty tree.
func forChange(ctx context.Context, g Git, o Options, kind, base, head string, v Verdict) (Written, error) {
	cs, err := g.Commits(ctx, head)
	if err != nil {
		return Written{}, err
	}
	if len(cs) != 1 {
		return Written{}, fmt.Errorf("%q is not one commit", head)
	}
	baseCommit, baseTree := "", ""
	if base == "" {
		// The empty tree's id depends on the repository's hash, so git
		// names it.
		out, err := g.run(ctx, []byte{}, "mktree")
		if err != nil {
			return Written{}, err
		}
		baseTree = strings.TrimSpace(string(out))
	} else {
		bs, err := g.Commits(ctx, base)
		if err != nil || len(bs) != 1 {
			return Written{}, fmt.Errorf("base %q is not one commit of this repository: %v", base, err)
		}
		baseCommit, baseTree = bs[0].ID, bs[0].Tree
	}
	digest, err := g.DiffDigest(ctx, baseTree, cs[0].Tree)
	if err != nil {
		return Written{}, err
	}
	r := Receipt{Kind: kind, Commit: cs[0].ID, Tree: cs[0].Tree, Verdict: v,
		Judged: Judged{Base: baseCommit, Head: cs[0].ID, BaseTree: baseTree, Tree: cs[0].Tree, DiffSHA256: digest, Match: MatchReview}}
	w, err := Write(ctx, g, o, []Receipt{r})
	if err != nil {
		return Written{}, err
	}
	return w[0], nil
}
