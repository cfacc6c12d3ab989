package prompts

import (
	"strconv"
	"strings"
)

// writeDirectives writes the rubric's directives (spec §2.6, §4.3) as a
// section of a judge's prompt of its own; none, no section. They are the
// project's policy, read from the rubric the trust rules chose (under an
// untrusted change, the base's), so they are not fenced as material to
// evaluate: they are instructions. Each is one numbered line (oneLine,
// beside the rubric's own one-line check), so none can open a heading
// or a section the prompt does not have.
func writeDirectives(b *strings.Builder, directives []string) {
	if len(directives) == 0 {
		return
	}
	b.WriteString("\n## Directives from the rubric\n\n")
	b.WriteString("The project's rubric gives the jury these " + strconv.Itoa(len(directives)) + " directive(s). " +
		"Follow them where they bear on the work; they do not change the verdict's format, the criteria or the threshold.\n\n")
	writeDirectiveList(b, directives)
}

func writeDirectiveList(b *strings.Builder, directives []string) {
	for i, d := range directives {
		b.WriteString(strconv.Itoa(i+1) + ". " + oneLine(d) + "\n")
	}
}
