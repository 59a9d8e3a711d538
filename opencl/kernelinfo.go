package opencl

import (
	"strings"

	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// WorkGroupInfo is clGetKernelWorkGroupInfo's answers for one device.
type WorkGroupInfo struct {
	// Size is the largest work-group the kernel can run: what one core
	// holds at the kernel's registers and local memory, by the GPU's
	// occupancy rules, within the device's maximum.
	Size int
	// Multiple is the warp width those rules choose
	// (PREFERRED_WORK_GROUP_SIZE_MULTIPLE).
	Multiple int
	// Compile is reqd_work_group_size, or zeros.
	Compile [3]int
	// LocalBytes is the kernel's own local memory plus its __local
	// arguments as set so far; PrivateBytes each work-item's private memory.
	LocalBytes, PrivateBytes int
}

// loadedOn is the kernel as built for d, or an error if it was not.
func (k *Kernel) loadedOn(d *Device) (*device.Kernel, error) {
	sim := k.Program.Ctx.sims[d]
	k.mu.Lock()
	dk := k.loaded[sim]
	k.mu.Unlock()
	if sim == nil || dk == nil {
		return nil, errorf(InvalidDevice, "the kernel's program was not built for the device")
	}
	return dk, nil
}

// WorkGroup answers clGetKernelWorkGroupInfo for d.
func (k *Kernel) WorkGroup(d *Device) (WorkGroupInfo, error) {
	dk, err := k.loadedOn(d)
	if err != nil {
		return WorkGroupInfo{}, err
	}
	g := d.GPU
	info := WorkGroupInfo{Size: g.MaxWorkgroupSize, LocalBytes: dk.LocalBytes() + k.localArgBytes(), PrivateBytes: dk.PrivateBytes()}
	// The largest size the occupancy rules accept is what a launch can
	// use (programs such as pyopencl's scan size their work-groups by it):
	// a kernel with many registers or much local memory gets less than
	// the device's maximum.
	info.Size, info.Multiple = dk.MaxWorkgroupSize(g, k.localArgBytes())
	info.Compile = k.reqdSize(d, dk)
	return info, nil
}

// reqdSize is the work-group size the kernel was compiled for, or zeros.
func (k *Kernel) reqdSize(d *Device, dk *device.Kernel) [3]int {
	if m := k.meta[d]; m != nil && m.ReqdWorkGroupSize != [3]int{} {
		return m.ReqdWorkGroupSize
	}
	if size, fixed := dk.RequiredLocalSize(); fixed {
		return size
	}
	return [3]int{}
}

func (k *Kernel) localArgBytes() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	n := 0
	for _, a := range k.args {
		n += a.local
	}
	return n
}

// checkLaunch checks an NDRange's sizes against the device and the kernel
// before it is enqueued, so the errors come from clEnqueueNDRangeKernel
// even when the command waits.
func (k *Kernel) checkLaunch(d *Device, dims int, global, local, offset []int) error {
	dk, err := k.loadedOn(d)
	if err != nil {
		return errorf(InvalidProgramExecutable, "the program was not built for this device")
	}
	g := d.GPU
	for i := 0; i < dims; i++ {
		if offset != nil && (offset[i] < 0 || uint64(offset[i])+uint64(global[i]) < uint64(global[i])) {
			return errorf(InvalidGlobalOffset, "global offset %d in dimension %d", offset[i], i)
		}
	}
	reqd := k.reqdSize(d, dk)
	if local == nil {
		return nil // the device chooses, reqd_work_group_size first
	}
	total := 1
	for i := 0; i < dims; i++ {
		total *= local[i]
	}
	if total > g.MaxWorkgroupSize {
		return errorf(InvalidWorkGroupSize, "a work-group of %d work-items is over the device's maximum of %d", total, g.MaxWorkgroupSize)
	}
	for i := 0; i < dims; i++ {
		if local[i] > g.MaxWorkgroupSize {
			return errorf(InvalidWorkItemSize, "local size %d in dimension %d is over the device's %d", local[i], i, g.MaxWorkgroupSize)
		}
	}
	if reqd != [3]int{} {
		for i := 0; i < 3; i++ {
			l := 1
			if i < dims {
				l = local[i]
			}
			if l != reqd[i] {
				return errorf(InvalidWorkGroupSize, "kernel %s requires reqd_work_group_size(%d,%d,%d)", k.Name, reqd[0], reqd[1], reqd[2])
			}
		}
	}
	info, err := k.WorkGroup(d)
	if err != nil {
		return err
	}
	if total > info.Size {
		return errorf(InvalidWorkGroupSize, "a work-group of %d work-items is over kernel %s's CL_KERNEL_WORK_GROUP_SIZE of %d on %s", total, k.Name, info.Size, d.Name())
	}
	if lim := g.LocalMemory.MaxPerWorkgroupKiB * 1024; info.LocalBytes > lim {
		return errorf(OutOfResources, "kernel %s needs %d bytes of local memory; the device has %d", k.Name, info.LocalBytes, lim)
	}
	return nil
}

// Argument qualifiers (clGetKernelArgInfo).
const (
	ArgAddressGlobal   = 0x119B
	ArgAddressLocal    = 0x119C
	ArgAddressConstant = 0x119D
	ArgAddressPrivate  = 0x119E
	ArgAccessReadOnly  = 0x11A0
	ArgAccessWriteOnly = 0x11A1
	ArgAccessReadWrite = 0x11A2
	ArgAccessNone      = 0x11A3
	ArgTypeConst       = 1 << 0
	ArgTypeRestrict    = 1 << 1
	ArgTypeVolatile    = 1 << 2
	ArgTypePipe        = 1 << 3
)

// ArgInfo is one argument as clGetKernelArgInfo gives it.
type ArgInfo struct {
	Address, Access uint32
	TypeName        string
	TypeQual        uint64
	Name            string
}

// ArgInfo answers clGetKernelArgInfo from clang's metadata: a program
// from source (or a binary of one) has it, one from IL does not
// (CL_KERNEL_ARG_INFO_NOT_AVAILABLE).
func (k *Kernel) ArgInfo(i int) (ArgInfo, error) {
	if i < 0 || i >= len(k.Params) {
		return ArgInfo{}, errorf(InvalidArgIndex, "kernel %s has %d arguments; index %d", k.Name, len(k.Params), i)
	}
	var m *kernel.KernelMeta
	for _, d := range k.Program.Devices {
		if m = k.meta[d]; m != nil {
			break
		}
	}
	if m == nil {
		return ArgInfo{}, errorf(KernelArgInfoNotAvailable, "kernel %s has no argument information (its program was not built from source)", k.Name)
	}
	a := m.Args[i]
	info := ArgInfo{TypeName: a.Type, Name: a.Name, Access: ArgAccessNone}
	info.Address = map[int]uint32{1: ArgAddressGlobal, 2: ArgAddressConstant, 3: ArgAddressLocal}[a.AddrSpace]
	if info.Address == 0 {
		info.Address = ArgAddressPrivate
	}
	switch a.Access {
	case "read_only":
		info.Access = ArgAccessReadOnly
	case "write_only":
		info.Access = ArgAccessWriteOnly
	case "read_write":
		info.Access = ArgAccessReadWrite
	}
	for _, q := range strings.Fields(a.TypeQual) {
		info.TypeQual |= map[string]uint64{"const": ArgTypeConst, "restrict": ArgTypeRestrict, "volatile": ArgTypeVolatile, "pipe": ArgTypePipe}[q]
	}
	return info, nil
}

// Attributes is CL_KERNEL_ATTRIBUTES: the kernel's attributes as written.
func (k *Kernel) Attributes() string {
	for _, d := range k.Program.Devices {
		if m := k.meta[d]; m != nil {
			return m.Attributes
		}
	}
	return ""
}

// Clone is clCloneKernel: the same kernel with the arguments set so far.
func (k *Kernel) Clone() *Kernel {
	k.mu.Lock()
	defer k.mu.Unlock()
	c := &Kernel{Program: k.Program, Name: k.Name, Params: k.Params, loaded: k.loaded, meta: k.meta,
		args: append([]kernelArg(nil), k.args...), argsSet: append([]bool(nil), k.argsSet...)}
	k.Program.kernels.Add(1)
	return c
}

// KernelsInProgram is clCreateKernelsInProgram: a kernel for each of the
// program's kernels.
func (p *Program) KernelsInProgram() ([]*Kernel, error) {
	names, err := p.KernelNames()
	if err != nil {
		return nil, err
	}
	var ks []*Kernel
	for _, n := range names {
		k, err := p.NewKernel(n)
		if err != nil {
			for _, x := range ks {
				x.Program.KernelReleased()
			}
			return nil, err
		}
		ks = append(ks, k)
	}
	return ks, nil
}
