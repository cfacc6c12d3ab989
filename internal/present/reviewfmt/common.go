package reviewfmt

import (
	"slices"
	"strconv"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
	"github.com/tribunal-cc/tribunal/internal/severity"
)

// mapping is what a severity rung becomes in each format.
type mapping struct {
	sarif       string // SARIF result level
	codeQuality string // GitLab Code Quality severity
}

// levels is the one table from a rung to its SARIF level and Code Quality
// severity.
var levels = map[severity.Level]mapping{
	severity.Info:     {"note", "info"},
	severity.Low:      {"note", "minor"},
	severity.Minor:    {"note", "minor"},
	severity.Moderate: {"warning", "major"},
	severity.Major:    {"warning", "major"},
	severity.Critical: {"error", "critical"},
	severity.Blocker:  {"error", "blocker"},
}

// rung is f's level, Info for a severity that is not a rung name (the
// review command only passes rungs; a corrupt one must not look serious).
func rung(f Finding) severity.Level {
	if l, ok := severity.Parse(f.Severity); ok {
		return l
	}
	return severity.Info
}

// mapped is f's row of the table. Unverified findings never reach it:
// the formats that annotate code leave out places a judge made up.
func mapped(f Finding) mapping { return levels[rung(f)] }

// maxRuleID bounds a rule id: a criterion is a rubric's short name, but
// the model chose which one to cite.
const maxRuleID = 100

// UncategorisedRule is the rule of a finding that names no criterion.
// It is one fixed id, not the judge's type: merged findings name every
// judge that raised them ("security, standard"), and a rule id that moved
// with the panel would split one problem across code scanning's rules.
const UncategorisedRule = "tribunal/finding"

// ruleID is the rule a finding reports under: its criterion, else
// UncategorisedRule.
func ruleID(f Finding) string {
	if id := safetext.Inline(f.Criterion, maxRuleID); id != "" {
		return id
	}
	return UncategorisedRule
}

// Ordered returns the findings worst first, stable among equals, so every
// format lists them in the same order whatever order the judges had. Two
// judges reporting the same problem give the same fingerprint (it leaves
// the judge out): such findings are one, at the worst rung reported,
// naming every judge that raised it — GitLab needs each fingerprint once,
// and code scanning would fold them anyway. Every surface that lists a
// review's findings (these formats, the terminal text, the HTML page)
// lists them through this one rule.
func Ordered(fs []Finding) []Finding {
	sorted := slices.Clone(fs)
	slices.SortStableFunc(sorted, func(a, b Finding) int { return int(rung(b)) - int(rung(a)) })
	out := sorted[:0:0]
	at := map[string]int{}
	for _, f := range sorted {
		i, seen := at[f.Fingerprint]
		if !seen || f.Fingerprint == "" {
			at[f.Fingerprint] = len(out)
			out = append(out, f)
			continue
		}
		if f.Judge != "" && !slices.Contains(strings.Split(out[i].Judge, ", "), f.Judge) {
			out[i].Judge = strings.TrimPrefix(out[i].Judge+", "+f.Judge, ", ")
		}
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }
