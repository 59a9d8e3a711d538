package gfx

import (
	"fmt"
	"math"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/cp"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// A frame's time comes from the timing engine: the functional renderer
// records, per piece of work (a task: the vertex shading, the tiler, a
// tile, a bin), the shader warps it ran — replayed on the engine's cores,
// engines, pipes and caches like a kernel's — and the fixed-function
// memory traffic it made; the command processor (timing/cp) starts the
// frame's jobs as the description's queues allow, and fixed-function units
// with the description's rates stand between: a rasteriser per core
// producing each fragment warp's quads, a blender per core taking each
// warp's fragments (a slow one keeps finished warps resident), the tiler.
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
	kind   mem.Kind
	core   int // -1: fixed function through L2
	addr   uint64
	n      int
	stream Stream
	after  int // warps of the task recorded before it
}

// shadeWarp is a shader warp a task ran.
type shadeWarp struct {
	sh    *shader
	rw    *timing.ReplayWarp
	core  int // the core the renderer gave it; -1: the task's (tiles) or any (vertex)
	quads int // quads the rasteriser produced for it (fragment warps)
	frags int // fragments it sends to the blender
}

// task is one piece of a frame's work.
type task struct {
	kind  taskKind
	name  string
	cell  int // the heatmap cell (tile, bin), -1 none
	warps []shadeWarp
	ops   []memOp
	// The tiler's work: primitives in, bin entries out.
	prims, refs uint64
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
	tasks []*task
	cur   *task
}

// begin starts a task; work recorded from now on belongs to it.
func (rc *recorder) begin(kind taskKind, name string, cell int) *task {
	t := &task{kind: kind, name: name, cell: cell}
	rc.tasks = append(rc.tasks, t)
	rc.cur = t
	return t
}

func (rc *recorder) op(kind mem.Kind, core int, addr uint64, n int, s Stream) {
	t := rc.cur
	t.ops = append(t.ops, memOp{kind: kind, core: core, addr: addr, n: n, stream: s, after: len(t.warps)})
}

// warp records a shader warp's run; its blocks are added by step.
func (rc *recorder) warp(sh *shader, core int) *shadeWarp {
	t := rc.cur
	t.warps = append(t.warps, shadeWarp{sh: sh, rw: &timing.ReplayWarp{}, core: core})
	return &t.warps[len(t.warps)-1]
}

// step records one executed block of the warp, without its private
// accesses (registers: the timing engine never sends them to memory).
func (sw *shadeWarp) step(tr *emu.Trace) {
	c := emu.Trace{Block: tr.Block, Active: tr.Active}
	for _, a := range tr.Accesses {
		if a.Space == ir.SpacePrivate {
			continue
		}
		b := a
		b.Start = len(c.Addrs)
		c.Addrs = append(c.Addrs, tr.Addrs[a.Start:a.Start+a.N]...)
		c.Accesses = append(c.Accesses, b)
	}
	sw.rw.Blocks = append(sw.rw.Blocks, c)
}

// frameTiming is a frame's time on the engine.
type frameTiming struct {
	// passes are the command processor's jobs: name and cycles.
	passes []Pass
	start  float64
	end    float64
	// cells are the cycles each heatmap cell's task took.
	cells map[int]float64
	// counters of the fixed-function units.
	rasterBusy, blendBusy, tilerBusy float64
	blendHeld                        float64
	cpCounters                       []Pass // per queue: busy cycles
	engine                           *timing.Result
	cp                               *cp.Processor
}

// unit is a fixed-function server: the time it is next free.
type unit struct{ free, busy float64 }

// take books d cycles from t on (or when the unit frees), returning the
// end.
func (u *unit) take(t, d float64) float64 {
	s := max(t, u.free)
	u.free = s + d
	u.busy += d
	return u.free
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
	raster  []unit // per core
	blend   []unit // per core
	tiler   unit
	gmem    unit
	req     mem.Request
	addr    [1]uint64
	err     error
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

func newTimeline(r *Renderer) (*timeline, error) {
	g := r.g
	m := r.ms.h
	e := timing.NewEngine(g, m)
	proc, err := cp.New(e, g, m)
	if err != nil {
		return nil, &InputError{Msg: err.Error()}
	}
	tl := &timeline{r: r, g: g, e: e, cp: proc, m: m, kernels: map[*shader]*timing.Kernel{}, srcs: map[*shader]*shaderSource{},
		raster: make([]unit, g.Cores), blend: make([]unit, g.Cores)}
	for _, sh := range []*shader{r.vs, r.fs, r.fsMasked} {
		if _, ok := tl.kernels[sh]; ok || sh == nil {
			continue
		}
		low, err := families.Lower(sh.ir, g, sh.width)
		if err != nil {
			return nil, inputErrorf("%s cannot run on %s: %v", sh.name, g.ID, err)
		}
		occ, err := g.Occupancy(arch.OccupancyQuery{Regs: low.Regs, WarpSizes: []int{sh.width}})
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
	tl.req = mem.Request{Core: max(op.core, 0), Space: ir.SpaceGlobal, Kind: op.kind, Addrs: tl.addr[:], Bytes: op.n, Lanes: 1, Stream: op.stream, NoL1: op.core < 0}
	return tl.m.Access(t, &tl.req).Done
}

// opsAt issues the task's ops that come after `after` warps, at t; it
// returns when the last is done.
func (tl *timeline) opsAt(tk *task, after int, t float64) float64 {
	done := t
	for _, op := range tk.ops {
		if op.after == after {
			done = max(done, tl.issue(op, t))
		}
	}
	return done
}

// run runs a task's warps and traffic from t on; core is the core of a
// pinned task (tiles), -1 otherwise. It calls done when the task's last
// warp has retired and its last traffic is done.
func (tl *timeline) run(tk *task, core int, t float64, revisit []shadeWarp, done func(t float64)) {
	start := tl.opsAt(tk, 0, t)
	warps := append(revisit, tk.warps...)
	left := len(warps)
	end := start
	finish := func(at float64) {
		end = max(end, at)
		left--
		if left > 0 {
			return
		}
		end = max(end, tl.opsAt(tk, len(tk.warps), end))
		if tk.gmemBytes > 0 {
			end = tl.gmem.take(end, float64(tk.gmemBytes)/tl.g.Tiling.GMEMBytesPerCycle)
		}
		done(end)
	}
	if tk.kind == taskTiler {
		d := math.Max(float64(tk.prims)/tl.g.Tiling.TilerPrimitivesPerCycle, float64(tk.refs)/tl.g.Tiling.TilerEntriesPerCycle)
		tl.tiler.busy += d
		done(max(tl.opsAt(tk, 0, t+d), t+d))
		return
	}
	if left == 0 {
		left = 1
		finish(start)
		return
	}
	woken := map[*shader]bool{}
	ready := start
	for i := range warps {
		sw := &warps[i]
		c := sw.core
		if core >= 0 {
			c = core
		}
		rw := *sw.rw // a copy: revisited warps replay again
		rw.Start = 0
		ready := ready
		if sw.quads > 0 && c >= 0 {
			ready = tl.raster[c].take(start, float64(sw.quads)/tl.g.Raster.QuadsPerCycle)
		}
		if i >= len(revisit) {
			// Traffic recorded between warps goes with the next warp.
			if k := i - len(revisit); k > 0 {
				ready = max(ready, tl.opsAt(tk, k, ready))
			}
		}
		frags, bc := sw.frags, c
		if frags > 0 && bc >= 0 {
			rw.Retire = func(end float64) float64 {
				return tl.blend[bc].take(end, float64(frags)/tl.g.Raster.BlendPixelsPerCycle)
			}
		}
		rw.Done = finish
		src := tl.srcs[sw.sh]
		p := pending{w: &rw, ready: ready}
		if c >= 0 {
			src.perCore[c] = append(src.perCore[c], p)
		} else {
			src.any = append(src.any, p)
		}
		woken[sw.sh] = true
	}
	for sh := range woken {
		tl.e.Wake(tl.kernels[sh], -1, start)
	}
}

// wake is Engine.Wake for every core (used after queueing warps).
func (tl *timeline) String() string { return fmt.Sprintf("timeline on %s", tl.g.ID) }
