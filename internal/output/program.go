package output

// ReinstallHint is what to do about a tribunal program missing from
// beside the one that needs it.
const ReinstallHint = "reinstall tribunal (make install) so that all its programs are in one directory"

// NotInstalled says that the tribunal program name is not in dir, the
// directory it was looked for in ("" when the running binary's path is
// unknown). tribunal's programs are found only in the one directory they
// were installed in together, never on PATH.
func NotInstalled(name, dir string) string {
	if dir == "" {
		return name + " is not installed beside this program (its path is unknown)"
	}
	return name + " is not installed in " + dir
}

// MissingProgram is the error of a missing program: what could not be
// done, NotInstalled, and the hint.
func (s Session) MissingProgram(what, name, dir string) {
	s.Errorf("%s: %s", what, NotInstalled(name, dir))
	s.Hint(ReinstallHint)
}

// MissingProgramWarning is MissingProgram for a command that carries on
// without the program (the live export after a run: the verdict stands):
// the same words as a warning, and the same hint.
func (s Session) MissingProgramWarning(what, name, dir string) {
	s.Warning(what + ": " + NotInstalled(name, dir))
	s.Hint(ReinstallHint)
}
