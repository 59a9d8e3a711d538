// Package device is pocketgpu's host side: open a described GPU, allocate
// buffers and images, load a kernel and dispatch it, then read the results
// back — the shape of an OpenCL host program, so that benchmarks and users'
// own Go programs drive the simulator the way they drive a GPU.
package device

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
	"github.com/pocketgpu/pocketgpu/timing/mem"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Device is an opened GPU with its memory.
type Device struct {
	GPU *arch.GPU
	// Printf receives kernels' printf output (nil discards it).
	Printf io.Writer

	gmem *emu.Memory
	hier *mem.Hierarchy
	memo launchMemo // timed launches, for reuse (reuse.go)
}

// Open returns a device for g.
func Open(g *arch.GPU) *Device {
	return &Device{GPU: g, gmem: emu.NewMemory()}
}

// ArgKind is what an Arg binds.
type ArgKind uint8

const (
	ArgBuffer ArgKind = iota
	ArgValue
	ArgLocal
	ArgImage
	ArgSampler
)

func (k ArgKind) String() string {
	if k > ArgSampler {
		return fmt.Sprintf("argument kind %d", uint8(k))
	}
	return [...]string{"a buffer", "a value", "local memory", "an image", "a sampler"}[k]
}

// Arg is one kernel argument.
type Arg struct {
	Kind       ArgKind
	Buffer     *Buffer
	Value      []byte // little-endian bytes of a value argument
	LocalBytes int
	Image      *Image
	Sampler    uint32 // OpenCL CLK_* bits
}

// BufferArg binds a buffer.
func BufferArg(b *Buffer) Arg { return Arg{Kind: ArgBuffer, Buffer: b} }

// ValueArg binds a value (its little-endian bytes).
func ValueArg(b []byte) Arg { return Arg{Kind: ArgValue, Value: b} }

// LocalArg sizes a __local pointer argument.
func LocalArg(n int) Arg { return Arg{Kind: ArgLocal, LocalBytes: n} }

// ImageArg binds an image.
func ImageArg(img *Image) Arg { return Arg{Kind: ArgImage, Image: img} }

// SamplerArg binds an OpenCL sampler (CLK_* bits).
func SamplerArg(clk uint32) Arg { return Arg{Kind: ArgSampler, Sampler: clk} }

// NDRange is a launch's shape. Local zero means "let the device choose",
// unless the kernel fixes it.
type NDRange struct {
	Dims   int
	Global [3]int
	Local  [3]int
	Offset [3]int
}

// Unlimited as Options.MaxWarpInsts lets a run go on until it finishes or
// its context stops it: no budget and no stall check.
const Unlimited = emu.Unlimited

// ErrStopped is wrapped by the error of a run its context stopped (with
// the context's cause). It is the executor's own sentinel, so it also
// matches runs stopped elsewhere in the simulator (gfx's frames).
var ErrStopped = emu.ErrStopped

// ErrBudget is wrapped by the error of a run that spent its
// warp-instruction budget, or that the stall check stopped.
var ErrBudget = emu.ErrBudget

// Options tune a dispatch.
type Options struct {
	// WarpWidth overrides the width the GPU's occupancy rules pick.
	WarpWidth int
	// MaxWarpInsts bounds the run (0: no bound, but a run in which no
	// work-group finishes for about 30 s of simulation is stopped;
	// Unlimited: neither).
	MaxWarpInsts uint64
	// Context, when set, stops the run when done: Dispatch and Time then
	// return what ran so far, marked Partial, with an error wrapping
	// ErrStopped and the context's cause.
	Context context.Context
	// Progress, when set, is called at most every 100 ms during the run
	// and once at its end.
	Progress func(Progress)
	// Profile has Time charge the run's cycles and memory work to the
	// kernel's instructions and source lines (TimedResult.Profile).
	Profile bool
	// Timeline has Time sample occupancy and pipe use over the run
	// (TimedResult.Timeline).
	Timeline bool
	// Trace, when set, has Time record the run on it (timing/trace; `run
	// --trace`): engines' issue, residency, memory counters. The run starts
	// at Trace.Now and leaves it at its end.
	Trace *trace.Trace
	// Detail is how much of a timed launch runs in detail (DetailAuto:
	// repeats of a launch reuse its figures; DetailFull: none do).
	Detail Detail
	// Threads is how many host threads Dispatch runs independent
	// work-groups on, and Time uses (two or more: the executor runs ahead
	// of the timing engine on a second one; 0: runtime.GOMAXPROCS(0)); a
	// run that finishes gives the same results, cycles and counters
	// whatever the count (emu.Dispatch.Threads).
	Threads int
	// Strict faults a kernel whose work-item reaches local memory outside
	// its work-group's (a GPU runs on; unset, the access is counted and
	// Result.Warnings says where).
	Strict bool
}

// Progress is how far a run has got.
type Progress struct {
	GroupsDone, Groups int
	WarpInsts          uint64
	// Cycles is the simulated time so far (timed runs; 0 when functional).
	Cycles float64
}

// ArgError is an argument that does not fit the kernel's parameter.
type ArgError struct {
	Index int
	Param Param
	Msg   string
}

func (e *ArgError) Error() string {
	name := e.Param.Name
	if name == "" {
		name = "unnamed"
	}
	return fmt.Sprintf("argument %d (%s, %s): %s", e.Index, name, e.Param, e.Msg)
}

func argError(i int, p ir.Param, msg string) *ArgError {
	return &ArgError{Index: i, Param: paramOf(p), Msg: msg}
}

// LaunchError is an NDRange the GPU or the kernel does not accept.
type LaunchError struct{ Msg string }

func (e *LaunchError) Error() string { return e.Msg }

// Stats counts what a dispatch ran.
type Stats struct {
	WorkGroups  uint64
	Warps       uint64
	WarpInsts   uint64
	ThreadInsts uint64
	Blocks      uint64
	// LocalOutOfBounds counts work-items' accesses to local memory outside
	// their work-group's: writes dropped, reads giving zeros (Options.Strict
	// faults instead).
	LocalOutOfBounds uint64
}

// Result is what a dispatch did.
type Result struct {
	Stats Stats
	// Warnings are what a user should know of the run that did not stop
	// it: local-memory accesses out of bounds, with the source line.
	Warnings  []string
	WarpWidth int
	Local     [3]int
	Groups    [3]int
	Occupancy arch.Occupancy
	Seconds   float64
	// Partial marks a run stopped before the end (Options.Context): the
	// counters cover the work done until then, the buffers hold what the
	// finished work-items wrote.
	Partial bool
}

// Plan is a validated launch with its arguments bound, ready to run
// functionally or under a timing model.
type Plan struct {
	Kernel    *Kernel
	Occupancy arch.Occupancy
	dispatch  *emu.Dispatch
	consts    *emu.Buffer
	dev       *Device
}

// Prepare validates a launch and binds its arguments.
func (d *Device) Prepare(k *Kernel, nd NDRange, args []Arg, opt Options) (*Plan, error) {
	p := k.program()
	if len(args) != len(p.Params) {
		return nil, &LaunchError{fmt.Sprintf("kernel %s takes %d arguments, %d given%s", k.Name, len(p.Params), len(args), listParams(k.params))}
	}
	if err := d.resolveLocal(k, &nd); err != nil {
		return nil, err
	}
	g := d.GPU
	var progress func(emu.Progress)
	if f := opt.Progress; f != nil {
		progress = func(p emu.Progress) {
			f(Progress{GroupsDone: p.GroupsDone, Groups: p.Groups, WarpInsts: p.WarpInsts, Cycles: p.Cycles})
		}
	}
	ed := &emu.Dispatch{Prog: k.prog, Mem: d.gmem, Dims: nd.Dims, Global: nd.Global, Local: nd.Local, Offset: nd.Offset,
		Printf: d.Printf, MaxWarpInsts: opt.MaxWarpInsts, Window: 4, Threads: opt.Threads, Ctx: opt.Context, Progress: progress,
		Strict: opt.Strict}
	local := p.LocalBytes
	for i, a := range args {
		pv, extra, err := d.bind(i, p.Params[i], a, ed)
		if err != nil {
			return nil, err
		}
		local += extra
		ed.Params = append(ed.Params, pv)
	}
	if lim := g.LocalMemory.MaxPerWorkgroupKiB * 1024; local > lim {
		return nil, &LaunchError{fmt.Sprintf("kernel %s uses %d bytes of local memory per work-group; %s allows %d", k.Name, local, g.ID, lim)}
	}
	wgSize := nd.Local[0] * nd.Local[1] * nd.Local[2]
	q := k.occupancyQuery(g, wgSize, local)
	occ, err := k.occupancy(g, q)
	if err != nil {
		return nil, &LaunchError{fmt.Sprintf("kernel %s cannot run on %s: %v", k.Name, g.ID, err)}
	}
	ed.Width = occ.WarpWidth
	if opt.WarpWidth > 0 {
		ed.Width = opt.WarpWidth
	}
	// Work-groups share a warp where the family packs them (a Rogue task
	// of eight work-groups of 4), as many as are resident on a core at once.
	if n := min(g.WorkgroupsPerWarp(q, ed.Width), occ.WorkgroupsPerCore); n > 1 {
		ed.Pack = n
	}
	plan := &Plan{dispatch: ed, Kernel: k, Occupancy: occ, dev: d}
	if len(p.ConstData) > 0 {
		plan.consts = d.gmem.Alloc(len(p.ConstData), k.Name+" constants", true)
		copy(plan.consts.Data, p.ConstData)
		ed.ConstBase = plan.consts.Base
	}
	if err := ed.Init(); err != nil {
		plan.Close()
		return nil, &LaunchError{err.Error()}
	}
	return plan, nil
}

// Close frees what the plan allocated.
func (pl *Plan) Close() {
	if pl.consts != nil {
		pl.dev.gmem.Free(pl.consts)
		pl.consts = nil
	}
}

// Dispatch runs a kernel functionally over an NDRange.
func (d *Device) Dispatch(k *Kernel, nd NDRange, args []Arg, opt Options) (*Result, error) {
	plan, err := d.Prepare(k, nd, args, opt)
	if err != nil {
		return nil, err
	}
	defer plan.Close()
	start := time.Now()
	err = plan.dispatch.Run()
	res := plan.result()
	res.Seconds = time.Since(start).Seconds()
	res.Partial = errors.Is(err, ErrStopped)
	return res, err
}

func (pl *Plan) result() *Result {
	ed := pl.dispatch
	s := ed.Stats
	r := &Result{Stats: Stats{WorkGroups: s.WorkGroups, Warps: s.Warps, WarpInsts: s.WarpInsts, ThreadInsts: s.ThreadInsts, Blocks: s.Blocks,
		LocalOutOfBounds: s.LocalOutOfBounds},
		WarpWidth: ed.Width, Local: ed.Local, Groups: ed.Groups(), Occupancy: pl.Occupancy}
	if n := s.LocalOutOfBounds; n > 0 {
		at := "an unknown place"
		if i := int(s.LocalOutOfBoundsSite) - 1; i >= 0 && i < len(ed.Prog.Sites) {
			at = ed.Prog.Sites[i].String()
			if ed.Prog.Sites[i].File == "" {
				at += " (build with -g for its source line)"
			}
		}
		r.Warnings = append(r.Warnings, fmt.Sprintf("kernel %s: %d local-memory accesses outside the work-group's local memory, the first in the program at %s: writes were dropped and reads gave 0 (a GPU runs on; --strict faults instead)",
			ed.Prog.Entry, n, at))
	}
	return r
}

// Result reports what the plan's dispatch has done so far.
func (pl *Plan) Result() *Result { return pl.result() }

// resolveLocal checks or chooses the work-group size.
func (d *Device) resolveLocal(k *Kernel, nd *NDRange) error {
	p := k.program()
	if nd.Dims == 0 {
		nd.Dims = 1
		for i := 1; i < 3; i++ {
			if nd.Global[i] > 1 {
				nd.Dims = i + 1
			}
		}
	}
	for i := 0; i < 3; i++ {
		if nd.Global[i] == 0 {
			nd.Global[i] = 1
		}
		if nd.Global[i] < 0 {
			return &LaunchError{fmt.Sprintf("global size %d in dimension %d is negative", nd.Global[i], i)}
		}
	}
	maxWG := d.GPU.MaxWorkgroupSize
	unset := nd.Local == [3]int{}
	if !unset {
		for i := range nd.Local {
			if nd.Local[i] == 0 {
				nd.Local[i] = 1
			}
		}
	}
	if p.LocalSizeFixed {
		if !unset && nd.Local != p.LocalSize {
			return &LaunchError{fmt.Sprintf("kernel %s requires a work-group size of %v, %v was given", k.Name, p.LocalSize, nd.Local)}
		}
		nd.Local = p.LocalSize
	} else if unset {
		// Like an OpenCL runtime: the largest divisor of the global size
		// in dimension 0 up to 64 (or the GPU's maximum), 1 elsewhere.
		nd.Local = [3]int{1, 1, 1}
		for s := min(64, maxWG, nd.Global[0]); s >= 1; s-- {
			if nd.Global[0]%s == 0 {
				nd.Local[0] = s
				break
			}
		}
	}
	total := 1
	for i := 0; i < 3; i++ {
		if nd.Local[i] == 0 {
			nd.Local[i] = 1
		}
		if nd.Local[i] < 0 {
			return &LaunchError{fmt.Sprintf("local size %d in dimension %d is negative", nd.Local[i], i)}
		}
		if nd.Global[i]%nd.Local[i] != 0 {
			return &LaunchError{fmt.Sprintf("global size %d is not a multiple of the local size %d in dimension %d (OpenCL 1.2 requires it)", nd.Global[i], nd.Local[i], i)}
		}
		total *= nd.Local[i]
	}
	if total > maxWG {
		return &LaunchError{fmt.Sprintf("work-group of %d work-items is over %s's maximum of %d", total, d.GPU.ID, maxWG)}
	}
	return nil
}

// bind turns an Arg into the executor's parameter value; extra is local
// memory the argument adds.
func (d *Device) bind(i int, par ir.Param, a Arg, ed *emu.Dispatch) (emu.ParamValue, int, error) {
	bad := func(format string, args ...any) (emu.ParamValue, int, error) {
		return emu.ParamValue{}, 0, argError(i, par, fmt.Sprintf(format, args...))
	}
	switch par.Kind {
	case ir.ParamGlobal, ir.ParamConstant:
		if a.Kind != ArgBuffer {
			return bad("got %s", a.Kind)
		}
		if a.Buffer == nil {
			// A NULL buffer, as OpenCL allows: a null pointer, which
			// faults if the kernel uses it (no buffer is mapped at 0).
			return emu.ParamValue{Slots: []uint64{0}}, 0, nil
		}
		if a.Buffer.b == nil {
			return bad("a Buffer that was not allocated (use Device.Alloc)")
		}
		return emu.ParamValue{Slots: []uint64{a.Buffer.b.Base}}, 0, nil
	case ir.ParamPushConstant:
		if a.Kind == ArgBuffer && a.Buffer != nil && a.Buffer.b != nil {
			return emu.ParamValue{Slots: []uint64{a.Buffer.b.Base}}, 0, nil
		}
		if a.Kind != ArgValue {
			return bad("got %s", a.Kind)
		}
		if len(a.Value) < par.Elem.Size {
			return bad("%d bytes given", len(a.Value))
		}
		b := d.gmem.Alloc(len(a.Value), "push constants", true)
		copy(b.Data, a.Value)
		return emu.ParamValue{Slots: []uint64{b.Base}}, 0, nil
	case ir.ParamLocal:
		if a.Kind != ArgLocal {
			return bad("got %s (pass local:BYTES)", a.Kind)
		}
		if a.LocalBytes <= 0 {
			return bad("local memory size %d", a.LocalBytes)
		}
		return emu.ParamValue{LocalBytes: a.LocalBytes}, a.LocalBytes, nil
	case ir.ParamValue:
		if a.Kind != ArgValue {
			return bad("got %s", a.Kind)
		}
		if len(a.Value) != par.Type.Size && !(par.Type.Kind == ir.KindVector && par.Type.Len == 3 && len(a.Value) == 3*par.Type.Elem.Size) {
			return bad("%d bytes given", len(a.Value))
		}
		if par.ByValOffset >= 0 {
			return emu.ParamValue{ByVal: a.Value}, 0, nil
		}
		slots := make([]uint64, par.Type.Slots)
		for _, l := range par.Type.Leaves() {
			if l.Offset+l.Bytes <= len(a.Value) {
				slots[l.Slot] = readLE(a.Value[l.Offset:], l.Bytes)
			}
		}
		return emu.ParamValue{Slots: slots}, 0, nil
	case ir.ParamImage:
		if a.Kind != ArgImage || a.Image == nil || a.Image.img == nil {
			return bad("got %s", a.Kind)
		}
		ed.Images = append(ed.Images, a.Image.img)
		h := uint64(len(ed.Images) - 1)
		if par.Type.Elem != nil && par.Type.Elem.Kind == ir.KindSampledImage {
			return emu.ParamValue{Slots: []uint64{h, emu.VulkanSampler}}, 0, nil
		}
		return emu.ParamValue{Slots: []uint64{h}}, 0, nil
	case ir.ParamSampler:
		if a.Kind != ArgSampler {
			return bad("got %s", a.Kind)
		}
		return emu.ParamValue{Slots: []uint64{emu.SamplerFromCL(a.Sampler)}}, 0, nil
	}
	return bad("unsupported parameter kind")
}

func readLE(p []byte, n int) uint64 {
	var v uint64
	for i := n - 1; i >= 0; i-- {
		v = v<<8 | uint64(p[i])
	}
	return v
}

// IsUserError reports errors caused by the kernel or its inputs (bad
// SPIR-V, unsupported features, bad arguments, GPU faults), as opposed to
// failures of the simulator itself.
func IsUserError(err error) bool {
	var de *spirv.DecodeError
	var ie *ir.Error
	var ae *ArgError
	var le *LaunchError
	var fe *emu.Fault
	var ke *emu.KernelError
	return errors.As(err, &de) || errors.As(err, &ie) || errors.As(err, &ae) || errors.As(err, &le) ||
		errors.As(err, &fe) || errors.As(err, &ke) || errors.Is(err, ErrBudget)
}
