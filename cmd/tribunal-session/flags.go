package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/tribunal-cc/tribunal/internal/config"
	"github.com/tribunal-cc/tribunal/internal/output"
	"github.com/tribunal-cc/tribunal/internal/rules"
	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// flagError is the one answer of every subcommand to flags it cannot
// parse: one error line naming the flag (with the nearest known flag when
// one is close), then the hint to the command's usage — never the whole
// usage, and never Go's "flag provided but not defined: -x". extra hints
// follow when the command knows more about the mistake. It returns the
// exit status of a usage error.
func (c *cli) flagError(name string, fs *flag.FlagSet, err error, extra ...string) int {
	c.errorf("%s: %s", name, describeFlagError(fs, err))
	c.hint("tribunal-session %s -h", name)
	for _, h := range extra {
		c.hint("%s", h)
	}
	return exitUsage
}

// describeFlagError rewords a flag.Parse error (internal/flagtext, the
// one wording every tribunal program shares).
func describeFlagError(fs *flag.FlagSet, err error) string {
	return output.FlagError(fs, err, hiddenFlag)
}

// flagNames is every flag fs defines that a user may type.
func flagNames(fs *flag.FlagSet) []string { return output.FlagNames(fs, hiddenFlag) }

// flagForWord is " (did you mean --check?)" for a word given as an
// argument that is, or nearly is, one of fs's flags without its dashes
// (config check); "" otherwise.
func flagForWord(fs *flag.FlagSet, word string) string {
	dashes := func(k string) string { return "--" + k }
	if slices.Contains(flagNames(fs), word) {
		return fmt.Sprintf(" (did you mean %s?)", dashes(word))
	}
	return safetext.DidYouMean(word, flagNames(fs), dashes)
}

// hiddenFlag names the flags run --detach passes to its own child.
func hiddenFlag(name string) bool { return name == "task-id" || name == "run-dir" }

// positional parses the arguments of a command that takes no flags, so
// that "apply --force ID" is answered as an unknown flag like every other
// command's, not as a wrong number of arguments. ok false means the error
// was printed.
func (c *cli) positional(name string, args []string) ([]string, bool) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	pos, err := parseInterleaved(fs, args)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		c.flagError(name, fs, err)
		return nil, false
	}
	return pos, true
}

// quorumFlag registers --quorum on fs, parsed into dst: majority, any,
// unanimous or at_least_<n>, the gate policy that counts approving judges
// (spec §6.3), overriding the rubric's and tribunal.session.gate_policy
// for this one command. A word it does not know is a usage error at
// parse time; whether the panel can reach at_least_<n> is checked where
// the panel is known (config.Params.SetPolicy). One line in each command
// that judges: quorumFlag(fs, &f.quorum).
func quorumFlag(fs *flag.FlagSet, dst *rules.Policy) {
	fs.Func("quorum", "", func(v string) error {
		p, ok := rules.ParsePolicy(v)
		if !ok || !quorumWord(p) {
			return fmt.Errorf("want majority, any, unanimous or at_least_<n> (1 <= n <= %d)", rules.MaxAtLeast)
		}
		*dst = p
		return nil
	})
}

// quorumWord reports whether p counts approving judges: the policies
// --quorum takes (strict and meta_override are rules of another kind,
// left to the settings).
func quorumWord(p rules.Policy) bool {
	_, atLeast := p.AtLeastN()
	return atLeast || p == rules.Majority || p == rules.Any || p == rules.Unanimous
}

// profileFlag defines --profile on fs: run, review and judge take it
// (spec §2.12), and checkProfile then refuses a name that is no profile.
func profileFlag(fs *flag.FlagSet) *string {
	return fs.String("profile", "", "light, standard or thorough: a bundle of settings, under your own (spec §2.12)")
}

// checkProfile answers a --profile that names no profile as a usage
// error, with the nearest name, before anything runs; "" (not given) is
// fine. ok false means the error was printed.
func (c *cli) checkProfile(name, profile string) bool {
	if profile == "" {
		return true
	}
	if err := config.ProfileError(profile); err != nil {
		c.errorf("%s: --profile: %v", name, err)
		c.hint("tribunal-session %s -h; docs/profiles.md says what each profile sets", name)
		return false
	}
	return true
}
