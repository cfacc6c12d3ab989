package redact

import (
	"encoding/json"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

const key = "sk-live-0123456789abcdef"

func TestString(t *testing.T) {
	r := New(key, "", "short", `qu"ote\key/1234`)
	for _, tc := range []struct{ in, want string }{
		{"bad key " + key + "!", "bad key [redacted]!"},
		{"Bearer " + key + key, "Bearer [redacted][redacted]"},
		{"short and empty stay", "short and empty stay"},
		{`{"error":"qu\"ote\\key/1234"}`, `{"error":"[redacted]"}`},
		{"url qu%22ote%5Ckey%2F1234 and path qu%22ote%5Ckey%2F1234", "url [redacted] and path [redacted]"},
	} {
		if got := r.String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var none *Redactor
	if New("", "abc") != nil || none.String(key) != key || none.Active() {
		t.Error("a redactor of no usable secret must be nil and change nothing")
	}
}

func TestLongerSecretFirst(t *testing.T) {
	r := New("abcdefgh", "abcdefgh-longer")
	if got := r.String("x abcdefgh-longer y"); got != "x [redacted] y" {
		t.Errorf("got %q", got)
	}
}

// TestJSON: a secret inside a JSON string is replaced and the text stays
// valid JSON of the same shape, even where only the escaped form matches
// across an escape sequence.
func TestJSON(t *testing.T) {
	r := New(key, "nvapi-abcdefgh")
	in, _ := json.Marshal(map[string]any{"error": "HTTP 401: " + key, "n": 1.5, "list": []string{"\nvapi-abcdefgh", key}, key: true})
	out := r.JSON(in)
	if !json.Valid(out) || strings.Contains(string(out), key) {
		t.Fatalf("JSON = %s", out)
	}
	var v map[string]any
	_ = json.Unmarshal(out, &v)
	if v["error"] != "HTTP 401: [redacted]" || v["n"] != 1.5 || v[Mark] != true {
		t.Errorf("JSON = %s", out)
	}
	if l := v["list"].([]any); l[0] != "\nvapi-abcdefgh" || l[1] != Mark {
		t.Errorf("a match across an escape changed the string: %q", l)
	}
	clean := []byte(`{"a":"b"}`)
	if got := r.JSON(clean); &got[0] != &clean[0] {
		t.Error("clean JSON is copied")
	}
	if got := string(r.JSON([]byte("not json " + key))); got != "not json [redacted]" {
		t.Errorf("plain text: %q", got)
	}
}

func TestError(t *testing.T) {
	r := New(key)
	base := &fs.PathError{Op: "open", Path: key, Err: fs.ErrNotExist}
	err := r.Error(base)
	if strings.Contains(err.Error(), key) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Error = %v", err)
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		t.Error("errors.As lost the chain")
	}
	if r.Error(nil) != nil {
		t.Error("nil error")
	}
}

func TestWriterAndFunc(t *testing.T) {
	r := New(key)
	var b strings.Builder
	n, err := r.Writer(&b).Write([]byte("tribunal: error: " + key + "\n"))
	if err != nil || n != len("tribunal: error: "+key+"\n") || b.String() != "tribunal: error: [redacted]\n" {
		t.Errorf("Writer: %d %v %q", n, err, b.String())
	}
	var got string
	r.Func(func(s string) { got = s })("warn " + key)
	if got != "warn [redacted]" {
		t.Errorf("Func: %q", got)
	}
	ss := []string{"a", key}
	if out := r.Strings(ss); out[1] != Mark || ss[1] != key {
		t.Errorf("Strings: %q (input %q)", out, ss)
	}
}

func TestURL(t *testing.T) {
	raw := "https://user-name:pa55word-xyz@llm.example.com:8443/openai/v1/?api-key=azure-key-123456&api-version=2024-10-21#frag"
	got, err := Endpoint(raw)
	if err != nil || got != "https://llm.example.com:8443/openai/v1/" {
		t.Errorf("Endpoint = %q, %v", got, err)
	}
	secrets := URLSecrets(raw)
	slices.Sort(secrets)
	if want := []string{"azure-key-123456", "pa55word-xyz", "user-name"}; !slices.Equal(secrets, want) {
		t.Errorf("URLSecrets = %q, want %q", secrets, want)
	}
	if _, err := Endpoint("localhost:11434"); err == nil {
		t.Error("Endpoint accepted a URL without a scheme and host")
	}
}
