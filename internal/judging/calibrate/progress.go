package calibrate

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tribunal-cc/tribunal/internal/safetext"
)

// progress shows how far a run is: on a terminal one bar redrawn in
// place (bar set), elsewhere (a log, a CI job) one line per finished
// judging. The binary prints both; this type only words them.
type progress struct {
	mu     sync.Mutex
	line   func(string)
	bar    func(string)
	total  int
	done   int
	cached int
	failed int
}

func newProgress(line, bar func(string), total int) *progress {
	p := &progress{line: line, bar: bar, total: total}
	if bar != nil {
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
	p.bar(fmt.Sprintf("calibrating [%s%s] %d/%d · %d cached · %d failed",
		strings.Repeat("█", filled), strings.Repeat("░", barWidth-filled), p.done, p.total, p.cached, p.failed))
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
	if p.bar != nil {
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
	p.line(fmt.Sprintf("[%d/%d] case %s: %s", p.done, p.total, name, what))
}
