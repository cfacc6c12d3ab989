package schemaengine

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/tribunal-cc/tribunal/internal/judging/schemaproto"
)

// req encodes a request as a client would, unchecked, so that a bad one
// reaches the program.
func req(t *testing.T, r schemaproto.Request) string {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

var object = schemaproto.Schema{Name: "cfg", Source: []byte(`{"type":"object","properties":{"port":{"type":"integer"}},"required":["port"]}`)}

// TestProtocol is the program's whole contract, one exchange a row: the
// exit status, the response (per schema, then per document, "ok" or the
// error) or the reason on stderr.
func TestProtocol(t *testing.T) {
	big := bytes.Repeat([]byte(" "), schemaproto.MaxItemBytes+1)
	tests := []struct {
		name, in string
		args     []string
		code     int
		want     string // the response's results, or a substring of stderr
	}{
		{"ok", req(t, schemaproto.Request{Schemas: []schemaproto.Schema{object}, Documents: []schemaproto.Document{{Data: []byte(`{"port":80}`)}}}),
			nil, 0, "ok | ok"},
		{"validation error", req(t, schemaproto.Request{Schemas: []schemaproto.Schema{object}, Documents: []schemaproto.Document{{Data: []byte(`{"port":"80"}`)}}}),
			nil, 0, "ok | does not satisfy the schema: at '/port': got string, want integer"},
		{"not JSON", req(t, schemaproto.Request{Schemas: []schemaproto.Schema{object}, Documents: []schemaproto.Document{{Data: []byte(`{"port":`)}}}),
			nil, 0, "ok | not valid JSON: unexpected EOF"},
		{"trailing value", req(t, schemaproto.Request{Schemas: []schemaproto.Schema{object}, Documents: []schemaproto.Document{{Data: []byte(`{} {}`)}}}),
			nil, 0, "ok | not valid JSON: invalid character after top-level value"},
		{"compile error", req(t, schemaproto.Request{Schemas: []schemaproto.Schema{object, {Name: "bad", Source: []byte(`{"type":"strin"}`)}},
			Documents: []schemaproto.Document{{Schema: 1, Data: []byte(`1`)}, {Data: []byte(`{"port":1}`)}}}),
			nil, 0, `ok, invalid schema: "bad.json#" is not valid against metaschema: jsonschema validation failed with 'https://json-schema.org/draft/2020-12/schema#'; at '': 'allOf' failed; at '/type': 'anyOf' failed; at '/type': value must be one of 'array', 'boolean', 'integer', 'null', 'number', 'object', 'string'; at '/type': got string, want array | the schema does not compile: invalid schema: "bad.json#" is not valid against metaschema`},
		{"external ref", req(t, schemaproto.Request{Schemas: []schemaproto.Schema{{Name: "r", Source: []byte(`{"$ref":"other.json"}`)}}}),
			nil, 0, "schemas must be self-contained"},
		{"format asserted", req(t, schemaproto.Request{Schemas: []schemaproto.Schema{{Name: "f", Source: []byte(`{"format":"ipv4"}`)}}, Documents: []schemaproto.Document{{Data: []byte(`"1.2.3"`)}}}),
			nil, 0, "ok | does not satisfy the schema: at '': '1.2.3' is not valid ipv4: expected four decimals"},
		{"bad request", `{"schemas":`, nil, 2, "tribunal: error: tribunal-schema: the request is not one: unexpected EOF"},
		{"unknown field", `{"schemas":[{"name":"a","source":"e30="}],"extra":1}`, nil, 2, `unknown field "extra"`},
		{"no schema", `{"schemas":[]}`, nil, 2, "the request has no schema"},
		{"document names no schema", req(t, schemaproto.Request{Schemas: []schemaproto.Schema{object}, Documents: []schemaproto.Document{{Schema: 1, Data: []byte(`1`)}}}),
			nil, 2, "document 0 names schema 1 of 1"},
		{"oversized document", req(t, schemaproto.Request{Schemas: []schemaproto.Schema{object}, Documents: []schemaproto.Document{{Data: big}}}),
			nil, 2, "document 0 is over 4194304 bytes"},
		{"oversized request", strings.Repeat(" ", schemaproto.MaxRequestBytes+1), nil, 2, "the request is over 67108864 bytes"},
		{"arguments", "", []string{"--help"}, 2, "tribunal-schema takes no arguments"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out, errw bytes.Buffer
			code := Main(tc.args, strings.NewReader(tc.in), &out, &errw)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr %q", code, tc.code, errw.String())
			}
			if code != 0 {
				if out.Len() != 0 || !strings.Contains(errw.String(), tc.want) {
					t.Errorf("stdout %q, stderr %q; want nothing, and stderr with %q", out.String(), errw.String(), tc.want)
				}
				return
			}
			var res schemaproto.Response
			if err := json.Unmarshal(out.Bytes(), &res); err != nil {
				t.Fatalf("response %q: %v", out.String(), err)
			}
			if got := results(res); !strings.Contains(got, tc.want) {
				t.Errorf("results %q, want %q", got, tc.want)
			}
		})
	}
}

// results shows a response as "schema, schema | document, document".
func results(res schemaproto.Response) string {
	show := func(rs []schemaproto.Result) string {
		var s []string
		for _, r := range rs {
			if r.Error == "" {
				s = append(s, "ok")
			} else {
				s = append(s, r.Error)
			}
		}
		return strings.Join(s, ", ")
	}
	return show(res.Schemas) + " | " + show(res.Documents)
}

// TestDecodeIsTheValidators: schemaproto.Decode, which tribunal-session
// runs without the helper, decodes and fails exactly as the validator's
// own reader does.
func TestDecodeIsTheValidators(t *testing.T) {
	for _, in := range []string{`{"a":1.50}`, `[1,2]`, `"s"`, `12345678901234567890`, ``, `{`, `{"a":}`, `{} x`, `1 2`, `nul`, "\xff", `{"a":1}` + "\n"} {
		want, wantErr := jsonschema.UnmarshalJSON(strings.NewReader(in))
		got, gotErr := schemaproto.Decode([]byte(in))
		if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && wantErr.Error() != gotErr.Error()) {
			t.Errorf("%q: error %v, the validator's %v", in, gotErr, wantErr)
		}
		if g, w := fmtAny(got), fmtAny(want); g != w {
			t.Errorf("%q: %s, the validator's %s", in, g, w)
		}
	}
}

func fmtAny(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

// TestMessagesAreClipped: one error is at most MaxMessageBytes, so that a
// response is bounded by its request.
func TestMessagesAreClipped(t *testing.T) {
	long := strings.Repeat("x", schemaproto.MaxMessageBytes)
	r := Answer(&schemaproto.Request{Schemas: []schemaproto.Schema{{Name: "c", Source: []byte(`{"const":"` + long + `"}`)}},
		Documents: []schemaproto.Document{{Data: []byte(`"` + long + `y"`)}}})
	if n := len(r.Documents[0].Error); n == 0 || n > schemaproto.MaxMessageBytes {
		t.Errorf("a message of %d bytes, want 1..%d", n, schemaproto.MaxMessageBytes)
	}
}
