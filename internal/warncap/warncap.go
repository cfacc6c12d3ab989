// Package warncap caps a flood of warnings from one source at the first few
// lines and a count of the rest.
package warncap

import (
	"fmt"
	"strings"
)

// Max is how many warnings of one source are printed in full.
const Max = 10

// Capper passes the first Max warnings to the underlying function and
// counts the rest. A repository file with 40,000 unknown keys would
// otherwise print 40,000 lines on every hook run.
type Capper struct {
	warn   func(string)
	source string
	n      int
}

// New returns a Capper for the warnings about source (a file path, or a
// name such as "configuration"), passing them to warn.
func New(warn func(string), source string) *Capper {
	return &Capper{warn: warn, source: source}
}

// Warn prints w while fewer than Max warnings were printed, and counts it
// otherwise.
func (c *Capper) Warn(w string) {
	c.n++
	if c.n <= Max {
		c.warn(w)
	}
}

// Flush prints one line counting the warnings Warn held back, if any, and
// starts counting afresh.
func (c *Capper) Flush() {
	if more := c.n - Max; more > 0 {
		c.warn(fmt.Sprintf("%s: … and %d more warning(s) like these", c.source, more))
	}
	c.n = 0
}

// List joins items for one message, naming the first Max and counting the
// rest, so that a single warning cannot grow without bound either.
func List(items []string, sep string) string {
	if len(items) <= Max {
		return strings.Join(items, sep)
	}
	return fmt.Sprintf("%s%s… and %d more", strings.Join(items[:Max], sep), sep, len(items)-Max)
}
