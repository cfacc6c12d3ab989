// Package receipt signs tribunal's verdicts as receipts kept in git notes
// beside the commits they judged, and verifies them against a repository's
// allowed signers.
package receipt

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/tribunal-cc/tribunal/internal/jcs"
	"github.com/tribunal-cc/tribunal/internal/store/ledger"
)

// The receipt format (spec §11.1). A receipt is one line of RFC 8785
// canonical JSON; its signature covers that line without "sig", prefixed
// by signingDomain so that no signature over a receipt can ever pass for
// one over a ledger entry made with the same key (and the reverse).
const (
	// Version is the "receipt" member of every receipt this code writes.
	Version = 1
	// DefaultRef is the notes ref receipts live under unless the user's
	// settings name another (tribunal.receipts.notes_ref).
	DefaultRef    = "refs/notes/tribunal"
	signingDomain = "tribunal-receipt-v1\x00"
)

// The kinds of verdict a receipt can carry.
const (
	// KindTask is an accepted /tribunal task whose change a commit carries.
	KindTask = "task"
	// KindReview is a review of the change base..head (tribunal-session
	// review), attached to head.
	KindReview = "review"
	// KindAdvisory is an advisory verdict on one commit (its change from
	// its first parent), given on request.
	KindAdvisory = "advisory"
)

// The ways a recorded verdict is tied to the commit a receipt is written
// for (Judged.Match; spec §11.3 defines them).
const (
	// MatchTree: the commit's tree is the tree that was judged.
	MatchTree = "tree"
	// MatchChange: the commit's own change (from its one parent) has the
	// same patch id as the judged change.
	MatchChange = "change"
	// MatchReview: the receipt was written for the head of the judged
	// range itself.
	MatchReview = "review"
)

// Receipt is one signed verdict about one commit.
type Receipt struct {
	Receipt int    `json:"receipt"`
	Kind    string `json:"kind"`
	// Commit is the commit the receipt was written for and Tree its tree.
	// Verify holds a commit to Tree, not to Commit: a rebase or amend
	// that keeps the tree keeps the receipt valid (notes.rewriteRef moves
	// the note), one that changes the tree does not.
	Commit string `json:"commit"`
	Tree   string `json:"tree"`
	Judged Judged `json:"judged"`
	Verdict
	SignedAt string `json:"signed_at"`
	Signer   Signer `json:"signer"`
	Sig      string `json:"sig,omitempty"`
}

// Judged is what the judges saw: the change from BaseTree to Tree.
type Judged struct {
	// Base and Head are the commits of the judged change when they are
	// known (a task's snapshot and last iteration commit; a review's base
	// and head).
	Base     string `json:"base,omitempty"`
	Head     string `json:"head,omitempty"`
	BaseTree string `json:"base_tree"`
	Tree     string `json:"tree"`
	// DiffSHA256 is the hex SHA-256 of the judged diff as DiffArgs
	// renders it, so that anyone with the two trees can recompute it.
	DiffSHA256 string `json:"diff_sha256"`
	// Match says how the verdict was tied to the receipt's commit.
	Match string `json:"match"`
}

// Verdict is the decision a receipt carries, as recorded when it was made.
type Verdict struct {
	// Outcome is the recorded outcome word (accepted, rejected, …);
	// Passed is whether it lets the change through, which is what verify
	// requires.
	Outcome string   `json:"outcome"`
	Passed  bool     `json:"passed"`
	Score   *float64 `json:"score,omitempty"`
	Judges  []Judge  `json:"judges"`
	Rubric  Rubric   `json:"rubric"`
	// Models names the actor and meta-judge models; Families are the
	// panel's model families.
	ActorModel string   `json:"actor_model,omitempty"`
	MetaModel  string   `json:"meta_model,omitempty"`
	Families   []string `json:"families,omitempty"`
	CostUSD    *float64 `json:"cost_usd,omitempty"`
	DurationMS int64    `json:"duration_ms"`
	// JudgedAt is when the verdict was made (RFC 3339, UTC).
	JudgedAt string `json:"judged_at"`
	// TaskID is the recorded task (or review) id, and Ledger the signed
	// ledger entry of its decision.
	TaskID string     `json:"task_id"`
	Ledger *LedgerRef `json:"ledger,omitempty"`
}

// Judge is one seat's verdict.
type Judge struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Model    string   `json:"model,omitempty"`
	Provider string   `json:"provider,omitempty"`
	Family   string   `json:"family,omitempty"`
	Score    *float64 `json:"score,omitempty"`
	Passed   bool     `json:"passed"`
}

// Rubric names the rubric the judges applied and pins its content: the
// hex SHA-256 of its canonical JSON as the task recorded it.
type Rubric struct {
	ID     string `json:"id"`
	SHA256 string `json:"sha256,omitempty"`
}

// LedgerRef names the ledger entry that recorded the decision.
type LedgerRef struct {
	Kind        string `json:"kind"`
	Seq         int64  `json:"seq"`
	Hash        string `json:"hash"`
	IterationID string `json:"iteration_id,omitempty"`
}

// Signer is the key that signed the receipt: the ledger's signing key.
type Signer struct {
	// PublicKey is the standard base64 of the Ed25519 key, as ledger
	// entries carry it; Fingerprint is ssh-keygen's form of it.
	PublicKey   string `json:"public_key"`
	Fingerprint string `json:"fingerprint"`
}

// Sign fills in r's signer and time and signs it with key.
func Sign(r Receipt, key ed25519.PrivateKey, now time.Time) (Receipt, error) {
	pub := key.Public().(ed25519.PublicKey)
	r.Receipt = Version
	r.SignedAt = now.UTC().Format(time.RFC3339)
	r.Signer = Signer{PublicKey: ledger.PublicKeyString(pub), Fingerprint: ledger.Fingerprint(pub)}
	r.Sig = ""
	body, err := canonical(r)
	if err != nil {
		return Receipt{}, err
	}
	r.Sig = base64.StdEncoding.EncodeToString(ed25519.Sign(key, append([]byte(signingDomain), body...)))
	return r, nil
}

// Line is r's canonical JSON: the line a note stores.
func (r Receipt) Line() ([]byte, error) { return canonical(r) }

func canonical(r Receipt) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("receipt: %w", err)
	}
	c, err := jcs.Canonicalize(b)
	if err != nil {
		return nil, fmt.Errorf("receipt: %w", err)
	}
	return c, nil
}

// ErrSignature is wrapped by Parse's errors about a receipt line that is
// not the line its signer signed.
var ErrSignature = errors.New("bad receipt")

// Parse reads one receipt line and checks its signature against the key
// it names. Every byte counts: the line must be the canonical JSON of a
// receipt, so an edit that keeps the meaning (a space, a reordered
// member) fails as surely as one that changes it.
func Parse(line []byte) (Receipt, error) {
	c, err := jcs.Canonicalize(line)
	if err != nil {
		return Receipt{}, fmt.Errorf("%w: not valid JSON (truncated or edited): %v", ErrSignature, err)
	}
	if string(c) != string(line) {
		return Receipt{}, fmt.Errorf("%w: not in canonical form: it was edited after it was signed", ErrSignature)
	}
	var v struct {
		Receipt int `json:"receipt"`
	}
	if json.Unmarshal(line, &v) != nil || v.Receipt != Version {
		return Receipt{}, fmt.Errorf("%w: not a version %d receipt (its \"receipt\" member is not %d)", ErrSignature, Version, Version)
	}
	var r Receipt
	dec := json.NewDecoder(strings.NewReader(string(line)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Receipt{}, fmt.Errorf("%w: not a receipt: %v", ErrSignature, err)
	}
	// Decoding is lenient (member names match case-insensitively, a null
	// reads as absent); requiring the receipt to render back to the very
	// line closes that gap, so the signature below covers these bytes.
	if again, err := canonical(r); err != nil || string(again) != string(line) {
		return Receipt{}, fmt.Errorf("%w: not a receipt as tribunal writes it: it was edited after it was signed", ErrSignature)
	}
	pub, err := ledger.DecodePublicKey(r.Signer.PublicKey)
	if err != nil {
		return Receipt{}, fmt.Errorf("%w: signer: %v", ErrSignature, err)
	}
	if fp := ledger.Fingerprint(pub); fp != r.Signer.Fingerprint {
		return Receipt{}, fmt.Errorf("%w: the signer's fingerprint %s is not its key's (%s)", ErrSignature, r.Signer.Fingerprint, fp)
	}
	sig, err := base64.StdEncoding.Strict().DecodeString(r.Sig)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return Receipt{}, fmt.Errorf("%w: sig is not a base64 Ed25519 signature", ErrSignature)
	}
	unsigned := r
	unsigned.Sig = ""
	body, err := canonical(unsigned)
	if err != nil {
		return Receipt{}, err
	}
	if !ed25519.Verify(pub, append([]byte(signingDomain), body...), sig) {
		return Receipt{}, fmt.Errorf("%w: the signature by %s does not verify: the receipt was changed after it was signed", ErrSignature, r.Signer.Fingerprint)
	}
	return r, nil
}

// Summary is the readable line a note starts with, one per receipt, e.g.
// "tribunal: accepted 0.86 (standard 0.9, adversarial 0.8) rubric default
// sha256:1f2e3d4c signer SHA256:…". It is for people reading git log;
// verification reads only the JSON.
func (r Receipt) Summary() string {
	var b strings.Builder
	b.WriteString(summaryPrefix)
	b.WriteString(oneWord(r.Outcome))
	if r.Score != nil {
		b.WriteString(" " + num(*r.Score))
	}
	var seats []string
	for _, j := range r.Judges {
		s := oneWord(j.Type)
		if j.Score != nil {
			s += " " + num(*j.Score)
		}
		seats = append(seats, s)
	}
	if len(seats) > 0 {
		b.WriteString(" (" + strings.Join(seats, ", ") + ")")
	}
	b.WriteString(" " + r.Kind)
	if r.TaskID != "" {
		b.WriteString(" " + oneWord(r.TaskID))
	}
	b.WriteString(" rubric " + oneWord(r.Rubric.ID))
	if len(r.Rubric.SHA256) >= 8 {
		b.WriteString(" sha256:" + r.Rubric.SHA256[:8])
	}
	b.WriteString(" signer " + r.Signer.Fingerprint)
	return b.String()
}

// oneWord keeps recorded text from breaking the summary's one line or
// the note's layout: anything but printable ASCII becomes '?', and
// spaces '_'.
func oneWord(s string) string {
	if s == "" {
		return "-"
	}
	b := []byte(s)
	if len(b) > 64 {
		b = b[:64]
	}
	for i, c := range b {
		switch {
		case c == ' ':
			b[i] = '_'
		case c < 0x21 || c > 0x7e:
			b[i] = '?'
		}
	}
	return string(b)
}

func num(f float64) string {
	return strconv.FormatFloat(math.Round(f*100)/100, 'f', -1, 64)
}
