package jcs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
)

// node is a generated JSON value, kept abstract so that it can be written
// out in several different but equivalent spellings.
type node struct {
	kind int // 0 null, 1 bool, 2 number, 3 string, 4 array, 5 object
	b    bool
	f    float64
	s    string
	kids []node
	keys []string
}

// interesting characters: the escapes, C0 controls, DEL, characters
// whose UTF-16 order differs from their code point order, and
// supplementary-plane ones.
var alphabet = []rune{'a', 'Z', '0', ' ', '"', '\\', '/', '<', '&', 0, 1, '\b', '\t', '\n', '\f', '\r', 0x1f, 0x7f,
	0x80, 'é', '€', 0x2028, 0xe000, 0xfb33, 0xffff, 0x10000, 0x1f600, 0x10ffff}

func genString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteRune(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

func genNumber(r *rand.Rand) float64 {
	switch r.IntN(4) {
	case 0:
		return float64(r.IntN(2000) - 1000)
	case 1:
		return float64(r.IntN(100000)) / 1000
	default:
		for {
			f := math.Float64frombits(r.Uint64())
			if !math.IsNaN(f) && !math.IsInf(f, 0) {
				return f
			}
		}
	}
}

func genNode(r *rand.Rand, depth int) node {
	k := r.IntN(6)
	if depth > 3 {
		k = r.IntN(4)
	}
	n := node{kind: k}
	switch k {
	case 1:
		n.b = r.IntN(2) == 0
	case 2:
		n.f = genNumber(r)
	case 3:
		n.s = genString(r)
	case 4, 5:
		seen := map[string]bool{}
		for range r.IntN(5) {
			if k == 5 {
				key := genString(r)
				if seen[key] {
					continue
				}
				seen[key] = true
				n.keys = append(n.keys, key)
			}
			n.kids = append(n.kids, genNode(r, depth+1))
		}
	}
	return n
}

// toGo converts n for encoding/json, the first spelling.
func toGo(n node) any {
	switch n.kind {
	case 1:
		return n.b
	case 2:
		return n.f
	case 3:
		return n.s
	case 4:
		a := []any{}
		for _, k := range n.kids {
			a = append(a, toGo(k))
		}
		return a
	case 5:
		m := map[string]any{}
		for i, k := range n.kids {
			m[n.keys[i]] = toGo(k)
		}
		return m
	}
	return nil
}

// spell writes n a second way: random whitespace, shuffled members,
// randomly \u-escaped characters and a random number notation.
func spell(r *rand.Rand, b *bytes.Buffer, n node) {
	ws := func() { b.WriteString([]string{"", " ", "\n\t", "\r\n  "}[r.IntN(4)]) }
	ws()
	switch n.kind {
	case 0:
		b.WriteString("null")
	case 1:
		b.WriteString(strconv.FormatBool(n.b))
	case 2:
		b.WriteString(spellNumber(r, n.f))
	case 3:
		spellString(r, b, n.s)
	case 4:
		b.WriteByte('[')
		for i, k := range n.kids {
			if i > 0 {
				b.WriteByte(',')
			}
			spell(r, b, k)
		}
		ws()
		b.WriteByte(']')
	case 5:
		b.WriteByte('{')
		for i, j := range r.Perm(len(n.kids)) {
			if i > 0 {
				b.WriteByte(',')
			}
			ws()
			spellString(r, b, n.keys[j])
			ws()
			b.WriteByte(':')
			spell(r, b, n.kids[j])
		}
		ws()
		b.WriteByte('}')
	}
	ws()
}

func spellNumber(r *rand.Rand, f float64) string {
	switch r.IntN(4) {
	case 0:
		return strconv.FormatFloat(f, 'e', -1, 64)
	case 1:
		return strings.ToUpper(strconv.FormatFloat(f, 'e', -1, 64))
	case 2:
		return strconv.FormatFloat(f, 'f', -1, 64)
	default:
		// Trailing zeros in the mantissa change nothing.
		m, e, _ := strings.Cut(strconv.FormatFloat(f, 'e', -1, 64), "e")
		if !strings.Contains(m, ".") {
			m += ".0"
		}
		return m + "00e" + e
	}
}

func spellString(r *rand.Rand, b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for _, c := range s {
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteRune(c)
		case c < 0x20 || r.IntN(3) == 0:
			for _, u := range utf16.Encode([]rune{c}) {
				f := "\\u%04x"
				if r.IntN(2) == 0 {
					f = "\\u%04X"
				}
				fmt.Fprintf(b, f, u)
			}
		default:
			b.WriteRune(c)
		}
	}
	b.WriteByte('"')
}

func TestEquivalentSpellingsCanonicaliseIdentically(t *testing.T) {
	r := rand.New(rand.NewPCG(8785, 1))
	for i := range 3000 {
		n := genNode(r, 0)
		a, err := json.Marshal(toGo(n))
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		spell(r, &b, n)
		ca, err := Canonicalize(a)
		if err != nil {
			t.Fatalf("case %d: Canonicalize(%s): %v", i, a, err)
		}
		cb, err := Canonicalize(b.Bytes())
		if err != nil {
			t.Fatalf("case %d: Canonicalize(%q): %v", i, b.Bytes(), err)
		}
		if !bytes.Equal(ca, cb) {
			t.Fatalf("case %d: two spellings of one value differ:\n%q\n%q\ngive\n%q\n%q", i, a, b.Bytes(), ca, cb)
		}
		again, err := Canonicalize(ca)
		if err != nil || !bytes.Equal(again, ca) {
			t.Fatalf("case %d: not idempotent: %q → %q, %v", i, ca, again, err)
		}
		assertSameValue(t, a, ca)
	}
}

// assertSameValue checks that canonicalisation kept the value: both texts
// decode to equal Go values.
func assertSameValue(t *testing.T, in, out []byte) {
	t.Helper()
	var vi, vo any
	if err := json.Unmarshal(in, &vi); err != nil {
		t.Fatalf("input %q: %v", in, err)
	}
	if err := json.Unmarshal(out, &vo); err != nil {
		t.Fatalf("output %q is not JSON: %v", out, err)
	}
	if !reflect.DeepEqual(vi, vo) {
		t.Fatalf("value changed:\n%q\n%q", in, out)
	}
}

func FuzzCanonicalize(f *testing.F) {
	for _, v := range vectors {
		f.Add([]byte(v.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Canonicalize(in)
		if err != nil {
			return
		}
		again, err := Canonicalize(out)
		if err != nil || !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q → %q → %q, %v", in, out, again, err)
		}
		assertSameValue(t, in, out)
	})
}
