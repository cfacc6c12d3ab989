// Package redact removes the configured secrets (API keys, credentials in
// endpoint URLs) from every string tribunal stores or prints.
package redact

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"slices"
	"strings"
)

// Mark replaces each occurrence of a secret.
const Mark = "[redacted]"

// MinLen is the shortest secret redacted: a shorter value (an empty
// variable, a user name like "admin", an "api-version" such as "1") would
// also match ordinary words and numbers and garble the records, and is too
// short to be a credential worth the name.
const MinLen = 8

// Redactor replaces secrets with Mark. A nil *Redactor, or one built from
// no secret of MinLen bytes, changes nothing; every method is safe for
// concurrent use.
type Redactor struct {
	forms []string // each secret as given and as JSON and URLs encode it, longest first
	r     *strings.Replacer
}

// New returns a redactor of secrets; values shorter than MinLen are
// ignored. Each secret is also matched as JSON escapes it and as URLs
// encode it, so that a key with a quote or a slash is caught in a raw
// response body or a request line too.
func New(secrets ...string) *Redactor {
	seen := map[string]bool{}
	var forms []string
	add := func(s string) {
		if len(s) >= MinLen && !seen[s] {
			seen[s] = true
			forms = append(forms, s)
		}
	}
	for _, s := range secrets {
		add(s)
		add(jsonEscape(s))
		add(url.QueryEscape(s))
		add(url.PathEscape(s))
	}
	if len(forms) == 0 {
		return nil
	}
	// strings.Replacer prefers, at one position, the earlier argument: a
	// longer secret that starts with a shorter one must come first.
	slices.SortStableFunc(forms, func(a, b string) int { return len(b) - len(a) })
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, Mark)
	}
	return &Redactor{forms: forms, r: strings.NewReplacer(pairs...)}
}

// jsonEscape is s as it appears inside a JSON string (without quotes).
func jsonEscape(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// Active reports whether r has anything to redact.
func (r *Redactor) Active() bool { return r != nil }

// String returns s with every secret replaced.
func (r *Redactor) String(s string) string {
	if r == nil || !r.contains(s) {
		return s
	}
	return r.r.Replace(s)
}

func (r *Redactor) contains(s string) bool {
	for _, f := range r.forms {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// Strings returns ss with every secret replaced, ss itself when none held
// one.
func (r *Redactor) Strings(ss []string) []string {
	if r == nil {
		return ss
	}
	var out []string
	for i, s := range ss {
		if t := r.String(s); t != s {
			if out == nil {
				out = slices.Clone(ss)
			}
			out[i] = t
		}
	}
	if out == nil {
		return ss
	}
	return out
}

// Error returns err with its message redacted; errors.Is and errors.As
// still see the original chain. nil stays nil.
func (r *Redactor) Error(err error) error {
	if r == nil || err == nil {
		return err
	}
	msg := err.Error()
	if red := r.String(msg); red != msg {
		return &redacted{msg: red, err: err}
	}
	return err
}

type redacted struct {
	msg string
	err error
}

func (e *redacted) Error() string { return e.msg }
func (e *redacted) Unwrap() error { return e.err }

// Func wraps a line sink (a warning or progress callback) so that what it
// receives is redacted.
func (r *Redactor) Func(f func(string)) func(string) {
	if r == nil || f == nil {
		return f
	}
	return func(s string) { f(r.String(s)) }
}

// JSON returns the JSON text b with every secret inside its strings (keys
// and values) replaced, re-encoding only the strings that held one, so the
// result stays valid JSON with the same structure; b itself comes back
// when nothing matched. Text that is not valid JSON is redacted as plain
// text.
func (r *Redactor) JSON(b []byte) []byte {
	if r == nil || !r.contains(string(b)) {
		return b
	}
	if !json.Valid(b) {
		return []byte(r.r.Replace(string(b)))
	}
	var out bytes.Buffer
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end := stringEnd(b, i)
		tok := b[i : end+1]
		if r.contains(string(tok)) {
			var s string
			if err := json.Unmarshal(tok, &s); err == nil {
				out.Write(b[last:i])
				out.WriteString(`"` + jsonEscape(r.String(s)) + `"`)
				last = end + 1
			}
		}
		i = end
	}
	out.Write(b[last:])
	return out.Bytes()
}

// stringEnd is the index of the quote closing the JSON string that opens
// at b[start].
func stringEnd(b []byte, start int) int {
	for j := start + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j
		}
	}
	return len(b) - 1
}

// Marshal is json.Marshal followed by JSON: the one way to encode a record
// that may carry a secret.
func (r *Redactor) Marshal(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return r.JSON(b), nil
}

// RawJSON redacts a json.RawMessage, keeping nil as nil.
func (r *Redactor) RawJSON(m json.RawMessage) json.RawMessage {
	if m == nil {
		return nil
	}
	return json.RawMessage(r.JSON(m))
}

// Writer returns w with every Write redacted. Each Write is redacted on
// its own: the binaries write whole lines.
func (r *Redactor) Writer(w io.Writer) io.Writer {
	if r == nil {
		return w
	}
	return writer{r: r, w: w}
}

type writer struct {
	r *Redactor
	w io.Writer
}

func (w writer) Write(p []byte) (int, error) {
	red := w.r.String(string(p))
	if red == string(p) {
		return w.w.Write(p)
	}
	if _, err := io.WriteString(w.w, red); err != nil {
		return 0, err
	}
	return len(p), nil
}

// ErrNotURL is returned by Endpoint for a value that is not an absolute
// URL.
var ErrNotURL = errors.New("not an absolute URL")

// URLSecrets returns the credentials an endpoint URL carries: the user
// name and password of its userinfo and the values of its query, any of
// which may be a key ("?api-key=…", "?key=…", a signature), except a
// version ("api-version=2024-10-21", which would garble every date of
// that day); values shorter than MinLen are left alone by New.
func URLSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if u.User != nil {
		out = append(out, u.User.Username())
		if pw, ok := u.User.Password(); ok {
			out = append(out, pw)
		}
	}
	for name, vs := range u.Query() {
		if !strings.Contains(strings.ToLower(name), "version") {
			out = append(out, vs...)
		}
	}
	return out
}

// Endpoint is the form of an endpoint URL tribunal stores and prints:
// scheme://host[:port]/path, without userinfo, query or fragment, which
// may hold credentials.
func Endpoint(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", ErrNotURL
	}
	clean := url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawPath: u.RawPath}
	return clean.String(), nil
}
