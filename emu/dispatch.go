package emu

import (
	"context"
	"errors"
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
	pool       []*Warp

	lastStepped  *Warp
	lastProgress time.Time
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
	d.code = decode(p.Code, d.Width)
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

// Packed is how many work-groups share a warp (1: none).
func (d *Dispatch) Packed() int { return d.pack }

// LocalBytes is the local memory a work-group uses.
func (d *Dispatch) LocalBytes() int { return d.localBytes }

// TaskLocalBytes is the local memory one task holds: its work-groups'
// local memories, Packed() of them a local span apart.
func (d *Dispatch) TaskLocalBytes() int { return d.pack * d.localSpan }

// WorkGroup is a work-group's warps and local memory: the unit the
// engine places on a core. With packing (Dispatch.Pack) it is one warp
// holding Groups consecutive work-groups, from work-group Index (ID) on,
// each with its own window of Local.
type WorkGroup struct {
	ID    [3]int
	Index int
	Local []byte
	Warps []*Warp
	// Groups is how many work-groups it holds (1 unless packed).
	Groups int
	size   int      // work-items per work-group it holds
	ids    [][3]int // with packing: each work-group's id
	// copies counts, per async copy instruction, the times the work-group
	// has performed it (see asyncCopy).
	copies map[*ir.ExtCall]int
}

// NewWorkGroup creates work-group i (in linear order, x fastest).
func (d *Dispatch) NewWorkGroup(i int) *WorkGroup { return d.NewPartialWorkGroup(i, d.wgSize) }

// NewPartialWorkGroup creates work-group i holding only its first n
// work-items (1 to the work-group size): a graphics batch that does not
// fill its warp (the remaining lanes do not exist, as in hardware).
func (d *Dispatch) NewPartialWorkGroup(i, n int) *WorkGroup {
	n = min(max(n, 1), d.wgSize)
	wg := &WorkGroup{ID: d.groupID(i), Index: i, Local: make([]byte, d.localBytes), Groups: 1, size: n}
	for k := 0; k < (n+d.Width-1)/d.Width; k++ {
		w := d.newWarp()
		w.reset(wg, k)
		wg.Warps = append(wg.Warps, w)
	}
	d.Stats.WorkGroups++
	d.Stats.Warps += uint64(len(wg.Warps))
	return wg
}

func (d *Dispatch) groupID(i int) [3]int {
	g := d.groups
	return [3]int{i % g[0], i / g[0] % g[1], i / (g[0] * g[1])}
}

// NewTask creates unit i of the dispatch (0 to Tasks()-1): work-group i,
// or with packing the warp holding work-groups i×Pack on.
func (d *Dispatch) NewTask(i int) *WorkGroup {
	if d.pack <= 1 {
		return d.NewWorkGroup(i)
	}
	first := i * d.pack
	n := min(d.pack, d.NumGroups()-first)
	wg := &WorkGroup{ID: d.groupID(first), Index: first, Local: make([]byte, n*d.localSpan), Groups: n, size: d.wgSize}
	for j := 0; j < n; j++ {
		wg.ids = append(wg.ids, d.groupID(first+j))
	}
	w := d.newWarp()
	w.reset(wg, 0)
	wg.Warps = append(wg.Warps, w)
	d.Stats.WorkGroups += uint64(n)
	d.Stats.Warps++
	return wg
}

// Release returns a finished work-group's warps to the pool.
func (d *Dispatch) Release(wg *WorkGroup) {
	if d.WarpDone != nil {
		for _, w := range wg.Warps {
			d.WarpDone(w)
		}
	}
	d.pool = append(d.pool, wg.Warps...)
	wg.Warps = nil
}

func (d *Dispatch) newWarp() *Warp {
	if n := len(d.pool); n > 0 {
		w := d.pool[n-1]
		d.pool = d.pool[:n-1]
		return w
	}
	p := d.Prog
	W := d.Width
	frame := (p.PrivateBytes + 7) &^ 7
	w := &Warp{d: d, prog: p, xcode: d.code, width: W,
		frame: frame, priv: make([]byte, frame*W), stack: make([]entry, 0, 8)}
	w.setRegs(make([]uint64, max(p.Regs, 1)*W))
	for _, c := range p.Consts {
		s := w.slot(c.Slot)
		for l := range s {
			s[l] = c.Value
		}
	}
	for _, c := range d.uniforms {
		s := w.slot(c.Slot)
		for l := range s {
			s[l] = c.Value
		}
	}
	return w
}

func (w *Warp) reset(wg *WorkGroup, index int) {
	d := w.d
	w.wg, w.index = wg, index
	w.firstLocal = index * w.width
	n := min(w.width, wg.size-w.firstLocal)
	w.start = firstLanes(n)
	w.seg = 0
	if wg.ids != nil {
		// Packed: work-group j's work-items in lanes j×seg on.
		w.seg = w.width / d.pack
		w.start = Mask{}
		for j := range wg.ids {
			for l := 0; l < wg.size; l++ {
				w.start.Set(j*w.seg + l)
			}
		}
		n = w.width
	}
	w.alive = w.start
	w.Killed = Mask{}
	clear(w.copiesSeen)
	w.err = nil
	w.lastBuf, w.prevBuf = nil, nil
	w.status = Running
	w.stack = append(w.stack[:0], entry{block: 0, reconv: ir.NoBlock, mask: w.start})
	w.topOK = false
	w.WarpInsts, w.ThreadInsts, w.Blocks = 0, 0, 0
	w.Tex = TexStats{}
	w.last = -1
	p := w.prog
	if w.frame > 0 {
		for l := 0; l < w.width; l++ {
			f := w.priv[l*w.frame : (l+1)*w.frame]
			n := copy(f, p.PrivateInit)
			clear(f[n:])
		}
		for i, par := range p.Params {
			if par.ByValOffset >= 0 {
				for l := 0; l < w.width; l++ {
					copy(w.priv[l*w.frame+par.ByValOffset:], d.Params[i].ByVal)
				}
			}
		}
	}
	if d.InitLane != nil {
		for l := 0; l < n; l++ {
			if !w.start.Has(l) {
				continue
			}
			d.InitLane(w, l, w.priv[l*w.frame:(l+1)*w.frame])
		}
	}
	if len(p.Builtins) > 0 {
		w.fillBuiltins()
	}
}

// fillBuiltins writes every builtin's per-lane values: local ids are
// counted up lane by lane (no divisions), a builtin that is the same in
// every lane is computed once. In a packed warp the count restarts at each
// work-group's first lane.
func (w *Warp) fillBuiltins() {
	for _, b := range w.prog.Builtins {
		mask := maskFor(b.Bits)
		for c := 0; c < b.N; c++ {
			s := w.slot(b.Slot + int32(c))
			switch b.Builtin {
			case spirv.BuiltInGlobalInvocationId, spirv.BuiltInLocalInvocationId, spirv.BuiltInLocalInvocationIndex:
				w.fillLocalCount(s, b.Builtin, min(c, 2), mask)
			case spirv.BuiltInSubgroupLocalInvocationId:
				seg := w.width
				if w.seg > 0 {
					seg = w.seg
				}
				for l := range s {
					s[l] = uint64(l%seg) & mask
				}
			default:
				if w.uniformBuiltin(b.Builtin) {
					v := w.builtin(b.Builtin, 0, c) & mask
					for l := range s {
						s[l] = v
					}
					continue
				}
				// Rare builtins: one value per lane the slow way.
				for l := range s {
					s[l] = w.builtin(b.Builtin, l, c) & mask
				}
			}
		}
	}
}

// fillLocalCount writes component c of the global id, the local id or the
// local index into slot s, counting local ids up from the warp's first
// lane (again from 0 at each of a packed warp's work-groups).
func (w *Warp) fillLocalCount(s []uint64, b spirv.BuiltIn, c int, mask uint64) {
	d := w.d
	ls := d.Local
	x, y, z := w.firstLocal%ls[0], w.firstLocal/ls[0]%ls[1], w.firstLocal/(ls[0]*ls[1])
	i := w.firstLocal
	if w.seg == 0 && x+len(s) <= ls[0] {
		// The warp lies in one row of its work-group: x counts up with
		// the lane, y and z stay.
		first := [3]int{x, y, z}[c]
		if b == spirv.BuiltInGlobalInvocationId {
			first += w.wg.ID[c]*ls[c] + d.Offset[c]
		}
		if c > 0 && b != spirv.BuiltInLocalInvocationIndex {
			v := uint64(first) & mask
			for l := range s {
				s[l] = v
			}
			return
		}
		if b == spirv.BuiltInLocalInvocationIndex {
			first = i
		}
		for l := range s {
			s[l] = uint64(first+l) & mask
		}
		return
	}
	base := 0 // the work-group's first global id in dimension c
	group := -1
	for l := range s {
		if w.seg > 0 && l%w.seg == 0 {
			x, y, z, i = 0, 0, 0, 0
		}
		if g := w.member(l); g != group && b == spirv.BuiltInGlobalInvocationId {
			group = g
			id := w.wg.ID
			if w.seg > 0 {
				id = w.wg.ids[min(g, len(w.wg.ids)-1)]
			}
			base = id[c]*ls[c] + d.Offset[c]
		}
		var v int
		switch b {
		case spirv.BuiltInLocalInvocationIndex:
			v = i
		case spirv.BuiltInGlobalInvocationId:
			v = base + [3]int{x, y, z}[c]
		default:
			v = [3]int{x, y, z}[c]
		}
		s[l] = uint64(v) & mask
		i++
		if x++; x == ls[0] {
			x = 0
			if y++; y == ls[1] {
				y, z = 0, z+1
			}
		}
	}
}

// uniformBuiltin says whether builtin b has one value in every lane of the
// warp (the dispatcher's own, in a warp of one work-group).
func (w *Warp) uniformBuiltin(b spirv.BuiltIn) bool {
	if w.d.Builtin != nil {
		return false
	}
	switch b {
	case spirv.BuiltInWorkgroupId:
		return w.seg == 0
	case spirv.BuiltInNumWorkgroups, spirv.BuiltInWorkgroupSize, spirv.BuiltInEnqueuedWorkgroupSize,
		spirv.BuiltInGlobalSize, spirv.BuiltInGlobalOffset, spirv.BuiltInWorkDim, spirv.BuiltInSubgroupSize,
		spirv.BuiltInSubgroupMaxSize, spirv.BuiltInNumSubgroups, spirv.BuiltInNumEnqueuedSubgroups, spirv.BuiltInSubgroupId:
		return true
	}
	return false
}

func maskFor(bits int) uint64 {
	if bits >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(bits) - 1
}

func knownBuiltin(b spirv.BuiltIn) bool {
	switch b {
	case spirv.BuiltInGlobalInvocationId, spirv.BuiltInLocalInvocationId, spirv.BuiltInWorkgroupId,
		spirv.BuiltInNumWorkgroups, spirv.BuiltInWorkgroupSize, spirv.BuiltInEnqueuedWorkgroupSize,
		spirv.BuiltInGlobalSize, spirv.BuiltInGlobalOffset, spirv.BuiltInWorkDim, spirv.BuiltInLocalInvocationIndex,
		spirv.BuiltInGlobalLinearId, spirv.BuiltInSubgroupSize, spirv.BuiltInSubgroupMaxSize, spirv.BuiltInNumSubgroups,
		spirv.BuiltInNumEnqueuedSubgroups, spirv.BuiltInSubgroupId, spirv.BuiltInSubgroupLocalInvocationId:
		return true
	}
	return false
}

// builtin computes a compute builtin for lane l, component c.
func (w *Warp) builtin(b spirv.BuiltIn, l, c int) uint64 {
	d := w.d
	if d.Builtin != nil {
		if v, ok := d.Builtin(b, w, l, c); ok {
			return v
		}
	}
	c3 := min(c, 2)
	switch b {
	case spirv.BuiltInGlobalInvocationId:
		return uint64(w.globalID(l)[c3])
	case spirv.BuiltInLocalInvocationId:
		return uint64(w.localID(l)[c3])
	case spirv.BuiltInWorkgroupId:
		return uint64(w.groupID(l)[c3])
	case spirv.BuiltInNumWorkgroups:
		return uint64(d.groups[c3])
	case spirv.BuiltInWorkgroupSize, spirv.BuiltInEnqueuedWorkgroupSize:
		return uint64(d.Local[c3])
	case spirv.BuiltInGlobalSize:
		return uint64(d.Global[c3])
	case spirv.BuiltInGlobalOffset:
		return uint64(d.Offset[c3])
	case spirv.BuiltInWorkDim:
		return uint64(d.Dims)
	case spirv.BuiltInLocalInvocationIndex:
		return uint64(w.localIndex(l))
	case spirv.BuiltInGlobalLinearId:
		g := w.globalID(l)
		for k := range g {
			g[k] -= d.Offset[k]
		}
		return uint64(g[0] + d.Global[0]*(g[1]+d.Global[1]*g[2]))
	case spirv.BuiltInSubgroupSize, spirv.BuiltInSubgroupMaxSize:
		if w.seg > 0 {
			// A packed work-group is one sub-group of its own.
			return uint64(d.wgSize)
		}
		return uint64(w.width)
	case spirv.BuiltInNumSubgroups, spirv.BuiltInNumEnqueuedSubgroups:
		return uint64(d.WarpsPerGroup())
	case spirv.BuiltInSubgroupId:
		return uint64(w.index)
	case spirv.BuiltInSubgroupLocalInvocationId:
		if w.seg > 0 {
			return uint64(l % w.seg)
		}
		return uint64(l)
	}
	return 0
}

// ErrBudget reports a kernel that ran past its instruction budget.
var ErrBudget = errors.New("instruction budget exhausted")

// Sync settles a work-group after its warps ran: it reports whether all
// warps are done, releases a barrier every warp has reached, and fails when
// a barrier can never be passed because some work-items returned.
func (wg *WorkGroup) Sync() (done bool, err error) {
	waiting, finished := 0, 0
	for _, w := range wg.Warps {
		switch w.status {
		case Done:
			finished++
		case AtBarrier:
			waiting++
		case Faulted:
			return false, w.err
		}
	}
	if finished == len(wg.Warps) {
		return true, nil
	}
	if waiting+finished < len(wg.Warps) || waiting == 0 {
		return false, nil
	}
	// A packed warp's work-groups were checked at the barrier (terminate).
	for _, w := range wg.Warps {
		if w.seg > 0 {
			break
		}
		if gone := w.start.AndNot(w.alive); !gone.Empty() {
			l := 0
			for !gone.Has(l) {
				l++
			}
			g := w.globalID(l)
			return false, &KernelError{Kernel: w.prog.Entry, Group: wg.ID,
				Err: fmt.Errorf("barrier reached by only some work-items: work-item (%d,%d,%d) finished without reaching it", g[0], g[1], g[2])}
		}
	}
	for _, w := range wg.Warps {
		w.status = Running
	}
	return false, nil
}

// Run executes the whole NDRange functionally: work-groups in order, a
// window of them interleaved, each warp run for a slice of blocks at a time.
func (d *Dispatch) Run() error {
	const slice = 256
	n := d.Tasks()
	window := max(d.Window, 1)
	var active []*WorkGroup
	next, groupsDone := 0, 0
	for next < n || len(active) > 0 {
		for len(active) < window && next < n {
			active = append(active, d.NewTask(next))
			next++
		}
		keep := active[:0]
		for _, wg := range active {
			for _, w := range wg.Warps {
				if w.status == Running {
					d.lastStepped = w
					w.run(slice, &d.Stats)
				}
			}
			done, err := wg.Sync()
			if err != nil {
				return err
			}
			if done {
				groupsDone += wg.Groups
				d.Release(wg)
			} else {
				keep = append(keep, wg)
			}
		}
		active = keep
		if err := d.Checkpoint(groupsDone, 0); err != nil {
			return err
		}
	}
	return nil
}
