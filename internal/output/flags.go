package output

// Every tribunal program words a mistyped flag alike: the flag as typed,
// the nearest known one.

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Go's flag package words its errors for Go programmers; these are the
// forms it produces (flag.FlagSet.failf), reworded for the user.
const (
	undefinedPrefix = "flag provided but not defined: -"
	noArgPrefix     = "flag needs an argument: -"
)

// FlagError rewords a flag.Parse error: an unknown flag is named in the
// form the user typed it ("--limt"), with safetext.DidYouMean's "(did you
// mean --limit?)" when a known flag is near; hidden flags (hidden may be
// nil) are never suggested.
func FlagError(fs *flag.FlagSet, err error, hidden func(name string) bool) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, undefinedPrefix):
		typed := strings.TrimPrefix(msg, undefinedPrefix)
		return fmt.Sprintf("unknown flag --%s", typed) +
			safetext.DidYouMean(typed, FlagNames(fs, hidden), func(k string) string { return "--" + k })
	case strings.HasPrefix(msg, noArgPrefix):
		return fmt.Sprintf("--%s needs a value", strings.TrimPrefix(msg, noArgPrefix))
	case errors.Is(err, flag.ErrHelp):
		return "help requested"
	}
	// "invalid value "x" for flag -limit: parse error" and the like.
	return strings.Replace(msg, "for flag -", "for --", 1)
}

// FlagNames is every flag fs defines that a user may type: the hidden ones
// (no usage text, set by tribunal for its own children) are left out.
func FlagNames(fs *flag.FlagSet, hidden func(name string) bool) []string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if hidden == nil || !hidden(f.Name) {
			names = append(names, f.Name)
		}
	})
	return names
}
