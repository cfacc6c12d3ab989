package proc

import (
	"io"
	"os"
	"time"
)

// pipes are a child's standard streams and the goroutines that feed and
// drain them.
type pipes struct {
	childIn, childOut, childErr *os.File // the child's ends (nil: /dev/null)
	stdinW                      *os.File
	readers                     []*os.File
	head                        *headBuffer // stdout from its start
	tail                        *tailBuffer // stderr, or both streams
	tee                         io.Writer   // also given stderr (Cmd.StderrTee)
	combined                    bool
	done                        chan struct{} // one value per feeder or drainer
	workers                     int
}

func newPipes(c Cmd) (p *pipes, err error) {
	p = &pipes{combined: c.Combined, tee: c.StderrTee, done: make(chan struct{}, 3)}
	defer func() {
		if err != nil {
			p.closeChildEnds()
			p.closeParentEnds()
		}
	}()
	maxTail := c.MaxTail
	if maxTail <= 0 {
		maxTail = DefaultMaxTail
	}
	p.tail = &tailBuffer{max: maxTail}
	if c.Stdin != "" {
		if p.childIn, p.stdinW, err = os.Pipe(); err != nil {
			return p, err
		}
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		return p, err
	}
	p.readers, p.childOut = append(p.readers, outR), outW
	if c.Combined {
		// One *os.File for both streams: the output interleaves as in a
		// terminal.
		p.childErr = outW
	} else {
		maxOut := c.MaxStdout
		if maxOut <= 0 {
			maxOut = DefaultMaxStdout
		}
		p.head = &headBuffer{max: maxOut}
		errR, errW, err := os.Pipe()
		if err != nil {
			return p, err
		}
		p.readers, p.childErr = append(p.readers, errR), errW
	}
	p.startWorkers(c.Stdin)
	return p, nil
}

// startWorkers feeds stdin and drains the outputs. They run before the
// child starts, so that it never blocks on a full pipe.
func (p *pipes) startWorkers(stdin string) {
	if p.stdinW != nil {
		p.workers++
		go func(w *os.File) {
			// A child that does not read its input gets EPIPE here, not
			// SIGPIPE (the runtime ignores it for files other than 1 and 2).
			_, _ = w.Write([]byte(stdin))
			_ = w.Close()
			p.done <- struct{}{}
		}(p.stdinW)
	}
	if p.combined {
		p.drain(p.readers[0], p.tail)
		return
	}
	p.drain(p.readers[0], p.head)
	if p.tee != nil {
		p.drain(p.readers[1], teeWriter{p.tail, p.tee})
		return
	}
	p.drain(p.readers[1], p.tail)
}

// teeWriter keeps every write in keep and passes it on to also, whose
// error is ignored: the one who watches may have gone, and the child
// must neither block nor lose its kept stderr over it.
type teeWriter struct {
	keep *tailBuffer
	also io.Writer
}

func (t teeWriter) Write(p []byte) (int, error) {
	t.keep.Write(p)
	_, _ = t.also.Write(p)
	return len(p), nil
}

func (p *pipes) drain(r *os.File, w interface{ Write([]byte) (int, error) }) {
	p.workers++
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := r.Read(buf)
			w.Write(buf[:n])
			if err != nil {
				break
			}
		}
		p.done <- struct{}{}
	}()
}

// closeChildEnds closes this process's copies of the child's ends: the
// drains see EOF once the child (and whatever inherited them) is gone.
func (p *pipes) closeChildEnds() {
	closeFiles(p.childIn, p.childOut)
	if p.childErr != p.childOut {
		closeFiles(p.childErr)
	}
}

func (p *pipes) closeParentEnds() {
	closeFiles(p.stdinW)
	closeFiles(p.readers...)
}

// finish waits up to grace for the workers, then closes the parent's ends
// (unblocking a feeder whose reader never reads, and drains whose writer
// escaped the group) and waits for the workers to return.
func (p *pipes) finish(grace time.Duration) {
	timer := time.NewTimer(grace)
	defer timer.Stop()
	left := p.workers
wait:
	for left > 0 {
		select {
		case <-p.done:
			left--
		case <-timer.C:
			break wait
		}
	}
	p.closeParentEnds()
	for ; left > 0; left-- {
		<-p.done
	}
}

// fill copies what the drains kept into res.
func (p *pipes) fill(res *Result) {
	if p.combined {
		res.Output = p.tail.String()
		return
	}
	res.Stdout = p.head.Bytes()
	res.Stderr = p.tail.String()
}

func closeFiles(fs ...*os.File) {
	for _, f := range fs {
		if f != nil {
			_ = f.Close()
		}
	}
}

// headBuffer keeps the first max bytes and discards the rest (still
// accepting them, so the child never blocks).
type headBuffer struct {
	buf []byte
	max int
}

func (b *headBuffer) Write(p []byte) (int, error) {
	if room := b.max - len(b.buf); room > 0 {
		b.buf = append(b.buf, p[:min(len(p), room)]...)
	}
	return len(p), nil
}

func (b *headBuffer) Bytes() []byte { return b.buf }

// tailBuffer keeps the last max bytes written.
type tailBuffer struct {
	buf []byte
	max int
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.buf = append(b.buf, p...)
	if len(b.buf) > b.max {
		b.buf = append([]byte(nil), b.buf[len(b.buf)-b.max:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string { return string(b.buf) }
