//go:build !linux

package procid

import "errors"

// errNoStart is returned by start on a platform without a readable start
// time. It lives behind the build tag of the files that return it: Linux
// always reads /proc, so there it would be an unused name.
var errNoStart = errors.New("no process start time on this platform")
