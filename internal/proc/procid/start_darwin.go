//go:build darwin

package procid

import "golang.org/x/sys/unix"

// szomb is p_stat of a zombie (sys/proc.h SZOMB).
const szomb = 5

// start reads the start time of pid from the kernel's process table
// (sysctl kern.proc.pid.<pid>): p_starttime, in microseconds since the
// epoch.
func start(pid int) (usec uint64, zombie bool, err error) {
	k, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil {
		return 0, false, err
	}
	if int(k.Proc.P_pid) != pid {
		return 0, false, errNoStart
	}
	t := k.Proc.P_starttime
	return uint64(t.Sec)*1_000_000 + uint64(t.Usec), k.Proc.P_stat == szomb, nil
}
