package ledger

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// Verify checks the whole ledger at path: every line canonical and
// well-formed, every signature, every key change endorsed by the key
// before it, seq counting up from 0, each prev the hash of the line
// before, and the end matching the signed head. It stops at the first bad
// entry and returns a *ChainError or a *SignatureError naming it (see
// their docs for which is which). A ledger that does not exist, with no
// head either, is an error wrapping fs.ErrNotExist; any other error is
// I/O.
//
// Verify holds the appenders' lock shared while it reads, so a concurrent
// append is seen whole or not at all. Lines are read one at a time with
// no length limit, so memory stays at one line whatever the ledger's
// length.
func Verify(path string) (Report, error) {
	unlock, err := lockFile(lockPath(path), false, lockWait)
	if err != nil {
		return Report{}, err
	}
	defer unlock()
	headData, err := store.ReadRegular(HeadPath(path), maxHead)
	haveHead := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Report{}, fmt.Errorf("read ledger head: %w", err)
	}
	var r io.Reader
	f, err := store.OpenRegular(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && !haveHead:
		return Report{}, fmt.Errorf("ledger %q: %w", path, err)
	case errors.Is(err, fs.ErrNotExist):
		// The head outlived its ledger: check it against no entries,
		// which reports the deletion as truncation.
		r = strings.NewReader("")
	case err != nil:
		return Report{}, fmt.Errorf("open ledger: %w", err)
	default:
		defer f.Close()
		r = f
	}
	return verify(r, headData, haveHead)
}

// verify is Verify on a ledger's content and its head's (haveHead false
// when there is no head file).
func verify(r io.Reader, headData []byte, haveHead bool) (Report, error) {
	var c chain
	if err := c.read(r); err != nil {
		return Report{}, err
	}
	h, err := c.checkHead(headData, haveHead)
	if err != nil {
		return Report{}, err
	}
	return Report{Entries: c.n, Keys: c.keys, Head: h}, nil
}

// chain is the state of a verification so far.
type chain struct {
	n    int64 // entries checked
	last line
	keys []string
}

func (c *chain) read(r io.Reader) error {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		seq, lineNo := c.n, int(c.n)+1
		b, eof, err := readLine(br)
		switch {
		case errors.Is(err, errLongLine):
			return &ChainError{Seq: seq, Line: lineNo, Reason: err.Error() + ": it was planted or corrupted"}
		case err != nil:
			return fmt.Errorf("read ledger: %w", err)
		case eof && len(b) == 0:
			return nil
		case eof:
			return &ChainError{Seq: seq, Line: lineNo, Reason: "incomplete last line (no newline): the ledger was cut mid-line or an append was interrupted"}
		}
		l, p := parseLine(b)
		if p != nil {
			return p.at(seq, lineNo)
		}
		prevHash, prevKey := zeroHash, ""
		if c.n > 0 {
			prevHash, prevKey = c.last.Hash, c.last.PublicKey
		}
		switch {
		case l.Seq < seq:
			return &ChainError{Seq: seq, Line: lineNo, Reason: fmt.Sprintf("the line holds entry %d: a line was duplicated or moved down", l.Seq)}
		case l.Seq > seq:
			return &ChainError{Seq: seq, Line: lineNo, Reason: fmt.Sprintf("the line holds entry %d: a line was deleted or moved up", l.Seq)}
		case l.Prev != prevHash:
			return &ChainError{Seq: seq, Line: lineNo, Reason: "prev is not the hash of the line before: this entry or the one before was replaced"}
		}
		if p := l.continues(prevKey); p != nil {
			return p.at(seq, lineNo)
		}
		if c.n == 0 || l.PublicKey != prevKey {
			c.addKey(l.PublicKey)
		}
		c.last = l
		c.n++
	}
}

func (c *chain) addKey(k string) {
	for _, have := range c.keys {
		if have == k {
			return
		}
	}
	c.keys = append(c.keys, k)
}

// checkHead compares the head with the chain read. Errors about the head
// name the entry it should pin: the last one, or the first missing one.
func (c *chain) checkHead(data []byte, haveHead bool) (Head, error) {
	lastSeq := max(c.n-1, 0)
	lastLine := int(lastSeq) + 1
	if !haveHead {
		if c.n == 0 {
			return Head{}, nil
		}
		return Head{}, &ChainError{Seq: lastSeq, Line: lastLine,
			Reason: "the head file is missing, so nothing pins the ledger's end: lines cut off the end would go unnoticed"}
	}
	h, p := parseHead(data)
	if p != nil {
		return Head{}, p.at(lastSeq, lastLine)
	}
	switch {
	case h.Entries > c.n:
		return Head{}, &ChainError{Seq: c.n, Line: int(c.n) + 1,
			Reason: fmt.Sprintf("missing: the head pins %d entries but the ledger ends after %d: it was truncated", h.Entries, c.n)}
	case h.Entries < c.n:
		return Head{}, &ChainError{Seq: h.Entries, Line: int(h.Entries) + 1,
			Reason: fmt.Sprintf("beyond the head, which pins %d entries: an append was interrupted before it updated the head (the next append repairs that), or an old head was put back", h.Entries)}
	case c.n == 0 && h.Hash != zeroHash:
		return Head{}, &ChainError{Seq: 0, Line: 1, Reason: "the head of an empty ledger pins a hash"}
	case c.n > 0 && h.Hash != c.last.Hash:
		return Head{}, &ChainError{Seq: lastSeq, Line: lastLine, Reason: "the last entry is not the one the head pins"}
	case c.n > 0 && h.PublicKey != c.last.PublicKey:
		return Head{}, &SignatureError{Seq: lastSeq, Line: lastLine,
			Reason: fmt.Sprintf("the head is signed by key %s, not by the last entry's key %s", h.PublicKey, c.last.PublicKey)}
	}
	return h, nil
}
