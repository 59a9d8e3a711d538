package timing

import (
	"math"

	"github.com/pocketgpu/pocketgpu/emu"
)

// A warp's way through the engine: prepare finds its next group (running
// the executor for the next block when the last is used up) and when that
// group can start; issue sends it through the fetcher, the issuer and the
// memory unit; blockDone and finish apply what the executor said after a
// block (a barrier, the end).

// warpState is a resident warp as the engine sees it.
type warpState struct {
	w      *emu.Warp       // a live warp the executor steps (compute)
	rp     *ReplayWarp     // or a warp the executor already ran (shaders)
	blocks []recordedBlock // or a compute warp's blocks its producer ran (ahead.go), then w live if its task was handed over
	rpAt   int             // next recorded block of rp or blocks
	k      *Kernel
	wg     *wgState
	eng    *engine
	plans  []groupPlan // the current block's groups
	// idle is the share of the current block's passes with no active
	// lane, which a GPU that skips them does not spend (Kernel.passLanes).
	idle  float64
	next  int
	trace emu.Trace
	acc   int // next trace access to match

	slots       []slotReady // per IR slot: when its value is available, and what produces it
	readyAt     float64     // the warp may issue its next group from here
	why         Cause       // what readyAt waits for
	outstanding float64     // the last store/atomic completes
	after       emu.Status  // what the executor said after the current block
	hasNext     bool        // the fields below describe a group ready to consider
	nextWhy     Cause       // what the next group's inputs wait for (its readiness is in the scheduler)
	pos         int         // index in eng.sched.warps
	waiting     bool        // at a barrier
	released    bool        // just released from one (tryRelease)
	fetched     bool        // the next group's code has been fetched
	copying     bool        // an itemCopy holds the warp until its stores are done
	finished    bool
	scratch     int  // its place in its work-group's scratch window (memUnit.spill)
	view        bool // trace's slices are a record's (replayRecorded), not the executor's
}

// wgState is a unit a core holds: a work-group, a task of several packed
// ones, or a shader warp.
type wgState struct {
	wg  *emu.WorkGroup // nil for a shader warp's one-warp group, or a recorded task not handed over live
	rec *taskRecord    // a recorded task (ahead.go)
	k   *Kernel
	// groups is how many work-groups it holds; passed how many barriers
	// it has passed (of a recorded task's, passBarrier).
	groups int
	passed int
	core   *core
	slot   int
	// span is the cores the work-group holds, core first (core alone
	// unless it spreads over several).
	span  []*core
	warps []*warpState
	bar   barrier
	done  int
}

// core is the core the warp sits on: its engine's (a work-group spread
// over several cores has warps on each), else its work-group's.
func (w *warpState) core() *core {
	if w.eng != nil && w.eng.core != nil {
		return w.eng.core
	}
	return w.wg.core
}

// coreID is core's number.
func (w *warpState) coreID() int { return w.core().id }

// prepare makes sure the warp knows its next group (running the executor
// for a new block when the last is used up) and when that group's inputs
// are ready. A warp's readiness changes only when it issues, fetches a
// block or leaves a barrier, so pick reads this instead of recomputing it.
func (e *Engine) prepare(w *warpState) {
	w.hasNext = false
	en := w.eng
	if !e.fetchBlock(w) {
		if !w.finished {
			en.sched.set(w, math.Inf(1), 0)
		}
		return
	}
	gp := &w.plans[w.next]
	s, why := inputsReady(w, gp)
	w.nextWhy = why
	w.hasNext = true
	en.sched.set(w, s, gp.mask)
}

// fetchBlock runs the warp's next block in the executor and points the
// warp at that block's groups. It returns false when the warp has nothing
// to issue (it finished, or waits at a barrier).
func (e *Engine) fetchBlock(w *warpState) bool {
	for {
		if w.finished || w.waiting {
			return false
		}
		if w.next < len(w.plans) {
			return true
		}
		var st emu.Status
		switch {
		case w.blocks != nil:
			var err error
			if st, err = e.replayRecorded(w); err != nil {
				e.fail(err)
				return false
			}
		case w.rp != nil:
			st = w.rp.step(&w.trace, w.rpAt)
			w.rpAt++
		default:
			w.w.Trace = &w.trace
			if st = w.w.Step(); st == emu.Faulted {
				e.fail(w.w.Err())
				return false
			}
		}
		w.after = st
		k := w.k
		w.plans = k.plans[w.trace.Block]
		w.next, w.acc = 0, 0
		if n := k.passLanes; n > 0 {
			w.idle = idleShare(w.trace.Active, k.prog.WarpWidth, n)
		}
		k.countBlock(w.trace.Block, w.trace.Active)
		if w.rp != nil {
			blk := &k.prog.IR.Blocks[w.trace.Block]
			n := uint64(blk.End-blk.Start) + 1
			k.warpInsts += n
			k.threadInsts += n * uint64(w.trace.Active.Count())
		}
		if len(w.plans) == 0 {
			// Nothing to issue: apply what follows the block at once.
			e.blockDone(w, w.readyAt)
		}
	}
}

// issue issues w's next group on en at t. When the group's code is not in
// the engine's instruction buffer or the core's cache, the warp waits for
// the fetch instead and another warp may issue meanwhile.
func (e *Engine) issue(en *engine, w *warpState, t float64) {
	gp := &w.plans[w.next]
	g := gp.g
	if e.fetch != nil && !w.fetched {
		w.fetched = true
		if at := e.fetch.fetch(en.core.id, en.index, w.k.codeBase+g.CodeOffset, g.CodeBytes, t); at > t {
			w.readyAt, w.why = at, StallFetch
			e.prepare(w)
			return
		}
	}
	w.fetched = false
	if e.prof != nil {
		e.prof.issued(w, gp)
	}
	if tr := e.tr; tr != nil {
		// Most issues extend the engine's open slice. (A new one may close
		// the trace's window first, which reads the pipes' busy cycles
		// before this group's.)
		if et := &tr.engines[en.index]; et.k == w.k && t < tr.next && et.win == tr.window {
			et.end = t + gp.issue
			et.groups++
			et.cycles += gp.issue
		} else {
			tr.issued(en, w.k, t, gp.issue)
		}
	}
	en.issuer.issue(w, gp, t)
	for _, pc := range g.Mem {
		if c := e.mu.op(w, pc, t); c != nil {
			e.At(c.loaded, func(now float64) { e.copyStores(c, now) })
		}
	}
	for i := range g.Spill {
		e.mu.spill(w, &g.Spill[i], t)
	}
	en.issuer.count(gp)
	if !w.copying {
		w.readyAt, w.why = en.issuer.portFree, StallNone
	}
	w.copying = false
	w.next++
	if w.next == len(w.plans) {
		e.blockDone(w, en.issuer.portFree)
	}
	e.prepare(w)
}

// copyStores issues an item copy's stores once its loads are in (now) and
// lets the warp go on when they are done.
func (e *Engine) copyStores(c *itemCopy, now float64) {
	done := e.mu.storeCopy(c, now)
	w := c.w
	if w.finished {
		return
	}
	w.readyAt, w.why = done, StallMemory
	e.prepare(w)
	e.wake(c.en, done)
}

// blockDone applies what the executor said after the block: continue,
// wait at a barrier, or finish.
func (e *Engine) blockDone(w *warpState, t float64) {
	switch w.after {
	case emu.AtBarrier:
		e.arrive(w, t)
	case emu.Done:
		e.finish(w, t)
	}
}

// finish retires a warp; the last warp of a work-group retires the
// work-group and lets the core take another.
func (e *Engine) finish(w *warpState, t float64) {
	end := max(t, w.outstanding)
	if w.rp != nil && w.rp.Retire != nil {
		held := max(w.rp.Retire(end), end)
		w.k.heldCycles += held - end
		end = held
	}
	w.finished = true
	w.eng.sched.remove(w)
	wg := w.wg
	wg.done++
	w.core().leave(end)
	e.end = max(e.end, end)
	if wg.done < len(wg.warps) {
		e.tryRelease(wg)
		return
	}
	// The work-group is done.
	e.disp.retire(wg, end)
}
