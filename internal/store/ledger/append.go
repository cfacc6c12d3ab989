package ledger

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tribunal-cc/tribunal/internal/jcs"
	"github.com/tribunal-cc/tribunal/internal/store"
)

// ErrHeadMismatch is wrapped by Append when the ledger's end does not
// match its head: lines were cut off or edited, or the head was removed.
// Append then refuses to write, so that new entries never paper over the
// damage; tribunal-session verify says what is wrong.
var ErrHeadMismatch = errors.New("the ledger does not match its head")

// Append adds one entry to the ledger at path, signed with the key in
// keyDir (created on first use), and returns it. record is the decision
// data: anything encoding/json renders as an object (a struct, a map, a
// json.RawMessage); it is stored in canonical form, so its numbers follow
// IEEE 754 doubles (integers beyond 2^53 lose precision).
//
// Concurrent appends, from goroutines or processes, serialise on an
// exclusive lock on path+".lock". The line is written with one write and
// fsynced before the head is replaced (atomically, fsynced), so a crash
// leaves either the old state, a partial last line, or one complete entry
// beyond the head; the next append repairs the last two, which no one
// without the key can produce. Any other disagreement between the ledger
// and its head fails with ErrHeadMismatch.
func Append(path, keyDir, kind string, fields Fields, record any, now time.Time) (Entry, error) {
	return AppendWithin(lockWait, path, keyDir, kind, fields, record, now)
}

// AppendWithin is Append with the wait for another appender's lock bounded
// by wait instead of the default: a hook draws it from its time budget.
func AppendWithin(wait time.Duration, path, keyDir, kind string, fields Fields, record any, now time.Time) (Entry, error) {
	if !slices.Contains(kinds, kind) {
		return Entry{}, fmt.Errorf("ledger entry kind %q is none of %q", kind, kinds)
	}
	if wait <= 0 {
		return Entry{}, errors.New("out of time: no time left to wait for the ledger")
	}
	if fields.TaskID == "" {
		return Entry{}, errors.New("ledger entry has no task id")
	}
	rec, err := marshalCanonical(record)
	if err == nil && fields.Redact.Active() {
		rec, err = jcs.Canonicalize(fields.Redact.JSON(rec))
	}
	if err != nil {
		return Entry{}, fmt.Errorf("ledger record: %w", err)
	}
	if rec[0] != '{' {
		return Entry{}, fmt.Errorf("ledger record must be a JSON object, not %.20s", rec)
	}
	key, err := LoadOrCreateKey(keyDir)
	if err != nil {
		return Entry{}, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return Entry{}, fmt.Errorf("create ledger directory: %w", err)
	}
	unlock, err := lockFile(lockPath(path), true, wait)
	if err != nil {
		return Entry{}, err
	}
	defer unlock()
	e := Entry{
		Time:        now.UTC().Format(time.RFC3339Nano),
		Kind:        kind,
		TaskID:      fields.TaskID,
		IterationID: fields.IterationID,
		SessionID:   fields.SessionID,
		Record:      rec,
		Algorithm:   AlgorithmEd25519,
		PublicKey:   PublicKeyString(key.Public().(ed25519.PublicKey)),
	}
	return appendLocked(path, keyDir, key, e)
}

// appendLocked runs under the lock: it finds where the chain ends, checks
// that against the head, then writes e after it.
func appendLocked(path, keyDir string, key ed25519.PrivateKey, e Entry) (Entry, error) {
	head, err := readHead(path)
	if err != nil {
		return Entry{}, err
	}
	f, size, err := openLedger(path, head)
	if err != nil {
		return Entry{}, err
	}
	defer f.Close()
	if head == nil {
		if size != 0 {
			return Entry{}, headMismatch(path, "it has content but its head file is missing")
		}
		// A new ledger gets its head before its first line, so that from
		// then on a missing head always means tampering, never "new".
		head = &Head{Entries: 0, Hash: zeroHash}
		if err := writeHead(path, head, key); err != nil {
			return Entry{}, err
		}
	}
	last, partial, err := readTail(f, size)
	if err != nil {
		return Entry{}, fmt.Errorf("read ledger: %w", err)
	}
	end, err := chainEnd(path, head, last)
	if err != nil {
		return Entry{}, err
	}
	if partial > 0 {
		// An interrupted write after the last complete entry: never part
		// of the chain, so it goes.
		if err := f.Truncate(size - partial); err != nil {
			return Entry{}, fmt.Errorf("drop an incomplete last line: %w", err)
		}
	}
	e.Seq, e.Prev = end.seq, end.hash
	line, err := signEntry(&e, key, keyDir, end.key)
	if err != nil {
		return Entry{}, err
	}
	if _, err := f.Write(line); err != nil {
		return Entry{}, fmt.Errorf("append to ledger: %w", err)
	}
	if err := f.Sync(); err != nil {
		return Entry{}, fmt.Errorf("sync ledger: %w", err)
	}
	if err := writeHead(path, &Head{Entries: end.seq + 1, Hash: e.Hash}, key); err != nil {
		return Entry{}, err
	}
	return e, nil
}

// headMismatch is ErrHeadMismatch for the ledger at path, with what is
// wrong and the command that says more.
func headMismatch(path, format string, args ...any) error {
	return fmt.Errorf("%w: %q: %s; run tribunal-session verify --ledger %q",
		ErrHeadMismatch, path, fmt.Sprintf(format, args...), path)
}

// openLedger opens the ledger at path for appending and returns it with
// its size. Only a ledger whose head pins nothing may be created here: a
// head with entries whose ledger is gone is damage to report, not repair.
func openLedger(path string, head *Head) (*os.File, int64, error) {
	flags := os.O_RDWR | os.O_APPEND
	if head == nil || head.Entries == 0 {
		flags |= os.O_CREATE
	}
	f, err := store.OpenInPlace(path, flags, 0o600)
	if errors.Is(err, fs.ErrNotExist) && head != nil && head.Entries > 0 {
		return nil, 0, headMismatch(path, "the ledger file is gone but its head pins %d entries", head.Entries)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("open ledger: %w", err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, fmt.Errorf("stat ledger: %w", err)
	}
	return f, fi.Size(), nil
}

// chainLink is where the next entry attaches: the sequence number it
// takes, and the hash and public key of the entry before it.
type chainLink struct {
	seq  int64
	hash string
	key  string
}

// chainEnd checks the ledger's last complete line (nil: none) against its
// head and returns where the next entry attaches. The line may be the
// entry the head pins, or one entry beyond it.
func chainEnd(path string, head *Head, last []byte) (chainLink, error) {
	if last == nil {
		if head.Entries != 0 {
			return chainLink{}, headMismatch(path, "the head pins %d entries but the ledger has none", head.Entries)
		}
		return chainLink{seq: 0, hash: zeroHash, key: ""}, nil
	}
	l, p := parseLine(last)
	if p != nil {
		return chainLink{}, headMismatch(path, "its last line is bad: %s", p.reason)
	}
	switch {
	case l.Seq == head.Entries-1 && l.Hash == head.Hash:
	case l.Seq == head.Entries && l.Prev == head.Hash:
		// The previous append wrote its line but not its head. The
		// entry is signed and chained, so only the key holder made it.
		prev := head.PublicKey
		if head.Entries == 0 {
			prev = ""
		}
		if p := l.continues(prev); p != nil {
			return chainLink{}, headMismatch(path, "entry %d, beyond the head: %s", l.Seq, p.reason)
		}
	default:
		return chainLink{}, headMismatch(path, "the head pins %d entries ending in %s but the last line is entry %d with hash %s",
			head.Entries, head.Hash, l.Seq, l.Hash)
	}
	return chainLink{seq: l.Seq + 1, hash: l.Hash, key: l.PublicKey}, nil
}

// signEntry fills e's endorsement (when the key changed since prevKey),
// signature and hash, and returns its line with the newline.
func signEntry(e *Entry, key ed25519.PrivateKey, keyDir, prevKey string) ([]byte, error) {
	body, err := marshalCanonical(e)
	if err != nil {
		return nil, fmt.Errorf("encode ledger entry: %w", err)
	}
	if prevKey != "" && prevKey != e.PublicKey {
		old, err := findKey(keyDir, prevKey)
		if err != nil {
			return nil, fmt.Errorf("the ledger's last entry is signed by a previous key that must endorse the current one, and it is gone (keep rotated keys; or start a new ledger): %w", err)
		}
		e.KeyEndorsement = b64.EncodeToString(ed25519.Sign(old, body))
		if body, err = marshalCanonical(e); err != nil {
			return nil, fmt.Errorf("encode ledger entry: %w", err)
		}
	}
	e.Sig = b64.EncodeToString(ed25519.Sign(key, body))
	line, err := marshalCanonical(e)
	if err != nil {
		return nil, fmt.Errorf("encode ledger entry: %w", err)
	}
	// What is written must be what Verify accepts; checking here turns a
	// disagreement between the two into a failed append, not a ledger
	// that no longer verifies.
	l, p := parseLine(line)
	if p != nil {
		return nil, fmt.Errorf("ledger entry fails its own check: %s", p.reason)
	}
	if len(line) > MaxLine {
		return nil, fmt.Errorf("ledger entry of %d bytes: %w", len(line), errLongLine)
	}
	e.Hash = l.Hash
	return append(line, '\n'), nil
}

// readHead reads the head of the ledger at path: nil when there is none.
// A head that fails its checks is ErrHeadMismatch.
func readHead(path string) (*Head, error) {
	hp := HeadPath(path)
	data, err := store.ReadRegular(hp, maxHead)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read ledger head: %w", err)
	}
	h, p := parseHead(data)
	if p != nil {
		return nil, headMismatch(path, "%s", p.reason)
	}
	return &h, nil
}

// writeHead signs h with key and atomically replaces the head file.
func writeHead(path string, h *Head, key ed25519.PrivateKey) error {
	h.PublicKey = PublicKeyString(key.Public().(ed25519.PublicKey))
	h.Sig = ""
	body, err := marshalCanonical(h)
	if err != nil {
		return fmt.Errorf("encode ledger head: %w", err)
	}
	h.Sig = b64.EncodeToString(ed25519.Sign(key, body))
	data, err := marshalCanonical(h)
	if err != nil {
		return fmt.Errorf("encode ledger head: %w", err)
	}
	if err := store.WriteFileAtomic(HeadPath(path), append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("write ledger head: %w", err)
	}
	return nil
}
