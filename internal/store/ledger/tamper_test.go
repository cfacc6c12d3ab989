package ledger

import (
	"bytes"
	"errors"
	"github.com/tribunal-cc/tribunal/internal/testkit/testtier"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tribunal-cc/tribunal/internal/jcs"
)

// tamperFixture is a five-entry ledger that spans a key rotation, so that
// the matrix also covers a key_endorsement field.
func tamperFixture(t *testing.T) fixture {
	t.Helper()
	f := newFixture(t)
	f.fill(t, 3)
	if _, _, err := Rotate(f.keyDir, t0); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if _, err := Append(f.path, f.keyDir, KindGate, Fields{TaskID: "01JTASK", IterationID: "it"},
			map[string]any{"after_rotation": i}, t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if r := mustVerify(t, f.path); r.Entries != 5 || len(r.Keys) != 2 {
		t.Fatalf("fixture: %+v", r)
	}
	return f
}

// lineAt is the 0-based index of the line holding byte i and that line's
// content after the mutation, up to (not including) the next newline.
func lineAt(data []byte, i int) (int, []byte) {
	idx := bytes.Count(data[:i], []byte("\n"))
	start := bytes.LastIndexByte(data[:i], '\n') + 1
	end := bytes.IndexByte(data[i:], '\n')
	if end < 0 {
		return idx, data[start:]
	}
	return idx, data[start : i+end]
}

func isCanonical(b []byte) bool {
	c, err := jcs.Canonicalize(b)
	return err == nil && bytes.Equal(c, b) && len(b) > 0 && b[0] == '{'
}

// checkMutation verifies a mutated ledger (or head) and requires the
// first bad entry to be the mutated one, with the expected error type: a
// line that is still canonical JSON fails its signature (exit 21);
// anything else breaks the chain (exit 20).
func checkMutation(t *testing.T, err error, seq int64, canonical bool) (sig bool) {
	t.Helper()
	var se *SignatureError
	var ce *ChainError
	switch {
	case errors.As(err, &se):
		if se.Seq != seq || se.Line != int(seq)+1 {
			t.Fatalf("signature error names entry %d line %d, want entry %d: %v", se.Seq, se.Line, seq, err)
		}
		sig = true
	case errors.As(err, &ce):
		if ce.Seq != seq || ce.Line != int(seq)+1 {
			t.Fatalf("chain error names entry %d line %d, want entry %d: %v", ce.Seq, ce.Line, seq, err)
		}
	default:
		t.Fatalf("not detected or untyped: %v", err)
	}
	if sig != canonical {
		t.Fatalf("canonical=%v but got %v", canonical, err)
	}
	return sig
}

// Every byte of the ledger and of its head, each changed three ways (low
// bit, ASCII case bit, high bit). The first way goes through the files and
// Verify; the others check the same bytes in memory, which is Verify
// without opening the files.
func TestTamperEveryByte(t *testing.T) {
	t.Parallel()
	f := tamperFixture(t)
	ledger, head := f.read(t)
	check := func(mask byte, mut, mutHead []byte) error {
		if mask != 0x01 {
			_, err := verify(bytes.NewReader(mut), mutHead, true)
			return err
		}
		if err := os.WriteFile(f.path, mut, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(HeadPath(f.path), mutHead, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := Verify(f.path)
		return err
	}
	var tried, chain, sig int
	count := func(isSig bool) {
		tried++
		if isSig {
			sig++
		} else {
			chain++
		}
	}
	for _, mask := range []byte{0x01, 0x20, 0x80} {
		for i := range ledger {
			mut := bytes.Clone(ledger)
			mut[i] ^= mask
			err := check(mask, mut, head)
			idx, content := lineAt(mut, i)
			// A newline changed at the end of the file leaves an
			// incomplete line; elsewhere, two lines run together.
			count(checkMutation(t, err, int64(idx), ledger[i] != '\n' && isCanonical(content)))
		}
		for i := range head {
			mut := bytes.Clone(head)
			mut[i] ^= mask
			err := check(mask, ledger, mut)
			count(checkMutation(t, err, 4, head[i] != '\n' && isCanonical(bytes.TrimSuffix(mut, []byte("\n")))))
		}
	}
	t.Logf("single-byte changes: %d tried over %d ledger bytes and %d head bytes, %d detected (%d chain, %d signature)",
		tried, len(ledger), len(head), chain+sig, chain, sig)
	if chain == 0 || sig == 0 {
		t.Errorf("expected both error types among the mutations")
	}
}

// Every other value of every byte of the first line, in memory (the same
// checks as Verify without the file round trip).
func TestTamperEveryValueOfTheFirstLine(t *testing.T) {
	t.Parallel()
	f := tamperFixture(t)
	ledger, head := f.read(t)
	first := bytes.IndexByte(ledger, '\n') + 1
	// Every value of every fifth byte in the default tier (a second of
	// CPU); of every byte in the stress tier, where its 15 s of CPU does
	// not hold up the tier a contributor runs before each commit.
	stride := 5
	if testtier.Selected(os.Getenv(testtier.Env), testtier.Stress.Name) && !raceEnabled && !testing.Short() {
		stride = 1
	}
	var tried, sig int
	for i := 0; i < first; i += stride {
		for v := range 256 {
			if byte(v) == ledger[i] {
				continue
			}
			mut := bytes.Clone(ledger)
			mut[i] = byte(v)
			_, err := verify(bytes.NewReader(mut), head, true)
			_, content := lineAt(mut, i)
			tried++
			if checkMutation(t, err, 0, ledger[i] != '\n' && isCanonical(content)) {
				sig++
			}
		}
	}
	t.Logf("every value of every %s byte of the %d-byte first line: %d variants tried, all detected (%d by signature)",
		map[bool]string{true: "fifth", false: "single"}[stride > 1], first, tried, sig)
}

func TestTamperLines(t *testing.T) {
	t.Parallel()
	f := tamperFixture(t)
	ledger, head := f.read(t)
	lines := splitLines(ledger)
	n := len(lines)
	join := func(ls ...[]byte) []byte { return bytes.Join(ls, nil) }
	type variant struct {
		name string
		data []byte
		seq  int64 // the entry the error must name
	}
	var vs []variant
	for k := range n {
		rest := append(append([][]byte{}, lines[:k]...), lines[k+1:]...)
		// Deleting the last line is truncation: the head names the
		// missing entry.
		vs = append(vs, variant{"delete line " + strconv.Itoa(k+1), join(rest...), int64(k)})
		dup := append(append(append([][]byte{}, lines[:k+1]...), lines[k]), lines[k+1:]...)
		vs = append(vs, variant{"duplicate line " + strconv.Itoa(k+1), join(dup...), int64(k + 1)})
		if k+1 < n {
			sw := append([][]byte{}, lines...)
			sw[k], sw[k+1] = sw[k+1], sw[k]
			vs = append(vs, variant{"swap lines " + strconv.Itoa(k+1) + " and " + strconv.Itoa(k+2), join(sw...), int64(k)})
		}
		mv := append(append([][]byte{}, rest...), lines[k])
		if k+1 < n {
			vs = append(vs, variant{"move line " + strconv.Itoa(k+1) + " to the end", join(mv...), int64(k)})
		}
	}
	vs = append(vs, variant{"reverse", join(lines[4], lines[3], lines[2], lines[1], lines[0]), 0})
	vs = append(vs, variant{"empty line inserted", join(lines[0], []byte("\n"), lines[1], lines[2], lines[3], lines[4]), 1})
	// Truncation at every byte offset: at a line boundary the head
	// reports the first missing entry, inside a line the incomplete line.
	for cut := range len(ledger) {
		seq := int64(bytes.Count(ledger[:cut], []byte("\n")))
		vs = append(vs, variant{"truncate at byte " + strconv.Itoa(cut), ledger[:cut], seq})
	}
	for _, v := range vs {
		f.write(t, v.data, head)
		_, err := Verify(f.path)
		var ce *ChainError
		if !errors.As(err, &ce) || ce.Seq != v.seq || ce.Line != int(v.seq)+1 {
			t.Errorf("%s: got %v, want a chain error at entry %d", v.name, err, v.seq)
		}
	}
	t.Logf("line operations: %d variants tried, all detected as chain errors", len(vs))
}

func TestHeadLossAndRollback(t *testing.T) {
	f := tamperFixture(t)
	ledger, head := f.read(t)
	f.write(t, ledger, nil)
	_, err := Verify(f.path)
	if ce := wantChain(t, err, 4); !strings.Contains(ce.Reason, "head file is missing") {
		t.Errorf("reason %q", ce.Reason)
	}

	// A head from two appends ago.
	g := newFixture(t)
	g.fill(t, 3)
	_, oldHead := g.read(t)
	g.fill(t, 2)
	l, _ := g.read(t)
	g.write(t, l, oldHead)
	_, err = Verify(g.path)
	wantChain(t, err, 3)

	// The ledger deleted, its head kept.
	f.write(t, ledger, head)
	if err := os.Remove(f.path); err != nil {
		t.Fatal(err)
	}
	_, err = Verify(f.path)
	if ce := wantChain(t, err, 0); !strings.Contains(ce.Reason, "truncated") {
		t.Errorf("reason %q", ce.Reason)
	}
}

// The threat model's limit, pinned so that a change to it is deliberate:
// putting back an older ledger together with its older head is a
// consistent past state and verifies.
func TestRollingBackBothFilesIsTheDocumentedLimit(t *testing.T) {
	f := newFixture(t)
	f.fill(t, 2)
	oldLedger, oldHead := f.read(t)
	f.fill(t, 2)
	f.write(t, oldLedger, oldHead)
	if r := mustVerify(t, f.path); r.Entries != 2 {
		t.Errorf("%+v", r)
	}
}
