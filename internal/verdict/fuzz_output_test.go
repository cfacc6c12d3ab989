package verdict

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tribunal-cc/tribunal/internal/nesting"
)

// FuzzParseOutput checks the first normalisation step of every model reply
// (spec §4.1 step 1, spec §8.5 step 1) against encoding/json: the reply, trimmed and
// with one complete ``` or ```json fence removed, must be exactly one JSON
// object (nested no deeper than nesting.Max), and then its members are exactly encoding/json's; anything else is
// one of the three documented errors. A judge can never pre-fill the ids
// and type that the orchestrator assigns.
func FuzzParseOutput(f *testing.F) {
	f.Add("```json\n{\"score\":0.8}\n```")
	f.Fuzz(func(t *testing.T, text string) {
		obj, err := ParseOutput(text)
		body := unfence(strings.TrimSpace(text))
		switch {
		case body == "":
			if !errors.Is(err, ErrEmpty) {
				t.Fatalf("empty reply: %v", err)
			}
		case !json.Valid([]byte(body)) || nesting.JSON([]byte(body)) != nil:
			if !errors.Is(err, ErrNotJSON) {
				t.Fatalf("invalid JSON %q: %v", body, err)
			}
		case body[0] != '{':
			if !errors.Is(err, ErrNotObject) {
				t.Fatalf("non-object %q: %v", body, err)
			}
		default:
			if err != nil {
				t.Fatalf("object %q refused: %v", body, err)
			}
			want := map[string]json.RawMessage{}
			if err := json.Unmarshal([]byte(body), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(obj, want) {
				t.Fatalf("members differ:\n got %v\nwant %v", obj, want)
			}
		}
		if err != nil && obj != nil {
			t.Fatalf("members returned with error %v", err)
		}

		v, _ := NormaliseJudge(text, 0.75)
		if v.JudgeID != "" || v.JudgeType != "" || v.JudgeModelID != "" || v.TaskID != "" || v.IterationID != "" {
			t.Fatalf("judge output set an orchestrator field: %+v", v)
		}
		if (err != nil) != v.Failed {
			t.Fatalf("Failed = %v with parse error %v", v.Failed, err)
		}
	})
}

// unfence is an independent statement of the fence rule: the whole reply
// is ``` or ```json (any case, optional spaces) up to the first newline,
// then the body, then ``` at the very end.
func unfence(s string) string {
	first, rest, ok := strings.Cut(s, "\n")
	if !ok || !strings.HasPrefix(first, "```") || !strings.HasSuffix(rest, "```") {
		return s
	}
	if tag := strings.TrimSpace(first[3:]); tag != "" && !strings.EqualFold(tag, "json") {
		return s
	}
	return strings.TrimSpace(rest[:len(rest)-3])
}

// FuzzNormaliseMeta checks spec §4.6 on arbitrary meta-judge replies: the
// failure default applies exactly when the reply is not an object or its
// verdict_quality or bias_detected is out of its type; bias counts only
// for a JSON true (never the string "true"); override, bias types and
// confidence hold only allowed values; warnings are single lines; and a
// normalised verdict, written back as JSON, normalises to itself.
func FuzzNormaliseMeta(f *testing.F) {
	f.Add(`{"verdict_quality":"sound","bias_detected":false}`)
	f.Fuzz(func(t *testing.T, text string) {
		m, warnings := NormaliseMeta(text)
		for _, w := range warnings {
			if strings.ContainsAny(w, "\r\n") {
				t.Fatalf("multi-line warning %q", w)
			}
		}
		obj, err := ParseOutput(text)
		quality, _ := asString(obj["verdict_quality"])
		wantFailed := err != nil || !slices.Contains(qualities, quality) || !isBool(obj["bias_detected"])
		if m.Failed != wantFailed {
			t.Fatalf("Failed = %v, want %v (%+v)", m.Failed, wantFailed, m)
		}
		if m.Failed {
			if m.VerdictQuality != QualityQuestionable || m.BiasDetected || m.Override != "" ||
				m.BiasTypes != nil || m.Confidence != nil || m.Error == "" {
				t.Fatalf("failure default broken: %+v", m)
			}
			return
		}
		if m.VerdictQuality != quality {
			t.Fatalf("verdict_quality %q, reply said %q", m.VerdictQuality, quality)
		}
		if m.BiasDetected != (string(bytes.TrimSpace(obj["bias_detected"])) == "true") {
			t.Fatalf("bias_detected %v from %s", m.BiasDetected, obj["bias_detected"])
		}
		switch m.Override {
		case "", OverrideAccept, OverrideReject, OverrideReEvaluate:
		default:
			t.Fatalf("override %q escaped normalisation", m.Override)
		}
		for _, b := range m.BiasTypes {
			if !slices.Contains(BiasTypes, b) {
				t.Fatalf("bias type %q outside the taxonomy", b)
			}
		}
		if c := m.Confidence; c != nil && !(*c >= 0 && *c <= 1) {
			t.Fatalf("confidence %v outside [0,1]", *c)
		}

		again, _ := NormaliseMeta(metaJSON(t, m))
		if !reflect.DeepEqual(again, m) {
			t.Fatalf("not stable:\n first %+v\nsecond %+v", m, again)
		}
	})
}

// metaJSON writes m in the meta-judge's output shape.
func metaJSON(t *testing.T, m Meta) string {
	out := map[string]any{"verdict_quality": m.VerdictQuality, "bias_detected": m.BiasDetected}
	if m.BiasTypes != nil {
		out["bias_types"] = m.BiasTypes
	}
	if m.Confidence != nil {
		out["confidence"] = *m.Confidence
	}
	if m.Override != "" {
		out["override_recommendation"] = m.Override
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
