package gitstate

import (
	"os"
	"syscall"

	"github.com/tribunal-cc/tribunal/internal/git/gitindex"
)

// statMatches compares a file's lstat with its index entry field by field,
// every field git's stat check may compare (times to the nanosecond,
// device, inode, owner, size, type and executable bit), each truncated to
// 32 bits as the index stores it. Any difference, even one git would
// forgive (core.checkStat, core.trustCtime, core.fileMode), fails the
// proof: git then decides.
func statMatches(name string, e gitindex.Entry) bool {
	fi, err := os.Lstat(name)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return false
	}
	var mode uint32
	switch st.Mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		mode = 0o100644
		if st.Mode&0o100 != 0 {
			mode = 0o100755
		}
	case syscall.S_IFLNK:
		mode = 0o120000
	default:
		return false
	}
	return e.Mode == mode && e.Size == uint32(st.Size) &&
		e.MtimeS == uint32(st.Mtim.Sec) && e.MtimeNS == uint32(st.Mtim.Nsec) &&
		e.CtimeS == uint32(st.Ctim.Sec) && e.CtimeNS == uint32(st.Ctim.Nsec) &&
		e.Dev == uint32(st.Dev) && e.Ino == uint32(st.Ino) &&
		e.UID == st.Uid && e.GID == st.Gid
}
