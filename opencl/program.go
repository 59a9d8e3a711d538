package opencl

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// Kernel is a cl_kernel: an entry point of a built program and its
// arguments as set so far.
type Kernel struct {
	Program *Program
	Name    string
	Params  []device.Param

	mu      sync.Mutex
	loaded  map[*simDevice]*device.Kernel
	meta    map[*Device]*kernel.KernelMeta // clang's metadata, where known
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

// NewKernel makes a kernel of the program's entry point name, for every
// device the program has an executable for.
func (p *Program) NewKernel(name string) (*Kernel, error) {
	k := &Kernel{Program: p, Name: name, loaded: map[*simDevice]*device.Kernel{}, meta: map[*Device]*kernel.KernelMeta{}}
	built := false
	for _, d := range p.Devices {
		b := p.executable(d)
		if b == nil {
			continue
		}
		built = true
		sim := p.Ctx.sims[d]
		dk, err := sim.dev.Load(b.SPIRV, name, device.LoadOptions{})
		if err != nil {
			if strings.Contains(err.Error(), "entry point") {
				return nil, errorf(InvalidKernelName, "%v", err)
			}
			return nil, errorf(InvalidKernelDefinition, "%v", err)
		}
		params := dk.Params()
		if k.Params != nil && len(k.Params) != len(params) {
			return nil, errorf(InvalidKernelDefinition, "kernel %s has different arguments on different devices", name)
		}
		k.loaded[sim] = dk
		k.Params = params
		if m := b.Meta[name]; m != nil && len(m.Args) == len(params) {
			k.meta[d] = m
		}
	}
	if !built {
		return nil, errorf(InvalidProgramExecutable, "the program has no successful build")
	}
	k.args = make([]kernelArg, len(k.Params))
	k.argsSet = make([]bool, len(k.Params))
	p.kernels.Add(1)
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
	return kind == device.ParamGlobal || kind == device.ParamConstant
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
	case device.ParamGlobal, device.ParamConstant:
		if size != 8 {
			return errorf(InvalidArgSize, "argument %d is a buffer: its size is sizeof(cl_mem), 8, not %d", i, size)
		}
		if buf != nil && buf.Ctx != k.Program.Ctx {
			return errorf(InvalidMemObject, "argument %d: the buffer belongs to another context", i)
		}
		a.buf = buf
	case device.ParamLocal:
		if value != nil {
			return errorf(InvalidArgValue, "argument %d is __local: give its size and a NULL value", i)
		}
		if size <= 0 {
			return errorf(InvalidArgSize, "argument %d is __local: its size must be positive", i)
		}
		a.local = size
	case device.ParamValue:
		if size != p.Size {
			return errorf(InvalidArgSize, "argument %d (%s) is %d bytes, %d given", i, p.Type, p.Size, size)
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
	if err := k.checkLaunch(q.Device, dims, global, local, offset); err != nil {
		return nil, err
	}
	return q.run(CommandNDRangeKernel, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Kernel, rec.Global, rec.Local, rec.Offset = k.Name, global, local, offset
		// The device is ours under its clock lock (Queue.execute): its
		// printf output goes to this kernel's buffer, flushed at its end.
		var printed bytes.Buffer
		if out := q.Ctx.platform.Printf; out != nil {
			sim.dev.Printf = &printed
			defer func() {
				sim.dev.Printf = nil
				if printed.Len() > 0 {
					out.Write(printed.Bytes())
				}
			}()
		}
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
				b, err := a.buf.view(sim)
				if err != nil {
					return 0, launchError(err)
				}
				devArgs[i] = device.BufferArg(b)
			case a.img != nil:
				img, err := a.img.onDevice(sim)
				if err != nil {
					return 0, launchError(err)
				}
				devArgs[i] = device.ImageArg(img)
			case a.smp != nil:
				devArgs[i] = device.SamplerArg(a.smp.bits())
			case a.local > 0:
				devArgs[i] = device.LocalArg(a.local)
			case a.value != nil:
				devArgs[i] = device.ValueArg(a.value)
			default:
				devArgs[i] = device.BufferArg(nil) // a NULL buffer: the kernel gets a null pointer
			}
		}
		if q.Functional {
			r, err := sim.dev.Dispatch(dk, nd, devArgs, device.Options{Strict: q.Strict})
			if err != nil {
				return 0, launchError(err)
			}
			rec.Local = r.Local[:dims]
			q.warn(rec, r)
			return 0, nil
		}
		// Under the device's clock lock (Queue.execute): its trace is ours.
		r, err := sim.dev.Time(dk, nd, devArgs, device.Options{Trace: q.Device.trace, Detail: q.Detail, Strict: q.Strict})
		if err != nil {
			return 0, launchError(err)
		}
		rec.Local = r.Local[:dims]
		q.warn(rec, &r.Result)
		rec.Detail, rec.DetailedWorkgroups, rec.ErrorPct = r.Detail.Mode, r.Detail.Detailed, r.Detail.ErrorPct
		rec.Cycles, rec.Counters = r.Timing.Cycles, r.Timing.Counters
		return r.Timing.TimeNS, nil
	})
}

// warn records a kernel's local accesses out of bounds and passes its
// warnings to the platform's Warn.
func (q *Queue) warn(rec *CommandRecord, r *device.Result) {
	rec.LocalOutOfBounds = r.Stats.LocalOutOfBounds
	if w := q.Ctx.platform.Warn; w != nil {
		for _, m := range r.Warnings {
			w(m)
		}
	}
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
	case errors.Is(err, device.ErrBudget), errors.Is(err, device.ErrStopped):
		return errorf(OutOfResources, "%v", err)
	}
	return errorf(OutOfResources, "%v", fmt.Errorf("the kernel failed: %w", err))
}
