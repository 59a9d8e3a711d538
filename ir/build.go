package ir

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// Error is a problem with a module the builder cannot lower: an unsupported
// opcode or capability, a malformed construct spirv-val would reject, a
// missing entry point. It names the SPIR-V instruction.
type Error struct {
	Offset int // word offset, 0 when not tied to one instruction
	Op     spirv.Op
	Msg    string
}

func (e *Error) Error() string {
	if e.Offset > 0 {
		return fmt.Sprintf("spirv: word %d (%s): %s", e.Offset, e.Op, e.Msg)
	}
	return "spirv: " + e.Msg
}

// Limits on one work-item's state, far above what real kernels use.
const (
	MaxPrivateBytes = 1 << 20
	MaxSlots        = 1 << 20
)

// Options tune Build.
type Options struct {
	// Spec overrides specialisation constants by SpecId, as text read by
	// the constant's type ("16", "-3", "0.5", "true").
	Spec map[uint32]string
}

// supportedCaps lists the capabilities the executor handles. Others are
// refused by name, so a user learns at load time, not halfway through a run.
var supportedCaps = map[spirv.Capability]bool{
	spirv.CapabilityMatrix: true, spirv.CapabilityShader: true, spirv.CapabilityAddresses: true,
	spirv.CapabilityLinkage: true, spirv.CapabilityKernel: true, spirv.CapabilityVector16: true,
	spirv.CapabilityFloat16Buffer: true, spirv.CapabilityFloat16: true, spirv.CapabilityFloat64: true,
	spirv.CapabilityInt64: true, spirv.CapabilityInt64Atomics: true, spirv.CapabilityImageBasic: true,
	spirv.CapabilityImageReadWrite: true, spirv.CapabilityInt16: true, spirv.CapabilityInt8: true,
	spirv.CapabilitySampled1D: true, spirv.CapabilityImage1D: true, spirv.CapabilitySampledBuffer: true,
	spirv.CapabilityImageBuffer: true, spirv.CapabilityLiteralSampler: true,
	spirv.CapabilityStorageImageWriteWithoutFormat: true, spirv.CapabilityStorageImageReadWithoutFormat: true,
	spirv.CapabilityStorageBuffer16BitAccess: true, spirv.CapabilityUniformAndStorageBuffer16BitAccess: true,
	spirv.CapabilityStoragePushConstant16: true, spirv.CapabilityStorageBuffer8BitAccess: true,
	spirv.CapabilityUniformAndStorageBuffer8BitAccess: true, spirv.CapabilityStoragePushConstant8: true,
	spirv.CapabilityGenericPointer: true, spirv.CapabilityImageQuery: true,
	spirv.CapabilityStorageImageExtendedFormats: true, spirv.CapabilityDerivativeControl: true, spirv.CapabilityMinLod: true,
	spirv.CapabilityGroups: false, spirv.CapabilityDeviceEnqueue: false, spirv.CapabilityPipes: false,
	spirv.CapabilityVariablePointers: true, spirv.CapabilityVariablePointersStorageBuffer: true,
	spirv.CapabilityShaderNonUniform: true, spirv.CapabilityRuntimeDescriptorArray: false,
	spirv.CapabilityInputAttachment: false, spirv.CapabilityClipDistance: true, spirv.CapabilityCullDistance: true,
	spirv.CapabilityImageCubeArray: false, spirv.CapabilitySampledRect: false, spirv.CapabilityImageRect: false,
	spirv.CapabilityFloat16ImageAMD: false, spirv.CapabilityVulkanMemoryModel: true,
}

// Build lowers the entry point called entry ("" picks the only one) of m.
func Build(m *spirv.Module, entry string, opt Options) (p *Program, err error) {
	defer func() {
		// A module spirv-val would reject can still reach an unchecked
		// corner; report it as an error, never a crash.
		if r := recover(); r != nil {
			p, err = nil, &Error{Msg: fmt.Sprintf("internal error lowering the module (please report it with the module): %v", r)}
		}
	}()
	b := &builder{
		m:       m,
		opt:     opt,
		types:   map[uint32]*Type{},
		globals: map[uint32]*value{},
		p:       &Program{ConstDataSlot: -1, LocalSizeSpec: [3]int{-1, -1, -1}},
	}
	for _, c := range m.Capabilities {
		if !supportedCaps[c] {
			return nil, &Error{Msg: fmt.Sprintf("capability %s is not supported by pocketgpu", c)}
		}
	}
	switch m.AddressingModel {
	case spirv.AddressingModelLogical, spirv.AddressingModelPhysical64:
	default:
		return nil, &Error{Msg: fmt.Sprintf("addressing model %s is not supported (Logical and Physical64 are)", m.AddressingModel)}
	}
	ep, err := pickEntry(m, entry)
	if err != nil {
		return nil, err
	}
	b.ep = ep
	b.p.Entry = ep.Name
	b.p.Model = ep.Model
	switch ep.Model {
	case spirv.ExecutionModelKernel, spirv.ExecutionModelGLCompute, spirv.ExecutionModelVertex, spirv.ExecutionModelFragment:
	default:
		return nil, &Error{Msg: fmt.Sprintf("entry point %q is a %s shader; pocketgpu runs kernels, compute, vertex and fragment shaders", ep.Name, ep.Model)}
	}
	if err := b.module(); err != nil {
		return nil, err
	}
	if err := b.checkSpecIDs(); err != nil {
		return nil, err
	}
	if err := b.entryFunction(); err != nil {
		return nil, err
	}
	if err := b.finish(); err != nil {
		return nil, err
	}
	if b.p.PrivateBytes > MaxPrivateBytes {
		return nil, &Error{Msg: fmt.Sprintf("each work-item needs %d bytes of private memory; pocketgpu allows %d", b.p.PrivateBytes, MaxPrivateBytes)}
	}
	if b.p.Regs > MaxSlots {
		return nil, &Error{Msg: fmt.Sprintf("the kernel needs %d value slots per work-item; pocketgpu allows %d", b.p.Regs, MaxSlots)}
	}
	return b.p, nil
}

func pickEntry(m *spirv.Module, name string) (*spirv.EntryPoint, error) {
	if name == "" {
		if len(m.EntryPoints) == 1 {
			return &m.EntryPoints[0], nil
		}
		if len(m.EntryPoints) == 0 {
			return nil, &Error{Msg: "the module has no entry points"}
		}
		names := make([]string, len(m.EntryPoints))
		for i, e := range m.EntryPoints {
			names[i] = e.Name
		}
		return nil, &Error{Msg: fmt.Sprintf("the module has %d entry points (%s): name one", len(names), strings.Join(names, ", "))}
	}
	ep, err := m.EntryPoint(name)
	if err != nil {
		return nil, &Error{Msg: strings.TrimPrefix(err.Error(), "spirv: ")}
	}
	return ep, nil
}

// value is what the builder knows of a SPIR-V id.
type value struct {
	slot int32 // first slot, -1 when the value has none (types, builtin pointers)
	t    *Type
	// konst holds the components of a compile-time constant.
	konst []uint64
	// builtin marks a pointer into a builtin input: loads read the
	// builtin's slots from bslot on.
	builtin bool
	bslot   int32
	// function marks an OpFunction id.
	function bool
}

func (v *value) isConst() bool { return v.konst != nil }

type builder struct {
	// srcFile and srcLine are the source position of the last OpLine in
	// force, for Sites.
	srcFile string
	srcLine int

	m       *spirv.Module
	opt     Options
	p       *Program
	ep      *spirv.EntryPoint
	types   map[uint32]*Type
	globals map[uint32]*value

	// prologue code runs at the start of the entry block.
	cur      int32 // current block index
	inlining []uint32
	// builtinSlots maps a builtin to its slots, so that two variables of
	// the same builtin share them.
	builtinSlots map[spirv.BuiltIn]int32
	// pendingPointee holds pointer types declared before their pointee.
	pendingPointee []pendingPtr
	// used holds the ids the entry point's functions refer to: module-scope
	// variables of other entry points take no memory in this one.
	used map[uint32]bool
}

// usedIDs collects the ids the functions reachable from the entry point
// (through OpFunctionCall) refer to.
func (b *builder) usedIDs() map[uint32]bool {
	used := map[uint32]bool{}
	seen := map[uint32]bool{}
	work := []uint32{b.ep.Func}
	for len(work) > 0 {
		fid := work[len(work)-1]
		work = work[:len(work)-1]
		if seen[fid] {
			continue
		}
		seen[fid] = true
		for _, inst := range b.functionBody(fid) {
			ops, err := b.m.Operands(inst)
			if err != nil {
				continue
			}
			for _, o := range ops {
				switch {
				case o.Kind.IsID(), o.Kind == spirv.OperandKindPairIdRefIdRef:
					for _, id := range o.Words {
						used[id] = true
					}
				case o.Kind == spirv.OperandKindPairIdRefLiteralInteger && len(o.Words) > 0:
					used[o.Words[0]] = true
				case o.Kind == spirv.OperandKindPairLiteralIntegerIdRef && len(o.Words) > 0:
					used[o.Words[len(o.Words)-1]] = true
				}
			}
			if inst.Op == spirv.OpFunctionCall && len(inst.Operands) > 0 {
				work = append(work, inst.Operands[0])
			}
		}
	}
	return used
}

func (b *builder) errf(inst *spirv.Inst, format string, args ...any) error {
	e := &Error{Msg: fmt.Sprintf(format, args...)}
	if inst != nil {
		e.Offset, e.Op = inst.Offset, inst.Op
	}
	return e
}

func (b *builder) alloc(n int) int32 {
	s := int32(b.p.Regs)
	b.p.Regs += n
	return s
}

// constSlots allocates slots for a constant and records their values.
func (b *builder) constSlots(vals []uint64) int32 {
	s := b.alloc(len(vals))
	for i, v := range vals {
		b.p.Consts = append(b.p.Consts, Const{Slot: s + int32(i), Value: v})
	}
	return s
}

func (b *builder) decor(id uint32, k spirv.DecorationKind) (spirv.Decoration, bool) {
	return b.m.Decorated(id, k)
}

func (b *builder) memberDecor(id, member uint32, k spirv.DecorationKind) (spirv.Decoration, bool) {
	for _, d := range b.m.MemberDecorations[id][member] {
		if d.Kind == k {
			return d, true
		}
	}
	return spirv.Decoration{}, false
}

// module walks the module-level instructions: types, constants, globals.
func (b *builder) module() error {
	b.builtinSlots = map[spirv.BuiltIn]int32{}
	b.used = b.usedIDs()
	// Block 0 is the prologue: spec-constant operations and variable
	// addresses computed once per warp, then a branch to the entry function.
	b.p.Blocks = append(b.p.Blocks, Block{IPDom: NoBlock})
	b.cur = 0
	for i := range b.m.Insts {
		inst := &b.m.Insts[i]
		if inst.Op == spirv.OpFunction {
			break
		}
		if err := b.global(inst); err != nil {
			return err
		}
	}
	return nil
}

func (b *builder) global(inst *spirv.Inst) error {
	ops := inst.Operands
	switch inst.Op {
	case spirv.OpTypeVoid, spirv.OpTypeBool, spirv.OpTypeInt, spirv.OpTypeFloat, spirv.OpTypeVector,
		spirv.OpTypeMatrix, spirv.OpTypeArray, spirv.OpTypeRuntimeArray, spirv.OpTypeStruct,
		spirv.OpTypePointer, spirv.OpTypeFunction, spirv.OpTypeImage, spirv.OpTypeSampler,
		spirv.OpTypeSampledImage, spirv.OpTypeEvent, spirv.OpTypeOpaque, spirv.OpTypeForwardPointer:
		return b.typeDecl(inst)
	case spirv.OpConstant, spirv.OpSpecConstant:
		t, err := b.typ(inst, inst.Type)
		if err != nil {
			return err
		}
		if !t.IsScalar() {
			return b.errf(inst, "constant of non-scalar type %s", t)
		}
		var v uint64
		if len(ops) > 0 {
			v = uint64(ops[0])
		}
		if len(ops) > 1 {
			v |= uint64(ops[1]) << 32
		}
		v = maskBits(v, t.Bits)
		if inst.Op == spirv.OpSpecConstant {
			if v, err = b.specOverride(inst, t, v); err != nil {
				return err
			}
		}
		b.setConst(inst, t, []uint64{v})
	case spirv.OpConstantTrue, spirv.OpConstantFalse, spirv.OpSpecConstantTrue, spirv.OpSpecConstantFalse:
		t, err := b.typ(inst, inst.Type)
		if err != nil {
			return err
		}
		v := uint64(0)
		if inst.Op == spirv.OpConstantTrue || inst.Op == spirv.OpSpecConstantTrue {
			v = 1
		}
		if inst.Op == spirv.OpSpecConstantTrue || inst.Op == spirv.OpSpecConstantFalse {
			if v, err = b.specOverride(inst, t, v); err != nil {
				return err
			}
		}
		b.setConst(inst, t, []uint64{v})
	case spirv.OpConstantNull, spirv.OpUndef:
		t, err := b.typ(inst, inst.Type)
		if err != nil {
			return err
		}
		b.setConst(inst, t, make([]uint64, t.Slots))
	case spirv.OpConstantComposite, spirv.OpSpecConstantComposite:
		t, err := b.typ(inst, inst.Type)
		if err != nil {
			return err
		}
		var vals []uint64
		for _, id := range ops {
			c := b.globals[id]
			if c == nil || !c.isConst() {
				return b.errf(inst, "constituent %s is not a constant", b.m.Name(id))
			}
			vals = append(vals, c.konst...)
		}
		if len(vals) != t.Slots {
			return b.errf(inst, "composite has %d components, its type %s needs %d", len(vals), t, t.Slots)
		}
		b.setConst(inst, t, vals)
		if d, ok := b.decor(inst.Result, spirv.DecorationBuiltIn); ok && len(d.Args) > 0 && spirv.BuiltIn(d.Args[0]) == spirv.BuiltInWorkgroupSize {
			b.workgroupSizeConst(inst, vals)
		}
	case spirv.OpConstantSampler:
		t, err := b.typ(inst, inst.Type)
		if err != nil {
			return err
		}
		if len(ops) < 3 {
			return b.errf(inst, "malformed constant sampler")
		}
		b.setConst(inst, t, []uint64{EncodeSampler(ops[0], ops[1] != 0, ops[2])})
	case spirv.OpSpecConstantOp:
		return b.specConstantOp(inst)
	case spirv.OpVariable:
		return b.globalVariable(inst)
	case spirv.OpExtInstImport, spirv.OpCapability, spirv.OpExtension, spirv.OpMemoryModel,
		spirv.OpEntryPoint, spirv.OpExecutionMode, spirv.OpExecutionModeId, spirv.OpString,
		spirv.OpSource, spirv.OpSourceExtension, spirv.OpSourceContinued, spirv.OpName,
		spirv.OpMemberName, spirv.OpModuleProcessed, spirv.OpDecorate, spirv.OpMemberDecorate,
		spirv.OpDecorationGroup, spirv.OpGroupDecorate, spirv.OpGroupMemberDecorate,
		spirv.OpDecorateId, spirv.OpDecorateString, spirv.OpMemberDecorateString, spirv.OpLine,
		spirv.OpNoLine, spirv.OpNop:
	case spirv.OpExtInst:
		// Module-level extended instructions are debug information.
		if !b.isDebugSet(ops[0]) {
			return b.errf(inst, "module-level extended instruction from %q", b.m.ExtInstImports[ops[0]])
		}
	default:
		return b.errf(inst, "unsupported module-level instruction")
	}
	return nil
}

func (b *builder) isDebugSet(id uint32) bool {
	name := b.m.ExtInstImports[id]
	return strings.HasPrefix(name, "NonSemantic.") || strings.Contains(name, "DebugInfo")
}

func (b *builder) setConst(inst *spirv.Inst, t *Type, vals []uint64) {
	b.globals[inst.Result] = &value{slot: b.constSlots(vals), t: t, konst: vals}
}

func (b *builder) specOverride(inst *spirv.Inst, t *Type, v uint64) (uint64, error) {
	d, ok := b.decor(inst.Result, spirv.DecorationSpecId)
	if !ok || len(d.Args) == 0 {
		return v, nil
	}
	id := d.Args[0]
	if text, ok := b.opt.Spec[id]; ok {
		o, err := parseSpecValue(text, t)
		if err != nil {
			return 0, &Error{Msg: fmt.Sprintf("specialization constant %d (%s, %s): %v", id, b.m.Name(inst.Result), t, err)}
		}
		v = o
	}
	b.p.SpecConsts = append(b.p.SpecConsts, SpecConst{SpecID: id, Bits: t.Bits, Default: v, Name: b.m.Names[inst.Result]})
	return v, nil
}

// parseSpecValue reads a specialisation constant's value by its type.
func parseSpecValue(text string, t *Type) (uint64, error) {
	switch t.Kind {
	case KindBool:
		switch text {
		case "true", "1":
			return 1, nil
		case "false", "0":
			return 0, nil
		}
		return 0, fmt.Errorf("%q is not a bool (true, false, 1, 0)", text)
	case KindFloat:
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", text)
		}
		switch t.Bits {
		case 64:
			return math.Float64bits(f), nil
		case 32:
			return uint64(math.Float32bits(float32(f))), nil
		}
		return uint64(halfBits(f)), nil
	}
	if t.Signed || strings.HasPrefix(text, "-") {
		n, err := strconv.ParseInt(text, 0, t.Bits)
		if err != nil {
			return 0, fmt.Errorf("%q is not a %d-bit integer", text, t.Bits)
		}
		return maskBits(uint64(n), t.Bits), nil
	}
	n, err := strconv.ParseUint(text, 0, t.Bits)
	if err != nil {
		return 0, fmt.Errorf("%q is not a %d-bit unsigned integer", text, t.Bits)
	}
	return n, nil
}

// halfBits rounds to binary16, once and to nearest even, for half
// specialisation constants: subnormals in steps of 2^-24, 65520 and up to
// infinity.
func halfBits(f float64) uint16 {
	sign := uint16(0)
	if math.Signbit(f) {
		sign, f = 0x8000, -f
	}
	switch {
	case f != f:
		return sign | 0x7e00
	case f >= 65520:
		return sign | 0x7c00
	case f < 0x1p-14:
		// Subnormal (or the smallest normal, when it rounds up to it).
		return sign | uint16(math.RoundToEven(f*0x1p24))
	}
	fr, exp := math.Frexp(f) // f = fr × 2^exp, fr in [0.5, 1)
	m := math.RoundToEven(fr * 2048)
	e := exp - 1 + 15
	if m == 2048 {
		m, e = 1024, e+1
	}
	if e >= 31 {
		return sign | 0x7c00
	}
	return sign | uint16(e)<<10 | uint16(m-1024)
}

func (b *builder) workgroupSizeConst(inst *spirv.Inst, vals []uint64) {
	if len(vals) != 3 {
		return
	}
	for i := 0; i < 3; i++ {
		b.p.LocalSize[i] = int(vals[i])
		if c := b.m.Def(inst.Operands[i]); c != nil && c.Op == spirv.OpSpecConstant {
			if d, ok := b.decor(c.Result, spirv.DecorationSpecId); ok && len(d.Args) > 0 {
				b.p.LocalSizeSpec[i] = int(d.Args[0])
			}
		}
	}
	b.p.LocalSizeFixed = true
}

// specConstantOp lowers OpSpecConstantOp as ordinary code in the prologue.
func (b *builder) specConstantOp(inst *spirv.Inst) error {
	if len(inst.Operands) < 1 {
		return b.errf(inst, "malformed OpSpecConstantOp")
	}
	inner := spirv.Inst{Op: spirv.Op(inst.Operands[0]), Offset: inst.Offset, Type: inst.Type, Result: inst.Result, Operands: inst.Operands[1:]}
	f := b.newFunc(nil)
	f.vals = b.globals // results land among the globals
	if err := f.allocResult(&inner); err != nil {
		return err
	}
	return f.lower(&inner)
}

// EncodeSampler packs an OpenCL sampler: addressing mode, normalised
// coordinates and filter mode (for magnification and minification alike),
// with OpenCL's mipmap defaults (cl_khr_mipmap_image: nearest mipmap, LOD
// clamped to [0, no maximum]).
func EncodeSampler(addressing uint32, normalized bool, filter uint32) uint64 {
	return SamplerState{Addressing: addressing, Normalized: normalized, MagFilter: filter, MinFilter: filter, MaxLod: MaxSamplerLod}.Encode()
}

// DecodeSampler reverses EncodeSampler. OpenCL passes sampler arguments as
// the same bit pattern as a CLK_* constant in the kernel; the device
// converts those with SamplerFromCL.
func DecodeSampler(v uint64) (addressing uint32, normalized bool, filter uint32) {
	s := DecodeSamplerState(v)
	return s.Addressing, s.Normalized, s.MagFilter
}

// MaxSamplerLod is the largest LOD clamp a sampler holds (4095/256): above
// the last level of any image the executor takes (a side of 2^15 texels
// has 16 levels, LOD 0 to 15), so it stands for "no clamp".
const MaxSamplerLod = 4095.0 / 256

// SamplerState is a sampler as the executor sees it: OpenCL's addressing,
// normalisation and filter, and Vulkan's separate minification filter,
// mipmap mode and LOD clamps (VkSamplerCreateInfo's magFilter, minFilter,
// mipmapMode, minLod, maxLod).
type SamplerState struct {
	Addressing uint32 // SPIR-V SamplerAddressingMode
	Normalized bool
	// MagFilter filters a magnified sample (LOD ≤ 0), MinFilter a minified
	// one (SPIR-V SamplerFilterMode: 0 nearest, 1 linear).
	MagFilter, MinFilter uint32
	// MipmapLinear blends the two nearest levels; otherwise the nearest
	// level is taken.
	MipmapLinear bool
	// MinLod and MaxLod clamp the level of detail; both are kept in steps
	// of 1/256 from 0 to MaxSamplerLod.
	MinLod, MaxLod float64
}

// The sampler word: bits 0-7 addressing, 8-15 magnification filter, 16
// normalised, 17-18 minification filter plus one (0: as magnification),
// 19 linear mipmap, 32 set (a sampler, never a zero word), 33-44 minimum
// LOD × 256, 45-56 4095 − maximum LOD × 256 (so that 0 means no clamp).
const (
	samplerMinShift    = 17
	samplerMipLinear   = 1 << 19
	samplerMark        = 1 << 32
	samplerMinLodShift = 33
	samplerMaxLodShift = 45
)

// lodBits is a LOD clamp in 1/256 steps, within the 12 bits it has.
func lodBits(v float64) uint64 {
	if !(v > 0) {
		return 0
	}
	return uint64(math.Min(math.Round(v*256), 4095))
}

// Encode packs the state into the 64-bit word sampler slots hold.
func (s SamplerState) Encode() uint64 {
	v := uint64(s.Addressing&0xff) | uint64(s.MagFilter&0xff)<<8 | samplerMark
	if s.Normalized {
		v |= 1 << 16
	}
	if s.MinFilter != s.MagFilter {
		v |= uint64(s.MinFilter&1+1) << samplerMinShift
	}
	if s.MipmapLinear {
		v |= samplerMipLinear
	}
	v |= lodBits(s.MinLod) << samplerMinLodShift
	v |= (4095 - lodBits(s.MaxLod)) << samplerMaxLodShift
	return v
}

// DecodeSamplerState reverses Encode.
func DecodeSamplerState(v uint64) SamplerState {
	s := SamplerState{Addressing: uint32(v & 0xff), Normalized: v&(1<<16) != 0, MagFilter: uint32(v>>8) & 0xff,
		MipmapLinear: v&samplerMipLinear != 0}
	s.MinFilter = s.MagFilter
	if m := uint32(v>>samplerMinShift) & 3; m != 0 {
		s.MinFilter = m - 1
	}
	s.MinLod = float64(v>>samplerMinLodShift&4095) / 256
	s.MaxLod = float64(4095-v>>samplerMaxLodShift&4095) / 256
	return s
}

func maskBits(v uint64, bits int) uint64 {
	if bits >= 64 || bits <= 0 {
		return v
	}
	if bits == 1 {
		if v != 0 {
			return 1
		}
		return 0
	}
	return v & (1<<uint(bits) - 1)
}

// storageSpace maps a pointer's storage class to the executor's space.
func storageSpace(sc spirv.StorageClass) (Space, bool) {
	switch sc {
	case spirv.StorageClassCrossWorkgroup, spirv.StorageClassUniformConstant, spirv.StorageClassStorageBuffer,
		spirv.StorageClassUniform, spirv.StorageClassPushConstant, spirv.StorageClassPhysicalStorageBuffer, spirv.StorageClassImage:
		return SpaceGlobal, true
	case spirv.StorageClassWorkgroup:
		return SpaceLocal, true
	case spirv.StorageClassFunction, spirv.StorageClassPrivate, spirv.StorageClassInput, spirv.StorageClassOutput:
		return SpacePrivate, true
	}
	return 0, false
}

// globalVariable places a module-scope variable.
func (b *builder) globalVariable(inst *spirv.Inst) error {
	pt, err := b.typ(inst, inst.Type)
	if err != nil {
		return err
	}
	if pt.Kind != KindPointer {
		return b.errf(inst, "variable of non-pointer type")
	}
	sc := spirv.StorageClass(inst.Operands[0])
	t := pt.Elem
	var init *value
	if len(inst.Operands) > 1 {
		init = b.globals[inst.Operands[1]]
		if init == nil || !init.isConst() {
			return b.errf(inst, "variable initialiser %s is not a constant", b.m.Name(inst.Operands[1]))
		}
	}
	name := b.m.Names[inst.Result]
	if d, ok := b.decor(inst.Result, spirv.DecorationBuiltIn); ok && len(d.Args) > 0 {
		return b.builtinVariable(inst, spirv.BuiltIn(d.Args[0]), t, sc)
	}
	if !b.used[inst.Result] && (sc == spirv.StorageClassWorkgroup || sc == spirv.StorageClassPrivate ||
		(sc == spirv.StorageClassUniformConstant && b.p.Model == spirv.ExecutionModelKernel && t.Kind != KindImage && t.Kind != KindSampler)) {
		// Another entry point's variable: no memory here.
		return nil
	}
	switch sc {
	case spirv.StorageClassWorkgroup:
		off := alignUp(b.p.LocalBytes, max(t.Align, 4))
		b.p.LocalBytes = off + t.Size
		b.globals[inst.Result] = &value{slot: b.constSlots([]uint64{uint64(off)}), t: pt}
	case spirv.StorageClassPrivate, spirv.StorageClassFunction:
		off := b.privateVar(t, init)
		b.globals[inst.Result] = &value{slot: b.constSlots([]uint64{uint64(off)}), t: pt}
	case spirv.StorageClassInput, spirv.StorageClassOutput:
		return b.ioVariable(inst, t, sc == spirv.StorageClassOutput, name)
	case spirv.StorageClassUniformConstant:
		if t.Kind == KindImage || t.Kind == KindSampler || t.Kind == KindSampledImage {
			return b.resource(inst, pt, sc, name)
		}
		if b.p.Model != spirv.ExecutionModelKernel {
			return b.resource(inst, pt, sc, name)
		}
		// OpenCL program-scope __constant data (tables, printf formats).
		if b.p.ConstDataSlot < 0 {
			b.p.ConstDataSlot = b.alloc(1)
		}
		off := alignUp(len(b.p.ConstData), max(t.Align, 4))
		if off+t.Size > maxTypeBytes {
			return b.errf(inst, "program-scope constant data over %d bytes", maxTypeBytes)
		}
		data := make([]byte, off+t.Size)
		copy(data, b.p.ConstData)
		if init != nil {
			writeConst(data[off:], t, init.konst)
		}
		b.p.ConstData = data
		// The variable's address is computed in the prologue.
		s := b.alloc(1)
		b.emit(Inst{Op: OpAddrImm, N: 1, Dst: s, Src: [3]int32{b.p.ConstDataSlot, -1, -1}, Imm: int64(off), Site: b.site(inst)})
		b.globals[inst.Result] = &value{slot: s, t: pt}
	case spirv.StorageClassStorageBuffer, spirv.StorageClassUniform, spirv.StorageClassPushConstant:
		return b.resource(inst, pt, sc, name)
	case spirv.StorageClassCrossWorkgroup:
		return b.errf(inst, "program-scope __global variables (OpenCL 2.0) are not supported")
	default:
		return b.errf(inst, "variables in storage class %s are not supported", sc)
	}
	return nil
}

// privateVar reserves space in every work-item's frame, with its initial
// image when the variable has an initialiser.
func (b *builder) privateVar(t *Type, init *value) int {
	off := alignUp(b.p.PrivateBytes, max(t.Align, 4))
	b.p.PrivateBytes = off + t.Size
	if init != nil && b.p.PrivateBytes <= MaxPrivateBytes {
		if len(b.p.PrivateInit) < b.p.PrivateBytes {
			grown := make([]byte, b.p.PrivateBytes)
			copy(grown, b.p.PrivateInit)
			b.p.PrivateInit = grown
		}
		writeConst(b.p.PrivateInit[off:], t, init.konst)
	}
	return off
}

// writeConst lays a constant's components out in memory.
func writeConst(dst []byte, t *Type, vals []uint64) {
	for _, l := range t.Leaves() {
		if l.Slot >= len(vals) || l.Offset+l.Bytes > len(dst) {
			continue
		}
		v := vals[l.Slot]
		switch l.Bytes {
		case 1:
			dst[l.Offset] = byte(v)
		case 2:
			binary.LittleEndian.PutUint16(dst[l.Offset:], uint16(v))
		case 4:
			binary.LittleEndian.PutUint32(dst[l.Offset:], uint32(v))
		case 8:
			binary.LittleEndian.PutUint64(dst[l.Offset:], v)
		}
	}
}

func (b *builder) builtinVariable(inst *spirv.Inst, bi spirv.BuiltIn, t *Type, sc spirv.StorageClass) error {
	if sc == spirv.StorageClassOutput {
		return b.ioVariable(inst, t, true, b.m.Names[inst.Result])
	}
	if sc != spirv.StorageClassInput {
		return b.errf(inst, "builtin %s in storage class %s", bi, sc)
	}
	if !t.IsScalar() && t.Kind != KindVector {
		return b.errf(inst, "builtin %s of type %s is not supported", bi, t)
	}
	s, ok := b.builtinSlots[bi]
	if !ok {
		s = b.alloc(t.Slots)
		b.builtinSlots[bi] = s
		b.p.Builtins = append(b.p.Builtins, BuiltinSlot{Builtin: bi, Slot: s, N: t.Slots, Bits: t.Scalar().Bits})
	}
	b.globals[inst.Result] = &value{slot: -1, t: &Type{Kind: KindPointer, Elem: t, Storage: sc, Slots: 1, Size: 8, Align: 8}, builtin: true, bslot: s}
	return nil
}

// ioVariable places a graphics input or output in the private frame.
func (b *builder) ioVariable(inst *spirv.Inst, t *Type, output bool, name string) error {
	off := b.privateVar(t, nil)
	pt, _ := b.typ(inst, inst.Type)
	b.globals[inst.Result] = &value{slot: b.constSlots([]uint64{uint64(off)}), t: pt}
	loc := -1
	if d, ok := b.decor(inst.Result, spirv.DecorationLocation); ok && len(d.Args) > 0 {
		loc = int(d.Args[0])
	}
	v := IOVar{Name: name, Output: output, Location: loc, Offset: off, Type: t}
	if d, ok := b.decor(inst.Result, spirv.DecorationBuiltIn); ok && len(d.Args) > 0 {
		v.IsBuiltin, v.Builtin = true, spirv.BuiltIn(d.Args[0])
	}
	if t.Kind == KindStruct {
		// A block of builtins (gl_PerVertex): one IOVar per member.
		for i, m := range t.Members {
			if d, ok := b.memberDecor(t.ID, uint32(i), spirv.DecorationBuiltIn); ok && len(d.Args) > 0 {
				b.p.IO = append(b.p.IO, IOVar{Name: name, Output: output, Location: -1, IsBuiltin: true,
					Builtin: spirv.BuiltIn(d.Args[0]), Offset: off + t.Offsets[i], Type: m})
			}
		}
		if loc < 0 {
			return nil
		}
	}
	b.p.IO = append(b.p.IO, v)
	return nil
}

// resource declares a Vulkan resource (buffer, image, sampler, push
// constants) as a parameter; the parameter list is sorted by (set, binding)
// with push constants last in finish.
func (b *builder) resource(inst *spirv.Inst, pt *Type, sc spirv.StorageClass, name string) error {
	t := pt.Elem
	p := Param{Name: name, Type: pt, Elem: t, Slot: b.alloc(1), ByValOffset: -1}
	if d, ok := b.decor(inst.Result, spirv.DecorationDescriptorSet); ok && len(d.Args) > 0 {
		p.Set = int(d.Args[0])
	}
	if d, ok := b.decor(inst.Result, spirv.DecorationBinding); ok && len(d.Args) > 0 {
		p.Binding = int(d.Args[0])
	}
	if _, ok := b.decor(inst.Result, spirv.DecorationNonWritable); ok {
		p.ReadOnly = true
	}
	switch {
	case sc == spirv.StorageClassPushConstant:
		p.Kind = ParamPushConstant
		p.ReadOnly = true
		p.Set, p.Binding = math.MaxInt32, 0
	case sc == spirv.StorageClassStorageBuffer || (sc == spirv.StorageClassUniform && t.BufferBlock):
		p.Kind = ParamGlobal
	case sc == spirv.StorageClassUniform:
		p.Kind = ParamConstant
		p.ReadOnly = true
	case t.Kind == KindImage || t.Kind == KindSampledImage:
		p.Kind = ParamImage
		if t.Kind == KindSampledImage {
			p.Image = t.Elem.Image
			// A combined image-sampler: the sampler lives in the slot
			// after the image handle.
			b.alloc(1)
		} else {
			p.Image = t.Image
		}
	case t.Kind == KindSampler:
		p.Kind = ParamSampler
	default:
		return b.errf(inst, "resource of type %s in %s is not supported", t, sc)
	}
	b.p.Params = append(b.p.Params, p)
	if t.Kind == KindImage || t.Kind == KindSampler || t.Kind == KindSampledImage {
		// Loading the variable gives the handle: model the variable as a
		// private pointer whose loads read the parameter slot.
		b.globals[inst.Result] = &value{slot: -1, t: pt, builtin: true, bslot: p.Slot}
		return nil
	}
	b.globals[inst.Result] = &value{slot: p.Slot, t: pt}
	return nil
}

// setLine takes the source position of an OpLine (File: an OpString id).
// Line 0 is no position: llvm-spirv writes it for code the compiler made
// up (a merged or hoisted instruction).
func (b *builder) setLine(inst *spirv.Inst) {
	b.srcFile, b.srcLine = "", 0
	if len(inst.Operands) < 2 || inst.Operands[1] == 0 {
		return
	}
	b.srcFile = b.stringOf(inst.Operands[0])
	b.srcLine = int(inst.Operands[1])
}

// stringOf is the text of an OpString, or "".
func (b *builder) stringOf(id uint32) string {
	if def := b.m.Def(id); def != nil && def.Op == spirv.OpString {
		s, _, _ := spirv.LiteralString(def.Operands)
		return s
	}
	return ""
}

// NonSemantic.Shader.DebugInfo.100's instructions that give a position
// (glslangValidator -gV writes these instead of OpLine).
const (
	shaderDebugSet    = "NonSemantic.Shader.DebugInfo.100"
	shaderDebugSource = 35  // DebugSource File [Text]
	shaderDebugLine   = 103 // DebugLine Source LineStart LineEnd ColumnStart ColumnEnd
	shaderDebugNoLine = 104 // DebugNoLine
)

// debugLine takes the position of a NonSemantic.Shader.DebugInfo.100
// DebugLine or DebugNoLine; any other extended instruction is left alone.
// The line is an OpConstant's id; the file is the DebugSource's OpString.
func (b *builder) debugLine(inst *spirv.Inst) {
	ops := inst.Operands
	if len(ops) < 2 || b.m.ExtInstImports[ops[0]] != shaderDebugSet {
		return
	}
	switch ops[1] {
	case shaderDebugNoLine:
		b.srcFile, b.srcLine = "", 0
	case shaderDebugLine:
		b.srcFile, b.srcLine = "", 0
		if len(ops) < 4 {
			return
		}
		src := b.m.Def(ops[2])
		if src == nil || src.Op != spirv.OpExtInst || len(src.Operands) < 3 || src.Operands[1] != shaderDebugSource {
			return
		}
		c, ok := b.globals[ops[3]]
		if !ok || len(c.konst) != 1 || c.konst[0] == 0 {
			return
		}
		b.srcFile, b.srcLine = b.stringOf(src.Operands[2]), int(uint32(c.konst[0]))
	}
}

func (b *builder) site(inst *spirv.Inst) int32 {
	s := Site{Offset: inst.Offset, Op: inst.Op, Result: inst.Result, File: b.srcFile, Line: b.srcLine}
	if inst.Result != 0 {
		s.Name = b.m.Names[inst.Result]
	}
	b.p.Sites = append(b.p.Sites, s)
	return int32(len(b.p.Sites) - 1)
}

func (b *builder) emit(in Inst) {
	b.p.Code = append(b.p.Code, in)
}

// finish sorts Vulkan resources, checks the local size and computes the
// control-flow facts the executor and the timing model need.
func (b *builder) finish() error {
	if b.p.Model != spirv.ExecutionModelKernel {
		sort.SliceStable(b.p.Params, func(i, j int) bool {
			pi, pj := b.p.Params[i], b.p.Params[j]
			if pi.Set != pj.Set {
				return pi.Set < pj.Set
			}
			return pi.Binding < pj.Binding
		})
	}
	for _, em := range b.m.ExecutionModes[b.ep.Func] {
		if em.Mode == spirv.ExecutionModeLocalSize && len(em.Args) == 3 && !b.p.LocalSizeFixed {
			b.p.LocalSize = [3]int{int(em.Args[0]), int(em.Args[1]), int(em.Args[2])}
			b.p.LocalSizeFixed = true
		}
	}
	if b.p.LocalSizeFixed && b.p.Model == spirv.ExecutionModelKernel && b.p.LocalSize == [3]int{0, 0, 0} {
		b.p.LocalSizeFixed = false
	}
	return b.p.analyse()
}

var errRecursion = errors.New("recursion")

// checkSpecIDs refuses an override for a SpecId the module does not have:
// silently ignoring it would run a different kernel from the one asked for.
func (b *builder) checkSpecIDs() error {
	have := map[uint32]string{}
	var ids []uint32
	for _, c := range b.p.SpecConsts {
		if _, dup := have[c.SpecID]; !dup {
			ids = append(ids, c.SpecID)
		}
		have[c.SpecID] = c.Name
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	var list []string
	for _, id := range ids {
		s := strconv.FormatUint(uint64(id), 10)
		if n := have[id]; n != "" {
			s += " (" + n + ")"
		}
		list = append(list, s)
	}
	var missing []uint32
	for id := range b.opt.Spec {
		if _, ok := have[id]; !ok {
			missing = append(missing, id)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	sort.Slice(missing, func(i, j int) bool { return missing[i] < missing[j] })
	if len(list) == 0 {
		return &Error{Msg: fmt.Sprintf("specialization constant %d: the module has no specialization constants", missing[0])}
	}
	return &Error{Msg: fmt.Sprintf("specialization constant %d: the module has none with that SpecId; it has %s", missing[0], strings.Join(list, ", "))}
}
