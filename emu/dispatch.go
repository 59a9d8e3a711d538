package emu

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// ParamValue is what a dispatch binds to one parameter.
type ParamValue struct {
	// Slots are the values of the parameter's slots: a buffer's address,
	// a scalar's bits (one per component), an image handle, a sampler.
	Slots []uint64
	// LocalBytes sizes a __local pointer argument.
	LocalBytes int
	// ByVal holds a struct passed by value.
	ByVal []byte
}

// Stats counts what a dispatch executed.
type Stats struct {
	WorkGroups  uint64
	Warps       uint64
	WarpInsts   uint64
	ThreadInsts uint64
	Blocks      uint64
	// LocalOutOfBounds counts lane accesses to local memory outside the
	// work-group's, which a GPU runs on (Dispatch.Strict unset): a write
	// is dropped, a read gives zeros. LocalOutOfBoundsSite is the lowest
	// program site of one plus one (0: none), so that a warning names a
	// source line whatever order the work-groups ran in.
	LocalOutOfBounds     uint64
	LocalOutOfBoundsSite int32
}

// addOutOfBounds counts n local accesses out of bounds, the lowest at
// site (one plus its index).
func (s *Stats) addOutOfBounds(n uint64, site int32) {
	s.LocalOutOfBounds += n
	if site > 0 && (s.LocalOutOfBoundsSite == 0 || site < s.LocalOutOfBoundsSite) {
		s.LocalOutOfBoundsSite = site
	}
}

// Dispatch is one kernel launch: the program, the NDRange, the bound
// arguments and the memory they live in.
type Dispatch struct {
	Prog   *Program
	Mem    *Memory
	Width  int // lanes per warp
	Dims   int // work dimensions given by the user (1 to 3)
	Global [3]int
	Local  [3]int
	Offset [3]int
	Params []ParamValue
	Images []*Image
	// ConstBase is the address of the program's constant data buffer.
	ConstBase uint64
	// Printf receives printf output.
	Printf io.Writer
	// MaxWarpInsts bounds the run. 0 sets none but stops a run that
	// stalls (no work-group finishing for about 30 s of simulation, see
	// stallWork); Unlimited sets neither.
	MaxWarpInsts uint64
	// Ctx, when set, stops the run when done (Run and the timing engine
	// return ErrStopped with the counters so far in Stats).
	Ctx context.Context
	// Progress, when set, is called at most every 100 ms while the run
	// goes on, and once at the end.
	Progress func(Progress)
	// Window is how many work-groups run interleaved in a functional run
	// (so that work-groups waiting on each other through atomics progress).
	Window int
	// Strict faults the kernel on a local-memory access out of bounds, as
	// on a private one or a global one outside every buffer; unset, the
	// access runs on and is counted (Stats.LocalOutOfBounds).
	Strict bool
	// Threads is how many host threads a functional run uses where its
	// work-groups run in parallel (parallel.go; 0: runtime.GOMAXPROCS);
	// with two or more a timed run records them ahead of its engine
	// (Recorder, record.go). A run that finishes, or faults, gives the
	// same results, Stats and error whatever the count; one stopped by its
	// context or budget stops where the threads happen to be.
	Threads int
	// Builtin, when set, supplies builtins the dispatcher does not know
	// (graphics stages: FragCoord, VertexIndex ...).
	Builtin func(b spirv.BuiltIn, w *Warp, lane, comp int) (uint64, bool)
	// InitLane, when set, fills a lane's private frame before the warp
	// starts (graphics stage inputs live there).
	InitLane func(w *Warp, lane int, frame []byte)
	// WarpDone, when set, sees every warp when it finishes, before its
	// registers and frames are reused (graphics stage outputs).
	WarpDone func(w *Warp)
	// Pack is how many work-groups share one warp (0 or 1: none do). A
	// packed warp gives each of its work-groups Width/Pack lanes: work-group
	// j of the warp holds lanes j×Width/Pack on, with its own ids and its own
	// local memory, as a Rogue task holds eight work-groups of 4 (seed 003
	// §Unified Shading Cluster). The caller decides from the GPU's rules
	// (arch.GPU.WorkgroupsPerWarp); the work-group must fit its lanes.
	Pack int

	Stats Stats

	groups     [3]int
	wgSize     int
	localBytes int
	pack       int // work-groups per warp (1: no packing)
	localSpan  int // bytes between packed work-groups' local memories
	uniforms   []ir.Const
	fullMask   Mask
	allList    []int32
	code       []xinst // Prog.Code decoded for Width
	edges      [][]xedge
	self       host // the caller's (own)
	workers    []*worker
	tasksDone  int // work-groups RunTasks finished, for its checkpoints
	// recording gives the trace a task's warps record into
	// (RunTasksWarming), or is nil.
	recording func(task int) *Trace

	lastStepped  *Warp
	lastProgress time.Time
	// With no lastStepped, replayed is the block Replay left a warp in,
	// running says whether the warp was still running then.
	replayed int32
	running  bool
	// budget is MaxWarpInsts, or Unlimited with the stall check on. The
	// stall check keeps the groups finished at the last check, and the
	// work and warp instructions done when that count last moved.
	budget                   uint64
	stallCheck               bool
	stallGroups              int
	stallMark, stallWarpMark uint64
}

// Init checks the launch and lays out arguments and local memory.
func (d *Dispatch) Init() error {
	p := d.Prog
	if d.Width < 1 || d.Width > MaxWidth {
		return fmt.Errorf("warp width %d is out of range (1 to %d)", d.Width, MaxWidth)
	}
	if d.Dims == 0 {
		d.Dims = 3
	}
	d.wgSize = 1
	for k := 0; k < 3; k++ {
		if d.Local[k] <= 0 {
			d.Local[k] = 1
		}
		if d.Global[k] <= 0 {
			d.Global[k] = 1
		}
		if d.Global[k]%d.Local[k] != 0 {
			return fmt.Errorf("global size %d in dimension %d is not a multiple of the local size %d", d.Global[k], k, d.Local[k])
		}
		d.groups[k] = d.Global[k] / d.Local[k]
		d.wgSize *= d.Local[k]
	}
	if len(d.Params) != len(p.Params) {
		return fmt.Errorf("kernel %s takes %d arguments, %d given", p.Entry, len(p.Params), len(d.Params))
	}
	d.uniforms = d.uniforms[:0]
	off := p.LocalBytes
	for i, par := range p.Params {
		v := d.Params[i]
		switch {
		case par.Kind == ir.ParamLocal:
			off = (off + 15) &^ 15
			d.uniforms = append(d.uniforms, ir.Const{Slot: par.Slot, Value: uint64(off)})
			off += v.LocalBytes
		case par.ByValOffset >= 0:
			if len(v.ByVal) != par.Type.Size {
				return fmt.Errorf("argument %d (%s) is a %d-byte struct, %d bytes given", i, par.Name, par.Type.Size, len(v.ByVal))
			}
			d.uniforms = append(d.uniforms, ir.Const{Slot: par.Slot, Value: uint64(par.ByValOffset)})
		default:
			for k, x := range v.Slots {
				d.uniforms = append(d.uniforms, ir.Const{Slot: par.Slot + int32(k), Value: x})
			}
		}
	}
	d.localBytes = off
	if p.ConstDataSlot >= 0 {
		d.uniforms = append(d.uniforms, ir.Const{Slot: p.ConstDataSlot, Value: d.ConstBase})
	}
	for _, b := range p.Builtins {
		if !knownBuiltin(b.Builtin) && d.Builtin == nil {
			return fmt.Errorf("builtin %s is not available to a %s", b.Builtin, p.Model)
		}
	}
	for i, img := range d.Images {
		if img == nil {
			continue
		}
		if err := img.Check(); err != nil {
			return fmt.Errorf("image %d: %w", i, err)
		}
	}
	d.pack, d.localSpan = 1, d.localBytes
	if d.Pack > 1 {
		if d.Width%d.Pack != 0 || d.wgSize > d.Width/d.Pack {
			return fmt.Errorf("cannot pack %d work-groups of %d work-items into a warp of %d lanes", d.Pack, d.wgSize, d.Width)
		}
		d.pack = d.Pack
		d.localSpan = (d.localBytes + 15) &^ 15
	}
	dc := p.decodedFor(d.Width)
	d.code, d.edges = dc.code, dc.edges
	d.fullMask = firstLanes(d.Width)
	d.allList = make([]int32, d.Width)
	for i := range d.allList {
		d.allList[i] = int32(i)
	}
	// No budget: the run is stopped only if it stalls (Checkpoint).
	d.budget, d.stallCheck = d.MaxWarpInsts, d.MaxWarpInsts == 0
	if d.stallCheck {
		d.budget = Unlimited
	}
	return nil
}

// Groups is the number of work-groups in each dimension.
func (d *Dispatch) Groups() [3]int { return d.groups }

// NumGroups is the total number of work-groups.
func (d *Dispatch) NumGroups() int { return d.groups[0] * d.groups[1] * d.groups[2] }

// WorkGroupSize is the number of work-items per work-group.
func (d *Dispatch) WorkGroupSize() int { return d.wgSize }

// WarpsPerGroup is the number of warps a work-group needs.
func (d *Dispatch) WarpsPerGroup() int { return (d.wgSize + d.Width - 1) / d.Width }

// Tasks is the number of units the dispatch is placed in: its
// work-groups, or with packing (Pack) its packed warps, each holding Pack
// consecutive work-groups (the last maybe fewer).
func (d *Dispatch) Tasks() int { return (d.NumGroups() + d.pack - 1) / d.pack }

// GroupsIn is how many work-groups tasks [lo, hi) hold.
func (d *Dispatch) GroupsIn(lo, hi int) int {
	n := d.NumGroups()
	return min(hi*d.pack, n) - min(lo*d.pack, n)
}

// Packed is how many work-groups share a warp (1: none).
func (d *Dispatch) Packed() int { return d.pack }

// LocalBytes is the local memory a work-group uses.
func (d *Dispatch) LocalBytes() int { return d.localBytes }

// TaskLocalBytes is the local memory one task holds: its work-groups'
// local memories, Packed() of them a local span apart.
func (d *Dispatch) TaskLocalBytes() int { return d.pack * d.localSpan }
