package emu

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"time"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Unlimited as a dispatch's MaxWarpInsts lets it run until it finishes or
// its context is cancelled.
const Unlimited = math.MaxUint64

// With no budget set, a run stops when it stalls: when it has done
// stallWork units of work without a work-group finishing, counting a warp
// instruction as stallWarpWeight units plus one per active lane. The units
// follow the simulator's cost, measured on this project's 2-core VM (one
// core) with a spin loop: timed, about 75 ns a warp instruction plus 3.3 ns
// an active lane, so 9e9 units are 24 to 41 s at every warp width from 1
// active lane to 128; functionally 2 to 3 times less. A launch that keeps
// finishing work-groups is never cut off, however big; a hung work-group
// is caught even when the others finished.
const (
	stallWork       = 9e9
	stallWarpWeight = 24
)

// Budget is the run's warp-instruction budget once Init has run
// (Unlimited when there is none).
func (d *Dispatch) Budget() uint64 { return d.budget }

// ErrStopped reports a run its context stopped; the error also wraps the
// context's cause.
var ErrStopped = errors.New("stopped")

// Progress is how far a dispatch has got, as its Progress callback sees it.
type Progress struct {
	GroupsDone, Groups int
	WarpInsts          uint64
	// Cycles is the simulated time so far (timed runs; 0 when functional).
	Cycles float64
}

// progressEvery is the least time between two Progress calls.
const progressEvery = 100 * time.Millisecond

// Checkpoint is called by whoever runs the dispatch between units of work
// (a slice of every active work-group, a few thousand timed instructions):
// it stops the run when the context is done or the budget spent, and
// reports progress at most every 100 ms.
func (d *Dispatch) Checkpoint(groupsDone int, cycles float64) error {
	return d.check(groupsDone, cycles, true)
}

// check is Checkpoint, calling Progress only when report is set.
func (d *Dispatch) check(groupsDone int, cycles float64, report bool) error {
	if d.Ctx != nil {
		select {
		case <-d.Ctx.Done():
			return fmt.Errorf("kernel %s %w after %d of %d work-groups: %w", d.Prog.Entry, ErrStopped, groupsDone, d.NumGroups(), context.Cause(d.Ctx))
		default:
		}
	}
	if d.Stats.WarpInsts > d.budget {
		return d.budgetError()
	}
	if d.stallCheck {
		work := d.Stats.ThreadInsts + stallWarpWeight*d.Stats.WarpInsts
		if groupsDone != d.stallGroups {
			d.stallGroups, d.stallMark, d.stallWarpMark = groupsDone, work, d.Stats.WarpInsts
		} else if work-d.stallMark > stallWork {
			return d.stallError()
		}
	}
	if report && d.Progress != nil {
		now := time.Now()
		if groupsDone == d.NumGroups() || now.Sub(d.lastProgress) >= progressEvery {
			d.lastProgress = now
			d.Progress(Progress{GroupsDone: groupsDone, Groups: d.NumGroups(), WarpInsts: d.Stats.WarpInsts, Cycles: cycles})
		}
	}
	return nil
}

// budgetError says where the kernel was when its budget ran out: the block
// the first still-running warp was in, which is where a hung kernel loops.
func (d *Dispatch) budgetError() error {
	where := d.where()
	return fmt.Errorf("kernel %s did not finish within %d warp instructions%s (raise --max-instructions if it is meant to run longer): %w",
		d.Prog.Entry, d.budget, where, ErrBudget)
}

// stallError reports a run in which no work-group finished for too long.
func (d *Dispatch) stallError() error {
	where := d.where()
	return fmt.Errorf("kernel %s seems hung: no work-group finished in the last %d warp instructions (%d in all)%s (give --max-instructions N, or unlimited, if it is meant to run that long): %w",
		d.Prog.Entry, d.Stats.WarpInsts-d.stallWarpMark, d.Stats.WarpInsts, where, ErrBudget)
}

// where is "; it was running block ..." for the warp that ran last.
func (d *Dispatch) where() string {
	if b := d.runningBlock(); b >= 0 && int(b) < len(d.Prog.Blocks) {
		return "; it was running " + d.Prog.describeBlock(b)
	}
	return ""
}

// runningBlock is the block the warp that ran last (or was replayed
// last, Replay) is in, or -1 if it has finished.
func (d *Dispatch) runningBlock() int32 {
	w := d.lastStepped
	if w == nil {
		if d.running {
			return d.replayed
		}
		return -1
	}
	if w.status == Running || w.status == AtBarrier {
		return w.last
	}
	return -1
}

// describeBlock names an IR block in the source's terms: its SPIR-V label,
// loop depth, and the first instruction's word offset and source line.
func (p *Program) describeBlock(b int32) string {
	blk := p.Blocks[b]
	s := fmt.Sprintf("block %%%d", blk.Label)
	if blk.LoopDepth > 0 {
		s += fmt.Sprintf(" (in %d loop(s))", blk.LoopDepth)
	}
	for i := blk.Start; i >= 0 && i < blk.End && int(i) < len(p.Code); i++ {
		site := p.Code[i].Site
		if site < 0 || int(site) >= len(p.Sites) {
			continue
		}
		return s + ", at " + siteLocation(p.Sites[site])
	}
	return s
}

func siteLocation(s ir.Site) string {
	loc := fmt.Sprintf("SPIR-V word %d", s.Offset)
	if s.File != "" {
		loc = fmt.Sprintf("%s:%d (%s)", filepath.Clean(s.File), s.Line, loc)
	}
	return loc
}
