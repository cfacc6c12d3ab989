//go:build linux

package procid

import (
	"bytes"
	"errors"
	"os"
	"strconv"
)

// start reads the start time of pid from /proc/<pid>/stat: field 22,
// starttime, in clock ticks since boot. The fields are counted after the
// last ')', since the command name in field 2 may hold spaces and
// parentheses.
func start(pid int) (ticks uint64, zombie bool, err error) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false, err
	}
	return parseStat(data)
}

// parseStat reads the state (field 3) and starttime (field 22) of a
// /proc/<pid>/stat line.
func parseStat(data []byte) (ticks uint64, zombie bool, err error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, false, errors.New("malformed /proc stat: no command name")
	}
	f := bytes.Fields(data[i+1:])
	// f[0] is field 3 (state), so field 22 is f[19].
	if len(f) < 20 {
		return 0, false, errors.New("malformed /proc stat: too few fields")
	}
	ticks, err = strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return 0, false, errors.New("malformed /proc stat: bad starttime")
	}
	return ticks, string(f[0]) == "Z", nil
}
