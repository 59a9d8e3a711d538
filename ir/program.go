package ir

import (
	"fmt"
	"path/filepath"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// Program is one entry point of a SPIR-V module lowered to a flat SSA form:
// every value owns a run of 64-bit slots (one per scalar component, composites
// flattened), calls are inlined, blocks are split at barriers, and every
// instruction is a type-specialised Op over slot numbers. The executor runs it
// per warp with one lane per work-item; the timing model reads the same
// blocks to cost them.
type Program struct {
	Entry  string
	Model  spirv.ExecutionModel
	Params []Param

	Blocks []Block // Blocks[0] is the entry
	Code   []Inst
	Sites  []Site

	// Regs is the number of slots a warp holds per lane.
	Regs int
	// Consts are slots holding compile-time constants, set once per warp.
	Consts []Const
	// Builtins are slots the dispatcher fills per warp (ids, sizes).
	Builtins []BuiltinSlot
	// SpecConsts are specialisation constants a user may override.
	SpecConsts []SpecConst

	// PrivateBytes is each work-item's private frame: function variables
	// and, for graphics stages, its inputs and outputs.
	PrivateBytes int
	// LocalBytes is the static work-group memory (Workgroup variables);
	// __local pointer arguments are placed after it by the dispatcher.
	LocalBytes int
	// ConstData is program-scope constant data (OpenCL __constant
	// variables, initialised Private variables' initial images are kept
	// apart). It is uploaded as a read-only buffer whose address the
	// dispatcher writes to ConstDataSlot.
	ConstData     []byte
	ConstDataSlot int32
	// PrivateInit is the initial image of each work-item's frame (initialised
	// Private/Function variables); nil when all zero.
	PrivateInit []byte

	// LocalSize is the work-group size fixed by the module (LocalSize
	// execution mode or a WorkgroupSize constant), if LocalSizeFixed.
	LocalSize      [3]int
	LocalSizeFixed bool
	// LocalSizeSpec names the specialisation constants giving the
	// WorkgroupSize components (-1 where a component is not one).
	LocalSizeSpec [3]int

	// Side tables referenced by Inst.Aux.
	Ext     []ExtCall
	Atomics []AtomicInfo
	Images  []ImageOp
	Repacks []Repack
	Copies  []MemCopy

	// IO lists the stage's non-builtin inputs and outputs (graphics) and
	// builtin outputs, all living in the private frame.
	IO []IOVar

	UsesBarrier bool
	// MaxStack bounds the executor's reconvergence stack for this program.
	MaxStack int
}

// Inst is one executor instruction over N components.
type Inst struct {
	Op  Op
	N   uint16   // components: the op applies to slots [x, x+N) of each operand
	Dst int32    // first destination slot, -1 if none
	Src [3]int32 // operand slots, -1 if unused
	// Space is the memory space of an address computation (OpAddr*): a
	// local or private offset is 32-bit arithmetic on hardware, a global
	// address 64-bit.
	Space Space
	Imm   int64 // immediate: byte offset, stride, flag
	Aux   int32 // index into a side table
	// Site indexes Program.Sites: where in the SPIR-V this came from.
	Site int32
}

// Site locates the SPIR-V instruction an executor instruction came from.
type Site struct {
	Offset int      // word offset in the module
	Op     spirv.Op // the SPIR-V opcode
	Result uint32   // its result id, 0 if none
	Name   string   // OpName of the result, or of the enclosing function
	// File and Line are the source position an OpLine gave, if any.
	File string
	Line int
}

// String is the site in the user's terms first: its source file and line
// when the module has them (compiled with -g), then the instruction.
func (s Site) String() string {
	inst := fmt.Sprintf("%s at word %d", s.Op, s.Offset)
	if s.Result != 0 {
		inst = fmt.Sprintf("%s %%%d at word %d", s.Op, s.Result, s.Offset)
	}
	if s.File != "" && s.Line > 0 {
		return fmt.Sprintf("%s:%d (%s)", filepath.Clean(s.File), s.Line, inst)
	}
	return inst
}

// Block is a basic block: Code[Start:End] then a terminator.
type Block struct {
	Start, End int32
	Term       Term
	Succs      []Edge
	// IPDom is the immediate post-dominator, where lanes that diverge at
	// this block's terminator reconverge; NoBlock when that is the exit.
	IPDom int32
	// Label is the SPIR-V label the block came from (several IR blocks may
	// share one when calls are inlined or barriers split it).
	Label uint32
	// LoopDepth counts the natural loops containing the block.
	LoopDepth int
	// Preds lists predecessor blocks.
	Preds []int32
}

// NoBlock stands for the exit in IPDom and for "no block".
const NoBlock int32 = -1

// TermKind is how a block ends.
type TermKind uint8

const (
	TermBranch      TermKind = iota // Succs[0]
	TermCond                        // Cond true: Succs[0], false: Succs[1]
	TermSwitch                      // Succs[0] default, Succs[i+1] for Cases[i]
	TermReturn                      // the work-item finishes
	TermKill                        // fragment discarded (graphics)
	TermUnreachable                 // reaching it is a kernel error
	TermBarrier                     // work-group barrier, then Succs[0]
)

func (k TermKind) String() string {
	return [...]string{"branch", "cond", "switch", "return", "kill", "unreachable", "barrier"}[k]
}

// Term is a block terminator.
type Term struct {
	Kind  TermKind
	Cond  int32    // condition or selector slot
	Cases []uint64 // switch literals
	Site  int32
	// Barrier scope and semantics, for TermBarrier.
	ExecScope, MemScope uint32
	Semantics           uint32
}

// Edge is a control-flow edge with the phi copies taken along it (a
// parallel copy: all sources are read before any destination is written).
type Edge struct {
	To    int32
	Moves []Move
	// Overlap is set when a destination is also a source, so the copy
	// must go through scratch space.
	Overlap bool
}

// Move copies N slots.
type Move struct {
	Dst, Src int32
	N        uint16
}

// Const initialises a slot with a constant.
type Const struct {
	Slot  int32
	Value uint64
}

// BuiltinSlot asks the dispatcher to fill N slots with a builtin's value
// per lane, each component Bits wide.
type BuiltinSlot struct {
	Builtin spirv.BuiltIn
	Slot    int32
	N       int
	Bits    int
}

// SpecConst is a specialisation constant's slot and default.
type SpecConst struct {
	SpecID  uint32
	Slot    int32
	Bits    int
	Default uint64
	Name    string
}

// ParamKind is what a kernel argument or shader resource is.
type ParamKind uint8

const (
	ParamGlobal   ParamKind = iota // __global pointer / storage buffer
	ParamConstant                  // __constant pointer / uniform buffer
	ParamLocal                     // __local pointer: the dispatcher allocates work-group memory
	ParamValue                     // passed by value (scalar, vector, struct)
	ParamImage
	ParamSampler
	ParamPushConstant // Vulkan push constants: bytes in a small buffer
)

func (k ParamKind) String() string {
	return [...]string{"global buffer", "constant buffer", "local memory", "value", "image", "sampler", "push constants"}[k]
}

// Param is a kernel argument (OpenCL) or a resource (Vulkan), in the order
// users pass them.
type Param struct {
	Name string
	Kind ParamKind
	// Type is the argument's type; Elem the pointee for pointers and
	// buffer blocks.
	Type *Type
	Elem *Type
	// Slot receives the argument's value for every lane: an address, a
	// local-memory offset, the value itself, or an image handle.
	Slot int32
	// Set and Binding for Vulkan resources.
	Set, Binding int
	ReadOnly     bool
	// Image describes image arguments.
	Image *ImageType
	// ByValOffset is where a struct passed by value sits in each
	// work-item's frame, -1 for other parameters.
	ByValOffset int
}

// ExtSet is an extended instruction set.
type ExtSet uint8

const (
	ExtOpenCL   ExtSet = iota // OpenCL.std
	ExtGLSL                   // GLSL.std.450
	ExtInternal               // operations the builder needs that are not plain ALU ops
)

// Internal extended operations.
const (
	InternalBitFieldInsert uint32 = iota
	InternalBitFieldSExtract
	InternalBitFieldUExtract
	InternalQuantizeToF16
	InternalSatConvert // saturating integer conversion: Args[0]; Tag from, ResultTag to
	InternalRound      // round a float for a converting op: Imm = rounding mode
	InternalAsyncCopy  // OpGroupAsyncCopy
	InternalArrayLength
	InternalF2HRound // f32/f64 to f16 with a rounding mode (Imm)
	// InternalDeriv is a fragment shader's derivative across its 2×2 quad
	// of lanes (OpDPdx and its kin): Imm holds DerivX, DerivY or
	// DerivWidth, plus DerivFine for the fine forms.
	InternalDeriv
)

// Derivative kinds in an InternalDeriv call's Imm.
const (
	DerivX     = 0 // d/dx: OpDPdx, OpDPdxFine, OpDPdxCoarse
	DerivY     = 1 // d/dy
	DerivWidth = 2 // |d/dx| + |d/dy|: OpFwidth and its forms
	DerivFine  = 4 // the fine form (per row or column); otherwise coarse
)

// ExtCall is an extended instruction: set, number, operand slots and types.
type ExtCall struct {
	Set  ExtSet
	Num  uint32
	Name string
	// Tag is the operand scalar type tag ("F32", "U32", "S16"), ResultTag
	// the result's; N components.
	Tag, ResultTag string
	N              int
	Dst            int32
	Args           []int32
	// ArgN are the component counts of Args (scalar args to vector ops),
	// ArgTags their scalar type tags.
	ArgN    []int
	ArgTags []string
	// Ptr spaces for pointer arguments (vload/vstore, frexp, modf ...).
	Spaces []Space
	Imm    int64
	Site   int32
}

// AtomicKind is an atomic read-modify-write.
type AtomicKind uint8

const (
	AtomicLoad AtomicKind = iota
	AtomicStore
	AtomicExchange
	AtomicCompareExchange
	AtomicIIncrement
	AtomicIDecrement
	AtomicIAdd
	AtomicISub
	AtomicSMin
	AtomicUMin
	AtomicSMax
	AtomicUMax
	AtomicAnd
	AtomicOr
	AtomicXor
	AtomicFAdd
	AtomicFlagTestAndSet
	AtomicFlagClear
)

var atomicNames = [...]string{"load", "store", "exchange", "compare-exchange", "increment", "decrement",
	"add", "sub", "smin", "umin", "smax", "umax", "and", "or", "xor", "fadd", "flag-test-and-set", "flag-clear"}

func (k AtomicKind) String() string { return atomicNames[k] }

// AtomicInfo describes one atomic instruction: Dst (old value, -1 when
// none), Addr, Value and Comparator slots.
type AtomicInfo struct {
	Kind  AtomicKind
	Space Space
	Bytes int
	Float bool
	Dst   int32
	Addr  int32
	Value int32
	Comp  int32
}

// ImageOpKind is an image operation.
type ImageOpKind uint8

const (
	ImageRead ImageOpKind = iota
	ImageWrite
	ImageSample // explicit or implicit LOD 0 sampling with a sampler
	ImageFetch
	ImageQuerySize
	ImageQueryFormat
	ImageQueryOrder
	ImageQueryLevels // the number of mip levels
)

// LodMode is how a sampling instruction picks its level of detail.
type LodMode uint8

const (
	// LodNone: no LOD operand. Reads, writes, fetches and size queries
	// address level 0; sampling uses LOD 0.
	LodNone LodMode = iota
	// LodExplicit: the Lod operand (slot Lod) gives the level of detail
	// of a sample, or the level a fetch, read, write or size query
	// addresses.
	LodExplicit
	// LodGrad: the Grad operands (slots GradX, GradY, GradN components
	// each) are the coordinates' derivatives in x and y.
	LodGrad
	// LodImplicit: the coordinates' derivatives across the fragment's
	// 2×2 quad of lanes (OpImageSampleImplicitLod).
	LodImplicit
)

// ImageOp describes one image instruction.
type ImageOp struct {
	Kind    ImageOpKind
	Dst     int32
	Image   int32 // slot holding the image handle
	Sampler int32 // slot holding the sampler (-1 none)
	Coord   int32
	CoordN  int
	// CoordFloat is set when coordinates are floats.
	CoordFloat bool
	Texel      int32 // value to write
	// ResultTag is the texel component type ("F32", "U32", "S32", "F16").
	ResultTag string
	N         int
	// LodMode says how the level of detail is chosen; Lod is the Lod
	// operand's slot (-1 none), LodFloat set when it is a float (sampling)
	// rather than an integer level (fetch, read, write, size query).
	LodMode  LodMode
	Lod      int32
	LodFloat bool
	// Bias and MinLod are the Bias and MinLod operands' slots (-1 none).
	Bias, MinLod int32
	// GradX and GradY are the Grad operands' slots (GradN components
	// each; -1 none).
	GradX, GradY int32
	GradN        int
	Image_       *ImageType
	Site         int32
}

// Reads calls f for every slot the operation reads besides the image
// handle: the sampler, coordinates, texel, LOD, bias, minimum LOD and
// gradients.
func (io *ImageOp) Reads(f func(slot int32)) {
	span := func(s int32, n int) {
		for j := 0; s >= 0 && j < n; j++ {
			f(s + int32(j))
		}
	}
	span(io.Sampler, 1)
	span(io.Coord, io.CoordN)
	if io.Kind == ImageWrite {
		span(io.Texel, io.N)
	}
	span(io.Lod, 1)
	span(io.Bias, 1)
	span(io.MinLod, 1)
	span(io.GradX, io.GradN)
	span(io.GradY, io.GradN)
}

// Repack reinterprets the bits of a value with one component width as a
// value with another: From and To component widths in bytes, total bytes.
type Repack struct {
	FromBytes, ToBytes int
	FromN, ToN         int
}

// MemCopy describes OpCopyMemory: Bytes from Src to Dst addresses.
type MemCopy struct {
	DstSpace, SrcSpace Space
	Bytes              int
}

// IOVar is a graphics stage input or output in the private frame.
type IOVar struct {
	Name      string
	Output    bool
	Location  int // -1 for builtins
	Builtin   spirv.BuiltIn
	IsBuiltin bool
	Offset    int
	Type      *Type
}
