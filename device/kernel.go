package device

import (
	"fmt"
	"slices"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// LoadOptions tune how SPIR-V becomes a kernel.
type LoadOptions struct {
	// Spec overrides specialization constants by SpecId, as text read by
	// the constant's type ("16", "-3", "0.5", "true").
	Spec map[uint32]string
}

// Kernel is a loaded entry point.
type Kernel struct {
	// Regs is the estimated 32-bit registers per thread.
	Regs int
	// Name is the entry point's name; Source where it came from.
	Name, Source string

	prog   *emu.Program
	params []Param
	// ident is the module, entry point and specialization: two kernels
	// loaded alike are the same kernel to the launch memo (reuse.go).
	ident hash64

	// cache keeps what launches work out the same each time (cache.go).
	cache kernelCache
}

// Load decodes SPIR-V and builds one entry point ("" if there is one).
func (d *Device) Load(spv []byte, entry string, opt LoadOptions) (*Kernel, error) {
	m, err := spirv.Decode(spv)
	if err != nil {
		return nil, err
	}
	ep, err := emu.Load(m, entry, ir.Options{Spec: opt.Spec})
	if err != nil {
		return nil, err
	}
	p := ep.Program
	k := &Kernel{prog: ep, Regs: p.RegistersOn(d.GPU.HalfRegisters), Name: p.Entry, ident: kernelIdent(spv, p.Entry, opt)}
	for _, par := range p.Params {
		k.params = append(k.params, paramOf(par))
	}
	return k, nil
}

// kernelIdent hashes what Load made the kernel from.
func kernelIdent(spv []byte, entry string, opt LoadOptions) hash64 {
	x := newHasher()
	x.write(spv)
	x.u64(uint64(len(entry)))
	x.write([]byte(entry))
	ids := make([]uint32, 0, len(opt.Spec))
	for id := range opt.Spec {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		x.u64(uint64(id))
		x.u64(uint64(len(opt.Spec[id])))
		x.write([]byte(opt.Spec[id]))
	}
	return x.sum()
}

// EntryPoints lists a SPIR-V module's entry points in the module's order.
func EntryPoints(spv []byte) ([]string, error) {
	m, err := spirv.Decode(spv)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, ep := range m.EntryPoints {
		names = append(names, ep.Name)
	}
	return names, nil
}

func (k *Kernel) program() *ir.Program { return k.prog.Program }

// Params describes the kernel's parameters in the order arguments are
// passed.
func (k *Kernel) Params() []Param { return slices.Clone(k.params) }

// LocalBytes is the work-group memory the kernel declares itself (its
// __local variables), not counting __local pointer arguments.
func (k *Kernel) LocalBytes() int { return k.prog.LocalBytes }

// PrivateBytes is each work-item's private frame (arrays and variables
// kept in memory).
func (k *Kernel) PrivateBytes() int { return k.prog.PrivateBytes }

// RequiredLocalSize is the work-group size the module fixes (an OpenCL
// reqd_work_group_size, a Vulkan LocalSize or WorkgroupSize), if it does.
func (k *Kernel) RequiredLocalSize() (size [3]int, fixed bool) {
	return k.prog.LocalSize, k.prog.LocalSizeFixed
}

// MaxWorkgroupSize is the largest work-group of k that the occupancy rules
// of g let run with localArgs bytes of __local arguments (what an OpenCL
// driver reports as CL_KERNEL_WORK_GROUP_SIZE: a kernel with many
// registers or much local memory gets less than the device's maximum),
// and the warp width it runs at (the preferred multiple). Zero: none fits.
func (k *Kernel) MaxWorkgroupSize(g *arch.GPU, localArgs int) (size, multiple int) {
	regs := min(k.Regs, g.MaxRegistersPerThread)
	for size := g.MaxWorkgroupSize; size >= 1; size-- {
		occ, err := g.Occupancy(arch.OccupancyQuery{Regs: regs, LocalBytes: k.LocalBytes() + localArgs, WorkgroupSize: size})
		if err == nil {
			if occ.CoresPerWorkgroup > 1 {
				return size, occ.WarpWidth // spread over its cluster's cores
			}
			return min(size, max(occ.ResidentThreadsPerCore, occ.WarpWidth)), occ.WarpWidth
		}
	}
	return 0, g.WarpSizes[0]
}

// Occupancy is how work-groups of wgSize work-items of k reside on g with
// localBytes of __local memory each (the kernel's own and its __local
// arguments'): the residency a launch gets.
func (k *Kernel) Occupancy(g *arch.GPU, wgSize, localBytes int) (arch.Occupancy, error) {
	return g.Occupancy(k.occupancyQuery(g, wgSize, localBytes))
}

func (k *Kernel) occupancyQuery(g *arch.GPU, wgSize, localBytes int) arch.OccupancyQuery {
	p := k.program()
	return arch.OccupancyQuery{Regs: min(k.Regs, g.MaxRegistersPerThread), LocalBytes: localBytes,
		WorkgroupSize: wgSize, Barrier: p.UsesBarrier, SizeFixedAtCompile: p.LocalSizeFixed}
}

// ParamKind is what a parameter takes.
type ParamKind uint8

const (
	ParamGlobal   = ParamKind(ir.ParamGlobal)   // __global pointer, storage buffer
	ParamConstant = ParamKind(ir.ParamConstant) // __constant pointer, uniform buffer
	ParamLocal    = ParamKind(ir.ParamLocal)    // __local pointer: sized by the launch
	ParamValue    = ParamKind(ir.ParamValue)    // passed by value (scalar, vector, struct)
	ParamImage    = ParamKind(ir.ParamImage)
	ParamSampler  = ParamKind(ir.ParamSampler)
	// ParamPushConstant is a Vulkan push-constant block.
	ParamPushConstant = ParamKind(ir.ParamPushConstant)
)

func (k ParamKind) String() string {
	if k > ParamPushConstant {
		return fmt.Sprintf("ParamKind(%d)", uint8(k))
	}
	return ir.ParamKind(k).String()
}

// Param describes a kernel parameter (OpenCL) or resource (Vulkan).
type Param struct {
	Name string
	Kind ParamKind
	// Type is the parameter's type as pocketgpu names it (u32, f32,
	// a vector, a struct, a pointer) and Size its bytes.
	Type string
	Size int
	// Elem is the pointee of a buffer, __local or push-constant parameter
	// and ElemSize its bytes ("" and 0 when there is none).
	Elem     string
	ElemSize int
	// Image is an image parameter's shape, when the kernel declares it.
	Image *ImageParam
	// Set and Binding place a Vulkan resource.
	Set, Binding int
	ReadOnly     bool
}

// ImageParam is the image type a parameter declares.
type ImageParam struct {
	Dim     ImageDim
	Arrayed bool
}

func paramOf(p ir.Param) Param {
	out := Param{Name: p.Name, Kind: ParamKind(p.Kind), Set: p.Set, Binding: p.Binding, ReadOnly: p.ReadOnly}
	if p.Type != nil {
		out.Type, out.Size = p.Type.String(), p.Type.Size
	}
	if p.Elem != nil {
		out.Elem, out.ElemSize = p.Elem.String(), p.Elem.Size
	}
	if p.Image != nil {
		out.Image = &ImageParam{Dim: ImageDim(p.Image.Dim), Arrayed: p.Image.Arrayed}
	}
	return out
}

// String describes what the parameter takes: "a global buffer of f32",
// "a u32 value of 4 bytes".
func (p Param) String() string {
	switch p.Kind {
	case ParamGlobal:
		return fmt.Sprintf("a global buffer of %s", p.Elem)
	case ParamConstant:
		return fmt.Sprintf("a constant buffer of %s", p.Elem)
	case ParamLocal:
		return fmt.Sprintf("a __local %s pointer", p.Elem)
	case ParamValue:
		return fmt.Sprintf("a %s value of %d bytes", p.Type, p.Size)
	case ParamImage:
		return "an image"
	case ParamSampler:
		return "a sampler"
	case ParamPushConstant:
		return fmt.Sprintf("push constants of %d bytes", p.ElemSize)
	}
	return p.Kind.String()
}

func listParams(ps []Param) string {
	if len(ps) == 0 {
		return ""
	}
	s := ": "
	for i, par := range ps {
		if i > 0 {
			s += ", "
		}
		name := par.Name
		if name == "" {
			name = fmt.Sprintf("#%d", i)
		}
		s += name + " (" + par.String() + ")"
	}
	return s
}
