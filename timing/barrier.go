package timing

import "github.com/pocketgpu/pocketgpu/emu"

// barrier is a work-group's barrier: its warps arrive as they reach it,
// each once its stores are accepted, and when every warp still running
// has arrived they all go on execution.barrier_latency_cycles after the
// last arrival. A warp that has finished does not hold the others.
type barrier struct {
	arrived int     // warps waiting at it
	last    float64 // the latest arrival
}

// arrive records a warp reaching the barrier at t.
func (b *barrier) arrive(t float64) {
	b.arrived++
	b.last = max(b.last, t)
}

// full reports whether, of a work-group's warps, all those not finished
// are waiting.
func (b *barrier) full(warps, finished int) bool {
	return b.arrived > 0 && b.arrived+finished >= warps
}

// opens is when the waiting warps may go on, latency after the last
// arrival.
func (b *barrier) opens(latency float64) float64 { return b.last + latency }

// reset empties the barrier for the work-group's next one.
func (b *barrier) reset() { b.arrived, b.last = 0, 0 }

// arrive puts warp w, done with its block at t, at its work-group's
// barrier; the last to arrive releases them all.
func (e *Engine) arrive(w *warpState, t float64) {
	w.waiting = true
	w.wg.bar.arrive(max(t, w.outstanding))
	e.tryRelease(w.wg)
}

// tryRelease releases a work-group's barrier once every running warp is
// there: the executor passes it (passBarrier), and each waiting warp may
// issue from when it opens.
func (e *Engine) tryRelease(wg *wgState) {
	if !wg.bar.full(len(wg.warps), wg.done) {
		return
	}
	if err := e.passBarrier(wg); err != nil {
		e.fail(err)
		return
	}
	at := wg.bar.opens(float64(e.g.Execution.BarrierLatencyCycles))
	// The executor runs the released warps' next blocks in emu's order
	// (emu.WorkGroup.Round: the youngest warp that waited first, then the
	// others by age), so that what they do together (local atomics) comes
	// out as in a functional run, whatever the order they issue in after.
	lead := -1
	for j, w := range wg.warps {
		if w.waiting {
			lead = j
		}
	}
	for j := range emu.LeadFirst(len(wg.warps), lead) {
		w := wg.warps[j]
		if !w.waiting {
			continue
		}
		w.waiting = false
		w.after = emu.Running
		if at > w.readyAt {
			w.readyAt, w.why = at, StallBarrier
		}
		w.released = true
		e.fetchBlock(w)
	}
	for _, w := range wg.warps {
		if !w.released {
			continue
		}
		w.released = false
		e.prepare(w)
		e.wake(w.eng, w.readyAt)
	}
	// Cleared after the loop, as it always was: a warp prepared above
	// that reaches its next barrier at once (through a block with nothing
	// to issue) arrives on top of this barrier's count.
	wg.bar.reset()
}
