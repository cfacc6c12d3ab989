// Package ledger keeps tribunal's per-project, append-only record of gate
// decisions and advisory verdicts: a hash-chained JSONL file whose every
// entry is signed with Ed25519 and whose end is pinned by a signed head
// file.
package ledger

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/redact"
)

// The layout: the ledger is <project dir>/ledger.jsonl beside the task
// artifacts, its head is ledger.jsonl.head and appends serialise on
// ledger.jsonl.lock. The signing key lives once per user, in
// <ONLOOKER_DIR>/keys, because every project's ledger is signed by the
// same person's machine.
const (
	// FileName is the ledger's name inside a project directory.
	FileName = "ledger.jsonl"
	// KeyFileName is the current signing key's name inside the key
	// directory; rotated keys keep it with a ".<UTC time>.old" suffix.
	KeyFileName = "tribunal-ledger.key"
)

// The kinds of record the ledger holds.
const (
	// KindGate is a /tribunal session's gate decision for one iteration.
	KindGate = "gate"
	// KindAdvisory is the Stop hook's advisory verdict for one turn.
	KindAdvisory = "advisory"
	// KindRewake is fix mode handing a failing advisory verdict back to
	// the model.
	KindRewake = "rewake"
	// KindRejudge is a shadow re-judging of a recorded task under another
	// configuration (tribunal-session rejudge); it never replaces the
	// task's own gate entries.
	KindRejudge = "rejudge"
	// KindDismiss is a person dismissing a finding, or undoing that
	// (tribunal-session dismiss, internal/dismiss); its task id is the
	// task or advisory verdict the finding came from.
	KindDismiss = "dismiss"
	// KindPrune names a record `tribunal-session gc --records` removed
	// (internal/store/retention): its task id is the record's id, its
	// record the digest of the files that went. The entries a record had
	// stay as they were: the ledger is never rewritten.
	KindPrune = "prune"
	// KindTune is a person putting a rubric that `tune` shipped in place
	// (`tune apply`, spec §14.7).
	KindTune = "tune"
)

// kinds are every entry kind Append writes.
var kinds = []string{KindGate, KindAdvisory, KindRewake, KindRejudge, KindDismiss, KindPrune, KindTune}

// zeroHash is the prev of entry 0 and the hash of an empty ledger's head:
// a fixed-width value keeps "prev" one shape (64 lower-case hex digits) in
// every entry, so no entry is special to the parser.
var zeroHash = strings.Repeat("0", 64)

// PathFor is the ledger of the project whose tribunal directory is
// projectDir (store.Project.Dir).
func PathFor(projectDir string) string { return filepath.Join(projectDir, FileName) }

// HeadPath is the head file that pins the end of the ledger at path.
func HeadPath(path string) string { return path + ".head" }

// lockPath is the file appends lock exclusively and Verify shared: a
// sidecar, so that the lock is independent of the files it guards (the
// head is replaced by rename, which would orphan a lock held on it).
func lockPath(path string) string { return path + ".lock" }

// KeyDir is the directory of the signing keys under onlookerDir.
func KeyDir(onlookerDir string) string { return filepath.Join(onlookerDir, "keys") }

// Fields identify what an entry is about. TaskID is required; the Stop
// hook's advisory verdicts carry their own task id too.
type Fields struct {
	TaskID      string
	IterationID string
	SessionID   string
	// Redact, when set, scrubs the configured secrets from the record
	// before it is signed: a signed line can never be scrubbed later
	// without breaking verify.
	Redact *redact.Redactor
}

// Entry is one ledger line. The line is the RFC 8785 canonical JSON of
// these fields, so its bytes are exactly what the next entry's Prev hashes.
type Entry struct {
	// Seq counts entries from 0; it equals the line number minus one.
	Seq int64 `json:"seq"`
	// Prev is the hex SHA-256 of the previous line (64 zeros for entry 0).
	Prev string `json:"prev"`
	// Time is when the entry was appended, RFC 3339 with nanoseconds, UTC.
	Time        string `json:"time"`
	Kind        string `json:"kind"`
	TaskID      string `json:"task_id"`
	IterationID string `json:"iteration_id,omitempty"`
	SessionID   string `json:"session_id,omitempty"`
	// Record is the caller's decision data, a JSON object in canonical form.
	Record json.RawMessage `json:"record"`
	// Algorithm names the signature scheme of PublicKey, Sig and
	// KeyEndorsement (spec §11): Ed25519 for every entry this tribunal
	// writes. An entry without it, written before the field existed, is
	// Ed25519; any other name is refused rather than guessed at.
	Algorithm string `json:"algorithm,omitempty"`
	// PublicKey is the standard base64 of the Ed25519 key that signed Sig.
	PublicKey string `json:"public_key"`
	// KeyEndorsement is present only when PublicKey differs from the
	// previous entry's: the previous key's signature over this entry
	// without Sig and KeyEndorsement, so that a key change is itself
	// authorised by the key it replaces.
	KeyEndorsement string `json:"key_endorsement,omitempty"`
	// Sig is the base64 Ed25519 signature over the canonical bytes of the
	// entry without Sig.
	Sig string `json:"sig,omitempty"`
	// Hash is the hex SHA-256 of the line (not stored in it).
	Hash string `json:"-"`
}

// Head pins the end of a ledger: how many entries it has and the hash of
// the last one, signed by the last entry's key (by the appender's key
// while the ledger is empty). Without it, cutting lines off the end would
// leave a shorter ledger that is still a valid chain.
type Head struct {
	Entries   int64  `json:"entries"`
	Hash      string `json:"hash"`
	PublicKey string `json:"public_key"`
	Sig       string `json:"sig,omitempty"`
}

// Report describes a ledger that verified.
type Report struct {
	// Entries is the number of entries.
	Entries int64
	// Keys are the distinct public keys that signed entries, in order of
	// first use; more than one means the key was rotated.
	Keys []string
	// Head is the pinned head (zero for a ledger that was never written).
	Head Head
}

// ChainError reports a ledger whose lines are not the chain that was
// written: an unparseable or non-canonical line, a wrong seq or prev
// (a deleted, duplicated, inserted or reordered line), or an end that does
// not match the head (truncation). Seq and Line name the first bad entry,
// or, for a truncated ledger, the first missing one.
type ChainError struct {
	Seq    int64
	Line   int
	Reason string
}

func (e *ChainError) Error() string {
	return fmt.Sprintf("entry %d (line %d): %s", e.Seq, e.Line, e.Reason)
}

// SignatureError reports an entry (or the head) whose signature does not
// verify: its content was altered after it was signed, it was re-signed by
// a key the previous key never endorsed, or the signature itself was
// damaged.
type SignatureError struct {
	Seq    int64
	Line   int
	Reason string
}

func (e *SignatureError) Error() string {
	return fmt.Sprintf("entry %d (line %d): %s", e.Seq, e.Line, e.Reason)
}
