package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// kind is the JSON type a configuration key must have. Range rules that
// the spec makes fatal for a run (spec §2.3) are not kinds: a number out of
// [0,1] is well-typed here and rejected later, where its effect is known.
type kind uint8

const (
	kindObject kind = iota
	kindBool
	kindString
	kindNumber
	kindCount    // an integral number in [1, 2^31-1]
	kindPositive // a finite number > 0
	kindArray
)

var kindNames = map[kind]string{
	kindObject:   "an object",
	kindBool:     "a boolean",
	kindString:   "a string",
	kindNumber:   "a number",
	kindCount:    "an integer >= 1",
	kindPositive: "a number > 0",
	kindArray:    "an array",
}

// spec describes one key. fields lists the known children of an object;
// other, when set, accepts any other child name (judges.<type>).
type spec struct {
	kind   kind
	fields map[string]*spec
	other  *spec
}

func leaf(k kind) *spec                    { return &spec{kind: k} }
func object(fields map[string]*spec) *spec { return &spec{kind: kindObject, fields: fields} }

// tribunalSpec is the complete set of keys under "tribunal". Anything else
// is reported as unknown, so a typo cannot silently do nothing. It is
// built on first use, not at every start of every binary linking config.
var tribunalSpec = sync.OnceValue(func() *spec { return newTribunalSpec() })

func newTribunalSpec() *spec {
	fields := runSpecs()
	maps.Copy(fields, judgeSpecs())
	maps.Copy(fields, programSpecs())
	return object(fields)
}

// runSpecs are the switches, the hooks', the loop's and the actor's keys.
func runSpecs() map[string]*spec {
	return map[string]*spec{
		"enabled": leaf(kindBool),
		"profile": leaf(kindString),
		"stop_hook": object(providerFields(map[string]*spec{
			"enabled":                 leaf(kindBool),
			"tools":                   leaf(kindString),
			"skip_if_no_file_changes": leaf(kindBool),
			"timeout_seconds":         leaf(kindPositive),
			"mode":                    leaf(kindString),
			"max_fix_rounds":          leaf(kindCount),
			"model":                   leaf(kindString),
			"escalate_model":          leaf(kindString),
			"escalate_below":          leaf(kindNumber),
			"daily_budget_usd":        leaf(kindPositive),
		})),
		"session_start": object(map[string]*spec{
			"enabled":       leaf(kindBool),
			"max_age_hours": leaf(kindPositive),
		}),
		"session": object(map[string]*spec{
			"max_iterations":        leaf(kindNumber),
			"score_threshold":       leaf(kindNumber),
			"gate_policy":           leaf(kindString),
			"aggregation_method":    leaf(kindString),
			"judge_types":           leaf(kindArray),
			"dissent_threshold":     leaf(kindNumber),
			"judge_timeout_seconds": leaf(kindPositive),
			"budget_usd":            leaf(kindPositive),
			"max_file_mb":           leaf(kindCount),
			"max_change_mb":         leaf(kindCount),
			"worktree_pool": object(map[string]*spec{
				"enabled":        leaf(kindBool),
				"size":           leaf(kindCount),
				"max_idle_hours": leaf(kindPositive),
				"keep_ignored":   leaf(kindBool),
			}),
		}),
		"actor": object(map[string]*spec{
			"model":             leaf(kindString),
			"max_output_tokens": leaf(kindCount),
			"timeout_seconds":   leaf(kindPositive),
		}),
	}
}

// judgeSpecs are the jury's, the trust gate's and the store's keys.
func judgeSpecs() map[string]*spec {
	return map[string]*spec{
		"judges": {
			kind: kindObject,
			fields: map[string]*spec{
				"model":             leaf(kindString),
				"max_output_tokens": leaf(kindCount),
				"reps":              leaf(kindCount),
			},
			other: object(providerFields(map[string]*spec{
				"model":  leaf(kindString),
				"reps":   leaf(kindCount),
				"models": leaf(kindArray),
			})),
		},
		"trust": object(map[string]*spec{
			"block":          leaf(kindBool),
			"min_survivors":  leaf(kindCount),
			"spread_ceiling": leaf(kindNumber),
			"irr_floor":      leaf(kindNumber),
			"ledger_key":     leaf(kindString),
		}),
		"receipts": object(map[string]*spec{
			"notes_ref": leaf(kindString),
		}),
		"severity": object(map[string]*spec{
			"fail_at_or_above": leaf(kindString),
			"verify": object(providerFields(map[string]*spec{
				"enabled":           leaf(kindBool),
				"model":             leaf(kindString),
				"timeout_seconds":   leaf(kindPositive),
				"max_output_tokens": leaf(kindCount),
			})),
		}),
		"command_judges": {
			kind: kindObject,
			other: object(map[string]*spec{
				"command":             leaf(kindArray),
				"timeout_seconds":     leaf(kindPositive),
				"time_budget_seconds": leaf(kindPositive),
				"expect_output":       leaf(kindString),
				"pass_score":          leaf(kindNumber),
				"fail_score":          leaf(kindNumber),
				"max_output_bytes":    leaf(kindCount),
				"required":            leaf(kindBool),
				"enabled":             leaf(kindBool),
			}),
		},
		"command_judge_repositories": leaf(kindArray),
		"secret_files":               leaf(kindArray),
		"retention_days":             leaf(kindCount),
		"meta_judge": object(providerFields(map[string]*spec{
			"model":               leaf(kindString),
			"max_output_tokens":   leaf(kindCount),
			"timeout_seconds":     leaf(kindPositive),
			"skip_when_unanimous": leaf(kindBool),
			"skip_min_confidence": leaf(kindNumber),
		})),
		"tune": object(map[string]*spec{
			"min_cases": leaf(kindCount),
			"model":     leaf(kindString),
		}),
		"rubric": object(map[string]*spec{
			"default_id":             leaf(kindString),
			"min_criterion_coverage": leaf(kindNumber),
			"builtins":               leaf(kindArray),
		}),
	}
}

// programSpecs are where the model programs are and where traces go.
func programSpecs() map[string]*spec {
	return map[string]*spec{
		"claude": object(map[string]*spec{
			"path": leaf(kindString),
		}),
		"telemetry": object(map[string]*spec{
			"otlp_endpoint": leaf(kindString),
		}),
		"codex": object(map[string]*spec{
			"path": leaf(kindString),
		}),
		"gemini": object(map[string]*spec{
			"path": leaf(kindString),
		}),
	}
}

// pluginSpec covers the top level of the plugin's config.json (layer 1),
// the only layer read whole.
var pluginSpec = sync.OnceValue(func() *spec {
	return object(map[string]*spec{
		"plugin_name":  leaf(kindString),
		"storage_path": leaf(kindString),
		"tribunal":     tribunalSpec(),
	})
})

// prune removes from the object n every key that s does not know and every
// value of the wrong type, warning about each with the file and the dotted
// key. Dropping a mistyped value makes it "unset" in this layer, so the
// value from the layers below, ultimately the built-in default, applies.
func prune(n *node, s *spec, prefix string, warn func(string)) {
	// The kept keys are collected and stored once: deleting them one by
	// one copied the key list each time, quadratic in a file of 40,000
	// unknown keys (half a minute).
	kept := make([]string, 0, len(n.keys))
	for _, k := range n.keys {
		child := n.kids[k]
		key := k
		if prefix != "" {
			key = prefix + "." + k
		}
		cs := s.fields[k]
		if cs == nil {
			cs = s.other
		}
		switch {
		case cs == nil:
			warn(fmt.Sprintf("%s: unknown key %q%s", child.src, key,
				safetext.DidYouMean(k, slices.Collect(maps.Keys(s.fields)), strconv.Quote)))
			delete(n.kids, k)
			continue
		case child.isNull():
		case !fits(child, cs.kind):
			warn(fmt.Sprintf("%s: key %q must be %s, got %s; ignored",
				child.src, key, kindNames[cs.kind], excerpt(child)))
			delete(n.kids, k)
			continue
		case cs.kind == kindObject:
			prune(child, cs, key, warn)
		}
		kept = append(kept, k)
	}
	n.keys = kept
}

// fits reports whether n has kind k.
func fits(n *node, k kind) bool {
	if k == kindObject {
		return n.isObject()
	}
	if n.isObject() || len(n.raw) == 0 {
		return false
	}
	switch c := n.raw[0]; k {
	case kindBool:
		return c == 't' || c == 'f'
	case kindString:
		return c == '"'
	case kindArray:
		return c == '['
	}
	f, ok := number(n)
	switch k {
	case kindNumber:
		return ok
	case kindCount:
		return ok && f >= 1 && f <= math.MaxInt32 && f == math.Trunc(f)
	case kindPositive:
		return ok && f > 0 && !math.IsInf(f, 0)
	}
	return false
}

// number decodes a JSON number leaf.
func number(n *node) (float64, bool) {
	if n == nil || n.isObject() || len(n.raw) == 0 {
		return 0, false
	}
	if c := n.raw[0]; c != '-' && (c < '0' || c > '9') {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n.raw), 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return f, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// excerpt renders a value for a diagnostic, shortened so that one bad key
// holding a large value cannot flood stderr.
func excerpt(n *node) string {
	var buf bytes.Buffer
	n.appendJSON(&buf)
	s := buf.String()
	if len(s) <= 60 {
		return s
	}
	cut := 0
	for i := range s { // rune boundaries only, so the excerpt stays valid UTF-8
		if i > 57 {
			break
		}
		cut = i
	}
	return s[:cut] + "..."
}

// str decodes a JSON string leaf.
func str(n *node) (string, bool) {
	if n == nil || n.isObject() || len(n.raw) == 0 || n.raw[0] != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(n.raw, &s) != nil {
		return "", false
	}
	return s, true
}
