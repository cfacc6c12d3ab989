package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// withSuggestion adds the nearest defined flag to the flag package's
// "flag provided but not defined: -limt" error: (did you mean --limit?).
// Any other error is returned as it is.
func withSuggestion(fs *flag.FlagSet, err error) error {
	if err == nil {
		return nil
	}
	name, ok := strings.CutPrefix(err.Error(), "flag provided but not defined: -")
	if !ok {
		return err
	}
	var known []string
	fs.VisitAll(func(f *flag.Flag) { known = append(known, f.Name) })
	hint := safetext.DidYouMean(name, known, func(k string) string { return "--" + k })
	if hint == "" {
		return err
	}
	return fmt.Errorf("%w%s", err, hint)
}
