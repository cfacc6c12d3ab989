package ledger

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Audit is a ledger read for display: its entries and how far Verify
// holds. An entry holds when it and every entry before it verify (a
// broken link or signature breaks the chain from that entry on).
type Audit struct {
	Path    string
	Entries []Entry
	// Holds is the number of leading entries that verify; it equals
	// len(Entries) when the whole ledger verifies.
	Holds int64
	// Err is Verify's error (nil when the ledger verifies).
	Err error
}

// HoldsAt reports whether entry seq verifies.
func (a Audit) HoldsAt(seq int64) bool { return seq >= 0 && seq < a.Holds }

// ReadAudit verifies the ledger at path and reads its entries for
// display, keeping lines that do not decode out of Entries (Verify names
// the first of them). A missing ledger is fs.ErrNotExist.
func ReadAudit(path string) (Audit, error) {
	a := Audit{Path: path}
	f, err := os.Open(path)
	if err != nil {
		return a, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	for {
		b, err := br.ReadBytes('\n')
		if len(b) > 0 && b[len(b)-1] == '\n' {
			var e Entry
			if json.Unmarshal(b[:len(b)-1], &e) == nil {
				sum := sha256.Sum256(b[:len(b)-1])
				e.Hash = hex.EncodeToString(sum[:])
				a.Entries = append(a.Entries, e)
			}
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return a, fmt.Errorf("read ledger: %w", err)
		}
	}
	rep, verr := Verify(path)
	a.Err = verr
	var ce *ChainError
	var se *SignatureError
	switch {
	case verr == nil:
		a.Holds = rep.Entries
	case errors.As(verr, &ce):
		a.Holds = ce.Seq
	case errors.As(verr, &se):
		a.Holds = se.Seq
	case errors.Is(verr, fs.ErrNotExist):
		return a, verr
	}
	return a, nil
}
