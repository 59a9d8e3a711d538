// Package timing decides when things happen: it runs a kernel's warps on the
// cores, engines and pipes of a described GPU, issuing the groups the isa
// package lowered (Bifrost clauses, Adreno and Rogue instructions) in
// global time order, asking the functional executor to run each block and
// sending the addresses it touched through the memory hierarchy model. The
// executor computes every value; this package never does.
//
// Time is in GPU clock cycles (float64). Shared resources — issue ports,
// pipes, caches, DRAM — are servers with a next-free time, so idle time is
// skipped rather than ticked through.
package timing

import (
	"errors"
	"fmt"
	"math"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/timing/mem"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Stall causes: what the earliest-ready warp of an idle engine was waiting
// for.
type Cause uint8

const (
	StallNone         Cause = iota
	StallMemory             // a load's data
	StallTexture            // a texture sample
	StallDependency         // an ALU result (pipeline latency)
	StallPipe               // the pipe its instruction needs is busy
	StallBarrier            // the work-group barrier
	StallBankConflict       // local-memory bank conflicts
	StallNoWarp             // no resident warp
	StallFetch              // instruction fetch (cache miss)
	numCauses
)

var causeNames = [...]string{"none", "memory", "texture", "dependency", "pipe", "barrier", "bank_conflict", "no_warp", "instruction_fetch"}

func (c Cause) String() string { return causeNames[c] }

// Config is one timed kernel run.
type Config struct {
	GPU      *arch.GPU
	Dispatch *emu.Dispatch // initialised (Init), not yet run
	Program  *isa.Program
	// Occupancy is the residency the GPU's rules allow for this kernel.
	Occupancy arch.Occupancy
	// Memory is the hierarchy (fresh, or warm from earlier kernels).
	Memory *mem.Hierarchy
	// LocalBytes of local memory per work-group.
	LocalBytes int
}

type warpState struct {
	w     *emu.Warp   // a live warp the executor steps (compute)
	rp    *ReplayWarp // or a warp the executor already ran (shaders)
	rpAt  int         // next recorded block of rp
	k     *Kernel
	wg    *wgState
	eng   *engine
	plans []groupPlan // the current block's groups
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
	fetched     bool        // the next group's code has been fetched
	copying     bool        // an itemCopy holds the warp until its stores are done
	finished    bool
	scratch     int // its place in its work-group's scratch window (spill.go)
}

type wgState struct {
	wg    *emu.WorkGroup // nil for a shader warp's one-warp group
	k     *Kernel
	core  *core
	slot  int
	warps []*warpState
	bar   barrier
	done  int
}

type engine struct {
	core    *core
	index   int // engine number in the GPU (for ordering)
	sched   scheduler
	issuer  issuer
	time    float64 // next time this engine can try to issue
	heapIdx int
	rearmed bool // re-armed by wake while stepping, not in the heap
	inHeap  bool
}

// Engine runs kernels on the GPU's cores: one compute dispatch (New), or
// several kernels at once — compute dispatches and graphics shaders whose
// warps a Source hands out (NewEngine, AddCompute, AddShader) — sharing the
// engines, pipes, caches and DRAM.
type Engine struct {
	g        *arch.GPU
	mem      *mem.Hierarchy
	cores    []*core
	eng      []*engine
	queue    engineHeap
	disp     dispatcher
	events   eventHeap
	eventSeq uint64

	end        float64
	err        error
	checkpoint func(t float64) error

	current *engine // the engine being stepped
	mu      memUnit
	fetch   *fetcher
	prof    *profiler // nil unless EnableProfile (profile.go)
	samp    *sampler  // nil unless EnableTimeline (timeline.go)
	trc     *trace.Trace
	tr      *tracer // nil unless EnableTrace (tracer.go)
}

// New prepares a timed run of one compute dispatch.
func New(cfg Config) (*Engine, error) {
	e := NewEngine(cfg.GPU, cfg.Memory)
	if _, err := e.AddCompute(cfg.Dispatch, cfg.Program, cfg.Occupancy); err != nil {
		return nil, err
	}
	return e, nil
}

// NewEngine prepares an engine with no work on g's cores, over the memory
// hierarchy m (fresh, or warm from earlier work; nil: a fresh one).
func NewEngine(g *arch.GPU, m *mem.Hierarchy) *Engine {
	e := &Engine{g: g, mem: m}
	if e.mem == nil {
		e.mem = mem.New(g)
	}
	e.mu.h = e.mem
	e.cores = newCores(g)
	for _, co := range e.cores {
		e.eng = append(e.eng, co.engines...)
	}
	e.disp = dispatcher{cores: e.cores, places: max(g.MaxWarpsPerEngine*g.EnginesPerCore, 1), at: e.At, start: e.start}
	e.fetch = newFetcher(g, len(e.cores), len(e.eng))
	return e
}

// Run executes the kernels and returns the counters.
func (e *Engine) Run() (*Result, error) {
	if len(e.disp.kernels) == 0 && e.events.Len() == 0 {
		return nil, fmt.Errorf("timing: nothing to run")
	}
	e.disp.distribute(0)
	if e.trc != nil {
		e.startTrace()
	}
	var en *engine
	poll := 1
	for e.err == nil {
		if en == nil {
			if e.queue.Len() == 0 {
				if e.events.Len() == 0 {
					break
				}
				e.current = nil
				e.runEvent()
				continue
			}
			en = e.queue.pop()
			en.inHeap = false
		}
		// Events due before the engine's turn happen first.
		if e.events.Len() > 0 && e.events[0].t < en.time {
			e.current = nil
			e.queue.push(en)
			en.inHeap = true
			en = nil
			e.runEvent()
			continue
		}
		// The stepping engine re-arms in place (wake); it stays out of the
		// heap for as long as it is still the earliest engine, and when it
		// is not, it trades places with the earliest in one sift.
		e.current = en
		en.rearmed = false
		if e.samp != nil {
			e.samp.at(e, en.time)
		}
		e.step(en)
		if poll--; poll == 0 {
			poll = checkpointSteps
			if err := e.check(max(e.end, en.time)); err != nil {
				// What ran so far, without the final write-back.
				e.current = nil
				if e.tr != nil {
					e.tr.finish(max(e.end, en.time))
				}
				return e.result(max(e.end, en.time)), err
			}
		}
		switch {
		case !en.rearmed:
			e.current = nil
			en = nil
		case e.queue.Len() > 0 && !(heapEntry{en.time, en.index, en}).before(e.queue[0]):
			next := e.queue.replaceTop(en)
			en.inHeap, next.inHeap = true, false
			en = next
		case e.events.Len() > 0 && e.events[0].t < en.time:
			e.current = nil
			e.queue.push(en)
			en.inHeap = true
			en = nil
		}
	}
	e.current = nil
	if e.err != nil {
		return nil, e.err
	}
	for _, k := range e.disp.kernels {
		if err := k.unfinished(); err != nil {
			return nil, err
		}
	}
	end := e.mem.Flush(e.end)
	if err := e.check(max(end, e.end)); err != nil && !errors.Is(err, emu.ErrStopped) {
		return nil, err
	}
	if e.tr != nil {
		e.tr.finish(max(end, e.end))
	}
	return e.result(max(end, e.end)), nil
}

// check asks the compute dispatches (budget, context, progress) and the
// caller's checkpoint whether to go on.
func (e *Engine) check(t float64) error {
	for _, k := range e.disp.kernels {
		if k.d != nil {
			if err := k.d.Checkpoint(k.groupsDone, t); err != nil {
				return err
			}
		}
	}
	if e.checkpoint != nil {
		return e.checkpoint(t)
	}
	return nil
}

// SetCheckpoint has the engine call f every so often with the simulated
// time; an error from it stops the run (Run returns it with the partial
// counters).
func (e *Engine) SetCheckpoint(f func(t float64) error) { e.checkpoint = f }

// checkpointSteps is how many engine steps run between two checks of the
// budget, the context and progress: a step is a few warp instructions, so
// the checks cost nothing measurable and a stop takes well under a
// millisecond.
const checkpointSteps = 1024

// start has a work-group's warps, just placed, look for work from t.
func (e *Engine) start(ws *wgState, t float64) {
	for _, st := range ws.warps {
		e.prepare(st)
		e.wake(st.eng, t)
	}
}

// wake makes sure en will look for work no later than t.
func (e *Engine) wake(en *engine, t float64) {
	en.sched.cand = nil
	if en == e.current && !en.inHeap {
		t = max(t, en.issuer.portFree)
		if !en.rearmed || t < en.time {
			en.time = t
		}
		en.rearmed = true
		return
	}
	t = max(t, en.issuer.portFree)
	if en.inHeap {
		if t < en.time {
			en.time = t
			e.queue.fix(en)
		}
		return
	}
	en.time = t
	e.queue.push(en)
	en.inHeap = true
}

// step lets an engine issue one group at en.time or later.
func (e *Engine) step(en *engine) {
	t := en.time
	if w, why, d := en.sched.closeStall(t); d > 0 && e.prof != nil {
		e.prof.stalled(w, why, d)
	}
	if w := en.sched.cand; w != nil {
		en.sched.cand = nil
		if w.hasNext && !w.waiting && !w.finished {
			e.issue(en, w, t)
			if len(en.sched.warps) > 0 {
				e.wake(en, max(en.issuer.portFree, t))
			}
			return
		}
	}
	w, start, why := en.sched.pick(t, en.issuer.portFree, en.issuer.pipeFree)
	if w == nil {
		// Nothing can ever issue here until something wakes the engine
		// (a barrier release, a new work-group).
		return
	}
	if start > t {
		en.sched.stall(t, why, w)
		e.wake(en, start)
		en.sched.cand = w
		return
	}
	e.issue(en, w, t)
	if len(en.sched.warps) > 0 {
		e.wake(en, max(en.issuer.portFree, t))
	}
}

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
		if w.rp != nil {
			st = w.rp.step(&w.trace, w.rpAt)
			w.rpAt++
		} else {
			w.w.Trace = &w.trace
			st = w.w.Step()
		}
		if st == emu.Faulted {
			e.fail(w.w.Err())
			return false
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

func (e *Engine) fail(err error) {
	if e.err == nil {
		e.err = err
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
		if at := e.fetch.fetch(w.wg.core.id, en.index, w.k.codeBase+g.CodeOffset, g.CodeBytes, t); at > t {
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
	wg.core.leave(end)
	e.end = max(e.end, end)
	if wg.done < len(wg.warps) {
		e.tryRelease(wg)
		return
	}
	// The work-group is done.
	e.disp.retire(wg, end)
}

// engineHeap orders engines by the time they next try to issue (ties: the
// engine's index, for determinism). A typed binary heap whose entries carry
// their keys: the engine loop pops and pushes once per issued group, and
// comparing keys in place spares a visit to each engine's struct.
type engineHeap []heapEntry

type heapEntry struct {
	time  float64
	index int
	en    *engine
}

func (h engineHeap) Len() int { return len(h) }

func (a heapEntry) before(b heapEntry) bool {
	if a.time != b.time {
		return a.time < b.time
	}
	return a.index < b.index
}

func (h engineHeap) swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].en.heapIdx, h[j].en.heapIdx = i, j
}

func (h engineHeap) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !h[j].before(h[i]) {
			break
		}
		h.swap(i, j)
		j = i
	}
}

func (h engineHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && h[r].before(h[l]) {
			j = r
		}
		if !h[j].before(h[i]) {
			return
		}
		h.swap(i, j)
		i = j
	}
}

func (h *engineHeap) push(en *engine) {
	en.heapIdx = len(*h)
	*h = append(*h, heapEntry{en.time, en.index, en})
	h.up(en.heapIdx)
}

func (h *engineHeap) pop() *engine {
	old := *h
	n := len(old) - 1
	old.swap(0, n)
	en := old[n].en
	*h = old[:n]
	if n > 0 {
		h.down(0)
	}
	en.heapIdx = -1
	return en
}

// replaceTop puts en in the heap in place of its earliest engine, which it
// returns: a push and a pop in one sift.
func (h engineHeap) replaceTop(en *engine) *engine {
	old := h[0].en
	old.heapIdx = -1
	h[0] = heapEntry{en.time, en.index, en}
	en.heapIdx = 0
	h.down(0)
	return old
}

// fix restores the order after en's time decreased.
func (h engineHeap) fix(en *engine) {
	h[en.heapIdx].time = en.time
	h.up(en.heapIdx)
}
