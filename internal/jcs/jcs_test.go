package jcs

import (
	"errors"
	"math"
	"strconv"
	"testing"
)

// The input/output pairs of the RFC 8785 reference test data
// (cyberphone/json-canonicalization testdata/input and testdata/output),
// plus the two examples in the RFC's own text.
var vectors = []struct {
	name, in, want string
}{
	{"arrays", "[\n  56,\n  {\n    \"d\": true,\n    \"10\": null,\n    \"1\": [ ]\n  }\n]",
		`[56,{"1":[],"10":null,"d":true}]`},
	{"french", "{\n  \"peach\": \"This sorting order\",\n  \"péché\": \"is wrong according to French\",\n  \"pêche\": \"but canonicalization MUST\",\n  \"sin\":   \"ingnore locale\"\n}\n",
		`{"peach":"This sorting order","péché":"is wrong according to French","pêche":"but canonicalization MUST","sin":"ingnore locale"}`},
	{"structures", "{\n  \"1\": {\"f\": {\"f\": \"hi\",\"F\": 5} ,\"\\n\": 56.0},\n  \"10\": { },\n  \"\": \"empty\",\n  \"a\": { },\n  \"111\": [ { } ],\n  \"A\": { }\n}",
		`{"":"empty","1":{"\n":56,"f":{"F":5,"f":"hi"}},"10":{},"111":[{}],"A":{},"a":{}}`},
	{"unicode", "{\n  \"Unnormalized Unicode\":\"\\u1e0d\\u0307\"\n}\n",
		"{\"Unnormalized Unicode\":\"\u1e0d\u0307\"}"},
	{"values", "{\n  \"numbers\": [1E30, 4.50, 333333333.33333329, 2e-3, 0.000000000000000000000000001],\n  \"escaping\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n  \"literals\": [null, true, false]\n}",
		`{"escaping":"€$\u000f\nA'B\"\\\\\"/","literals":[null,true,false],"numbers":[1e+30,4.5,333333333.3333333,0.002,1e-27]}`},
	{"weird", "{\n  \"\\u20ac\": \"Euro Sign\",\n  \"1\": \"One\",\n  \"\\u0080\": \"Control\\u007f\",\n  \"\\ud83d\\ude02\": \"Smiley\",\n  \"\\u00f6\": \"Latin Small Letter O With Diaeresis\",\n  \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n  \"</script>\": \"Browser Challenge\"\n}\n",
		"{\"1\":\"One\",\"</script>\":\"Browser Challenge\",\"\u0080\":\"Control\x7f\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\",\"😂\":\"Smiley\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"},
	// RFC 8785 §3.2.3, the sorting example.
	{"rfc-sorting", "{\n   \"\\u20ac\": \"Euro Sign\",\n   \"\\r\": \"Carriage Return\",\n   \"\\ufb33\": \"Hebrew Letter Dalet With Dagesh\",\n   \"1\": \"One\",\n   \"\\ud83d\\ude00\": \"Emoji: Grinning Face\",\n   \"\\u0080\": \"Control\",\n   \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"\n}",
		"{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\",\"\u20ac\":\"Euro Sign\",\"😀\":\"Emoji: Grinning Face\",\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}"},
	// RFC 8785 §3.2.4 (and §3.2.2's description of it).
	{"rfc-example", "{\n   \"numbers\": [333333333.33333329, 1E30, 4.50,\n               2e-3, 0.000000000000000000000000001],\n   \"string\": \"\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\\"\\/\",\n   \"literals\": [null, true, false]\n}",
		`{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\u000f\nA'B\"\\\\\"/"}`},
}

func TestVectors(t *testing.T) {
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			got, err := Canonicalize([]byte(v.in))
			if err != nil {
				t.Fatalf("Canonicalize: %v", err)
			}
			if string(got) != v.want {
				t.Errorf("got  %s\nwant %s", got, v.want)
			}
		})
	}
}

// RFC 8785 Appendix B, row by row, then further rows from the reference
// number test file's fixed prefix.
var numberVectors = []struct {
	bits uint64
	want string // "" for NaN and Infinity, which must be refused
}{
	{0x0000000000000000, "0"},
	{0x8000000000000000, "0"},
	{0x0000000000000001, "5e-324"},
	{0x8000000000000001, "-5e-324"},
	{0x7fefffffffffffff, "1.7976931348623157e+308"},
	{0xffefffffffffffff, "-1.7976931348623157e+308"},
	{0x4340000000000000, "9007199254740992"},
	{0xc340000000000000, "-9007199254740992"},
	{0x4430000000000000, "295147905179352830000"},
	{0x7fffffffffffffff, ""},
	{0x7ff0000000000000, ""},
	{0x44b52d02c7e14af5, "9.999999999999997e+22"},
	{0x44b52d02c7e14af6, "1e+23"},
	{0x44b52d02c7e14af7, "1.0000000000000001e+23"},
	{0x444b1ae4d6e2ef4e, "999999999999999700000"},
	{0x444b1ae4d6e2ef4f, "999999999999999900000"},
	{0x444b1ae4d6e2ef50, "1e+21"},
	{0x3eb0c6f7a0b5ed8c, "9.999999999999997e-7"},
	{0x3eb0c6f7a0b5ed8d, "0.000001"},
	{0x41b3de4355555553, "333333333.3333332"},
	{0x41b3de4355555554, "333333333.33333325"},
	{0x41b3de4355555555, "333333333.3333333"},
	{0x41b3de4355555556, "333333333.3333334"},
	{0x41b3de4355555557, "333333333.33333343"},
	{0xbecbf647612f3696, "-0.0000033333333333333333"},
	{0x43143ff3c1cb0959, "1424953923781206.2"},
	{0xfff0000000000000, ""},
	{0x4340000000000001, "9007199254740994"},
	{0x4340000000000002, "9007199254740996"},
	{0x0000000100000000, "2.121995791e-314"},
	{0x1000000100000000, "1.2882309824710566e-231"},
	{0x1000000100000001, "1.288230982471057e-231"},
	{0x1000000100000002, "1.2882309824710572e-231"},
	{0x1000000100000003, "1.2882309824710575e-231"},
	{0x1000000100000004, "1.2882309824710577e-231"},
	{0x1000000100000005, "1.288230982471058e-231"},
	// Layout boundaries of Number::toString.
	{math.Float64bits(1e20), "100000000000000000000"},
	{math.Float64bits(123e18), "123000000000000000000"},
	{math.Float64bits(1e-6), "0.000001"},
	{math.Float64bits(1e-7), "1e-7"},
	{math.Float64bits(1.5e-7), "1.5e-7"},
	{math.Float64bits(0.1), "0.1"},
	{math.Float64bits(-1.25), "-1.25"},
	{math.Float64bits(12.5e21), "1.25e+22"},
}

func TestFormatNumber(t *testing.T) {
	for _, v := range numberVectors {
		f := math.Float64frombits(v.bits)
		got, err := FormatNumber(f)
		if v.want == "" {
			if err == nil {
				t.Errorf("%016x: got %q, want an error", v.bits, got)
			}
			continue
		}
		if err != nil || got != v.want {
			t.Errorf("%016x: got %q, %v; want %q", v.bits, got, err, v.want)
		}
		// The same through the parser, from Go's own spelling of f.
		in := strconv.FormatFloat(f, 'g', -1, 64)
		if out, err := Canonicalize([]byte(in)); err != nil || string(out) != v.want {
			t.Errorf("Canonicalize(%s) = %q, %v; want %q", in, out, err, v.want)
		}
	}
}

func TestNumberSpellings(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"-0", "0"},
		{"-0.0e-5", "0"},
		{"1E2", "100"},
		{"1e+2", "100"},
		{"100e-2", "1"},
		{"0.5E1", "5"},
		{"1e-400", "0"},
		{"9007199254740993", "9007199254740992"},
		{"[1.0, 10, 1e1]", "[1,10,10]"},
	} {
		got, err := Canonicalize([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("Canonicalize(%s) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestStringEscapes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`"\u0000\u0001\u001f"`, `"\u0000\u0001\u001f"`},
		{`"\b\t\n\f\r"`, `"\b\t\n\f\r"`},
		{`"\u0008\u0009\u000A\u000c\u000D"`, `"\b\t\n\f\r"`},
		{`"\u001F"`, `"\u001f"`},
		{`"\/"`, `"/"`},
		{`"\u007f\u2028\u2029"`, "\"\x7f\u2028\u2029\""},
		{`"<>&"`, `"<>&"`},
		{`"\ud834\udd1e"`, `"𝄞"`},
		{`"\uD834\uDD1E"`, `"𝄞"`},
		{"\"\U0001d11e\"", `"𝄞"`},
		{`"\u00e9"`, `"é"`},
	} {
		got, err := Canonicalize([]byte(tc.in))
		if err != nil || string(got) != tc.want {
			t.Errorf("Canonicalize(%s) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}

func TestRejects(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"empty", ""},
		{"only space", "  \n"},
		{"duplicate name", `{"a":1,"a":2}`},
		{"duplicate after unescaping", `{"a":1,"\u0061":2}`},
		{"nested duplicate", `[{"x":{"k":1,"k":1}}]`},
		{"lone high surrogate", `"\ud800"`},
		{"lone high surrogate then char", `"\ud800x"`},
		{"high then high", `"\ud800\ud800"`},
		{"lone low surrogate", `"\udc00"`},
		{"invalid utf-8", "\"\xff\""},
		{"utf-8 encoded surrogate", "\"\xed\xa0\x80\""},
		{"overlong utf-8", "\"\xc0\xaf\""},
		{"truncated utf-8", "\"\xe2\x82\""},
		{"raw control character", "\"a\x01b\""},
		{"raw newline in string", "\"a\nb\""},
		{"bad escape", `"\x41"`},
		{"short unicode escape", `"\u12"`},
		{"non-hex unicode escape", `"\u12G4"`},
		{"unterminated string", `"abc`},
		{"overflow", "1e309"},
		{"negative overflow", "-1e400"},
		{"leading plus", "+1"},
		{"leading zero", "01"},
		{"bare point", ".5"},
		{"trailing point", "1."},
		{"empty exponent", "1e"},
		{"hex number", "0x10"},
		{"NaN", "NaN"},
		{"Infinity", "Infinity"},
		{"trailing comma in array", "[1,]"},
		{"trailing comma in object", `{"a":1,}`},
		{"missing colon", `{"a" 1}`},
		{"unquoted name", `{a:1}`},
		{"single quotes", `'a'`},
		{"two values", `1 2`},
		{"trailing garbage", `{}x`},
		{"misspelt literal", "tru"},
		{"literal with suffix", "nullx"},
		{"unterminated array", "[1"},
		{"unterminated object", `{"a":1`},
		{"byte order mark", "\xef\xbb\xbf{}"},
		{"vertical tab is not whitespace", "\v{}"},
		{"too deep", deepArray(maxDepth + 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := Canonicalize([]byte(tc.in))
			if err == nil {
				t.Fatalf("accepted, giving %q", out)
			}
			if !errors.Is(err, ErrInvalid) {
				t.Errorf("error %v does not wrap ErrInvalid", err)
			}
		})
	}
}

func TestDepthLimitIsNotTooLow(t *testing.T) {
	if _, err := Canonicalize([]byte(deepArray(maxDepth))); err != nil {
		t.Fatalf("nesting of %d refused: %v", maxDepth, err)
	}
}

func deepArray(n int) string {
	b := make([]byte, 0, 2*n)
	for range n {
		b = append(b, '[')
	}
	for range n {
		b = append(b, ']')
	}
	return string(b)
}

// TestSHA256 hashes the canonical form: spacing and member order do not
// change the digest; invalid JSON has none.
func TestSHA256(t *testing.T) {
	a, err := SHA256([]byte(`{"b":1,"a":[true, "x"]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SHA256([]byte("{ \"a\" : [true,\"x\"],\n \"b\" : 1.0 }"))
	if a != b || len(a) != 64 {
		t.Errorf("digests %q and %q of one document", a, b)
	}
	if _, err := SHA256([]byte(`{"a":1,"a":2}`)); err == nil {
		t.Error("a duplicate member name hashed")
	}
}
