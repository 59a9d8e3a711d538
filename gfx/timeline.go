package gfx

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/cp"
	"github.com/pocketgpu/pocketgpu/timing/mem"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// A frame's time comes from the timing engine: the functional renderer
// records, per piece of work (a task: the vertex shading, the tiler, a
// tile, a bin), the shader warps it ran — replayed on the engine's cores,
// engines, pipes and caches like a kernel's — and the fixed-function
// memory traffic it made; the command processor (timing/cp) starts the
// frame's jobs as the description's queues allow, and fixed-function units
// with the description's rates stand between: the vertex fetch and
// primitive assembly, a rasteriser per core producing each fragment warp's
// quads into a bounded queue, a ZS unit and a blender per core taking each
// warp's samples and fragments (a slow one keeps finished warps resident),
// the tiler.
// The frame ends when its last tile or bin is written back.

// taskKind is what a task is.
type taskKind uint8

const (
	taskVertex taskKind = iota // the frame's vertex shading
	taskTiler                  // the tiler or binning hardware
	taskTile                   // a tile_lists tile, on one core
	taskBin                    // a GMEM bin, on all cores
	taskScreen                 // immediate mode: the whole screen, on all cores
)

// memOp is fixed-function memory traffic of a task, issued with the warp
// that follows it in the functional order (or at the task's end).
type memOp struct {
	addr   uint64
	after  int32 // warps of the task recorded before it
	n      int32
	core   int16 // -1: fixed function through L2
	kind   mem.Kind
	stream Stream
}

// opList holds a task's memory ops in fixed-size chunks: a screen task
// records tens of millions, and growing one slice would copy them over
// and over.
type opList struct {
	chunks [][]memOp
	n      int
}

const opChunk = 1 << 12

func (l *opList) add(op memOp) {
	if l.n%opChunk == 0 {
		l.chunks = append(l.chunks, make([]memOp, 0, opChunk))
	}
	c := &l.chunks[len(l.chunks)-1]
	*c = append(*c, op)
	l.n++
}

func (l *opList) at(i int) *memOp { return &l.chunks[i/opChunk][i%opChunk] }

// shadeWarp is a shader warp a task ran.
type shadeWarp struct {
	sh   *shader
	rw   *timing.ReplayWarp
	core int // the core the renderer gave it; -1: the task's (tiles) or any (vertex)
	// Fragment warps: the rasteriser's quads and the ZS unit's early
	// depth samples before it (those of quads early Z killed since the
	// core's previous warp included), its late depth samples and the
	// fragments it sends to the blender after it.
	quads           float64
	zsEarly, zsLate int
	frags           int
}

// task is one piece of a frame's work.
type task struct {
	kind  taskKind
	name  string
	pass  int    // the render pass it belongs to
	where string // the render pass's name
	cell  int    // the heatmap cell (tile, bin), -1 none
	// tileBytes is what one tile takes of a core's tile buffer.
	tileBytes int
	warps     []shadeWarp
	ops       opList
	// The tiler's work: primitives in, bin entries out.
	prims, refs uint64
	// assembled: triangles primitive assembly takes for this task (the
	// tiler's or, in immediate mode, the screen's), culled ones included.
	assembled uint64
	// draws the command processor walks for the task's pass.
	draws int
	// revisit: vertex warps to replay again (a bin's re-shading).
	revisit int
	// gmemBytes go between GMEM and memory at tiling.gmem_bytes_per_cycle
	// (a bin's resolve).
	gmemBytes int
}

// recorder collects a frame's tasks while the functional renderer runs.
type recorder struct {
	addrs    arena[uint64]
	accesses arena[emu.Access]
	tasks    []*task
	cur      *task
	pass     int
	where    string
	// assembled: triangles assembled since the last task that consumes
	// primitives (a tiler or a screen) began.
	assembled uint64
}

// nextPass starts recording a render pass.
func (rc *recorder) nextPass(name string) {
	if rc != nil {
		rc.pass++
		rc.where = name
	}
}

// begin starts a task; work recorded from now on belongs to it. Without
// a recorder (a frame priced by a CostModel) it does nothing and returns
// nil.
func (rc *recorder) begin(kind taskKind, name string, cell int) *task {
	if rc == nil {
		return nil
	}
	t := &task{kind: kind, name: name, cell: cell, pass: rc.pass, where: rc.where}
	if kind == taskTiler || kind == taskScreen {
		t.assembled, rc.assembled = rc.assembled, 0
	}
	rc.tasks = append(rc.tasks, t)
	rc.cur = t
	return t
}

func (rc *recorder) op(kind mem.Kind, core int, addr uint64, n int, s Stream) {
	t := rc.cur
	t.ops.add(memOp{kind: kind, core: int16(core), addr: addr, n: int32(n), stream: s, after: int32(len(t.warps))})
}

// warp records a shader warp's run; its blocks are added by step.
func (rc *recorder) warp(sh *shader, core int) *shadeWarp {
	t := rc.cur
	t.warps = append(t.warps, shadeWarp{sh: sh, rw: &timing.ReplayWarp{}, core: core})
	return &t.warps[len(t.warps)-1]
}

// step records one executed block of the warp, without its private
// accesses (registers: the timing engine never sends them to memory).
func (rc *recorder) step(sw *shadeWarp, tr *emu.Trace) {
	c := emu.Trace{Block: tr.Block, Active: tr.Active}
	n, na := 0, 0
	for _, a := range tr.Accesses {
		if a.Space != ir.SpacePrivate {
			n += a.N
			na++
		}
	}
	if na > 0 {
		c.Addrs = rc.addrs.take(n)[:0]
		c.Accesses = rc.accesses.take(na)[:0]
		for _, a := range tr.Accesses {
			if a.Space == ir.SpacePrivate {
				continue
			}
			b := a
			b.Start = len(c.Addrs)
			c.Addrs = append(c.Addrs, tr.Addrs[a.Start:a.Start+a.N]...)
			c.Accesses = append(c.Accesses, b)
		}
	}
	sw.rw.Blocks = append(sw.rw.Blocks, c)
}

// arena hands out slices carved from large chunks: a frame records
// millions of blocks, and one allocation each would dominate.
type arena[T any] struct{ chunk []T }

const arenaChunk = 1 << 15

// take returns a slice of n elements, capacity n.
func (a *arena[T]) take(n int) []T {
	if cap(a.chunk)-len(a.chunk) < n {
		a.chunk = make([]T, 0, max(n, arenaChunk))
	}
	l := len(a.chunk)
	a.chunk = a.chunk[:l+n]
	return a.chunk[l : l+n : l+n]
}

// frameTiming is a frame's time on the engine.
type frameTiming struct {
	jobs []*cp.Job
	// passes are the command processor's jobs: name and cycles.
	passes []Pass
	start  float64
	end    float64
	// interval is from the previous frame's end to this one's when the
	// two run back to back (timeline.interval), else end.
	interval float64
	// cells are the cycles each heatmap cell's task took.
	cells map[int]float64
	// counters of the fixed-function units.
	rasterBusy, blendBusy, tilerBusy float64
	zsBusy, rasterStall              float64
	vfetchBusy, vfetchWait           float64
	primsBusy                        float64
	gmemBusy                         float64
	blendHeld                        float64
	cpCounters                       []Pass // per queue: busy cycles
	engine                           *timing.Result
	cp                               *cp.Processor
}

// unit is a fixed-function server: the time it is next free.
type unit struct {
	free, busy float64
	tr         *unitTrace // when tracing
}

// unitTrace is a unit's busy time as slices on its own track: bookings
// less than a sampling window apart merge into one slice, whose
// busy_cycles argument is the busy time inside it (a slice per warp made
// a frame's trace fifteen times larger).
type unitTrace struct {
	e          *timing.Engine
	path       []string
	gap        float64 // the trace's interval, cycles
	start, end float64
	busy       float64
	open       bool
}

// take books d cycles from t on (or when the unit frees), returning the
// end.
func (u *unit) take(t, d float64) float64 {
	s := max(t, u.free)
	u.free = s + d
	u.busy += d
	if tr := u.tr; tr != nil && d > 0 {
		if tr.open && s-tr.end > tr.gap {
			tr.flush()
		}
		if !tr.open {
			tr.start, tr.open = s, true
		}
		tr.end = u.free
		tr.busy += d
	}
	return u.free
}

// flush writes the open slice.
func (tr *unitTrace) flush() {
	if tr.open {
		tr.e.TraceSlice(tr.path, tr.start, tr.end, "busy", trace.Float("busy_cycles", tr.busy))
	}
	tr.open, tr.busy = false, 0
}

// eachUnit calls f with each fixed-function unit and its track's name.
func (tl *timeline) eachUnit(f func(u *unit, name string)) {
	f(&tl.vfetch, "vertex fetch")
	f(&tl.prims, "primitive assembly")
	f(&tl.tiler, "tiler")
	f(&tl.gmem, "GMEM resolve")
	for c := range tl.raster {
		f(&tl.raster[c], fmt.Sprintf("rasteriser, core %d", c))
		f(&tl.zs[c], fmt.Sprintf("ZS, core %d", c))
		f(&tl.blend[c], fmt.Sprintf("blender, core %d", c))
	}
}

// traceUnits gives each fixed-function unit a track under "Fixed
// function".
func (tl *timeline) traceUnits() {
	tl.eachUnit(func(u *unit, name string) {
		u.tr = &unitTrace{e: tl.e, path: []string{"Fixed function", name}, gap: tl.r.opt.Trace.Interval}
	})
}

// flushUnits writes the units' open slices.
func (tl *timeline) flushUnits() {
	tl.eachUnit(func(u *unit, _ string) {
		if u.tr != nil {
			u.tr.flush()
		}
	})
}

// timeline runs recorded frames on the engine.
type timeline struct {
	r       *Renderer
	g       *arch.GPU
	e       *timing.Engine
	cp      *cp.Processor
	m       *mem.Hierarchy
	kernels map[*shader]*timing.Kernel
	srcs    map[*shader]*shaderSource
	raster  []unit        // per core
	zs      []unit        // per core
	blend   []unit        // per core
	rq      []rasterQueue // per core
	// rasterStall: cycles the rasterisers had quads to produce but their
	// output queue was full of warps waiting for a slot.
	rasterStall float64
	tiler       unit
	gmem        unit
	vfetch      unit // vertex fetch
	prims       unit // primitive assembly
	// vfetchWait: cycles vertex warps waited for the vertex fetch to
	// start on their attributes (it was busy with others').
	vfetchWait float64
	req        mem.Request
	addr       [1]uint64
	err        error
	passes     map[int]*passSpan // when tracing: each render pass's extent
}

// shaderSource hands a shader's warps to the cores: per core a queue of
// warps pinned to it, and a queue of warps any core may take.
type shaderSource struct {
	perCore [][]pending
	any     []pending
}

// pending is a warp waiting to launch from ready on.
type pending struct {
	w     *timing.ReplayWarp
	ready float64
}

func (s *shaderSource) Next(c int, t float64) (*timing.ReplayWarp, float64) {
	q := &s.perCore[c]
	if len(*q) == 0 {
		q = &s.any
	}
	if len(*q) == 0 {
		return nil, math.Inf(1)
	}
	p := (*q)[0]
	if p.ready > t {
		return nil, p.ready
	}
	*q = (*q)[1:]
	p.w.Start = max(p.w.Start, p.ready)
	return p.w, 0
}

// shadersOf lists the shaders the frames' recorded warps ran, in order.
func shadersOf(fws ...*frameWork) []*shader {
	var out []*shader
	for _, fw := range fws {
		for _, js := range fw.jobs {
			for _, tk := range append([]*task{js.vertex}, js.tasks...) {
				if tk == nil {
					continue
				}
				for i := range tk.warps {
					if sh := tk.warps[i].sh; !slices.Contains(out, sh) {
						out = append(out, sh)
					}
				}
			}
		}
	}
	return out
}

func newTimeline(r *Renderer, shaders []*shader) (*timeline, error) {
	g := r.g
	m := r.ms.h
	e := timing.NewEngine(g, m)
	proc, err := cp.New(e, g, m)
	if err != nil {
		return nil, &InputError{Msg: err.Error()}
	}
	tl := &timeline{r: r, g: g, e: e, cp: proc, m: m, kernels: map[*shader]*timing.Kernel{}, srcs: map[*shader]*shaderSource{},
		raster: make([]unit, g.Cores), zs: make([]unit, g.Cores), blend: make([]unit, g.Cores), rq: make([]rasterQueue, g.Cores)}
	for _, sh := range shaders {
		low, err := families.Lower(sh.ir, g, sh.width)
		if err != nil {
			return nil, inputErrorf("%s cannot run on %s: %v", sh.name, g.ID, err)
		}
		og := *g
		og.WarpSizes = []int{low.WarpWidth} // residency at the width the shader runs
		occ, err := og.Occupancy(arch.OccupancyQuery{Regs: low.Regs})
		if err != nil {
			return nil, inputErrorf("%s: %v", sh.name, err)
		}
		src := &shaderSource{perCore: make([][]pending, g.Cores)}
		k, err := e.AddShader(sh.name, low, occ, src)
		if err != nil {
			return nil, err
		}
		tl.kernels[sh], tl.srcs[sh] = k, src
	}
	return tl, nil
}

// issue sends a task's fixed-function memory op at t and returns when it
// is done.
func (tl *timeline) issue(op memOp, t float64) float64 {
	if op.n <= 0 {
		return t
	}
	tl.addr[0] = op.addr
	c := int(op.core)
	if c < 0 {
		c = mem.FixedFunction
	}
	tl.req = mem.Request{Core: c, Space: ir.SpaceGlobal, Kind: op.kind, Addrs: tl.addr[:], Bytes: int(op.n), Lanes: 1, Stream: op.stream, NoL1: op.core < 0}
	return tl.m.Access(t, &tl.req).Done
}

// assemble runs a task's triangles through primitive assembly from t on
// and returns when it has taken the last.
func (tl *timeline) assemble(tk *task, t float64) float64 {
	if tk.assembled == 0 {
		return t
	}
	return tl.prims.take(t, float64(tk.assembled)/tl.g.Geometry.PrimitivesPerCycle)
}

// fetchVertices is vertex warp k's attribute fetch asked for at t: the
// vertex fetch streams its bytes (the task's ops before the warp) at its
// rate, their reads going to memory as it starts; the warp waits for the
// later of the two.
func (tl *timeline) fetchVertices(tk *task, k int, t float64) float64 {
	bytes := 0
	tl.eachOpAt(tk, k, func(op *memOp) { bytes += int(op.n) })
	if bytes == 0 {
		return tl.opsAt(tk, k, t)
	}
	d := float64(bytes) / tl.g.Geometry.VertexFetchBytesPerCycle
	end := tl.vfetch.take(t, d)
	start := end - d
	tl.vfetchWait += start - t
	return max(end, tl.opsAt(tk, k, start))
}

// eachOpAt calls f on each of the task's ops that come after `after`
// warps.
func (tl *timeline) eachOpAt(tk *task, after int, f func(*memOp)) {
	// The recorder appends ops in warp order, so those after `after`
	// warps are one run, found by binary search (a frame's screen task
	// holds millions).
	ops := &tk.ops
	for i := sort.Search(ops.n, func(i int) bool { return int(ops.at(i).after) >= after }); i < ops.n && int(ops.at(i).after) == after; i++ {
		f(ops.at(i))
	}
}

// opsAt issues the task's ops that come after `after` warps, at t; it
// returns when the last is done.
func (tl *timeline) opsAt(tk *task, after int, t float64) float64 {
	done := t
	tl.eachOpAt(tk, after, func(op *memOp) { done = max(done, tl.issue(*op, t)) })
	return done
}

// run runs a task's warps and traffic from t on; core is the core of a
// pinned task (tiles), -1 otherwise; revisit are warps to replay first. It
// calls warpsDone (if set) when the task's last warp has retired, and done
// when its last traffic is done too. Follow-up work is scheduled as
// engine events at those times, so the memory model sees it in time
// order.
func (tl *timeline) run(tk *task, core int, t float64, revisit []shadeWarp, warpsDone, done func(t float64)) {
	if tl.e.Tracing() {
		done = tl.traceTask(tk, core, t, done)
	}
	if tk.kind == taskTiler {
		// The tiler takes its primitives and writes its lists at its
		// rates; the lists' bytes go through L2 as it writes them.
		d := math.Max(float64(tk.prims)/tl.g.Tiling.TilerPrimitivesPerCycle, float64(tk.refs)/tl.g.Tiling.TilerEntriesPerCycle)
		end := tl.tiler.take(t, d)
		end = max(end, tl.opsAt(tk, 0, t), tl.assemble(tk, t))
		tl.e.At(end, done)
		return
	}
	start := t
	if tk.kind != taskVertex {
		start = tl.opsAt(tk, 0, t)
	}
	warps := append(revisit, tk.warps...)
	left := len(warps)
	end := start
	if tk.kind == taskScreen {
		// Immediate mode: primitive assembly feeds the rasterisers as
		// they go; the screen is not done before it is.
		end = max(end, tl.assemble(tk, t))
	}
	finish := func(at float64) {
		end = max(end, at)
		left--
		if left > 0 {
			return
		}
		tl.e.At(end, func(end float64) {
			if warpsDone != nil {
				warpsDone(end)
			}
			end = max(end, tl.opsAt(tk, len(tk.warps), end))
			if tk.gmemBytes > 0 {
				end = tl.gmem.take(end, float64(tk.gmemBytes)/tl.g.Tiling.GMEMBytesPerCycle)
			}
			tl.e.At(end, done)
		})
	}
	if left == 0 {
		left = 1
		finish(start)
		return
	}
	var woken []*shader
	for i := range warps {
		sw := &warps[i]
		c := sw.core
		if core >= 0 {
			c = core
		}
		rw := *sw.rw // a copy: revisited warps replay again
		rw.Start = 0
		k := i - len(revisit)
		if tk.kind == taskVertex && k >= 0 {
			// A vertex warp's attribute fetch happens when it gets a
			// core, and the warp waits for it.
			rw.Launch = func(t float64) float64 { return tl.fetchVertices(tk, k, t) }
		}
		frags, late, bc := sw.frags, sw.zsLate, c
		if (frags > 0 || late > 0) && bc >= 0 {
			// The late depth test, then the blender; the warp holds its
			// slot until they have taken its fragments.
			rw.Retire = func(end float64) float64 {
				if late > 0 {
					end = tl.zs[bc].take(end, float64(late)/tl.g.Raster.ZSSamplesPerCycle)
				}
				if frags > 0 {
					end = tl.blend[bc].take(end, float64(frags)/tl.g.Raster.BlendPixelsPerCycle)
				}
				return end
			}
		}
		rw.Done = finish
		if sw.quads > 0 && c >= 0 {
			// A fragment warp goes through its core's rasteriser first.
			tl.rq[c].items = append(tl.rq[c].items, rasterItem{sw: sw, rw: &rw, tk: tk, k: k, from: start})
			continue
		}
		src := tl.srcs[sw.sh]
		p := pending{w: &rw, ready: start}
		if c >= 0 {
			src.perCore[c] = append(src.perCore[c], p)
		} else {
			src.any = append(src.any, p)
		}
		if !slices.Contains(woken, sw.sh) {
			woken = append(woken, sw.sh)
		}
	}
	for _, sh := range woken {
		tl.e.Wake(tl.kernels[sh], -1, start)
	}
	for c := range tl.rq {
		tl.feed(c, start)
	}
}

// rasterQueue is a core's rasteriser: the fragment warps waiting for it,
// in order, and how many it has produced that wait for a warp slot.
type rasterQueue struct {
	items   []rasterItem
	waiting int
}

type rasterItem struct {
	sw   *shadeWarp
	rw   *timing.ReplayWarp
	tk   *task
	k    int     // the warp's index in its task
	from float64 // when its task started
}

// feed lets core c's rasteriser produce warps from t on while its output
// queue (raster.queue_warps) has room: each warp's quads, then its early
// depth samples through the ZS unit, then the warp waits for a slot. A
// full queue stalls the rasteriser until a warp launches.
func (tl *timeline) feed(c int, t float64) {
	q := &tl.rq[c]
	for q.waiting < tl.g.Raster.QueueWarps && len(q.items) > 0 {
		it := q.items[0]
		q.items = q.items[1:]
		if avail := max(it.from, tl.raster[c].free); t > avail {
			tl.rasterStall += t - avail
		}
		sw := it.sw
		ready := tl.raster[c].take(max(t, it.from), sw.quads/tl.g.Raster.QuadsPerCycle)
		if sw.zsEarly > 0 {
			ready = tl.zs[c].take(ready, float64(sw.zsEarly)/tl.g.Raster.ZSSamplesPerCycle)
		}
		if tk, k := it.tk, it.k; k > 0 {
			// Traffic recorded before the warp (the vertices its
			// primitives read) goes when its quads are rasterised.
			tl.e.At(ready, func(t float64) { tl.opsAt(tk, k, t) })
		}
		q.waiting++
		it.rw.Launch = func(t float64) float64 {
			q.waiting--
			tl.feed(c, t)
			return t
		}
		src := tl.srcs[sw.sh]
		src.perCore[c] = append(src.perCore[c], pending{w: it.rw, ready: ready})
		tl.e.Wake(tl.kernels[sw.sh], c, ready)
	}
	if len(q.items) == 0 {
		q.items = nil
	}
}

// frameWork is a recorded frame's work as command-processor jobs: the
// tasks in the order the renderer made them, grouped into jobs — a
// vertex task and its tiler or binning task form a geometry job, a run of
// tiles one fragment job (several when a full parameter buffer forced
// partial renders), each bin a fragment job of its own, the screen
// (immediate mode) one.
type frameWork struct {
	fr   *frameRun
	jobs []jobSpec
}

type jobSpec struct {
	name   string
	role   cp.Role
	tasks  []*task
	vertex *task // the pass's vertex task (a bin re-shades with it)
	draws  int
}

func sortTasks(fr *frameRun, tasks []*task) *frameWork {
	fw := &frameWork{fr: fr}
	passes := map[int]bool{}
	for _, tk := range tasks {
		passes[tk.pass] = true
	}
	var vertex *task
	prefix := func(tk *task) string {
		if len(passes) > 1 && tk.where != "" {
			return tk.where + ": "
		}
		return ""
	}
	for i := 0; i < len(tasks); i++ {
		tk := tasks[i]
		switch tk.kind {
		case taskVertex:
			vertex = tk
			js := jobSpec{name: "vertex", role: cp.Geometry, tasks: []*task{tk}, vertex: tk, draws: tk.draws}
			if i+1 < len(tasks) && tasks[i+1].kind == taskTiler {
				i++
				js.tasks = append(js.tasks, tasks[i])
				js.name = "vertex and tiling"
				if tasks[i].name == "binning" {
					js.name = "binning"
				}
			}
			// gmem_bins without a binning pass: the vertex work happens in
			// the bins.
			if len(js.tasks) == 1 && i+1 < len(tasks) && tasks[i+1].kind == taskBin {
				continue
			}
			js.name = prefix(tk) + js.name
			fw.jobs = append(fw.jobs, js)
		case taskTiler:
			// Binning resumed after a partial render.
			fw.jobs = append(fw.jobs, jobSpec{name: prefix(tk) + "tiling", role: cp.Geometry, tasks: []*task{tk}, vertex: vertex})
		case taskTile:
			js := jobSpec{name: prefix(tk) + "fragment", role: cp.Fragment, vertex: vertex}
			for ; i < len(tasks) && tasks[i].kind == taskTile && tasks[i].pass == tk.pass; i++ {
				js.tasks = append(js.tasks, tasks[i])
			}
			i--
			fw.jobs = append(fw.jobs, js)
		case taskBin:
			fw.jobs = append(fw.jobs, jobSpec{name: prefix(tk) + tk.name, role: cp.Fragment, tasks: []*task{tk}, vertex: vertex, draws: tk.draws})
		case taskScreen:
			fw.jobs = append(fw.jobs, jobSpec{name: prefix(tk) + "fragment", role: cp.Fragment, tasks: []*task{tk}, vertex: vertex})
		}
	}
	// A pass's earlier fragment jobs are partial renders.
	for i := range fw.jobs {
		j := &fw.jobs[i]
		if j.role != cp.Fragment || len(j.tasks) == 0 || j.tasks[0].kind != taskTile {
			continue
		}
		for k := i + 1; k < len(fw.jobs); k++ {
			if o := fw.jobs[k]; o.role == cp.Fragment && len(o.tasks) > 0 && o.tasks[0].kind == taskTile && o.tasks[0].pass == j.tasks[0].pass {
				j.name += " (partial render)"
				break
			}
		}
	}
	return fw
}

// submit hands a frame's jobs to the command processor at host time t,
// each after the one before it in the frame (a job's work needs what the
// earlier ones made), filling ft as they run.
func (tl *timeline) submit(fw *frameWork, t float64, ft *frameTiming) {
	var prev *cp.Job
	for _, js := range fw.jobs {
		js := js
		j := &cp.Job{Name: js.name, Role: js.role, Draws: js.draws}
		if prev != nil {
			j.Deps = []*cp.Job{prev}
		}
		switch {
		case js.role == cp.Geometry:
			j.Run = func(t float64, done func(float64)) { tl.runSeq(js.tasks, t, done) }
		case js.tasks[0].kind == taskTile:
			j.Run = func(t float64, done func(float64)) { tl.runTiles(js.tasks, t, ft, done) }
		default:
			tk := js.tasks[0]
			revisit := tl.revisit(js.vertex, tk.revisit)
			j.Run = func(t float64, done func(float64)) {
				tl.run(tk, -1, t, revisit, nil, func(end float64) {
					if tk.cell >= 0 {
						ft.cells[tk.cell] = end - t
					}
					done(end)
				})
			}
		}
		tl.cp.Submit(j, t)
		ft.jobs = append(ft.jobs, j)
		prev = j
	}
}

// runSeq runs tasks one after another (a vertex task, then its tiler).
func (tl *timeline) runSeq(tasks []*task, t float64, done func(float64)) {
	if len(tasks) == 0 {
		done(t)
		return
	}
	tl.run(tasks[0], -1, t, nil, nil, func(t float64) { tl.runSeq(tasks[1:], t, done) })
}

// runTiles runs a fragment job's tiles: they go to the cores as the cores'
// tile buffers have room (tiling.tile_buffer_kib over a tile's bytes), a
// core taking its next tile when one's warps are done (the write-back
// overlaps).
func (tl *timeline) runTiles(tiles []*task, t float64, ft *frameTiming, done func(float64)) {
	inFlight := 1
	if kib := tl.g.Tiling.TileBufferKiB; kib > 0 && tiles[0].tileBytes > 0 {
		inFlight = max(kib*bytesPerKiB/tiles[0].tileBytes, 1)
	}
	next, left := 0, len(tiles)
	var start func(core int, t float64)
	start = func(core int, t float64) {
		if next >= len(tiles) {
			return
		}
		tk := tiles[next]
		next++
		tl.run(tk, core, t, nil, func(at float64) { start(core, at) }, func(end float64) {
			ft.cells[tk.cell] = end - t
			if left--; left == 0 {
				done(end)
			}
		})
	}
	for k := 0; k < inFlight; k++ {
		for c := 0; c < tl.g.Cores; c++ {
			start(c, t)
		}
	}
}

// revisit is n of the frame's vertex warps to replay again, in order and
// round again if need be: a bin's re-shading of the vertices its
// primitives use, priced as warps of the vertex shader.
func (tl *timeline) revisit(vertex *task, n int) []shadeWarp {
	if vertex == nil || len(vertex.warps) == 0 || n <= 0 {
		return nil
	}
	out := make([]shadeWarp, n)
	for i := range out {
		out[i] = vertex.warps[i%len(vertex.warps)]
		out[i].core = -1
	}
	return out
}

// timeFrame runs a recorded frame alone on a fresh engine over the
// renderer's memory hierarchy (caches cold, counters zero) and returns
// its timing.
func (r *Renderer) timeFrame(fr *frameRun, tasks []*task) (*frameTiming, error) {
	r.ms.h.Reset()
	fw := sortTasks(fr, tasks)
	tl, err := newTimeline(r, shadersOf(fw))
	if err != nil {
		return nil, err
	}
	ft := &frameTiming{cells: map[int]float64{}}
	tl.submit(fw, 0, ft)
	if fr.index == 0 {
		for _, cj := range r.opt.Compute {
			k, err := cj.Work.AddTo(tl.e)
			if err != nil {
				return nil, err
			}
			k.Gate()
			role := cp.Compute
			if cj.LowPriority {
				role = cp.LowPriorityCompute
			}
			j := &cp.Job{Name: "compute: " + cj.Name, Role: role, Draws: 1, Run: func(t float64, done func(float64)) {
				k.OnDone = done
				tl.e.Release(k, t)
			}}
			tl.cp.Submit(j, 0)
			ft.jobs = append(ft.jobs, j)
		}
	}
	if r.opt.Trace != nil {
		tl.e.EnableTrace(r.opt.Trace)
		tl.passes = map[int]*passSpan{}
		tl.traceUnits()
	}
	if r.opt.Context != nil {
		ctx := r.opt.Context
		tl.e.SetCheckpoint(func(float64) error {
			select {
			case <-ctx.Done():
				return fmt.Errorf("frame %d %w: %w", fr.index, emu.ErrStopped, context.Cause(ctx))
			default:
				return nil
			}
		})
	}
	res, err := tl.e.Run()
	if err != nil {
		return nil, err
	}
	ft.engine, ft.cp = res, tl.cp
	for _, j := range ft.jobs {
		if !j.Ended() {
			return nil, fmt.Errorf("internal: %s's %s job did not end", r.g.ID, j.Name)
		}
		ft.passes = append(ft.passes, Pass{Name: j.Name, Cycles: j.End - j.Start})
		ft.end = max(ft.end, j.End)
	}
	ft.end = max(ft.end, res.Cycles)
	if tl.passes != nil {
		tl.tracePasses(fr.index, ft.end)
	}
	for c := range tl.raster {
		ft.rasterBusy += tl.raster[c].busy
		ft.blendBusy += tl.blend[c].busy
		ft.zsBusy += tl.zs[c].busy
	}
	ft.tilerBusy = tl.tiler.busy
	ft.vfetchBusy, ft.vfetchWait, ft.primsBusy = tl.vfetch.busy, tl.vfetchWait, tl.prims.busy
	ft.rasterStall = tl.rasterStall
	ft.gmemBusy = tl.gmem.busy
	for _, k := range tl.kernels {
		ft.blendHeld += k.HeldCycles()
	}
	return ft, nil
}

// overlaps reports whether the command processor can run a frame's
// geometry beside the previous frame's fragment work (separate queues).
func overlaps(g *arch.GPU) bool {
	cpp := &g.CommandProcessor
	return cpp.GeometryQueue != cpp.FragmentQueue
}

// interval times the previous recorded frame and this one together, as
// the host submits them back to back: on a command processor with
// separate geometry and fragment queues, this frame's geometry runs beside
// the previous frame's fragment work (Mali's job slots, Adreno 7xx's BV
// and BR). The interval is from the previous frame's end to this one's:
// the frame rate a steady stream of such frames reaches. It runs on a
// fresh memory hierarchy and leaves the renderer's alone.
func (r *Renderer) interval(prev, cur *frameWork) (float64, error) {
	saved := r.ms.h
	r.ms.h = mem.New(r.g)
	defer func() { r.ms.h = saved }()
	tl, err := newTimeline(r, shadersOf(prev, cur))
	if err != nil {
		return 0, err
	}
	a, b := &frameTiming{cells: map[int]float64{}}, &frameTiming{cells: map[int]float64{}}
	tl.submit(prev, 0, a)
	tl.submit(cur, 0, b)
	if _, err := tl.e.Run(); err != nil {
		return 0, err
	}
	end := func(ft *frameTiming) float64 {
		e := 0.0
		for _, j := range ft.jobs {
			e = max(e, j.End)
		}
		return e
	}
	return end(b) - end(a), nil
}

// passSpan is when a render pass's tasks ran.
type passSpan struct {
	name       string
	start, end float64
}

// traceTask records task tk, started at t, as a slice on the trace's
// Render tracks when it is done (tiles on a track per core, the other
// kinds on one each), and its pass's extent.
func (tl *timeline) traceTask(tk *task, core int, t float64, done func(float64)) func(float64) {
	track := [...]string{taskVertex: "vertex", taskTiler: "tiler", taskTile: "tiles", taskBin: "bins", taskScreen: "screen"}[tk.kind]
	if tk.kind == taskTiler {
		track = tk.name // the tiler, or Adreno's binning pass
	}
	if core >= 0 {
		track = fmt.Sprintf("%s, core %d", track, core)
	}
	return func(end float64) {
		tl.e.TraceSlice([]string{"Render", track}, t, end, tk.name)
		ps := tl.passes[tk.pass]
		if ps == nil {
			name := tk.where
			if name == "" {
				name = fmt.Sprintf("pass %d", tk.pass)
			}
			ps = &passSpan{name: name, start: t, end: end}
			tl.passes[tk.pass] = ps
		}
		ps.start, ps.end = min(ps.start, t), max(ps.end, end)
		done(end)
	}
}

// tracePasses records frame i (ending at end) and its render passes.
func (tl *timeline) tracePasses(i int, end float64) {
	tl.flushUnits()
	tl.e.TraceSlice([]string{"Frames"}, 0, end, fmt.Sprintf("frame %d", i))
	keys := make([]int, 0, len(tl.passes))
	for k := range tl.passes {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		ps := tl.passes[k]
		tl.e.TraceSlice([]string{"Render", "passes"}, ps.start, ps.end, ps.name)
	}
}
