package rubric

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/tribunal-cc/tribunal/internal/nesting"
	"github.com/tribunal-cc/tribunal/internal/warncap"
)

// The TOML overlay is decoded into typed structs, so a wrong value type is a
// decode error instead of a silently dropped field. Pointers keep "absent"
// apart from zero values, since TOML has no null.
type tomlFile struct {
	Rubrics []tomlRubric `toml:"rubrics"`
}

type tomlRubric struct {
	ID                *string          `toml:"id"`
	Criteria          *[]tomlCriterion `toml:"criteria"`
	ScoreThreshold    *float64         `toml:"score_threshold"`
	MaxIterations     *int64           `toml:"max_iterations"`
	JudgeTypes        *[]string        `toml:"judge_types"`
	GatePolicy        *string          `toml:"gate_policy"`
	AggregationMethod *string          `toml:"aggregation_method"`
}

type tomlCriterion struct {
	Name    *string  `toml:"name"`
	Weight  *float64 `toml:"weight"`
	MinPass *float64 `toml:"min_pass"`
}

// tomlKeys is every key path the TOML overlay may contain, spelled exactly.
// BurntSushi/toml falls back to case-insensitive matching, so keys that
// decoded are still compared against this list.
var tomlKeys = map[string]bool{
	"rubrics":                    true,
	"rubrics.id":                 true,
	"rubrics.criteria":           true,
	"rubrics.criteria.name":      true,
	"rubrics.criteria.weight":    true,
	"rubrics.criteria.min_pass":  true,
	"rubrics.score_threshold":    true,
	"rubrics.max_iterations":     true,
	"rubrics.judge_types":        true,
	"rubrics.gate_policy":        true,
	"rubrics.aggregation_method": true,
}

// addTOMLFile applies a TOML overlay. Unlike the JSON overlays it is strict:
// any syntax error, type error, unknown key or wrongly cased key rejects the
// whole file, because a TOML file is written by hand for tribunal alone.
func (s *Set) addTOMLFile(path string, warn func(string)) {
	data, ok := readCapped(path, warn)
	if !ok {
		return
	}
	rubrics, err := parseTOML(data, path, warn)
	if err != nil {
		warn(fmt.Sprintf("tribunal: warning: %s: %v; file ignored", path, err))
		return
	}
	for _, r := range rubrics {
		s.put(r)
	}
}

// parseTOML decodes a TOML overlay into rubrics. Entries without an id are
// skipped with a warning, as in the JSON overlays; everything else wrong
// with the file is returned as an error.
func parseTOML(data []byte, origin string, warn func(string)) ([]Rubric, error) {
	if err := nesting.TOML(data); err != nil {
		return nil, err
	}
	var f tomlFile
	md, err := toml.Decode(string(data), &f)
	if err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("toml syntax error at line %d, column %d: %s",
				pe.Position.Line, pe.Position.Col, strings.TrimSuffix(pe.Message, "."))
		}
		return nil, err
	}
	if err := checkTOMLKeys(md); err != nil {
		return nil, err
	}
	var out []Rubric
	for i, tr := range f.Rubrics {
		if tr.ID == nil || *tr.ID == "" {
			warn(fmt.Sprintf("tribunal: warning: %s: rubrics[%d] has no non-empty string \"id\"; skipped", origin, i))
			continue
		}
		raw, err := tr.json(i)
		if err != nil {
			return nil, err
		}
		r, err := Parse(raw)
		if err != nil {
			return nil, fmt.Errorf("rubrics[%d]: %w", i, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// checkTOMLKeys rejects keys the structs did not take, and keys that were
// only taken because of case-insensitive matching. Only the top-most
// offending key of a subtree is named: under an unknown table every child
// is unknown too, and listing them all buries the one mistake.
func checkTOMLKeys(md toml.MetaData) error {
	var rejected []toml.Key
	seen := map[string]bool{}
	flag := func(k toml.Key) {
		name := strings.Join(k, "\x00")
		if seen[name] {
			return
		}
		seen[name] = true
		rejected = append(rejected, k)
	}
	for _, k := range md.Undecoded() {
		flag(k)
	}
	for _, k := range md.Keys() {
		if !tomlKeys[strings.Join(k, ".")] || hasDot(k) {
			flag(k)
		}
	}
	if len(rejected) == 0 {
		return nil
	}
	var msgs []string
	for _, k := range rejected {
		if hasRejectedParent(k, seen) {
			continue
		}
		msg := fmt.Sprintf("unknown key %q", k.String())
		if tomlKeys[strings.ToLower(strings.Join(k, "."))] && !hasDot(k) {
			msg += fmt.Sprintf(" (keys are case-sensitive: write %q)", strings.ToLower(k.String()))
		}
		msgs = append(msgs, msg)
	}
	return errors.New(warncap.List(msgs, ", "))
}

// hasDot reports a quoted key component containing a dot, such as
// "criteria.name", which would otherwise alias a nested path when joined.
func hasDot(k toml.Key) bool {
	return slices.ContainsFunc(k, func(part string) bool { return strings.Contains(part, ".") })
}

func hasRejectedParent(k toml.Key, seen map[string]bool) bool {
	for i := 1; i < len(k); i++ {
		if seen[strings.Join(k[:i], "\x00")] {
			return true
		}
	}
	return false
}

// json renders the entry as the equivalent JSON rubric object, so a TOML
// rubric is parsed, validated and snapshotted exactly like a JSON one.
func (tr tomlRubric) json(i int) (json.RawMessage, error) {
	var b jsonObject
	b.str("id", tr.ID)
	if tr.Criteria != nil {
		var items []json.RawMessage
		for j, c := range *tr.Criteria {
			var cb jsonObject
			cb.str("name", c.Name)
			if err := cb.num("weight", c.Weight); err != nil {
				return nil, fmt.Errorf("rubrics[%d].criteria[%d].weight: %w", i, j, err)
			}
			if err := cb.num("min_pass", c.MinPass); err != nil {
				return nil, fmt.Errorf("rubrics[%d].criteria[%d].min_pass: %w", i, j, err)
			}
			items = append(items, cb.bytes())
		}
		b.raw("criteria", arrayJSON(items))
	}
	if err := b.num("score_threshold", tr.ScoreThreshold); err != nil {
		return nil, fmt.Errorf("rubrics[%d].score_threshold: %w", i, err)
	}
	if tr.MaxIterations != nil {
		b.raw("max_iterations", []byte(strconv.FormatInt(*tr.MaxIterations, 10)))
	}
	if tr.JudgeTypes != nil {
		var items []json.RawMessage
		for _, t := range *tr.JudgeTypes {
			items = append(items, quote(t))
		}
		b.raw("judge_types", arrayJSON(items))
	}
	b.str("gate_policy", tr.GatePolicy)
	b.str("aggregation_method", tr.AggregationMethod)
	return b.bytes(), nil
}

// jsonObject writes a JSON object with keys in insertion order, which
// encoding/json cannot do for maps.
type jsonObject struct {
	buf bytes.Buffer
}

func (o *jsonObject) raw(key string, v []byte) {
	if o.buf.Len() == 0 {
		o.buf.WriteByte('{')
	} else {
		o.buf.WriteByte(',')
	}
	o.buf.Write(quote(key))
	o.buf.WriteByte(':')
	o.buf.Write(v)
}

func (o *jsonObject) str(key string, v *string) {
	if v != nil {
		o.raw(key, quote(*v))
	}
}

func (o *jsonObject) num(key string, v *float64) error {
	if v == nil {
		return nil
	}
	if math.IsNaN(*v) || math.IsInf(*v, 0) {
		return fmt.Errorf("%v is not a valid number", *v)
	}
	o.raw(key, []byte(strconv.FormatFloat(*v, 'g', -1, 64)))
	return nil
}

func (o *jsonObject) bytes() json.RawMessage {
	if o.buf.Len() == 0 {
		return json.RawMessage("{}")
	}
	return append(o.buf.Bytes(), '}')
}

func arrayJSON(items []json.RawMessage) []byte {
	out := []byte("[")
	for i, item := range items {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, item...)
	}
	return append(out, ']')
}

func quote(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // encoding a string cannot fail
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}
