package output

// MissingProgram is the error of a tribunal program that is not installed
// beside the one that needs it: what could not be done, the program, the
// directory it was looked for in ("" when the running binary's path is
// unknown), and what to do. tribunal's programs are found only in the
// one directory they were installed in together, never on PATH.
func (s Session) MissingProgram(what, name, dir string) {
	if dir == "" {
		s.Errorf("%s: %s is not installed beside this program (its path is unknown)", what, name)
	} else {
		s.Errorf("%s: %s is not installed in %s", what, name, dir)
	}
	s.Hint("reinstall tribunal (make install) so that all its programs are in one directory")
}
