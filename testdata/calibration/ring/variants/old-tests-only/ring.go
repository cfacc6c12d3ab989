// Package ring is a fixed-capacity ring buffer of ints that overwrites its
// oldest value when full.
package ring

import "errors"

// ErrEmpty is returned by Pop on an empty ring.
var ErrEmpty = errors.New("ring: empty")

// Ring holds up to cap(buf) values.
type Ring struct {
	buf   []int
	start int // index of the oldest value
	n     int // number of values held
}

// New returns an empty ring of the given capacity (at least 1).
func New(capacity int) *Ring {
	if capacity < 1 {
		capacity = 1
	}
	return &Ring{buf: make([]int, capacity)}
}

// Len is the number of values held.
func (r *Ring) Len() int { return r.n }

// Push adds v, overwriting the oldest value when the ring is full.
func (r *Ring) Push(v int) {
	if r.n < len(r.buf) {
		r.buf[(r.start+r.n)%len(r.buf)] = v
		r.n++
		return
	}
	r.buf[r.start] = v
	r.start = (r.start + 1) % len(r.buf)
}

// Pop removes and returns the most recent value.
func (r *Ring) Pop() (int, error) {
	if r.n == 0 {
		return 0, ErrEmpty
	}
	r.n--
	return r.buf[(r.start+r.n)%len(r.buf)], nil
}

// Values returns the values held, oldest first.
func (r *Ring) Values() []int {
	out := make([]int, 0, r.n)
	for i := 0; i < r.n; i++ {
		out = append(out, r.buf[(r.start+i)%len(r.buf)])
	}
	return out
}
