package timing

import (
	"fmt"
	"math"

	"github.com/pocketgpu/pocketgpu/timing/mem"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Tracing: the engine's run as a timeline (docs/trace.md). Like profiling
// it is off unless EnableTrace is called; the engine then keeps a tracer
// and its issue, memory and event paths each make one call to it, and
// without one the cost is a nil check at each.
//
// What is recorded, in simulated ns on the trace's clock (the run starts
// at trace.Now and moves it to its end):
//
//   - Per engine ("Core C/engine E"), issue slices: the groups one kernel
//     issued there within one sampling window, from the first one's
//     issue to the last one's end, with their count ("groups") and issue
//     cycles ("issue_cycles") as arguments. The groups arguments of all
//     engines add up to the run's groups_issued exactly.
//   - Per core, counter tracks sampled each Trace.Interval cycles:
//     resident warps and work-groups (at the sample), and each pipe's busy
//     share of the window ("pipe P busy", % of the core's engines).
//   - Memory, per window: lookups that hit and missed in the L1s, texture
//     caches and L2, DRAM bytes, and the warps' memory requests in flight
//     at the sample.
//   - Kernels: a slice per kernel from its first launch to its last
//     retirement; callers add theirs (TraceSlice: command-processor jobs,
//     render tasks).

// EnableTrace has the engine record its run on t (one run: each Run
// records from t.Now on and leaves t.Now at its end).
func (e *Engine) EnableTrace(t *trace.Trace) { e.trc = t }

// Tracing reports whether the engine records a trace.
func (e *Engine) Tracing() bool { return e.trc != nil }

// TraceSlice adds a slice from start to end (cycles of this run) on the
// track at path under the trace's root; nothing without a trace. Call it
// during or after Run.
func (e *Engine) TraceSlice(path []string, start, end float64, name string, args ...trace.Arg) {
	if e.tr == nil {
		return
	}
	e.tr.t.Track(path...).Slice(e.tr.ns(start), e.tr.ns(end), name, args...)
}

type tracer struct {
	e          *Engine
	t          *trace.Trace
	base       float64 // ns of cycle 0
	nsPerCycle float64
	interval   float64
	next       float64 // cycles: the next sample is due here
	window     float64 // start of the window being filled
	engines    []engineTrace
	cores      []coreTrace
	kernels    *trace.Track
	memTracks  [8]*trace.Track
	tally      mem.Tally
	// Requests in flight at a sample: those sent so far less those done
	// by then, counted per window they end in (a heap of their ends
	// cost a third of a memory-bound run).
	sent, doneBy uint64
	doneIn       []uint64 // requests done in window k (after its start, by its end)
	counted      int      // windows summed into doneBy
}

type engineTrace struct {
	track *trace.Track
	// The open slice: k's groups issued in window win.
	k          *Kernel
	win        float64
	start, end float64
	groups     uint64
	cycles     float64
}

type coreTrace struct {
	warps, wgs *trace.Track
	issue      *trace.Track // % of the engines' cycles issuing, per window
	lastIssue  float64
	pipes      []*trace.Track
	lastBusy   []float64
}

const (
	memL1Hits = iota
	memL1Misses
	memTexHits
	memTexMisses
	memL2Hits
	memL2Misses
	memDRAM
	memInFlight
)

var memTrackNames = [...]string{"L1 hits", "L1 misses", "texture hits", "texture misses", "L2 hits", "L2 misses", "DRAM bytes", "requests in flight"}
var memTrackUnits = [...]string{"lookups", "lookups", "lookups", "lookups", "lookups", "lookups", "B", "requests"}

// startTrace makes the run's tracks, once the kernels are known.
func (e *Engine) startTrace() {
	t := e.trc
	tr := &tracer{e: e, t: t, base: t.Now(), nsPerCycle: 1000 / e.g.ClockMHz, interval: t.Interval}
	tr.next = tr.interval
	var pipes []string
	if len(e.disp.kernels) > 0 {
		pipes = e.disp.kernels[0].prog.Pipes
	}
	for _, c := range e.cores {
		name := fmt.Sprintf("Core %d", c.id)
		ct := coreTrace{
			warps:    t.Counter("warps", name, "resident warps"),
			wgs:      t.Counter("work-groups", name, "resident work-groups"),
			issue:    t.Counter("%", name, "issue busy"),
			lastBusy: make([]float64, len(pipes)),
		}
		for _, en := range c.engines {
			tr.engines = append(tr.engines, engineTrace{track: t.Track(name, fmt.Sprintf("engine %d", en.index-c.engines[0].index))})
		}
		for _, p := range pipes {
			ct.pipes = append(ct.pipes, t.Counter("%", name, "pipe "+p+" busy"))
		}
		tr.cores = append(tr.cores, ct)
	}
	for i, n := range memTrackNames {
		tr.memTracks[i] = t.Counter(memTrackUnits[i], "Memory", n)
	}
	tr.kernels = t.Track("Kernels")
	tr.tally = e.mem.Tally()
	e.tr, e.mu.tr = tr, tr
	tr.sampleAt(0)
}

func (tr *tracer) ns(cycles float64) float64 { return tr.base + cycles*tr.nsPerCycle }

// issued records a group of k issued on en from t to end.
func (tr *tracer) issued(en *engine, k *Kernel, t, cycles float64) {
	if t >= tr.next {
		tr.sample(t)
	}
	et := &tr.engines[en.index]
	// One slice while the engine keeps issuing the same kernel: a new one
	// after another kernel's groups or a gap of a whole window (how busy
	// it was within windows is the core's issue counter). A slice per
	// window was most of a long run's trace and of its cost.
	if et.k != k || t-et.end > tr.interval {
		tr.closeSlice(et)
		et.k, et.win, et.start = k, tr.window, t
	}
	et.end = t + cycles
	et.groups++
	et.cycles += cycles
}

func (tr *tracer) closeSlice(et *engineTrace) {
	if et.k == nil {
		return
	}
	cycles := trace.Float("issue_cycles", et.cycles)
	if et.cycles == math.Trunc(et.cycles) {
		cycles = trace.Uint("issue_cycles", uint64(et.cycles)) // shorter
	}
	et.track.Slice(tr.ns(et.start), tr.ns(et.end), et.k.Name, trace.Uint("groups", et.groups), cycles)
	et.k, et.groups, et.cycles = nil, 0, 0
}

// request records a memory request sent at t and done at done.
func (tr *tracer) request(t, done float64) {
	if t >= tr.next {
		tr.sample(t)
	}
	tr.sent++
	k := int(math.Ceil(done / tr.interval))
	for len(tr.doneIn) <= k {
		tr.doneIn = append(tr.doneIn, 0)
	}
	tr.doneIn[k]++
}

// sample closes the windows that ended by t: the activity since the last
// sample belongs to the window it started in, and any windows after it up
// to t saw none.
func (tr *tracer) sample(t float64) {
	tr.flushWindow(tr.window)
	w := math.Floor(t/tr.interval) * tr.interval
	if w > tr.window+tr.interval {
		tr.zeroWindow(tr.window + tr.interval)
	}
	tr.window = w
	tr.next = w + tr.interval
	tr.sampleAt(w)
}

// flushWindow writes what the rates counted in the window from w.
func (tr *tracer) flushWindow(w float64) {
	e := tr.e
	ts := tr.ns(w)
	for i, c := range e.cores {
		ct := &tr.cores[i]
		issue := 0.0
		for _, en := range c.engines {
			issue += en.issuer.counts.IssueCycles
		}
		ct.issue.Count(ts, 100*(issue-ct.lastIssue)/(tr.interval*float64(len(c.engines))))
		ct.lastIssue = issue
		for p := range ct.pipes {
			busy := 0.0
			for _, en := range c.engines {
				busy += en.issuer.counts.PipeBusy[p]
			}
			ct.pipes[p].Count(ts, 100*(busy-ct.lastBusy[p])/(tr.interval*float64(len(c.engines))))
			ct.lastBusy[p] = busy
		}
	}
	now := e.mem.Tally()
	d := now.Sub(tr.tally)
	tr.tally = now
	for i, v := range [...]int64{d.L1Accesses - d.L1Misses, d.L1Misses, d.TextureAccesses - d.TextureMisses, d.TextureMisses, d.L2Accesses - d.L2Misses, d.L2Misses, d.DRAMBytes} {
		tr.memTracks[i].Count(ts, float64(v))
	}
}

// zeroWindow marks the rates idle from w on.
func (tr *tracer) zeroWindow(w float64) {
	ts := tr.ns(w)
	for i := range tr.cores {
		tr.cores[i].issue.Count(ts, 0)
		for _, p := range tr.cores[i].pipes {
			p.Count(ts, 0)
		}
	}
	for i := memL1Hits; i <= memDRAM; i++ {
		tr.memTracks[i].Count(ts, 0)
	}
}

// sampleAt records the levels (resident work, requests in flight) at w.
func (tr *tracer) sampleAt(w float64) {
	ts := tr.ns(w)
	for i, c := range tr.e.cores {
		tr.cores[i].warps.Count(ts, float64(c.resident))
		tr.cores[i].wgs.Count(ts, float64(len(c.wgs)))
	}
	for k := int(w / tr.interval); tr.counted <= k && tr.counted < len(tr.doneIn); tr.counted++ {
		tr.doneBy += tr.doneIn[tr.counted]
	}
	tr.memTracks[memInFlight].Count(ts, float64(tr.sent-tr.doneBy))
}

// finish closes the run at end (cycles): the open slices and the last
// window, the kernels' slices, and moves the trace's clock to the end.
func (tr *tracer) finish(end float64) {
	for i := range tr.engines {
		tr.closeSlice(&tr.engines[i])
	}
	tr.flushWindow(tr.window)
	tr.zeroWindow(max(end, tr.window+tr.interval))
	tr.doneBy, tr.counted = tr.sent, len(tr.doneIn)
	tr.sampleAt(max(end, tr.window))
	for _, k := range tr.e.disp.kernels {
		if k.started {
			tr.kernels.Slice(tr.ns(k.Start), tr.ns(k.End), k.Name)
		}
	}
	tr.t.SetNow(tr.ns(end))
}
