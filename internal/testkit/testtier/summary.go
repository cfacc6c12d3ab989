package testtier

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// event is one line of `go test -json` (cmd/test2json), including the
// build events go test emits for a package that does not compile.
type event struct {
	Action     string
	Package    string
	ImportPath string
	Test       string
	Output     string
}

// logLine is a test's log line as the testing package writes it:
// indentation, file:line, the message.
var logLine = regexp.MustCompile(`^\s+\S+\.go:\d+: (.*)$`)

// Summarize reads `go test -json` from r and writes to w what a plain
// `go test` prints — one "ok" line per passing package, everything a
// failing package said — followed by each distinct skip line of a tier
// with the number of tests it skipped, and each distinct note. The skip lines are otherwise
// invisible: go test shows a passing package's output only under -v.
// failed reports whether a package failed or did not build.
func Summarize(r io.Reader, w io.Writer) (failed bool, err error) {
	type key struct{ pkg, test string }
	var (
		output    = map[key][]string{}
		failures  = map[string][]string{} // package → its failed tests, in order
		skipOrder []string
		skipped   = map[string]map[key]bool{}
	)
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if json.Unmarshal(sc.Bytes(), &e) != nil {
			fmt.Fprintln(w, sc.Text()) // go test's own complaint, not an event
			continue
		}
		k := key{e.Package, e.Test}
		switch e.Action {
		case "build-output":
			fmt.Fprint(w, e.Output)
		case "build-fail":
			failed = true
		case "output":
			output[k] = append(output[k], e.Output)
			if m := logLine.FindStringSubmatch(strings.TrimRight(e.Output, "\n")); m != nil && e.Test != "" && (strings.HasPrefix(m[1], SkipPrefix) || strings.HasPrefix(m[1], NotePrefix)) {
				if skipped[m[1]] == nil {
					skipped[m[1]] = map[key]bool{}
					skipOrder = append(skipOrder, m[1])
				}
				skipped[m[1]][k] = true
			}
		case "fail":
			if e.Test != "" {
				failures[e.Package] = append(failures[e.Package], e.Test)
				break
			}
			failed = true
			for _, test := range failures[e.Package] {
				for _, o := range output[key{e.Package, test}] {
					fmt.Fprint(w, o)
				}
			}
			for _, o := range output[key{e.Package, ""}] {
				if o != "PASS\n" {
					fmt.Fprint(w, o)
				}
			}
		case "pass", "skip":
			if e.Test != "" {
				break
			}
			for _, o := range output[key{e.Package, ""}] {
				if strings.HasPrefix(o, "ok") || strings.HasPrefix(o, "?") {
					fmt.Fprint(w, o)
				}
			}
		}
		if e.Test == "" && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip") {
			for k := range output {
				if k.pkg == e.Package {
					delete(output, k)
				}
			}
		}
	}
	for _, line := range skipOrder {
		n := len(skipped[line])
		if strings.HasPrefix(line, NotePrefix) {
			fmt.Fprintln(w, line)
			continue
		}
		fmt.Fprintf(w, "%s — %d %s\n", line, n, map[bool]string{true: "test", false: "tests"}[n == 1])
	}
	return failed, sc.Err()
}
