package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress shows how far a long command is: a bar on a terminal, and when
// stderr is a pipe or a file, one line every few seconds, so that no run is
// silent. It writes to stderr only: stdout stays the command's result.
type progress struct {
	bar *progressbar.ProgressBar // terminal (or --progress)

	mu     sync.Mutex
	w      io.Writer // lines, when not a terminal
	what   string
	total  int64
	done   int64
	detail string
	start  time.Time
	last   time.Time
	every  time.Duration
	now    func() time.Time
}

// progressLineEvery is how often a non-terminal progress line is written.
const progressLineEvery = 5 * time.Second

// newProgress reports on total units of work (tests' points, work-groups,
// tiles) described by what.
func newProgress(w io.Writer, force bool, total int, what string) *progress {
	p := &progress{w: w, what: what, total: int64(total), every: progressLineEvery, now: time.Now}
	p.start = p.now()
	p.last = p.start
	if force || isTerminal(w) {
		p.bar = progressbar.NewOptions64(int64(max(total, 1)),
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription(what),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionClearOnFinish(),
		)
	}
	return p
}

// tick adds one unit of work done.
func (p *progress) tick() { p.add(1, "") }

// set says how much is done (absolute) and what else to show (simulated
// cycles, say).
func (p *progress) set(done int64, detail string) {
	p.mu.Lock()
	delta := done - p.done
	p.mu.Unlock()
	p.add(delta, detail)
}

func (p *progress) add(n int64, detail string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done += n
	if detail != "" {
		p.detail = detail
	}
	if p.bar != nil {
		if detail != "" {
			p.bar.Describe(p.what + " " + detail)
		}
		_ = p.bar.Add64(n)
		return
	}
	if t := p.now(); t.Sub(p.last) >= p.every {
		p.last = t
		fmt.Fprintln(p.w, p.line(t))
	}
}

// line is the non-terminal report: "demo: 120 of 400 (30%), 12 s, about 28 s left".
func (p *progress) line(t time.Time) string {
	el := t.Sub(p.start)
	s := fmt.Sprintf("%s: %d of %d", p.what, p.done, p.total)
	if p.total > 0 {
		s += fmt.Sprintf(" (%.0f%%)", 100*float64(p.done)/float64(p.total))
	}
	if p.detail != "" {
		s += ", " + p.detail
	}
	s += fmt.Sprintf(", %.0f s", el.Seconds())
	if p.done > 0 && p.done < p.total {
		left := time.Duration(float64(el) * float64(p.total-p.done) / float64(p.done))
		s += fmt.Sprintf(", about %.0f s left", left.Seconds())
	}
	return s
}

func (p *progress) finish() {
	if p != nil && p.bar != nil {
		_ = p.bar.Finish()
	}
}

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
