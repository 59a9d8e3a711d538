package opencl

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// Program is a cl_program: OpenCL C source or SPIR-V, built for the
// context's devices by the driver pipeline (kernel.Compile), per device as
// its driver would (without cl_khr_fp64 where the GPU has no fp64).
type Program struct {
	Ctx    *Context
	Source string // OpenCL C, or "" for IL
	IL     []byte // SPIR-V given with clCreateProgramWithIL

	mu     sync.Mutex
	builds map[*Device]*build
}

// build is a program's build for one device.
type build struct {
	Status  int32 // CL_BUILD_SUCCESS (0), _ERROR (-2), _NONE (-1)
	Log     string
	Options string
	SPIRV   []byte
}

// Build statuses (cl_build_status).
const (
	BuildSuccess = 0
	BuildNone    = -1
	BuildError   = -2
)

// NewProgram makes a program from OpenCL C source.
func (c *Context) NewProgram(source string) (*Program, error) {
	if source == "" {
		return nil, errorf(InvalidValue, "empty program source")
	}
	return &Program{Ctx: c, Source: source, builds: map[*Device]*build{}}, nil
}

// NewProgramIL makes a program from a SPIR-V module.
func (c *Context) NewProgramIL(spv []byte) (*Program, error) {
	b, err := kernel.CheckSPIRV(spv)
	if err != nil {
		return nil, errorf(InvalidValue, "%v", err)
	}
	return &Program{Ctx: c, IL: b, builds: map[*Device]*build{}}, nil
}

// Build compiles the program for devices (nil: all of the context's) with
// the build options of clBuildProgram. A failed build leaves its log in
// BuildInfo and returns BuildProgramFailure.
func (p *Program) Build(devs []*Device, options string) error {
	if devs == nil {
		devs = p.Ctx.Devices
	}
	opt, err := parseBuildOptions(options)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	failed := false
	for _, d := range devs {
		if _, ok := p.Ctx.sims[d]; !ok {
			return errorf(InvalidDevice, "the device is not in the program's context")
		}
		b := &build{Options: options}
		if p.IL != nil {
			b.SPIRV = p.IL
		} else {
			var log bytes.Buffer
			o := opt
			o.NoFP64 = !d.GPU.HasFP64()
			o.Warnings = &log
			spv, err := kernel.CompileSource([]byte(p.Source), "program.cl", kernel.OpenCLC, o)
			if err != nil {
				log.WriteString(err.Error())
				b.Status, failed = BuildError, true
			}
			b.SPIRV, b.Log = spv, log.String()
		}
		p.builds[d] = b
	}
	if failed {
		return errorf(BuildProgramFailure, "the program failed to build; see its build log")
	}
	return nil
}

// parseBuildOptions turns clBuildProgram options into compile options:
// -D and -I as they are, -cl-* and warning flags passed to clang.
func parseBuildOptions(s string) (kernel.Options, error) {
	var o kernel.Options
	words := strings.Fields(s)
	for i := 0; i < len(words); i++ {
		w := words[i]
		arg := func(prefix string) (string, bool) {
			if w == prefix && i+1 < len(words) {
				i++
				return words[i], true
			}
			if strings.HasPrefix(w, prefix) && len(w) > len(prefix) {
				return w[len(prefix):], true
			}
			return "", false
		}
		if v, ok := arg("-D"); ok {
			o.Defines = append(o.Defines, v)
			continue
		}
		if v, ok := arg("-I"); ok {
			o.IncludeDirs = append(o.IncludeDirs, v)
			continue
		}
		switch {
		case strings.HasPrefix(w, "-cl-"), w == "-w", w == "-Werror":
			o.ClangFlags = append(o.ClangFlags, w)
		default:
			return o, errorf(InvalidBuildOptions, "build option %q is not one of -D, -I, -cl-*, -w, -Werror", w)
		}
	}
	return o, nil
}

// BuildInfo is a device's build of the program, or nil if none was made.
func (p *Program) BuildInfo(d *Device) (status int32, log, options string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.builds[d]
	if b == nil {
		return BuildNone, "", ""
	}
	return b.Status, b.Log, b.Options
}

// spirv is the program's SPIR-V for a device, if it built.
func (p *Program) spirv(d *Device) []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	if b := p.builds[d]; b != nil && b.Status == BuildSuccess {
		return b.SPIRV
	}
	return nil
}

// Kernel is a cl_kernel: an entry point of a built program and its
// arguments as set so far.
type Kernel struct {
	Program *Program
	Name    string
	Params  []ir.Param

	mu      sync.Mutex
	loaded  map[*simDevice]*device.Kernel
	args    []kernelArg
	argsSet []bool
}

// kernelArg is one argument as clSetKernelArg gave it.
type kernelArg struct {
	buf   *Buffer
	value []byte
	local int
	img   *Image
	smp   *Sampler
}

// NewKernel makes a kernel of the program's entry point name.
func (p *Program) NewKernel(name string) (*Kernel, error) {
	k := &Kernel{Program: p, Name: name, loaded: map[*simDevice]*device.Kernel{}}
	built := false
	for _, d := range p.Ctx.Devices {
		spv := p.spirv(d)
		if spv == nil {
			continue
		}
		built = true
		sim := p.Ctx.sims[d]
		dk, err := sim.dev.Load(spv, name, ir.Options{})
		if err != nil {
			if strings.Contains(err.Error(), "entry point") {
				return nil, errorf(InvalidKernelName, "%v", err)
			}
			return nil, errorf(InvalidKernelDefinition, "%v", err)
		}
		k.loaded[sim] = dk
		k.Params = dk.IR.Params
	}
	if !built {
		return nil, errorf(InvalidProgramExecutable, "the program has no successful build")
	}
	k.args = make([]kernelArg, len(k.Params))
	k.argsSet = make([]bool, len(k.Params))
	return k, nil
}

// InvalidKernelDefinition is CL_INVALID_KERNEL_DEFINITION.
const InvalidKernelDefinition Status = -47

// IsBufferArg reports whether argument i takes a memory object (so the
// C side resolves the cl_mem the value points to).
func (k *Kernel) IsBufferArg(i int) bool {
	if i < 0 || i >= len(k.Params) {
		return false
	}
	kind := k.Params[i].Kind
	return kind == ir.ParamGlobal || kind == ir.ParamConstant
}

// SetArg sets argument i: buf for a buffer argument (nil is a NULL
// buffer), value for a value argument, size alone for a __local one.
func (k *Kernel) SetArg(i int, size int, value []byte, buf *Buffer) error {
	if i < 0 || i >= len(k.Params) {
		return errorf(InvalidArgIndex, "kernel %s has %d arguments; index %d", k.Name, len(k.Params), i)
	}
	p := k.Params[i]
	var a kernelArg
	switch p.Kind {
	case ir.ParamGlobal, ir.ParamConstant:
		if size != 8 {
			return errorf(InvalidArgSize, "argument %d is a buffer: its size is sizeof(cl_mem), 8, not %d", i, size)
		}
		if buf != nil && buf.Ctx != k.Program.Ctx {
			return errorf(InvalidMemObject, "argument %d: the buffer belongs to another context", i)
		}
		a.buf = buf
	case ir.ParamLocal:
		if value != nil {
			return errorf(InvalidArgValue, "argument %d is __local: give its size and a NULL value", i)
		}
		if size <= 0 {
			return errorf(InvalidArgSize, "argument %d is __local: its size must be positive", i)
		}
		a.local = size
	case ir.ParamValue:
		if size != p.Type.Size {
			return errorf(InvalidArgSize, "argument %d (%s) is %d bytes, %d given", i, p.Type, p.Type.Size, size)
		}
		if value == nil {
			return errorf(InvalidArgValue, "argument %d needs a value", i)
		}
		a.value = append([]byte(nil), value...)
	default:
		return errorf(InvalidArgValue, "argument %d is %s, which pocketgpu's OpenCL platform does not take yet", i, p.Kind)
	}
	k.mu.Lock()
	k.args[i], k.argsSet[i] = a, true
	k.mu.Unlock()
	return nil
}

var bufferIDs atomic.Uint64

// NDRange runs the kernel on the queue's device over an NDRange (local
// nil: chosen as the device would) and returns its event; the simulated
// time is the timing model's (or 0 for a functional queue).
func (q *Queue) NDRange(k *Kernel, dims int, global, local, offset []int) (*Event, error) {
	if k.Program.Ctx != q.Ctx {
		return nil, errorf(InvalidContext, "the kernel belongs to another context")
	}
	if dims < 1 || dims > 3 || len(global) != dims || (local != nil && len(local) != dims) || (offset != nil && len(offset) != dims) {
		return nil, errorf(InvalidWorkDimension, "work_dim %d: 1 to 3, with as many sizes", dims)
	}
	nd := device.NDRange{Dims: dims}
	for i := 0; i < dims; i++ {
		if global[i] <= 0 {
			return nil, errorf(InvalidGlobalWorkSize, "global size %d in dimension %d", global[i], i)
		}
		nd.Global[i] = global[i]
		if local != nil {
			if local[i] <= 0 || global[i]%local[i] != 0 {
				return nil, errorf(InvalidWorkGroupSize, "local size %d does not divide global size %d in dimension %d", local[i], global[i], i)
			}
			nd.Local[i] = local[i]
		}
		if offset != nil {
			nd.Offset[i] = offset[i]
		}
	}
	k.mu.Lock()
	args := append([]kernelArg(nil), k.args...)
	for i, set := range k.argsSet {
		if !set {
			k.mu.Unlock()
			return nil, errorf(InvalidKernelArgs, "kernel %s: argument %d is not set", k.Name, i)
		}
	}
	dk := k.loaded[q.sim]
	k.mu.Unlock()
	if dk == nil {
		return nil, errorf(InvalidProgramExecutable, "the program was not built for this device")
	}
	return q.run(CommandNDRangeKernel, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Kernel, rec.Global, rec.Local, rec.Offset = k.Name, global, local, offset
		bufs := uniqueBuffers(args)
		for _, b := range bufs {
			b.mu.Lock()
		}
		defer func() {
			for _, b := range bufs {
				b.settle() // USE_HOST_PTR memory gets what the kernel wrote
				b.mu.Unlock()
			}
		}()
		devArgs := make([]device.Arg, len(args))
		for i, a := range args {
			switch {
			case a.buf != nil:
				devArgs[i] = device.BufferArg(a.buf.view(sim))
			case a.img != nil:
				devArgs[i] = device.ImageArg(a.img.onDevice(sim))
			case a.smp != nil:
				devArgs[i] = device.SamplerArg(a.smp.bits())
			case a.local > 0:
				devArgs[i] = device.LocalArg(a.local)
			case a.value != nil:
				devArgs[i] = device.ValueArg(a.value)
			default:
				return 0, errorf(InvalidKernelArgs, "kernel %s: argument %d is a NULL buffer, which pocketgpu does not run", k.Name, i)
			}
		}
		if q.Functional {
			r, err := sim.dev.Dispatch(dk, nd, devArgs, device.Options{})
			if err != nil {
				return 0, launchError(err)
			}
			rec.Local = r.Local[:dims]
			return 0, nil
		}
		r, err := sim.dev.Time(dk, nd, devArgs, device.Options{})
		if err != nil {
			return 0, launchError(err)
		}
		rec.Local = r.Local[:dims]
		rec.Cycles, rec.Counters = r.Timing.Cycles, r.Timing.Counters
		return r.Timing.TimeNS, nil
	})
}

// uniqueBuffers lists the storage of the buffers and images among args
// (a sub-buffer's is its parent's) once each, in creation order, the
// order they are locked in.
func uniqueBuffers(args []kernelArg) []*Buffer {
	seen := map[*Buffer]bool{}
	var out []*Buffer
	for _, a := range args {
		b := a.buf
		if a.img != nil {
			b = a.img.Mem
		}
		if b != nil && !seen[b.root()] {
			seen[b.root()] = true
			out = append(out, b.root())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// launchError maps the simulator's errors to OpenCL's.
func launchError(err error) error {
	if err == nil {
		return nil
	}
	var le *device.LaunchError
	var ae *device.ArgError
	switch {
	case errors.As(err, &le):
		return errorf(InvalidWorkGroupSize, "%v", err)
	case errors.As(err, &ae):
		return errorf(InvalidKernelArgs, "%v", err)
	case errors.Is(err, emu.ErrBudget), errors.Is(err, emu.ErrStopped):
		return errorf(OutOfResources, "%v", err)
	}
	return errorf(OutOfResources, "%v", fmt.Errorf("the kernel failed: %w", err))
}

// WorkGroupInfo is clGetKernelWorkGroupInfo's answers for a device: the
// largest work-group the kernel can run (bounded by what one core holds at
// the kernel's registers and local memory, by the GPU's occupancy rules),
// the warp width those rules choose, and the kernel's own local memory.
func (k *Kernel) WorkGroupInfo(d *Device) (wgSize, warpWidth, localBytes int, err error) {
	dk := k.loaded[k.Program.Ctx.sims[d]]
	if dk == nil {
		return 0, 0, 0, errorf(InvalidDevice, "the kernel's program was not built for the device")
	}
	g := d.GPU
	wgSize = g.MaxWorkgroupSize
	occ, oerr := g.Occupancy(arch.OccupancyQuery{Regs: min(dk.Regs, g.MaxRegistersPerThread), LocalBytes: dk.IR.LocalBytes, WorkgroupSize: wgSize})
	if oerr == nil {
		wgSize = min(wgSize, max(occ.ResidentThreadsPerCore, occ.WarpWidth))
		warpWidth = occ.WarpWidth
	} else {
		warpWidth = g.WarpSizes[0]
	}
	return wgSize, warpWidth, dk.IR.LocalBytes, nil
}
