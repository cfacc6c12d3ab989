package testcmds

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// The golden-file helper, registered in Cmds:
//
//	scrub [-ids] [-hashes] [-times] [-durations] [VAR...]
//	    rewrite the last command's stdout and stderr so that `cmp stdout FILE`
//	    and `cmp stderr FILE` can pin a whole output that holds values which
//	    change from run to run. Each named variable's value, and $WORK's,
//	    becomes $VAR (longest value first, so $P/$TASK reads as such); then
//	    -ids numbers the remaining ULIDs and UUIDs by first appearance
//	    (<id1>, <id2>, …: a golden file still says which ids are the same),
//	    -hashes numbers 12-, 40- and 64-digit hex digests (short and full
//	    commits, fingerprints) the same way (<hash1>, …),
//	    -times turns this run's dates with a clock time (within a day of now;
//	    RFC 3339, "2006-01-02 15:04Z" or the compact "20060102T150405Z")
//	    into <time>, and an age under an hour ("just now", "3 min ago") into
//	    <age>, leaving a fixture's fixed dates and older ages as they are;
//	    -durations turns measured durations ("0.6 s", "304 ms", "1m2.5s")
//	    into <dur>.
//
// Everything else stays byte for byte, so a converted script asserts at
// least what its regular expressions did.
func init() {
	Cmds["scrub"] = scrubCmd
}

var (
	idRE   = regexp.MustCompile(`\b(?:[0-7][0-9A-HJKMNP-TV-Z]{25}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\b`)
	timeRE = regexp.MustCompile(`\b\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:\d\d)?|\b\d{8}T\d{6}(?:\.\d+)?Z`)
	hashRE = regexp.MustCompile(`\b(?:[0-9a-f]{64}|[0-9a-f]{40}|[0-9a-f]{12})\b`)
	ageRE  = regexp.MustCompile(`\bjust now\b|\b\d+ min ago\b`)
	durRE  = regexp.MustCompile(`\b(?:\d+(?:\.\d+)?(?:h|m|s|ms|µs|ns))+\b|\b\d+(?:\.\d+)? (?:s|ms|µs|ns)\b`)
)

// scrubber holds one scrub's substitutions; ids are numbered across stdout
// and stderr together.
type scrubber struct {
	vars        []string // VAR=value pairs, longest value first
	ids, hashes bool
	times, dur  bool
	idNames     map[string]string
}

func scrubCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: scrub [-ids] [-hashes] [-times] [-durations] [VAR...]")
	}
	s := scrubber{idNames: map[string]string{}}
	names := []string{"WORK"}
	for _, a := range args {
		switch a {
		case "-ids":
			s.ids = true
		case "-hashes":
			s.hashes = true
		case "-times":
			s.times = true
		case "-durations":
			s.dur = true
		default:
			if strings.HasPrefix(a, "-") {
				ts.Fatalf("scrub: unknown option %s", a)
			}
			names = append(names, a)
		}
	}
	for _, n := range names {
		v := ts.Getenv(n)
		if v == "" {
			ts.Fatalf("scrub: $%s is empty", n)
		}
		s.vars = append(s.vars, n+"="+v)
	}
	value := func(kv string) string { return kv[strings.IndexByte(kv, '=')+1:] }
	sort.SliceStable(s.vars, func(i, j int) bool { return len(value(s.vars[i])) > len(value(s.vars[j])) })

	stdout, stderr := ts.ReadFile("stdout"), ts.ReadFile("stderr")
	// Writing through ts.Stdout and ts.Stderr makes these the last
	// command's output, which is what cmp reads.
	fmt.Fprint(ts.Stdout(), s.apply(stdout))
	fmt.Fprint(ts.Stderr(), s.apply(stderr))
}

// name is the placeholder of one id or hash: <kindN>, N counting that
// kind's distinct values by first appearance.
func (s *scrubber) name(kind, value string) string {
	key := kind + " " + value
	if n, ok := s.idNames[key]; ok {
		return n
	}
	n := 1
	for k := range s.idNames {
		if strings.HasPrefix(k, kind+" ") {
			n++
		}
	}
	s.idNames[key] = fmt.Sprintf("<%s%d>", kind, n)
	return s.idNames[key]
}

// parseTime reads the forms timeRE matches; a time without a zone is UTC,
// as every time tribunal prints is.
func parseTime(m string) (time.Time, bool) {
	m = strings.Replace(m, " ", "T", 1)
	layouts := []string{
		time.RFC3339Nano, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05.999999999", "2006-01-02T15:04",
		"20060102T150405.999999999Z", // a rotated key file's suffix
	}
	for _, layout := range layouts {
		if t, err := time.Parse(layout, m); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func (s *scrubber) apply(text string) string {
	for _, kv := range s.vars {
		name, v, _ := strings.Cut(kv, "=")
		text = strings.ReplaceAll(text, v, "$"+name)
	}
	if s.ids {
		text = idRE.ReplaceAllStringFunc(text, func(id string) string { return s.name("id", strings.ToUpper(id)) })
	}
	if s.hashes {
		text = hashRE.ReplaceAllStringFunc(text, func(h string) string { return s.name("hash", h) })
	}
	if s.times {
		text = timeRE.ReplaceAllStringFunc(text, func(m string) string {
			if t, ok := parseTime(m); ok && time.Since(t).Abs() < 24*time.Hour {
				return "<time>"
			}
			return m
		})
		text = ageRE.ReplaceAllString(text, "<age>")
	}
	if s.dur {
		text = durRE.ReplaceAllString(text, "<dur>")
	}
	return text
}
