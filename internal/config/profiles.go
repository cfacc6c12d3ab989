package config

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// Profiles (spec §2.12) are named bundles of existing keys. A profile is
// its own layer, laid over the built-in defaults and the plugin's
// config.json and under the user's and the repository's settings files,
// so a key a user writes always wins over the profile's value and
// `config` names the profile as the source of each key it set.
const (
	ProfileLight    = "light"
	ProfileStandard = "standard"
	ProfileThorough = "thorough"
	// DefaultProfile is today's defaults: the founding documents' court.
	DefaultProfile = ProfileStandard
)

// profileBodies are the profiles' "tribunal" objects. standard is empty:
// it is the defaults. light trades rigour for cost (a cheaper judge model,
// no meta-judge over a unanimous and confident jury, two iterations);
// thorough spends more (two reps per seat, the security judge).
var profileBodies = map[string]string{
	ProfileLight: `{
		"session": {"max_iterations": 2},
		"judges": {"model": "claude-sonnet-4-6"},
		"meta_judge": {"skip_when_unanimous": true, "skip_min_confidence": 0.8}
	}`,
	ProfileStandard: `{}`,
	ProfileThorough: `{
		"session": {"judge_types": ["standard", "adversarial", "security"]},
		"judges": {"reps": 2}
	}`,
}

// ProfileNames lists the profiles in order of cost.
func ProfileNames() []string { return []string{ProfileLight, ProfileStandard, ProfileThorough} }

// ProfileError is nil for a known profile name, else the error a user
// sees, with the nearest name when one is close.
func ProfileError(name string) error {
	if slices.Contains(ProfileNames(), name) {
		return nil
	}
	return fmt.Errorf("unknown profile %q (known: light, standard, thorough)%s", name,
		safetext.DidYouMean(name, ProfileNames(), strconv.Quote))
}

// ProfileSource is the Source `config` shows for a key a profile set.
func ProfileSource(name string) string { return "profile " + name }

// profileLayer is the layer of profile name, or nil for standard (which
// sets nothing) and for a name that is not a profile.
func profileLayer(name string) *node {
	body, ok := profileBodies[name]
	if !ok || name == ProfileStandard {
		return nil
	}
	n, err := parseNode([]byte(body), ProfileSource(name))
	if err != nil {
		// The bodies are constants a test parses; unreachable.
		return nil
	}
	return n
}

// chooseProfile is the profile in effect: the flag's when one was given
// (the caller has checked the name), else tribunal.profile from the last
// layer that sets it, else standard. A name that is not a profile is
// warned about and standard applies.
func chooseProfile(flag string, layers []*node, warn func(string)) (name, src string) {
	if flag != "" {
		return flag, "--profile"
	}
	for i := len(layers) - 1; i >= 0; i-- {
		n := layers[i].get("profile")
		s, ok := str(n)
		if n.isNull() || !ok {
			continue
		}
		if err := ProfileError(s); err != nil {
			warn(fmt.Sprintf("%s: tribunal.profile: %v; using %q", n.src, err, DefaultProfile))
			return DefaultProfile, builtinSource
		}
		return s, n.src
	}
	return DefaultProfile, builtinSource
}

// Profile returns the profile in effect (spec §2.12).
func (c *Config) Profile() string {
	if c.profile == "" {
		return DefaultProfile
	}
	return c.profile
}

// MetaSkip is tribunal.meta_judge.skip_when_unanimous and
// skip_min_confidence: whether a round may go without the meta-judge when
// every judge agrees and each is at least that confident (spec §4.6).
type MetaSkip struct {
	Enabled       bool
	MinConfidence float64
}

// DefaultMetaSkipConfidence is skip_min_confidence when unset.
const DefaultMetaSkipConfidence = 0.8

// MetaSkip reads the meta-judge's skip rule.
func (c *Config) MetaSkip() MetaSkip {
	return MetaSkip{
		Enabled:       c.boolean(false, "meta_judge", "skip_when_unanimous"),
		MinConfidence: c.unit(DefaultMetaSkipConfidence, "meta_judge", "skip_min_confidence"),
	}
}
