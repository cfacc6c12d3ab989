package testcmds

import (
	"fmt"
	"io"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// HookLines are the diagnostic sinks for a hook that a suite other than
// its own runs through its internal package (internal/hook/stophook,
// internal/hook/surface) rather than through its binary, whose output code
// words the prefixes: each diagnostic is one line on w as the package
// words it, so that a script sees that something went wrong (and
// `! stderr .` keeps its meaning) but has no prefix to pin; the hook's own
// suite pins those.
func HookLines(w io.Writer) (printf func(format string, args ...any), print func(msg string)) {
	print = func(msg string) { safetext.WriteLine(w, msg) }
	printf = func(format string, args ...any) { print(fmt.Sprintf(format, args...)) }
	return printf, print
}
