package ir

import (
	"fmt"
	"strings"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// aluSign tells, for each SPIR-V arithmetic opcode with a generated
// executor op of the same name, how to read its operands: 'F' float,
// 'U' unsigned (or sign-agnostic) integer, 'S' signed integer, 'B' bool.
var aluSign = map[spirv.Op]byte{
	spirv.OpFAdd: 'F', spirv.OpFSub: 'F', spirv.OpFMul: 'F', spirv.OpFDiv: 'F', spirv.OpFRem: 'F', spirv.OpFMod: 'F',
	spirv.OpFNegate: 'F', spirv.OpFOrdEqual: 'F', spirv.OpFOrdNotEqual: 'F', spirv.OpFOrdLessThan: 'F',
	spirv.OpFOrdGreaterThan: 'F', spirv.OpFOrdLessThanEqual: 'F', spirv.OpFOrdGreaterThanEqual: 'F',
	spirv.OpFUnordEqual: 'F', spirv.OpFUnordNotEqual: 'F', spirv.OpFUnordLessThan: 'F', spirv.OpFUnordGreaterThan: 'F',
	spirv.OpFUnordLessThanEqual: 'F', spirv.OpFUnordGreaterThanEqual: 'F', spirv.OpOrdered: 'F', spirv.OpUnordered: 'F',
	spirv.OpIsNan: 'F', spirv.OpIsInf: 'F', spirv.OpIsFinite: 'F', spirv.OpIsNormal: 'F', spirv.OpSignBitSet: 'F',
	spirv.OpIAdd: 'U', spirv.OpISub: 'U', spirv.OpIMul: 'U', spirv.OpUDiv: 'U', spirv.OpUMod: 'U',
	spirv.OpSDiv: 'S', spirv.OpSRem: 'S', spirv.OpSMod: 'S', spirv.OpBitwiseAnd: 'U', spirv.OpBitwiseOr: 'U',
	spirv.OpBitwiseXor: 'U', spirv.OpNot: 'U', spirv.OpSNegate: 'S', spirv.OpBitReverse: 'U', spirv.OpBitCount: 'U',
	spirv.OpIEqual: 'U', spirv.OpINotEqual: 'U', spirv.OpUGreaterThan: 'U', spirv.OpUGreaterThanEqual: 'U',
	spirv.OpULessThan: 'U', spirv.OpULessThanEqual: 'U', spirv.OpSGreaterThan: 'S', spirv.OpSGreaterThanEqual: 'S',
	spirv.OpSLessThan: 'S', spirv.OpSLessThanEqual: 'S', spirv.OpShiftLeftLogical: 'U', spirv.OpShiftRightLogical: 'U',
	spirv.OpShiftRightArithmetic: 'S', spirv.OpLogicalEqual: 'B', spirv.OpLogicalNotEqual: 'B',
	spirv.OpLogicalOr: 'B', spirv.OpLogicalAnd: 'B', spirv.OpLogicalNot: 'B',
}

func tagOf(sign byte, t *Type) string {
	s := t.Scalar()
	switch {
	case sign == 'B' || s.Kind == KindBool:
		return "B"
	case sign == 'F':
		return fmt.Sprintf("F%d", s.Bits)
	case s.Kind == KindPointer:
		return "U64"
	case sign == 'S':
		return fmt.Sprintf("S%d", s.Bits)
	}
	return fmt.Sprintf("U%d", s.Bits)
}

func (f *fn) unsupported(inst *spirv.Inst, what string) error {
	return f.b.errf(inst, "%s is not supported", what)
}

// operands resolves n id operands.
func (f *fn) operands(inst *spirv.Inst, n int) ([]*value, error) {
	if len(inst.Operands) < n {
		return nil, f.b.errf(inst, "expected %d operands, found %d", n, len(inst.Operands))
	}
	vs := make([]*value, n)
	for i := 0; i < n; i++ {
		v, err := f.get(inst.Operands[i])
		if err != nil {
			return nil, err
		}
		vs[i] = v
	}
	return vs, nil
}

func (f *fn) tmp(n int) int32 { return f.b.alloc(n) }

// aluNamed emits a generated op by name over n components.
func (f *fn) aluNamed(inst *spirv.Inst, name string, n int, dst int32, srcs ...int32) error {
	op, ok := aluOps[name]
	if !ok {
		return f.b.errf(inst, "no executor operation %s (an unsupported operand type)", name)
	}
	in := Inst{Op: op, N: uint16(n), Dst: dst, Src: [3]int32{-1, -1, -1}, Site: f.site(inst)}
	copy(in.Src[:], srcs)
	f.emit(in)
	return nil
}

func (f *fn) mov(inst *spirv.Inst, dst, src int32, n int) {
	if n <= 0 || dst == src || src < 0 {
		return
	}
	f.emit(Inst{Op: OpMov, N: uint16(n), Dst: dst, Src: [3]int32{src, -1, -1}, Site: f.site(inst)})
}

// lower lowers a non-control instruction.
func (f *fn) lower(inst *spirv.Inst) error {
	if sign, ok := aluSign[inst.Op]; ok {
		return f.alu(inst, sign)
	}
	ops := inst.Operands
	switch inst.Op {
	case spirv.OpConvertFToU:
		return f.convert(inst, 'F', 'U')
	case spirv.OpConvertFToS:
		return f.convert(inst, 'F', 'S')
	case spirv.OpConvertSToF:
		return f.convert(inst, 'S', 'F')
	case spirv.OpConvertUToF:
		return f.convert(inst, 'U', 'F')
	case spirv.OpUConvert:
		return f.convert(inst, 'U', 'U')
	case spirv.OpSConvert:
		return f.convert(inst, 'S', 'S')
	case spirv.OpFConvert:
		return f.convert(inst, 'F', 'F')
	case spirv.OpSatConvertSToU:
		return f.satConvert(inst, 'S', 'U')
	case spirv.OpSatConvertUToS:
		return f.satConvert(inst, 'U', 'S')
	case spirv.OpQuantizeToF16:
		return f.internal(inst, InternalQuantizeToF16, 1)
	case spirv.OpBitcast:
		return f.bitcast(inst)
	case spirv.OpConvertPtrToU:
		v, err := f.get(ops[0])
		if err != nil {
			return err
		}
		return f.aluNamed(inst, "CvtU64"+tagOf('U', f.out(inst).t), 1, f.out(inst).slot, v.slot)
	case spirv.OpConvertUToPtr:
		v, err := f.get(ops[0])
		if err != nil {
			return err
		}
		return f.aluNamed(inst, "Cvt"+tagOf('U', v.t)+"U64", 1, f.out(inst).slot, v.slot)
	case spirv.OpPtrEqual, spirv.OpPtrNotEqual:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		name := "IEqualU64"
		if inst.Op == spirv.OpPtrNotEqual {
			name = "INotEqualU64"
		}
		return f.aluNamed(inst, name, 1, f.out(inst).slot, vs[0].slot, vs[1].slot)
	case spirv.OpPtrDiff:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		size := vs[0].t.Elem.Size
		if size == 0 {
			size = 1
		}
		f.emit(Inst{Op: OpPtrDiff, N: 1, Dst: f.out(inst).slot, Src: [3]int32{vs[0].slot, vs[1].slot, -1}, Imm: int64(size), Site: f.site(inst)})
		return nil
	case spirv.OpLoad:
		return f.load(inst)
	case spirv.OpStore:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		return f.store(inst, vs[0], vs[1])
	case spirv.OpAccessChain, spirv.OpInBoundsAccessChain:
		return f.accessChain(inst, false)
	case spirv.OpPtrAccessChain, spirv.OpInBoundsPtrAccessChain:
		return f.accessChain(inst, true)
	case spirv.OpCopyMemory, spirv.OpCopyMemorySized:
		return f.copyMemory(inst)
	case spirv.OpArrayLength:
		return f.arrayLength(inst)
	case spirv.OpCompositeConstruct:
		return f.construct(inst)
	case spirv.OpCompositeInsert:
		return f.compositeInsert(inst)
	case spirv.OpVectorShuffle:
		return f.shuffle(inst)
	case spirv.OpVectorExtractDynamic:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		f.emit(Inst{Op: OpExtractDyn, N: 1, Dst: f.out(inst).slot, Src: [3]int32{vs[0].slot, vs[1].slot, -1}, Imm: int64(vs[0].t.Slots), Site: f.site(inst)})
		return nil
	case spirv.OpVectorInsertDynamic:
		vs, err := f.operands(inst, 3)
		if err != nil {
			return err
		}
		out := f.out(inst)
		f.emit(Inst{Op: OpInsertDyn, N: uint16(out.t.Slots), Dst: out.slot, Src: [3]int32{vs[0].slot, vs[1].slot, vs[2].slot}, Imm: int64(out.t.Slots), Site: f.site(inst)})
		return nil
	case spirv.OpSelect:
		vs, err := f.operands(inst, 3)
		if err != nil {
			return err
		}
		out := f.out(inst)
		scalar := int64(0)
		if vs[0].t.Slots == 1 && out.t.Slots > 1 {
			scalar = 1
		}
		f.emit(Inst{Op: OpSelect, N: uint16(out.t.Slots), Dst: out.slot, Src: [3]int32{vs[0].slot, vs[1].slot, vs[2].slot}, Imm: scalar, Site: f.site(inst)})
		return nil
	case spirv.OpAny, spirv.OpAll:
		vs, err := f.operands(inst, 1)
		if err != nil {
			return err
		}
		return f.reduceBool(inst, vs[0], inst.Op == spirv.OpAny)
	case spirv.OpDot:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		return f.dot(inst, f.out(inst).slot, vs[0].slot, vs[1].slot, vs[0].t.Slots, tagOf('F', vs[0].t))
	case spirv.OpVectorTimesScalar, spirv.OpMatrixTimesScalar:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		out := f.out(inst)
		s := f.tmp(out.t.Slots)
		f.emit(Inst{Op: OpBroadcast, N: uint16(out.t.Slots), Dst: s, Src: [3]int32{vs[1].slot, -1, -1}, Site: f.site(inst)})
		return f.aluNamed(inst, "FMul"+tagOf('F', vs[1].t), out.t.Slots, out.slot, vs[0].slot, s)
	case spirv.OpMatrixTimesVector, spirv.OpVectorTimesMatrix, spirv.OpMatrixTimesMatrix, spirv.OpOuterProduct, spirv.OpTranspose:
		return f.matrix(inst)
	case spirv.OpExtInst:
		return f.extInst(inst)
	case spirv.OpSampledImage:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		out := f.out(inst)
		f.mov(inst, out.slot, vs[0].slot, 1)
		f.mov(inst, out.slot+1, vs[1].slot, 1)
		return nil
	case spirv.OpImage:
		// The image of a sampled image: its first slot.
		vs, err := f.operands(inst, 1)
		if err != nil {
			return err
		}
		if vs[0].t.Kind != KindSampledImage {
			return f.b.errf(inst, "OpImage of a non-sampled image")
		}
		f.mov(inst, f.out(inst).slot, vs[0].slot, 1)
		return nil
	case spirv.OpImageSampleExplicitLod, spirv.OpImageSampleImplicitLod, spirv.OpImageRead, spirv.OpImageWrite,
		spirv.OpImageFetch, spirv.OpImageQuerySize, spirv.OpImageQuerySizeLod, spirv.OpImageQueryLevels,
		spirv.OpImageQueryFormat, spirv.OpImageQueryOrder:
		return f.image(inst)
	case spirv.OpDPdx, spirv.OpDPdy, spirv.OpFwidth, spirv.OpDPdxFine, spirv.OpDPdyFine, spirv.OpFwidthFine,
		spirv.OpDPdxCoarse, spirv.OpDPdyCoarse, spirv.OpFwidthCoarse:
		return f.deriv(inst)
	case spirv.OpAtomicLoad, spirv.OpAtomicStore, spirv.OpAtomicExchange, spirv.OpAtomicCompareExchange,
		spirv.OpAtomicCompareExchangeWeak, spirv.OpAtomicIIncrement, spirv.OpAtomicIDecrement, spirv.OpAtomicIAdd,
		spirv.OpAtomicISub, spirv.OpAtomicSMin, spirv.OpAtomicUMin, spirv.OpAtomicSMax, spirv.OpAtomicUMax,
		spirv.OpAtomicAnd, spirv.OpAtomicOr, spirv.OpAtomicXor, spirv.OpAtomicFAddEXT, spirv.OpAtomicFlagTestAndSet, spirv.OpAtomicFlagClear:
		return f.atomic(inst)
	case spirv.OpIAddCarry, spirv.OpISubBorrow, spirv.OpUMulExtended, spirv.OpSMulExtended:
		return f.extended(inst)
	case spirv.OpBitFieldInsert:
		return f.internal(inst, InternalBitFieldInsert, 4)
	case spirv.OpBitFieldSExtract:
		return f.internal(inst, InternalBitFieldSExtract, 3)
	case spirv.OpBitFieldUExtract:
		return f.internal(inst, InternalBitFieldUExtract, 3)
	case spirv.OpGroupAsyncCopy:
		return f.asyncCopy(inst)
	}
	return f.unsupported(inst, inst.Op.String())
}

func (f *fn) alu(inst *spirv.Inst, sign byte) error {
	out := f.out(inst)
	n := 2
	switch inst.Op {
	case spirv.OpFNegate, spirv.OpNot, spirv.OpSNegate, spirv.OpBitReverse, spirv.OpBitCount, spirv.OpLogicalNot,
		spirv.OpIsNan, spirv.OpIsInf, spirv.OpIsFinite, spirv.OpIsNormal, spirv.OpSignBitSet:
		n = 1
	}
	vs, err := f.operands(inst, n)
	if err != nil {
		return err
	}
	name := strings.TrimPrefix(inst.Op.String(), "Op") + tagOf(sign, vs[0].t)
	srcs := make([]int32, n)
	for i, v := range vs {
		srcs[i] = v.slot
	}
	if err := f.aluNamed(inst, name, out.t.Slots, out.slot, srcs...); err != nil {
		return err
	}
	if inst.Op == spirv.OpBitCount && out.t.Scalar().Bits < 64 {
		// The count is exact; nothing to mask.
		return nil
	}
	return nil
}

// Rounding modes (SPIR-V FPRoundingMode).
const (
	roundRTE = 0
	roundRTZ = 1
	roundRTP = 2
	roundRTN = 3
)

func (f *fn) convert(inst *spirv.Inst, from, to byte) error {
	vs, err := f.operands(inst, 1)
	if err != nil {
		return err
	}
	src, out := vs[0], f.out(inst)
	ft, tt := tagOf(from, src.t), tagOf(to, out.t)
	n := out.t.Slots
	if _, sat := f.b.decor(inst.Result, spirv.DecorationSaturatedConversion); sat && from != 'F' && to != 'F' {
		return f.satConvert(inst, from, to)
	}
	s := src.slot
	if d, ok := f.b.decor(inst.Result, spirv.DecorationFPRoundingMode); ok && len(d.Args) > 0 {
		mode := int(d.Args[0])
		switch {
		case from == 'F' && to != 'F':
			if mode != roundRTZ {
				// Round in the float domain, then convert (which truncates).
				t := f.tmp(n)
				f.emit(Inst{Op: OpExt, N: uint16(n), Dst: t, Aux: f.addExt(ExtCall{Set: ExtInternal, Num: InternalRound, Name: "round",
					Tag: ft, ResultTag: ft, N: n, Dst: t, Args: []int32{s}, ArgN: []int{n}, ArgTags: []string{ft}, Imm: int64(mode)}), Site: f.site(inst)})
				s = t
			}
		case mode != roundRTE && !(from == 'F' && to == 'F' && bitsOfTag(tt) >= bitsOfTag(ft)):
			return f.b.errf(inst, "conversion %s to %s with rounding mode %d is not supported (only round-to-nearest-even)", ft, tt, mode)
		}
	}
	if ft == tt {
		f.mov(inst, out.slot, s, n)
		return nil
	}
	return f.aluNamed(inst, "Cvt"+ft+tt, n, out.slot, s)
}

func bitsOfTag(tag string) int {
	var n int
	fmt.Sscanf(tag[1:], "%d", &n)
	return n
}

func (f *fn) satConvert(inst *spirv.Inst, from, to byte) error {
	vs, err := f.operands(inst, 1)
	if err != nil {
		return err
	}
	out := f.out(inst)
	n := out.t.Slots
	f.emit(Inst{Op: OpExt, N: uint16(n), Dst: out.slot, Aux: f.addExt(ExtCall{Set: ExtInternal, Num: InternalSatConvert, Name: "sat_convert",
		Tag: tagOf(from, vs[0].t), ResultTag: tagOf(to, out.t), N: n, Dst: out.slot, Args: []int32{vs[0].slot}, ArgN: []int{n},
		ArgTags: []string{tagOf(from, vs[0].t)}}), Site: f.site(inst)})
	return nil
}

func (f *fn) addExt(c ExtCall) int32 {
	f.b.p.Ext = append(f.b.p.Ext, c)
	return int32(len(f.b.p.Ext) - 1)
}

// internal emits an internal extended operation over nargs operands.
func (f *fn) internal(inst *spirv.Inst, num uint32, nargs int) error {
	vs, err := f.operands(inst, nargs)
	if err != nil {
		return err
	}
	out := f.out(inst)
	c := ExtCall{Set: ExtInternal, Num: num, Name: inst.Op.String(), Tag: tagOf('U', vs[0].t), ResultTag: tagOf('U', out.t),
		N: out.t.Slots, Dst: out.slot}
	if vs[0].t.Scalar().Kind == KindFloat {
		c.Tag, c.ResultTag = tagOf('F', vs[0].t), tagOf('F', out.t)
	}
	for _, v := range vs {
		c.Args = append(c.Args, v.slot)
		c.ArgN = append(c.ArgN, v.t.Slots)
		c.ArgTags = append(c.ArgTags, valueTag(v.t))
	}
	c.Site = f.site(inst)
	f.emit(Inst{Op: OpExt, N: uint16(out.t.Slots), Dst: out.slot, Aux: f.addExt(c), Site: c.Site})
	return nil
}

func (f *fn) bitcast(inst *spirv.Inst) error {
	vs, err := f.operands(inst, 1)
	if err != nil {
		return err
	}
	src, out := vs[0], f.out(inst)
	if sameSlotLayout(src.t, out.t) {
		f.mov(inst, out.slot, src.slot, out.t.Slots)
		return nil
	}
	width := func(t *Type) int {
		if t.Scalar().Kind == KindPointer {
			return 8
		}
		return t.Scalar().Bits / 8
	}
	r := Repack{FromBytes: width(src.t), ToBytes: width(out.t), FromN: src.t.Slots, ToN: out.t.Slots}
	if r.FromBytes*r.FromN != r.ToBytes*r.ToN || r.FromBytes == 0 || r.ToBytes == 0 {
		return f.b.errf(inst, "bitcast from %s to %s changes the size", src.t, out.t)
	}
	f.b.p.Repacks = append(f.b.p.Repacks, r)
	f.emit(Inst{Op: OpRepack, N: uint16(out.t.Slots), Dst: out.slot, Src: [3]int32{src.slot, -1, -1}, Aux: int32(len(f.b.p.Repacks) - 1), Site: f.site(inst)})
	return nil
}

// load reads a value of the result's type through a pointer.
func (f *fn) load(inst *spirv.Inst) error {
	vs, err := f.operands(inst, 1)
	if err != nil {
		return err
	}
	ptr, out := vs[0], f.out(inst)
	if ptr.t.Kind != KindPointer {
		return f.b.errf(inst, "load through a non-pointer")
	}
	space, ok := storageSpace(ptr.t.Storage)
	if !ok {
		return f.b.errf(inst, "loads from storage class %s are not supported", ptr.t.Storage)
	}
	return f.access(inst, false, space, ptr.slot, out.t, out.slot)
}

func (f *fn) store(inst *spirv.Inst, ptr, v *value) error {
	if ptr.builtin {
		return f.b.errf(inst, "store to a builtin input or a resource variable")
	}
	if ptr.t.Kind != KindPointer {
		return f.b.errf(inst, "store through a non-pointer")
	}
	space, ok := storageSpace(ptr.t.Storage)
	if !ok {
		return f.b.errf(inst, "stores to storage class %s are not supported", ptr.t.Storage)
	}
	return f.access(inst, true, space, ptr.slot, v.t, v.slot)
}

// access emits the loads or stores moving a value of type t between slots
// and memory at the address in addr: one operation per run of contiguous
// components of one width.
func (f *fn) access(inst *spirv.Inst, store bool, space Space, addr int32, t *Type, val int32) error {
	if t.Slots == 0 && t.Size > 0 {
		return f.b.errf(inst, "loading or storing a whole %s is not supported", t)
	}
	leaves := t.Leaves()
	site := f.site(inst)
	for i := 0; i < len(leaves); {
		l := leaves[i]
		if l.Bytes != 1 && l.Bytes != 2 && l.Bytes != 4 && l.Bytes != 8 {
			return f.b.errf(inst, "memory access of %d bytes", l.Bytes)
		}
		j := i + 1
		for j < len(leaves) && leaves[j].Bytes == l.Bytes && leaves[j].Offset == leaves[j-1].Offset+l.Bytes && leaves[j].Slot == leaves[j-1].Slot+1 && !leaves[j].Bool {
			j++
		}
		if l.Bool {
			j = i + 1
		}
		n := j - i
		in := Inst{Op: memOp(space, l.Bytes, store), N: uint16(n), Src: [3]int32{addr, -1, -1}, Imm: int64(l.Offset), Site: site}
		if store {
			in.Dst = -1
			in.Src[1] = val + int32(l.Slot)
		} else {
			in.Dst = val + int32(l.Slot)
		}
		f.emit(in)
		if l.Bool && !store {
			// A bool loaded from memory is any non-zero word.
			zero := f.b.constSlots([]uint64{0})
			f.emit(Inst{Op: aluOps["INotEqualU32"], N: 1, Dst: in.Dst, Src: [3]int32{in.Dst, zero, -1}, Site: site})
		}
		i = j
	}
	return nil
}

// accessChain computes an address: the base plus constant offsets plus
// index times stride for each dynamic index.
func (f *fn) accessChain(inst *spirv.Inst, ptrChain bool) error {
	ops := inst.Operands
	base, err := f.get(ops[0])
	if err != nil {
		return err
	}
	out := f.out(inst)
	if base.t.Kind != KindPointer {
		return f.b.errf(inst, "access chain on a non-pointer")
	}
	t := base.t.Elem
	type term struct {
		slot   int32
		bits   int
		stride int
	}
	var terms []term
	off := 0
	index := func(id uint32, stride int) error {
		v, err := f.get(id)
		if err != nil {
			return err
		}
		if v.isConst() {
			off += int(signExtend(v.konst[0], v.t.Scalar().Bits)) * stride
			return nil
		}
		terms = append(terms, term{v.slot, v.t.Scalar().Bits, stride})
		return nil
	}
	idx := ops[1:]
	if ptrChain {
		if len(idx) == 0 {
			return f.b.errf(inst, "pointer access chain without an element")
		}
		stride := base.t.Stride
		if stride == 0 {
			stride = alignUp(t.Size, t.Align)
		}
		if err := index(idx[0], stride); err != nil {
			return err
		}
		idx = idx[1:]
	}
	for _, id := range idx {
		switch t.Kind {
		case KindStruct:
			v, err := f.get(id)
			if err != nil {
				return err
			}
			if !v.isConst() || int(v.konst[0]) >= len(t.Members) {
				return f.b.errf(inst, "struct member index must be a constant in range")
			}
			m := int(v.konst[0])
			off += t.Offsets[m]
			t = t.Members[m]
		case KindArray, KindRuntimeArray, KindMatrix:
			if err := index(id, t.Stride); err != nil {
				return err
			}
			t = t.Elem
		case KindVector:
			if err := index(id, t.Elem.Size); err != nil {
				return err
			}
			t = t.Elem
		default:
			return f.b.errf(inst, "cannot index into %s", t)
		}
	}
	cur := base.slot
	site := f.site(inst)
	space, _ := storageSpace(base.t.Storage)
	for k, tm := range terms {
		dst := f.tmp(1)
		if k == len(terms)-1 && off == 0 {
			dst = out.slot
		}
		op := OpAddrIdx32
		if tm.bits == 64 {
			op = OpAddrIdx64
		}
		f.emit(Inst{Op: op, N: 1, Dst: dst, Src: [3]int32{cur, tm.slot, -1}, Space: space, Imm: int64(tm.stride), Aux: int32(tm.bits), Site: site})
		cur = dst
	}
	switch {
	case off != 0:
		f.emit(Inst{Op: OpAddrImm, N: 1, Dst: out.slot, Src: [3]int32{cur, -1, -1}, Space: space, Imm: int64(off), Site: site})
	case len(terms) == 0:
		f.mov(inst, out.slot, cur, 1)
	}
	return nil
}

func signExtend(v uint64, bits int) int64 {
	if bits >= 64 || bits <= 0 {
		return int64(v)
	}
	s := 64 - uint(bits)
	return int64(v<<s) >> s
}

func (f *fn) copyMemory(inst *spirv.Inst) error {
	ops := inst.Operands
	vs, err := f.operands(inst, 2)
	if err != nil {
		return err
	}
	dst, src := vs[0], vs[1]
	ds, ok1 := storageSpace(dst.t.Storage)
	ss, ok2 := storageSpace(src.t.Storage)
	if !ok1 || !ok2 || dst.builtin || src.builtin {
		return f.b.errf(inst, "memory copy between unsupported storage classes")
	}
	c := MemCopy{DstSpace: ds, SrcSpace: ss, Bytes: dst.t.Elem.Size}
	in := Inst{Op: OpCopyMemory, N: 1, Dst: -1, Src: [3]int32{dst.slot, src.slot, -1}, Site: f.site(inst)}
	if inst.Op == spirv.OpCopyMemorySized {
		size, err := f.get(ops[2])
		if err != nil {
			return err
		}
		if size.isConst() {
			c.Bytes = int(size.konst[0])
		} else {
			c.Bytes = -1
			in.Src[2] = size.slot
		}
	}
	f.b.p.Copies = append(f.b.p.Copies, c)
	in.Aux = int32(len(f.b.p.Copies) - 1)
	f.emit(in)
	return nil
}

func (f *fn) arrayLength(inst *spirv.Inst) error {
	ops := inst.Operands
	base, err := f.get(ops[0])
	if err != nil {
		return err
	}
	st := base.t.Elem
	if st == nil || st.Kind != KindStruct || int(ops[1]) >= len(st.Members) || st.Members[ops[1]].Kind != KindRuntimeArray {
		return f.b.errf(inst, "OpArrayLength needs a struct whose member %d is a runtime array", ops[1])
	}
	out := f.out(inst)
	m := st.Members[ops[1]]
	c := ExtCall{Set: ExtInternal, Num: InternalArrayLength, Name: "array_length", Tag: "U64", ResultTag: "U32", N: 1, Dst: out.slot,
		Args: []int32{base.slot}, ArgN: []int{1}, ArgTags: []string{"U64"}, Imm: int64(st.Offsets[ops[1]])<<32 | int64(m.Stride), Site: f.site(inst)}
	f.emit(Inst{Op: OpExt, N: 1, Dst: out.slot, Aux: f.addExt(c), Site: c.Site})
	return nil
}

// construct builds a composite from its constituents; constants fold.
func (f *fn) construct(inst *spirv.Inst) error {
	out := f.out(inst)
	var konst []uint64
	allConst := true
	pos := int32(0)
	type run struct{ dst, src, n int32 }
	var runs []run
	for _, id := range inst.Operands {
		v, err := f.get(id)
		if err != nil {
			return err
		}
		n := int32(v.t.Slots)
		if v.isConst() {
			konst = append(konst, v.konst...)
		} else {
			allConst = false
		}
		if n > 0 && v.slot >= 0 {
			if k := len(runs) - 1; k >= 0 && runs[k].dst+runs[k].n == out.slot+pos && runs[k].src+runs[k].n == v.slot {
				runs[k].n += n
			} else {
				runs = append(runs, run{out.slot + pos, v.slot, n})
			}
		}
		pos += n
	}
	if allConst && len(konst) == out.t.Slots {
		for i, c := range konst {
			f.b.p.Consts = append(f.b.p.Consts, Const{Slot: out.slot + int32(i), Value: c})
		}
		out.konst = konst
		return nil
	}
	for _, r := range runs {
		f.mov(inst, r.dst, r.src, int(r.n))
	}
	return nil
}

func (f *fn) compositeInsert(inst *spirv.Inst) error {
	vs, err := f.operands(inst, 2)
	if err != nil {
		return err
	}
	obj, comp, out := vs[0], vs[1], f.out(inst)
	off, _, err := f.compositeOffset(inst, comp.t, inst.Operands[2:])
	if err != nil {
		return err
	}
	f.mov(inst, out.slot, comp.slot, out.t.Slots)
	f.mov(inst, out.slot+int32(off), obj.slot, obj.t.Slots)
	return nil
}

func (f *fn) shuffle(inst *spirv.Inst) error {
	vs, err := f.operands(inst, 2)
	if err != nil {
		return err
	}
	a, c, out := vs[0], vs[1], f.out(inst)
	na := uint32(a.t.Slots)
	type run struct{ dst, src, n int32 }
	var runs []run
	for i, k := range inst.Operands[2:] {
		if k == 0xFFFFFFFF {
			continue // an undefined component
		}
		var src int32
		switch {
		case k < na:
			src = a.slot + int32(k)
		case k < na+uint32(c.t.Slots):
			src = c.slot + int32(k-na)
		default:
			return f.b.errf(inst, "shuffle component %d out of range", k)
		}
		dst := out.slot + int32(i)
		if n := len(runs) - 1; n >= 0 && runs[n].dst+runs[n].n == dst && runs[n].src+runs[n].n == src {
			runs[n].n++
		} else {
			runs = append(runs, run{dst, src, 1})
		}
	}
	for _, r := range runs {
		f.mov(inst, r.dst, r.src, int(r.n))
	}
	return nil
}

func (f *fn) reduceBool(inst *spirv.Inst, v *value, any bool) error {
	out := f.out(inst)
	name := "LogicalAndB"
	if any {
		name = "LogicalOrB"
	}
	n := v.t.Slots
	if n == 1 {
		f.mov(inst, out.slot, v.slot, 1)
		return nil
	}
	if err := f.aluNamed(inst, name, 1, out.slot, v.slot, v.slot+1); err != nil {
		return err
	}
	for i := 2; i < n; i++ {
		if err := f.aluNamed(inst, name, 1, out.slot, out.slot, v.slot+int32(i)); err != nil {
			return err
		}
	}
	return nil
}

// dot emits a dot product of n-component vectors a and c into dst.
func (f *fn) dot(inst *spirv.Inst, dst, a, c int32, n int, tag string) error {
	t := f.tmp(n)
	if err := f.aluNamed(inst, "FMul"+tag, n, t, a, c); err != nil {
		return err
	}
	if n == 1 {
		f.mov(inst, dst, t, 1)
		return nil
	}
	if err := f.aluNamed(inst, "FAdd"+tag, 1, dst, t, t+1); err != nil {
		return err
	}
	for i := 2; i < n; i++ {
		if err := f.aluNamed(inst, "FAdd"+tag, 1, dst, dst, t+int32(i)); err != nil {
			return err
		}
	}
	return nil
}

// matrix expands matrix arithmetic into vector operations on columns.
func (f *fn) matrix(inst *spirv.Inst) error {
	out := f.out(inst)
	// The component type: a matrix result's is its columns'.
	et := out.t
	if et.Kind == KindMatrix {
		et = et.Elem
	}
	tag := tagOf('F', et)
	switch inst.Op {
	case spirv.OpTranspose:
		vs, err := f.operands(inst, 1)
		if err != nil {
			return err
		}
		m := vs[0]
		if m.t.Kind != KindMatrix || out.t.Kind != KindMatrix {
			return f.b.errf(inst, "OpTranspose needs a matrix")
		}
		rows, cols := m.t.Elem.Len, m.t.Len
		for c := 0; c < cols; c++ {
			for r := 0; r < rows; r++ {
				f.mov(inst, out.slot+int32(r*cols+c), m.slot+int32(c*rows+r), 1)
			}
		}
		return nil
	case spirv.OpMatrixTimesVector:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		return f.matVec(inst, out.slot, vs[0].slot, vs[1].slot, vs[0].t.Elem.Len, vs[0].t.Len, tag)
	case spirv.OpVectorTimesMatrix:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		v, m := vs[0], vs[1]
		rows := m.t.Elem.Len
		for c := 0; c < m.t.Len; c++ {
			if err := f.dot(inst, out.slot+int32(c), v.slot, m.slot+int32(c*rows), rows, tag); err != nil {
				return err
			}
		}
		return nil
	case spirv.OpMatrixTimesMatrix:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		a, c := vs[0], vs[1]
		rows, inner := a.t.Elem.Len, a.t.Len
		for j := 0; j < c.t.Len; j++ {
			if err := f.matVec(inst, out.slot+int32(j*rows), a.slot, c.slot+int32(j*inner), rows, inner, tag); err != nil {
				return err
			}
		}
		return nil
	case spirv.OpOuterProduct:
		vs, err := f.operands(inst, 2)
		if err != nil {
			return err
		}
		a, c := vs[0], vs[1]
		rows := a.t.Slots
		for j := 0; j < c.t.Slots; j++ {
			s := f.tmp(rows)
			f.emit(Inst{Op: OpBroadcast, N: uint16(rows), Dst: s, Src: [3]int32{c.slot + int32(j), -1, -1}, Site: f.site(inst)})
			if err := f.aluNamed(inst, "FMul"+tag, rows, out.slot+int32(j*rows), a.slot, s); err != nil {
				return err
			}
		}
		return nil
	}
	return f.unsupported(inst, inst.Op.String())
}

// matVec: dst(rows) = M(rows x cols, column-major at m) * v(cols).
func (f *fn) matVec(inst *spirv.Inst, dst, m, v int32, rows, cols int, tag string) error {
	acc := f.tmp(rows)
	prod := f.tmp(rows)
	s := f.tmp(rows)
	for c := 0; c < cols; c++ {
		f.emit(Inst{Op: OpBroadcast, N: uint16(rows), Dst: s, Src: [3]int32{v + int32(c), -1, -1}, Site: f.site(inst)})
		target := prod
		if c == 0 {
			target = acc
		}
		if err := f.aluNamed(inst, "FMul"+tag, rows, target, m+int32(c*rows), s); err != nil {
			return err
		}
		if c > 0 {
			if err := f.aluNamed(inst, "FAdd"+tag, rows, acc, acc, prod); err != nil {
				return err
			}
		}
	}
	f.mov(inst, dst, acc, rows)
	return nil
}

func (f *fn) extended(inst *spirv.Inst) error {
	vs, err := f.operands(inst, 2)
	if err != nil {
		return err
	}
	out := f.out(inst)
	bits := vs[0].t.Scalar().Bits
	if bits != 32 && bits != 64 {
		return f.b.errf(inst, "%s on %d-bit integers is not supported", inst.Op, bits)
	}
	var op Op
	switch inst.Op {
	case spirv.OpIAddCarry:
		op = OpIAddCarry32
	case spirv.OpISubBorrow:
		op = OpISubBorrow32
	case spirv.OpUMulExtended:
		op = OpUMulExtended32
	case spirv.OpSMulExtended:
		op = OpSMulExtended32
	}
	if bits == 64 {
		op++
	}
	f.emit(Inst{Op: op, N: uint16(vs[0].t.Slots), Dst: out.slot, Src: [3]int32{vs[0].slot, vs[1].slot, -1}, Site: f.site(inst)})
	return nil
}

func (f *fn) atomic(inst *spirv.Inst) error {
	ops := inst.Operands
	ptr, err := f.get(ops[0])
	if err != nil {
		return err
	}
	if ptr.t.Kind != KindPointer || ptr.builtin {
		return f.b.errf(inst, "atomic on a non-pointer")
	}
	space, ok := storageSpace(ptr.t.Storage)
	if !ok {
		return f.b.errf(inst, "atomics on storage class %s are not supported", ptr.t.Storage)
	}
	et := ptr.t.Elem
	a := AtomicInfo{Space: space, Bytes: et.Size, Float: et.Kind == KindFloat, Dst: -1, Addr: ptr.slot, Value: -1, Comp: -1}
	if a.Bytes != 4 && a.Bytes != 8 {
		return f.b.errf(inst, "atomics on %d-byte values are not supported (4 and 8 are)", a.Bytes)
	}
	if out := f.out(inst); out != nil {
		a.Dst = out.slot
	}
	val := func(i int) error {
		v, err := f.get(ops[i])
		if err != nil {
			return err
		}
		a.Value = v.slot
		return nil
	}
	kinds := map[spirv.Op]AtomicKind{
		spirv.OpAtomicLoad: AtomicLoad, spirv.OpAtomicStore: AtomicStore, spirv.OpAtomicExchange: AtomicExchange,
		spirv.OpAtomicCompareExchange: AtomicCompareExchange, spirv.OpAtomicCompareExchangeWeak: AtomicCompareExchange,
		spirv.OpAtomicIIncrement: AtomicIIncrement, spirv.OpAtomicIDecrement: AtomicIDecrement, spirv.OpAtomicIAdd: AtomicIAdd,
		spirv.OpAtomicISub: AtomicISub, spirv.OpAtomicSMin: AtomicSMin, spirv.OpAtomicUMin: AtomicUMin,
		spirv.OpAtomicSMax: AtomicSMax, spirv.OpAtomicUMax: AtomicUMax, spirv.OpAtomicAnd: AtomicAnd,
		spirv.OpAtomicOr: AtomicOr, spirv.OpAtomicXor: AtomicXor, spirv.OpAtomicFAddEXT: AtomicFAdd,
		spirv.OpAtomicFlagTestAndSet: AtomicFlagTestAndSet, spirv.OpAtomicFlagClear: AtomicFlagClear,
	}
	a.Kind = kinds[inst.Op]
	switch a.Kind {
	case AtomicStore:
		if err := val(3); err != nil {
			return err
		}
	case AtomicCompareExchange:
		// Pointer, Scope, Equal, Unequal, Value, Comparator.
		if err := val(4); err != nil {
			return err
		}
		c, err := f.get(ops[5])
		if err != nil {
			return err
		}
		a.Comp = c.slot
	case AtomicLoad, AtomicIIncrement, AtomicIDecrement, AtomicFlagTestAndSet, AtomicFlagClear:
	default:
		if err := val(3); err != nil {
			return err
		}
	}
	f.b.p.Atomics = append(f.b.p.Atomics, a)
	f.emit(Inst{Op: OpAtomic, N: 1, Dst: a.Dst, Src: [3]int32{a.Addr, a.Value, a.Comp}, Aux: int32(len(f.b.p.Atomics) - 1), Site: f.site(inst)})
	return nil
}

func (f *fn) image(inst *spirv.Inst) error {
	ops := inst.Operands
	if len(ops) < 1 {
		return f.b.errf(inst, "malformed %s", inst.Op)
	}
	img, err := f.get(ops[0])
	if err != nil {
		return err
	}
	io := ImageOp{Image: img.slot, Sampler: -1, Coord: -1, Texel: -1, Lod: -1, Bias: -1, MinLod: -1, GradX: -1, GradY: -1, Dst: -1, Site: f.site(inst)}
	it := img.t
	if it.Kind == KindSampledImage {
		io.Sampler = img.slot + 1
		it = it.Elem
	}
	io.Image_ = it.Image
	if out := f.out(inst); out != nil {
		io.Dst, io.N = out.slot, out.t.Slots
		io.ResultTag = tagOf('U', out.t)
		if out.t.Scalar().Kind == KindFloat {
			io.ResultTag = tagOf('F', out.t)
		} else if out.t.Scalar().Signed {
			io.ResultTag = tagOf('S', out.t)
		}
	}
	coord := func() error {
		if len(ops) < 2 {
			return f.b.errf(inst, "malformed %s: no coordinate", inst.Op)
		}
		c, err := f.get(ops[1])
		if err != nil {
			return err
		}
		io.Coord, io.CoordN, io.CoordFloat = c.slot, c.t.Slots, c.t.Scalar().Kind == KindFloat
		return nil
	}
	// The image operands (a mask, then ids) follow the fixed operands.
	operandsAt := 2
	switch inst.Op {
	case spirv.OpImageSampleExplicitLod, spirv.OpImageSampleImplicitLod:
		io.Kind = ImageSample
		if io.Sampler < 0 {
			return f.b.errf(inst, "sampling needs a sampled image")
		}
		if err := coord(); err != nil {
			return err
		}
	case spirv.OpImageRead, spirv.OpImageFetch:
		io.Kind = ImageRead
		if inst.Op == spirv.OpImageFetch {
			io.Kind = ImageFetch
		}
		if err := coord(); err != nil {
			return err
		}
	case spirv.OpImageWrite:
		io.Kind = ImageWrite
		if err := coord(); err != nil {
			return err
		}
		if len(ops) < 3 {
			return f.b.errf(inst, "malformed OpImageWrite: no texel")
		}
		t, err := f.get(ops[2])
		if err != nil {
			return err
		}
		io.Texel, io.N = t.slot, t.t.Slots
		io.ResultTag = tagOf('U', t.t)
		if t.t.Scalar().Kind == KindFloat {
			io.ResultTag = tagOf('F', t.t)
		} else if t.t.Scalar().Signed {
			io.ResultTag = tagOf('S', t.t)
		}
		operandsAt = 3
	case spirv.OpImageQuerySize, spirv.OpImageQuerySizeLod:
		io.Kind = ImageQuerySize
		operandsAt = len(ops)
		if inst.Op == spirv.OpImageQuerySizeLod {
			if len(ops) < 2 {
				return f.b.errf(inst, "malformed OpImageQuerySizeLod: no level of detail")
			}
			l, err := f.get(ops[1])
			if err != nil {
				return err
			}
			io.LodMode, io.Lod = LodExplicit, l.slot
		}
	case spirv.OpImageQueryLevels:
		io.Kind = ImageQueryLevels
		operandsAt = len(ops)
	case spirv.OpImageQueryFormat:
		io.Kind = ImageQueryFormat
		operandsAt = len(ops)
	case spirv.OpImageQueryOrder:
		io.Kind = ImageQueryOrder
		operandsAt = len(ops)
	}
	if io.Image_ == nil {
		return f.b.errf(inst, "image operation on a non-image")
	}
	if operandsAt < len(ops) {
		if err := f.imageOperands(inst, ops[operandsAt:], &io); err != nil {
			return err
		}
	}
	switch {
	case inst.Op == spirv.OpImageSampleImplicitLod:
		if io.LodMode != LodNone {
			return f.b.errf(inst, "OpImageSampleImplicitLod takes no Lod or Grad operand")
		}
		io.LodMode = LodImplicit
	case inst.Op == spirv.OpImageSampleExplicitLod:
		if io.LodMode == LodNone {
			return f.b.errf(inst, "OpImageSampleExplicitLod needs a Lod or Grad operand")
		}
		if io.Bias >= 0 {
			return f.b.errf(inst, "the Bias operand is only for implicit-LOD sampling")
		}
	case io.LodMode == LodGrad || io.Bias >= 0 || io.MinLod >= 0:
		return f.b.errf(inst, "Grad, Bias and MinLod operands are only for sampling")
	}
	f.b.p.Images = append(f.b.p.Images, io)
	f.emit(Inst{Op: OpImage, N: uint16(max(io.N, 1)), Dst: io.Dst, Src: [3]int32{io.Image, io.Coord, io.Texel}, Aux: int32(len(f.b.p.Images) - 1), Site: io.Site})
	return nil
}

// imageOperands reads an image instruction's optional operands: the
// ImageOperands mask, then one or two ids per set bit in the order of the
// bits (SPIR-V spec §3.14 Image Operands).
func (f *fn) imageOperands(inst *spirv.Inst, ops []uint32, io *ImageOp) error {
	mask := spirv.ImageOperands(ops[0])
	ids := ops[1:]
	next := func(name string) (*value, error) {
		if len(ids) == 0 {
			return nil, f.b.errf(inst, "malformed image operands: %s has no operand", name)
		}
		v, err := f.get(ids[0])
		ids = ids[1:]
		return v, err
	}
	for bit := spirv.ImageOperands(1); bit != 0 && bit <= mask; bit <<= 1 {
		if mask&bit == 0 {
			continue
		}
		switch bit {
		case spirv.ImageOperandsBias:
			v, err := next("Bias")
			if err != nil {
				return err
			}
			io.Bias = v.slot
		case spirv.ImageOperandsLod:
			v, err := next("Lod")
			if err != nil {
				return err
			}
			io.LodMode, io.Lod, io.LodFloat = LodExplicit, v.slot, v.t.Scalar().Kind == KindFloat
		case spirv.ImageOperandsGrad:
			dx, err := next("Grad")
			if err != nil {
				return err
			}
			dy, err := next("Grad")
			if err != nil {
				return err
			}
			if dx.t.Slots != dy.t.Slots {
				return f.b.errf(inst, "the Grad operands have %d and %d components", dx.t.Slots, dy.t.Slots)
			}
			io.LodMode, io.GradX, io.GradY, io.GradN = LodGrad, dx.slot, dy.slot, dx.t.Slots
		case spirv.ImageOperandsMinLod:
			v, err := next("MinLod")
			if err != nil {
				return err
			}
			io.MinLod = v.slot
		case spirv.ImageOperandsMakeTexelAvailable, spirv.ImageOperandsMakeTexelVisible:
			// A memory-model scope: the executor's images are coherent.
			if _, err := next(bit.String()); err != nil {
				return err
			}
		case spirv.ImageOperandsNonPrivateTexel, spirv.ImageOperandsVolatileTexel, spirv.ImageOperandsNontemporal,
			spirv.ImageOperandsSignExtend, spirv.ImageOperandsZeroExtend:
			// No operand; nothing the executor does differently (the
			// channel type says how integers extend).
		default:
			return f.unsupported(inst, "the image operand "+bit.String()+" (texel offsets, gathers and multisampled images)")
		}
	}
	if len(ids) != 0 {
		return f.b.errf(inst, "malformed image operands: %d operands more than the mask %s names", len(ids), mask)
	}
	return nil
}

// deriv lowers OpDPdx and its kin (derivatives across the fragment's 2×2
// quad of lanes) to an InternalDeriv call. Plain OpDPdx, OpDPdy and
// OpFwidth take the coarse form.
func (f *fn) deriv(inst *spirv.Inst) error {
	if f.b.p.Model != spirv.ExecutionModelFragment {
		return f.b.errf(inst, "%s is only available in fragment shaders (derivatives are taken across a fragment quad)", inst.Op)
	}
	vs, err := f.operands(inst, 1)
	if err != nil {
		return err
	}
	if vs[0].t.Scalar().Kind != KindFloat {
		return f.b.errf(inst, "%s of a non-float", inst.Op)
	}
	imm := map[spirv.Op]int64{
		spirv.OpDPdx: DerivX, spirv.OpDPdy: DerivY, spirv.OpFwidth: DerivWidth,
		spirv.OpDPdxFine: DerivX | DerivFine, spirv.OpDPdyFine: DerivY | DerivFine, spirv.OpFwidthFine: DerivWidth | DerivFine,
		spirv.OpDPdxCoarse: DerivX, spirv.OpDPdyCoarse: DerivY, spirv.OpFwidthCoarse: DerivWidth,
	}[inst.Op]
	out := f.out(inst)
	c := ExtCall{Set: ExtInternal, Num: InternalDeriv, Name: inst.Op.String(), Tag: tagOf('F', vs[0].t), ResultTag: tagOf('F', out.t),
		N: out.t.Slots, Dst: out.slot, Args: []int32{vs[0].slot}, ArgN: []int{vs[0].t.Slots}, ArgTags: []string{valueTag(vs[0].t)},
		Imm: imm, Site: f.site(inst)}
	f.emit(Inst{Op: OpExt, N: uint16(out.t.Slots), Dst: out.slot, Aux: f.addExt(c), Site: c.Site})
	return nil
}

func (f *fn) asyncCopy(inst *spirv.Inst) error {
	ops := inst.Operands
	// Scope, Destination, Source, NumElements, Stride, Event.
	if len(ops) < 6 {
		return f.b.errf(inst, "malformed OpGroupAsyncCopy")
	}
	var vs [5]*value
	for i := 0; i < 5; i++ {
		v, err := f.get(ops[i+1])
		if err != nil {
			return err
		}
		vs[i] = v
	}
	ds, ok1 := storageSpace(vs[0].t.Storage)
	ss, ok2 := storageSpace(vs[1].t.Storage)
	if !ok1 || !ok2 {
		return f.b.errf(inst, "async copy between unsupported storage classes")
	}
	out := f.out(inst)
	c := ExtCall{Set: ExtInternal, Num: InternalAsyncCopy, Name: "async_work_group_copy", N: 1, Dst: out.slot,
		Args: []int32{vs[0].slot, vs[1].slot, vs[2].slot, vs[3].slot}, ArgN: []int{1, 1, 1, 1},
		ArgTags: []string{"U64", "U64", valueTag(vs[2].t), valueTag(vs[3].t)},
		Spaces:  []Space{ds, ss}, Imm: int64(vs[0].t.Elem.Size), Tag: tagOf('U', vs[2].t), ResultTag: "U64", Site: f.site(inst)}
	f.emit(Inst{Op: OpExt, N: 1, Dst: out.slot, Aux: f.addExt(c), Site: c.Site})
	return nil
}
