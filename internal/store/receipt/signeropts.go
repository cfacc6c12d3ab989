package receipt

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// signerOpts are an allowed-signers line's options, read as OpenSSH's
// sshsigopt_parse reads them: option names match case-insensitively;
// values are double-quoted (\" is a quote inside one); options are
// separated by commas; each may appear once.
type signerOpts struct {
	// namespaces is the pattern list of namespaces="…" ("" with hasNS
	// false: any namespace).
	namespaces string
	hasNS      bool
	// after and before are valid-after and valid-before (zero: none).
	after, before time.Time
}

// parseSignerOpts reads the options field of a line ("" for none).
// cert-authority is refused, as is any option ssh-keygen does not know:
// tribunal verifies plain keys only, and a line it cannot honour in full
// must not be half-honoured.
func parseSignerOpts(s string, loc *time.Location) (signerOpts, error) {
	var o signerOpts
	for s != "" {
		name, rest, hasValue := optName(s)
		switch {
		case strings.EqualFold(name, "cert-authority") && !hasValue:
			return o, errors.New("cert-authority: tribunal verifies receipts signed by plain keys, not certificates; list the signer's own key instead")
		case !hasValue || !known(name):
			return o, fmt.Errorf("unknown allowed-signers option %q: tribunal honours namespaces=, valid-after= and valid-before= (as ssh-keygen -Y verify does) and refuses the rest rather than ignore them", name)
		}
		value, after, err := dequote(rest)
		if err != nil {
			return o, fmt.Errorf("option %s: %w", name, err)
		}
		if err := o.set(strings.ToLower(name), value, loc); err != nil {
			return o, err
		}
		switch {
		case after == "":
			s = ""
		case after[0] == ',':
			s = after[1:]
		default:
			return o, fmt.Errorf("option %s: want a comma after its quoted value, found %.20q", name, after)
		}
	}
	if !o.after.IsZero() && !o.before.IsZero() && !o.before.After(o.after) {
		return o, errors.New(`"valid-before" time is before "valid-after"`)
	}
	return o, nil
}

func known(name string) bool {
	switch strings.ToLower(name) {
	case "namespaces", "valid-after", "valid-before":
		return true
	}
	return false
}

// optName splits "name=rest" (hasValue) or a flag "name[,rest]".
func optName(s string) (name, rest string, hasValue bool) {
	i := strings.IndexAny(s, "=,")
	switch {
	case i < 0:
		return s, "", false
	case s[i] == '=':
		return s[:i], s[i+1:], true
	default:
		return s[:i], s[i:], false
	}
}

// dequote reads a double-quoted value as OpenSSH's opt_dequote does,
// returning it and what follows its closing quote.
func dequote(s string) (value, rest string, err error) {
	if s == "" || s[0] != '"' {
		return "", "", errors.New("missing start quote: the value must be in double quotes")
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == '"':
			b.WriteByte('"')
			i++
		case s[i] == '"':
			return b.String(), s[i+1:], nil
		default:
			b.WriteByte(s[i])
		}
	}
	return "", "", errors.New("missing end quote")
}

func (o *signerOpts) set(name, value string, loc *time.Location) error {
	if name == "namespaces" {
		if o.hasNS {
			return errors.New(`multiple "namespaces" clauses`)
		}
		o.namespaces, o.hasNS = value, true
		return nil
	}
	t, err := parseSSHTime(value, loc)
	if err != nil {
		return fmt.Errorf("invalid %q time %q: %w", name, value, err)
	}
	dst := &o.after
	if name == "valid-before" {
		dst = &o.before
	}
	if !dst.IsZero() {
		return fmt.Errorf("multiple %q clauses", name)
	}
	*dst = t
	return nil
}

// parseSSHTime reads a time as OpenSSH's parse_absolute_time does:
// YYYYMMDD, YYYYMMDDHHMM or YYYYMMDDHHMMSS, in UTC when it ends in Z or
// UTC (either case), else in loc.
func parseSSHTime(s string, loc *time.Location) (time.Time, error) {
	switch u := strings.ToUpper(s); {
	case len(s) > 1 && strings.HasSuffix(u, "Z"):
		s, loc = s[:len(s)-1], time.UTC
	case len(s) > 3 && strings.HasSuffix(u, "UTC"):
		s, loc = s[:len(s)-3], time.UTC
	}
	layout, ok := map[int]string{8: "20060102", 12: "200601021504", 14: "20060102150405"}[len(s)]
	if !ok {
		return time.Time{}, errors.New("want YYYYMMDD[Z], YYYYMMDDHHMM[Z] or YYYYMMDDHHMMSS[Z]")
	}
	t, err := time.ParseInLocation(layout, s, loc)
	if err != nil {
		return time.Time{}, err
	}
	if t.Unix() <= 0 {
		return time.Time{}, errors.New("not after 1970")
	}
	return t, nil
}

// refuses says why these options do not allow a signature in namespace
// verified at t ("" when they allow it), as ssh-keygen's
// check_allowed_keys_line decides: the namespace must match the
// pattern list, and valid-after ≤ t ≤ valid-before, to the second.
func (o signerOpts) refuses(namespace string, t time.Time) string {
	if o.hasNS && matchPatternList(namespace, o.namespaces) != 1 {
		return fmt.Sprintf("its namespaces=%q does not allow %q", o.namespaces, namespace)
	}
	if !o.after.IsZero() && t.Unix() < o.after.Unix() {
		return fmt.Sprintf("the key is not yet valid: valid-after %s, verify time %s", o.after.UTC().Format(time.RFC3339), t.UTC().Format(time.RFC3339))
	}
	if !o.before.IsZero() && t.Unix() > o.before.Unix() {
		return fmt.Sprintf("the key has expired: valid-before %s, verify time %s", o.before.UTC().Format(time.RFC3339), t.UTC().Format(time.RFC3339))
	}
	return ""
}

// matchPatternList is OpenSSH's match_pattern_list (case-sensitive): 1
// when s matches a pattern of the comma-separated list and no negated
// (!pattern) one, -1 when it matches a negated one, else 0.
func matchPatternList(s, list string) int {
	positive := 0
	for _, p := range strings.Split(list, ",") {
		negated := strings.HasPrefix(p, "!")
		if negated {
			p = p[1:]
		}
		if matchPattern(s, p) {
			if negated {
				return -1
			}
			positive = 1
		}
	}
	return positive
}

// matchPattern is OpenSSH's match_pattern: '*' matches any run of
// characters, '?' any one.
func matchPattern(s, p string) bool {
	for len(p) > 0 {
		switch p[0] {
		case '*':
			for p = p[1:]; len(p) > 0 && p[0] == '*'; p = p[1:] {
			}
			if p == "" {
				return true
			}
			for i := 0; i <= len(s); i++ {
				if matchPattern(s[i:], p) {
					return true
				}
			}
			return false
		case '?':
			if s == "" {
				return false
			}
		default:
			if s == "" || s[0] != p[0] {
				return false
			}
		}
		s, p = s[1:], p[1:]
	}
	return s == ""
}
