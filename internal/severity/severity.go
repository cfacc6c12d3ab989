// Package severity defines the seven-level finding ladder (info < low <
// minor < moderate < major < critical < blocker) and the policy that lets a
// finding block the gate.
package severity

import (
	"fmt"
	"strings"
)

// Level is a rung of the ladder. The zero value, None, means "no finding"
// (or "policy off" when used as a threshold), so an unset Level can never
// block anything.
type Level uint8

// The ladder, least to most serious. The numeric order is the ladder's
// order, so levels compare with < and >.
const (
	None Level = iota
	Info
	Low
	Minor
	Moderate
	Major
	Critical
	Blocker
)

// names holds the canonical spelling of each level, indexed by Level.
var names = [...]string{
	None:     "none",
	Info:     "info",
	Low:      "low",
	Minor:    "minor",
	Moderate: "moderate",
	Major:    "major",
	Critical: "critical",
	Blocker:  "blocker",
}

// Names returns the seven level names in ladder order, least serious
// first: the enum of the findings schema and of the fail_at_or_above
// setting.
func Names() []string {
	out := make([]string, 0, int(Blocker))
	for l := Info; l <= Blocker; l++ {
		out = append(out, names[l])
	}
	return out
}

// Valid reports whether l is one of the seven rungs; None and values
// outside the ladder are not.
func (l Level) Valid() bool { return l >= Info && l <= Blocker }

// String returns the canonical lower-case name: "none" for None and
// "level(N)" for a value outside the ladder, so a corrupt value is visible
// in diagnostics rather than printed as a real rung.
func (l Level) String() string {
	if l == None || l.Valid() {
		return names[l]
	}
	return fmt.Sprintf("level(%d)", uint8(l))
}

// Parse reads a level name, ignoring case and surrounding white space.
// Only the seven rungs parse: "none", "" and "warning" do not, so a typo in
// a policy or a finding is reported instead of becoming a silent rung.
func Parse(s string) (Level, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	for l := Info; l <= Blocker; l++ {
		if names[l] == s {
			return l, true
		}
	}
	return None, false
}

// MarshalText writes the canonical name, "none" for None; it refuses a
// value outside the ladder so that a corrupt level never reaches an
// artifact.
func (l Level) MarshalText() ([]byte, error) {
	if l != None && !l.Valid() {
		return nil, fmt.Errorf("severity level %d is outside the ladder", uint8(l))
	}
	return []byte(names[l]), nil
}

// UnmarshalText reads what MarshalText writes: a rung name (any case) or
// "none".
func (l *Level) UnmarshalText(b []byte) error {
	s := string(b)
	if strings.EqualFold(strings.TrimSpace(s), names[None]) {
		*l = None
		return nil
	}
	got, ok := Parse(s)
	if !ok {
		return fmt.Errorf("unknown severity %q (want one of %s)", s, strings.Join(Names(), ", "))
	}
	*l = got
	return nil
}

// Worst returns the most serious valid level among levels; ok is false when
// there is none (no levels, or only None and out-of-ladder values).
func Worst(levels ...Level) (Level, bool) {
	worst := None
	for _, l := range levels {
		if l.Valid() && l > worst {
			worst = l
		}
	}
	return worst, worst != None
}

// Blocks is the fail_at_or_above policy: it reports whether the worst
// finding is at or above the policy's level. A None (unset) policy never
// blocks, and neither does the absence of findings.
func Blocks(worst, failAtOrAbove Level) bool {
	return failAtOrAbove.Valid() && worst.Valid() && worst >= failAtOrAbove
}
