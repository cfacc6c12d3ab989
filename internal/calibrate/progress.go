package calibrate

import (
	"fmt"
	"github.com/tribunal-cc/tribunal/internal/safetext"
	"io"
	"strings"
	"sync"
)

// progress shows how far a run is: on a terminal one bar redrawn in
// place, elsewhere (a log, a CI job) one line per finished judging.
type progress struct {
	mu       sync.Mutex
	w        io.Writer
	terminal bool
	total    int
	done     int
	cached   int
	failed   int
}

func newProgress(w io.Writer, terminal bool, total int) *progress {
	p := &progress{w: w, terminal: terminal, total: total}
	if terminal {
		p.draw()
	}
	return p
}

const barWidth = 30

func (p *progress) draw() {
	filled := 0
	if p.total > 0 {
		filled = p.done * barWidth / p.total
	}
	fmt.Fprintf(p.w, "\rtribunal: calibrating [%s%s] %d/%d · %d cached · %d failed",
		strings.Repeat("█", filled), strings.Repeat("░", barWidth-filled), p.done, p.total, p.cached, p.failed)
}

func (p *progress) step(id string, swapped bool, o outcome) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	if o.cached {
		p.cached++
	}
	if o.Decision != "pass" && o.Decision != "fail" {
		p.failed++
	}
	if p.terminal {
		p.draw()
		return
	}
	what := o.Decision
	if o.Score != nil {
		what += fmt.Sprintf(" (score %.2f)", *o.Score)
	}
	if o.Error != "" {
		what += ": " + safetext.FirstLine(o.Error, 200)
	}
	if o.cached {
		what += ", cached"
	}
	name := fmt.Sprintf("%q", id)
	if swapped {
		name += " swapped"
	}
	fmt.Fprintf(p.w, "tribunal: [%d/%d] case %s: %s\n", p.done, p.total, name, what)
}

func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.terminal {
		fmt.Fprintln(p.w)
	}
}
