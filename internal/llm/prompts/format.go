package prompts

import (
	"encoding/json"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"strconv"
	"strings"
)

// Criterion is one rubric criterion as the prompts show it.
type Criterion struct {
	Name    string
	Weight  float64
	MinPass float64
}

// fmtScore prints a score with at least two and at most four decimals, so
// that "0.30 < 0.80" reads naturally while 0.825 is not rounded into a value
// that seems to equal its threshold.
func fmtScore(v float64) string {
	s := strings.TrimRight(strconv.FormatFloat(v, 'f', 4, 64), "0")
	if i := strings.IndexByte(s, '.'); i >= 0 {
		for len(s)-i-1 < 2 {
			s += "0"
		}
	}
	return s
}

// fmtConfigured prints a configured value (weight, floor, threshold) exactly
// as it was set, e.g. 0.75 and not 0.7500.
func fmtConfigured(v float64) string {
	return rules.Num(v)
}

// jsonString quotes s as a JSON string: names that must be reproduced
// exactly (criterion keys) are shown this way, which also keeps any control
// character or quote in them from breaking the surrounding layout.
func jsonString(s string) string {
	out, err := json.Marshal(s)
	if err != nil {
		return strconv.Quote(s)
	}
	return string(out)
}

func jsonStrings(list []string) string {
	parts := make([]string, len(list))
	for i, s := range list {
		parts[i] = jsonString(s)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// oneLine collapses every run of whitespace, newlines included, into one
// space, for text that is shown inline.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// cell makes s safe inside a Markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(oneLine(s), "|", `\|`)
}

// criterionNames returns the names in rubric order, without empty or
// repeated names (a JSON object holds each key once).
func criterionNames(criteria []Criterion) []string {
	names := make([]string, 0, len(criteria))
	seen := map[string]bool{}
	for _, c := range criteria {
		if c.Name == "" || seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		names = append(names, c.Name)
	}
	return names
}

// rubricTable renders the criteria as a Markdown table.
func rubricTable(b *strings.Builder, criteria []Criterion) {
	b.WriteString("| criterion | weight | min_pass |\n|---|---|---|\n")
	for _, c := range criteria {
		b.WriteString("| " + cell(c.Name) + " | " + fmtConfigured(c.Weight) + " | " + fmtConfigured(c.MinPass) + " |\n")
	}
}
