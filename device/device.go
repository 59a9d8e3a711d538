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
)

// Device is an opened GPU with its memory.
type Device struct {
	GPU *arch.GPU
	Mem *emu.Memory
	// Printf receives kernels' printf output (nil discards it).
	Printf io.Writer

	hier *mem.Hierarchy
}

// Open returns a device for g.
func Open(g *arch.GPU) *Device {
	return &Device{GPU: g, Mem: emu.NewMemory()}
}

// Buffer is device memory.
type Buffer struct {
	*emu.Buffer
}

// Alloc allocates a zeroed buffer.
func (d *Device) Alloc(size int, name string) *Buffer {
	return &Buffer{d.Mem.Alloc(size, name, false)}
}

// AllocFrom allocates a buffer holding a copy of data.
func (d *Device) AllocFrom(data []byte, name string) *Buffer {
	b := d.Alloc(len(data), name)
	copy(b.Data, data)
	return b
}

// Free releases a buffer.
func (d *Device) Free(b *Buffer) { d.Mem.Free(b.Buffer) }

// Bytes is the buffer's contents (the device shares host memory: reading
// it is the read-back).
func (b *Buffer) Bytes() []byte { return b.Data }

// ImageFormat is an image's channel count (R, RG, RGB, RGBA) and type.
type ImageFormat struct {
	Channels int
	Type     emu.ChannelType
}

// Image is a device image.
type Image = emu.Image

// NewImage allocates an image (1D buffer, 2D or 3D) and copies data into it
// when given; data is tightly packed rows.
func (d *Device) NewImage(dim spirv.Dim, w, h, depth int, f ImageFormat, data []byte, name string) (*Image, error) {
	if f.Channels < 1 || f.Channels > 4 {
		return nil, fmt.Errorf("image %s: %d channels (1 to 4 are possible)", name, f.Channels)
	}
	if w < 1 || h < 1 || depth < 1 {
		return nil, fmt.Errorf("image %s: size %dx%dx%d", name, w, h, depth)
	}
	img := &Image{Dim: dim, Width: w, Height: h, Depth: depth, Channels: f.Channels, Type: f.Type}
	img.RowPitch = w * img.TexelBytes()
	img.SlicePitch = img.RowPitch * h
	size := img.SlicePitch * depth
	if data != nil && len(data) != size {
		return nil, fmt.Errorf("image %s: %d bytes of data for a %dx%dx%d image of %d-byte texels (%d bytes)", name, len(data), w, h, depth, img.TexelBytes(), size)
	}
	img.Buf = d.Mem.Alloc(size, name, false)
	copy(img.Buf.Data, data)
	return img, nil
}

// Kernel is a loaded entry point.
type Kernel struct {
	Module *spirv.Module
	IR     *ir.Program
	Prog   *emu.Program
	// Regs is the estimated 32-bit registers per thread.
	Regs int
	// Name is the entry point's name; Source where it came from.
	Name, Source string
}

// Load decodes SPIR-V and lowers one entry point ("" if there is one).
func (d *Device) Load(spv []byte, entry string, opt ir.Options) (*Kernel, error) {
	m, err := spirv.Decode(spv)
	if err != nil {
		return nil, err
	}
	return d.LoadModule(m, entry, opt)
}

// LoadModule lowers one entry point of a decoded module.
func (d *Device) LoadModule(m *spirv.Module, entry string, opt ir.Options) (*Kernel, error) {
	ep, err := emu.Load(m, entry, opt)
	if err != nil {
		return nil, err
	}
	p := ep.Program
	return &Kernel{Module: m, IR: p, Prog: ep, Regs: p.Registers(), Name: p.Entry}, nil
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

// Options tune a dispatch.
type Options struct {
	// WarpWidth overrides the width the GPU's occupancy rules pick.
	WarpWidth int
	// MaxWarpInsts bounds the run (0: no bound, but a run in which no
	// work-group finishes for about 30 s of simulation is stopped;
	// emu.Unlimited: neither).
	MaxWarpInsts uint64
	// Context, when set, stops the run when done: Dispatch and Time then
	// return what ran so far, marked Partial, with an error wrapping
	// emu.ErrStopped and the context's cause.
	Context context.Context
	// Progress, when set, is called at most every 100 ms during the run
	// and once at its end.
	Progress func(emu.Progress)
}

// ArgError is an argument that does not fit the kernel's parameter.
type ArgError struct {
	Index int
	Param ir.Param
	Msg   string
}

func (e *ArgError) Error() string {
	name := e.Param.Name
	if name == "" {
		name = "unnamed"
	}
	return fmt.Sprintf("argument %d (%s, %s): %s", e.Index, name, describeParam(e.Param), e.Msg)
}

// LaunchError is an NDRange the GPU or the kernel does not accept.
type LaunchError struct{ Msg string }

func (e *LaunchError) Error() string { return e.Msg }

func describeParam(p ir.Param) string {
	switch p.Kind {
	case ir.ParamGlobal:
		return fmt.Sprintf("a global buffer of %s", p.Elem)
	case ir.ParamConstant:
		return fmt.Sprintf("a constant buffer of %s", p.Elem)
	case ir.ParamLocal:
		return fmt.Sprintf("a __local %s pointer", p.Elem)
	case ir.ParamValue:
		return fmt.Sprintf("a %s value of %d bytes", p.Type, p.Type.Size)
	case ir.ParamImage:
		return "an image"
	case ir.ParamSampler:
		return "a sampler"
	case ir.ParamPushConstant:
		return fmt.Sprintf("push constants of %d bytes", p.Elem.Size)
	}
	return p.Kind.String()
}

// Result is what a dispatch did.
type Result struct {
	Stats     emu.Stats
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

// Plan is a validated launch, ready to run functionally or under a timing
// model.
type Plan struct {
	Dispatch  *emu.Dispatch
	Kernel    *Kernel
	Occupancy arch.Occupancy
	consts    *emu.Buffer
	dev       *Device
}

// Prepare validates a launch and binds its arguments.
func (d *Device) Prepare(k *Kernel, nd NDRange, args []Arg, opt Options) (*Plan, error) {
	p := k.IR
	if len(args) != len(p.Params) {
		return nil, &LaunchError{fmt.Sprintf("kernel %s takes %d arguments, %d given%s", k.Name, len(p.Params), len(args), listParams(p))}
	}
	if err := d.resolveLocal(k, &nd); err != nil {
		return nil, err
	}
	g := d.GPU
	ed := &emu.Dispatch{Prog: k.Prog, Mem: d.Mem, Dims: nd.Dims, Global: nd.Global, Local: nd.Local, Offset: nd.Offset,
		Printf: d.Printf, MaxWarpInsts: opt.MaxWarpInsts, Window: 4, Ctx: opt.Context, Progress: opt.Progress}
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
	occ, err := g.Occupancy(arch.OccupancyQuery{Regs: min(k.Regs, g.MaxRegistersPerThread), LocalBytes: local, WorkgroupSize: wgSize,
		Barrier: p.UsesBarrier, SizeFixedAtCompile: p.LocalSizeFixed})
	if err != nil {
		return nil, &LaunchError{fmt.Sprintf("kernel %s cannot run on %s: %v", k.Name, g.ID, err)}
	}
	ed.Width = occ.WarpWidth
	if opt.WarpWidth > 0 {
		ed.Width = opt.WarpWidth
	}
	plan := &Plan{Dispatch: ed, Kernel: k, Occupancy: occ, dev: d}
	if len(p.ConstData) > 0 {
		plan.consts = d.Mem.Alloc(len(p.ConstData), k.Name+" constants", true)
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
		pl.dev.Mem.Free(pl.consts)
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
	err = plan.Dispatch.Run()
	res := plan.result()
	res.Seconds = time.Since(start).Seconds()
	res.Partial = errors.Is(err, emu.ErrStopped)
	return res, err
}

func (pl *Plan) result() *Result {
	ed := pl.Dispatch
	return &Result{Stats: ed.Stats, WarpWidth: ed.Width, Local: ed.Local, Groups: ed.Groups(), Occupancy: pl.Occupancy}
}

// Result reports what the plan's dispatch has done so far.
func (pl *Plan) Result() *Result { return pl.result() }

func listParams(p *ir.Program) string {
	if len(p.Params) == 0 {
		return ""
	}
	s := ": "
	for i, par := range p.Params {
		if i > 0 {
			s += ", "
		}
		name := par.Name
		if name == "" {
			name = fmt.Sprintf("#%d", i)
		}
		s += name + " (" + describeParam(par) + ")"
	}
	return s
}

// resolveLocal checks or chooses the work-group size.
func (d *Device) resolveLocal(k *Kernel, nd *NDRange) error {
	p := k.IR
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
		return emu.ParamValue{}, 0, &ArgError{Index: i, Param: par, Msg: fmt.Sprintf(format, args...)}
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
		return emu.ParamValue{Slots: []uint64{a.Buffer.Base}}, 0, nil
	case ir.ParamPushConstant:
		if a.Kind == ArgBuffer && a.Buffer != nil {
			return emu.ParamValue{Slots: []uint64{a.Buffer.Base}}, 0, nil
		}
		if a.Kind != ArgValue {
			return bad("got %s", a.Kind)
		}
		if len(a.Value) < par.Elem.Size {
			return bad("%d bytes given", len(a.Value))
		}
		b := d.Mem.Alloc(len(a.Value), "push constants", true)
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
		if a.Kind != ArgImage || a.Image == nil {
			return bad("got %s", a.Kind)
		}
		ed.Images = append(ed.Images, a.Image)
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
		errors.As(err, &fe) || errors.As(err, &ke) || errors.Is(err, emu.ErrBudget)
}
