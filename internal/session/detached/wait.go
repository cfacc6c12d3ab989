package detached

import (
	"bufio"
	"context"
	"io"
	"time"

	"github.com/tribunal-cc/tribunal/internal/store"
)

// Waiter follows a run: it relays the lines its progress log gains and
// notices when it exits or vanishes.
type Waiter struct {
	// Now and After are the clock: time.Now and time.After outside tests.
	Now   func() time.Time
	After func(time.Duration) <-chan time.Time
	// Relay receives each whole new line of the progress log.
	Relay func(line string)
	// Poll is how often the run's files are looked at.
	Poll time.Duration
}

// Outcome is how a wait ended.
type Outcome int

const (
	// Done: the run exited (Status) or vanished.
	Done Outcome = iota
	// TimedOut: the run still runs after the wait's time.
	TimedOut
	// Interrupted: the wait's context ended first; the run goes on.
	Interrupted
)

// Wait follows r for at most timeout. It starts where the previous wait
// left the log (Offset) and records where it leaves it, since each wait
// should print only what the previous one did not: a run is followed in
// slices, and repeating the whole log each time would bury what is new.
func (w Waiter) Wait(ctx context.Context, r Run, timeout time.Duration) (Outcome, Status) {
	deadline := w.Now().Add(timeout)
	offset := r.Offset()
	defer func() { r.SetOffset(offset) }()
	for {
		offset = w.follow(r.LogPath(), offset)
		st := r.Status()
		if st.State != Running {
			// What the run wrote between this look and its end.
			offset = w.follow(r.LogPath(), offset)
			return Done, st
		}
		if w.Now().After(deadline) {
			return TimedOut, st
		}
		select {
		case <-ctx.Done():
			return Interrupted, st
		case <-w.After(w.Poll):
		}
	}
}

// follow relays what was appended to the log at path since offset and
// returns the new offset.
func (w Waiter) follow(path string, offset int64) int64 {
	f, err := store.OpenRegular(path)
	if err != nil {
		return offset
	}
	defer f.Close()
	if _, err := f.Seek(offset, io.SeekStart); err != nil {
		return offset
	}
	r := bufio.NewReader(f)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			// A partial last line is read again next time.
			return offset
		}
		w.Relay(line)
		offset += int64(len(line))
	}
}
