//go:build !linux && !darwin

package procid

// start has no portable source elsewhere: every live process is Unknown,
// so it is never signalled nor presumed dead (a process that is gone is
// still Gone, by kill(2)).
func start(int) (uint64, bool, error) { return 0, false, errNoStart }
