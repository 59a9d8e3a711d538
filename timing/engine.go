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

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/timing/mem"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

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

// engine is what issues warps — a Bifrost execution engine, an Adreno ALU
// partition, a Rogue USC, a Midgard arithmetic pipe — as its units: the
// warp scheduler and the issuer (the port and pipes). The Engine steps it
// when its next try is due (time).
type engine struct {
	core    *core
	index   int     // engine number in the GPU (for ordering)
	time    float64 // next time this engine can try to issue
	heapIdx int
	rearmed bool // re-armed by wake while stepping, not in the heap
	inHeap  bool
	sched   scheduler
	issuer  issuer
}

// Engine runs kernels on the GPU's cores: one compute dispatch (New), or
// several kernels at once — compute dispatches and graphics shaders whose
// warps a Source hands out (NewEngine, AddCompute, AddShader) — sharing the
// engines, pipes, caches and DRAM.
//
// It is made of units, each a type with its file: the dispatcher gives
// the cores work; each engine's scheduler picks a warp and its issuer
// takes the issue port and pipes; the fetcher brings the group's code;
// the memory unit sends its memory work to the hierarchy; a work-group's
// barrier holds its warps. Run is the loop that steps them in time order.
type Engine struct {
	g     *arch.GPU
	mem   *mem.Hierarchy
	cores []*core
	eng   []*engine // every core's, core by core

	// The units beside each engine's scheduler and issuer.
	disp  dispatcher
	mu    memUnit
	fetch *fetcher // nil without an instruction cache

	// The loop (Run).
	queue      engineHeap
	current    *engine // the engine being stepped
	events     eventHeap
	eventSeq   uint64
	end        float64 // the latest time work ended or an event ran
	err        error
	checkpoint func(t float64) error

	sampling *sampling // EnableSampling (sampling.go), or nil
	noAhead  bool      // DisableAhead (ahead.go)

	// Observers, nil unless enabled.
	prof *profiler // EnableProfile (profile.go)
	samp *sampler  // EnableTimeline (timeline.go)
	trc  *trace.Trace
	tr   *tracer // EnableTrace, from the start of Run (tracer.go)
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
	e.disp = dispatcher{cores: e.cores, places: max(g.MaxWarpsPerEngine*g.EnginesPerCore, 1), at: e.At, start: e.start, fail: e.fail}
	e.fetch = newFetcher(g, len(e.cores), len(e.eng))
	return e
}

// Run executes the kernels and returns the counters.
func (e *Engine) Run() (*Result, error) {
	if len(e.disp.kernels) == 0 && e.events.Len() == 0 {
		return nil, fmt.Errorf("timing: nothing to run")
	}
	if err := e.startAhead(); err != nil {
		return nil, err
	}
	defer e.stopAhead()
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
	if errors.Is(e.err, emu.ErrStopped) {
		// Stopped inside a fast-forward (sampling.go): what ran so far.
		return e.result(e.end), e.err
	}
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

func (e *Engine) fail(err error) {
	if e.err == nil {
		e.err = err
	}
}
