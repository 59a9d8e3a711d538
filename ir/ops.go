package ir

// Op is an executor operation. The builder picks a type-specialised Op when it
// lowers a SPIR-V instruction (FAdd on f32 becomes OpFAddF32), so the executor
// never inspects types while running.
type Op uint16

// Hand-written operations: data movement, memory, control and the long tail.
// The arithmetic operations, one per (operation, type), are generated into
// op_gen.go and follow these.
const (
	OpNop Op = iota

	// OpMov copies N slots from A to Dst.
	OpMov
	// OpBroadcast copies slot A into N consecutive slots of Dst (a scalar
	// condition or value widened to a vector).
	OpBroadcast
	// OpSelect: Dst[i] = C-lane ? A[i] : B[i]; Imm = 1 when the condition is
	// one scalar for all N components.
	OpSelect
	// OpExtractDyn: Dst = A[B-lane] over a vector of Imm components.
	OpExtractDyn
	// OpInsertDyn: Dst = A with component B-lane replaced by C; Imm components.
	OpInsertDyn
	// OpRepack reinterprets the bits of A (Aux: RepackInfo) as another layout:
	// OpBitcast between vectors of different component widths.
	OpRepack

	// Address arithmetic on 64-bit pointers.
	// OpAddrImm: Dst = A + Imm.
	OpAddrImm
	// OpAddrIdx32 / OpAddrIdx64: Dst = A + sext(B) * Imm.
	OpAddrIdx32
	OpAddrIdx64

	// Memory. A = address slot, Imm = byte offset, N = components, the
	// width is in the op. Loads zero-extend into their slots.
	OpLoadGlobal8
	OpLoadGlobal16
	OpLoadGlobal32
	OpLoadGlobal64
	OpStoreGlobal8
	OpStoreGlobal16
	OpStoreGlobal32
	OpStoreGlobal64
	OpLoadLocal8
	OpLoadLocal16
	OpLoadLocal32
	OpLoadLocal64
	OpStoreLocal8
	OpStoreLocal16
	OpStoreLocal32
	OpStoreLocal64
	OpLoadPrivate8
	OpLoadPrivate16
	OpLoadPrivate32
	OpLoadPrivate64
	OpStorePrivate8
	OpStorePrivate16
	OpStorePrivate32
	OpStorePrivate64
	// OpCopyMemory copies Imm bytes from address B to address A; Aux holds
	// the two address spaces (MemCopyInfo).
	OpCopyMemory

	// OpAtomic: Aux indexes Program.Atomics (operation, space, width).
	OpAtomic

	// OpExt calls an extended-instruction routine: Aux indexes Program.Ext.
	OpExt

	// OpImage performs an image operation: Aux indexes Program.Images.
	OpImage

	// OpPtrDiff: Dst = (A - B) / Imm, as a signed 64-bit value.
	OpPtrDiff

	// OpIAddCarry etc. write a two-member struct (N components each).
	OpIAddCarry32
	OpIAddCarry64
	OpISubBorrow32
	OpISubBorrow64
	OpUMulExtended32
	OpUMulExtended64
	OpSMulExtended32
	OpSMulExtended64

	opFirstGenerated
)

var handNames = [...]string{
	OpNop: "Nop", OpMov: "Mov", OpBroadcast: "Broadcast", OpSelect: "Select",
	OpExtractDyn: "ExtractDyn", OpInsertDyn: "InsertDyn", OpRepack: "Repack",
	OpAddrImm: "AddrImm", OpAddrIdx32: "AddrIdx32", OpAddrIdx64: "AddrIdx64",
	OpLoadGlobal8: "LoadGlobal8", OpLoadGlobal16: "LoadGlobal16", OpLoadGlobal32: "LoadGlobal32", OpLoadGlobal64: "LoadGlobal64",
	OpStoreGlobal8: "StoreGlobal8", OpStoreGlobal16: "StoreGlobal16", OpStoreGlobal32: "StoreGlobal32", OpStoreGlobal64: "StoreGlobal64",
	OpLoadLocal8: "LoadLocal8", OpLoadLocal16: "LoadLocal16", OpLoadLocal32: "LoadLocal32", OpLoadLocal64: "LoadLocal64",
	OpStoreLocal8: "StoreLocal8", OpStoreLocal16: "StoreLocal16", OpStoreLocal32: "StoreLocal32", OpStoreLocal64: "StoreLocal64",
	OpLoadPrivate8: "LoadPrivate8", OpLoadPrivate16: "LoadPrivate16", OpLoadPrivate32: "LoadPrivate32", OpLoadPrivate64: "LoadPrivate64",
	OpStorePrivate8: "StorePrivate8", OpStorePrivate16: "StorePrivate16", OpStorePrivate32: "StorePrivate32", OpStorePrivate64: "StorePrivate64",
	OpCopyMemory: "CopyMemory", OpAtomic: "Atomic", OpExt: "Ext", OpImage: "Image", OpPtrDiff: "PtrDiff",
	OpIAddCarry32: "IAddCarry32", OpIAddCarry64: "IAddCarry64", OpISubBorrow32: "ISubBorrow32", OpISubBorrow64: "ISubBorrow64",
	OpUMulExtended32: "UMulExtended32", OpUMulExtended64: "UMulExtended64", OpSMulExtended32: "SMulExtended32", OpSMulExtended64: "SMulExtended64",
}

func (o Op) String() string {
	if int(o) < len(handNames) && handNames[o] != "" {
		return handNames[o]
	}
	if o >= opFirstGenerated && int(o-opFirstGenerated) < len(genNames) {
		return genNames[o-opFirstGenerated]
	}
	return "Op?"
}

// Space is a memory space as the executor addresses it.
type Space uint8

const (
	SpaceGlobal  Space = iota // buffers, constant data, images' backing store: device virtual addresses
	SpaceLocal                // the work-group's local (shared) memory: offsets
	SpacePrivate              // the work-item's own memory (function variables, I/O): offsets in its frame
)

func (s Space) String() string {
	switch s {
	case SpaceGlobal:
		return "global"
	case SpaceLocal:
		return "local"
	case SpacePrivate:
		return "private"
	}
	return "space?"
}

// LoadOp returns the load operation for a space and a width in bytes.
func LoadOp(s Space, bytes int) Op { return memOp(s, bytes, false) }

// StoreOp returns the store operation for a space and a width in bytes.
func StoreOp(s Space, bytes int) Op { return memOp(s, bytes, true) }

func memOp(s Space, bytes int, store bool) Op {
	var w Op
	switch bytes {
	case 1:
		w = 0
	case 2:
		w = 1
	case 4:
		w = 2
	case 8:
		w = 3
	default:
		panic("ir: memory access width must be 1, 2, 4 or 8 bytes")
	}
	base := [...]Op{OpLoadGlobal8, OpLoadLocal8, OpLoadPrivate8}[s]
	if store {
		base += 4
	}
	return base + w
}

// MemInfo describes a load or store operation.
func (o Op) MemInfo() (space Space, bytes int, store, ok bool) {
	if o < OpLoadGlobal8 || o > OpStorePrivate64 {
		return 0, 0, false, false
	}
	k := int(o - OpLoadGlobal8)
	return Space(k / 8), 1 << (k % 4), (k % 8) >= 4, true
}
