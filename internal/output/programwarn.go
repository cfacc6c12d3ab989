package output

import "fmt"

// MissingProgramWarning is MissingProgram for a command that carries on
// without the program (the live export after a run: the verdict stands):
// the same words as a warning after what was not done, and the same hint.
func (s Session) MissingProgramWarning(what, name, dir string) {
	if dir == "" {
		s.Warning(fmt.Sprintf("%s: %s is not installed beside this program (its path is unknown)", what, name))
	} else {
		s.Warning(fmt.Sprintf("%s: %s is not installed in %s", what, name, dir))
	}
	s.Hint("reinstall tribunal (make install) so that all its programs are in one directory")
}
