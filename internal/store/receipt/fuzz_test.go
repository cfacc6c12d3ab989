package receipt

import (
	"bytes"
	"testing"
)

// FuzzParseNote: whatever a notes ref holds, reading it never panics;
// every line that verifies renders back to exactly its bytes; Check gives
// a status in range; and a note rebuilt from its lines reads back to the
// same receipts.
func FuzzParseNote(f *testing.F) {
	r := sample()
	good, _, _ := Merge(nil, mustSignF(f, r, 1))
	two, _, _ := Merge(good, mustSignF(f, r, 2))
	f.Add(good)
	f.Add(two)
	f.Add(append(append([]byte{}, good...), "\n\njunk\n"...))
	f.Add([]byte("tribunal: accepted\n{\"receipt\":1}\n"))
	f.Add(good[:len(good)/2])
	signers := Signers{byKey: map[string][]signerLine{}}
	f.Fuzz(func(t *testing.T, note []byte) {
		entries := ParseNote(note)
		var lines [][]byte
		for _, e := range entries {
			if e.Err == nil {
				again, err := e.Receipt.Line()
				if err != nil || !bytes.Equal(again, e.Text) {
					t.Fatalf("line %d verified but renders as %q", e.Line, again)
				}
			}
			if len(e.Text) > 0 && e.Text[0] == '{' {
				lines = append(lines, e.Text)
			}
		}
		res := Check(Commit{ID: r.Commit, Tree: r.Tree}, note, signers, anyBase)
		if res.Status < Valid || res.Status > BadSignature {
			t.Fatalf("status %d", res.Status)
		}
		valid := 0
		for _, e := range ParseNote(Format(lines)) {
			if e.Err == nil {
				valid++
			}
		}
		want := 0
		seen := map[string]bool{}
		for _, e := range entries {
			if e.Err == nil && !seen[string(e.Text)] {
				seen[string(e.Text)] = true
				want++
			}
		}
		if valid != want {
			t.Fatalf("Format kept %d of %d verified receipts", valid, want)
		}
	})
}

func mustSignF(f *testing.F, r Receipt, seed byte) Receipt {
	s, err := Sign(r, testKey(seed), t0)
	if err != nil {
		f.Fatal(err)
	}
	return s
}
