package emu

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Unlimited as a dispatch's MaxWarpInsts lets it run until it finishes or
// its context is cancelled.
const Unlimited = math.MaxUint64

// The default budget stops a kernel that has most likely hung: a launch may
// run budgetPerWarp warp instructions per warp it launches, and never fewer
// than budgetFloor. Measured on this project's 2-core VM (one core, Go 1.26):
// a one-warp spin loop runs about 40 million warp instructions a second
// functionally and 12 to 15 million under the timing model (8.7 million
// with 512 warps in flight), so the floor, 2^28, stops a hung small launch
// in about 7 s functionally and 20 to 30 s timed. Per warp, 2^14 warp
// instructions is a 16384-instruction loop body per warp on average: a
// 1024x1024 matrix product with K = 1024 needs about 10000.
const (
	budgetFloor   = 1 << 28
	budgetPerWarp = 1 << 14
)

// DefaultBudget is the warp-instruction budget of a launch of warps warps
// when the caller sets none.
func DefaultBudget(warps uint64) uint64 {
	if warps > math.MaxUint64/budgetPerWarp {
		return Unlimited
	}
	return max(budgetFloor, budgetPerWarp*warps)
}

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
	if d.Ctx != nil {
		select {
		case <-d.Ctx.Done():
			return fmt.Errorf("kernel %s %w after %d of %d work-groups: %w", d.Prog.Entry, ErrStopped, groupsDone, d.NumGroups(), context.Cause(d.Ctx))
		default:
		}
	}
	if d.Stats.WarpInsts > d.MaxWarpInsts {
		return d.budgetError()
	}
	if d.Progress != nil {
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
	where := ""
	if w := d.runningWarp(); w != nil && w.last >= 0 && int(w.last) < len(d.Prog.Blocks) {
		where = "; it was running " + d.Prog.describeBlock(w.last)
	}
	return fmt.Errorf("kernel %s did not finish within %d warp instructions%s (raise --max-instructions if it is meant to run longer): %w",
		d.Prog.Entry, d.MaxWarpInsts, where, ErrBudget)
}

// runningWarp is the warp that ran last, if it has not finished.
func (d *Dispatch) runningWarp() *Warp {
	if w := d.lastStepped; w != nil && (w.status == Running || w.status == AtBarrier) {
		return w
	}
	return nil
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
		loc = fmt.Sprintf("%s:%d (%s)", s.File, s.Line, loc)
	}
	return loc
}
