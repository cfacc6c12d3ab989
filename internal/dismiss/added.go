package dismiss

import (
	"fmt"

	"github.com/tribunal-cc/tribunal/internal/severity"
)

// inlineAt is InlineAt for a finding of the change judged: a marker on a
// line the change added does not count — the code under judgement may
// not dismiss its own findings — and, when it would have covered f, a
// problem says it was ignored and why. A marker the base already had
// (a line the change left as it was) still counts.
func (s *Set) inlineAt(file string, lines []string, f severity.Finding) (*Inline, []string) {
	added := s.Added[file]
	if len(added) == 0 {
		return InlineAt(file, lines, f.Line, f)
	}
	masked := append([]string(nil), lines...)
	var ignored []int
	for n := range added {
		if n >= 1 && n <= len(masked) {
			if _, _, ok, _ := ParseInline(masked[n-1]); ok {
				masked[n-1] = ""
				ignored = append(ignored, n)
			}
		}
	}
	in, problems := InlineAt(file, masked, f.Line, f)
	if in == nil && len(ignored) > 0 {
		if own, _ := InlineAt(file, lines, f.Line, f); own != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: the inline dismissal of %q was added by the change under review, which may not dismiss its own findings; ignored",
				file, own.Line, own.Topic))
		}
	}
	return in, problems
}
