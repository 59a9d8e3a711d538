package ir

import (
	"strings"

	"github.com/pocketgpu/pocketgpu/spirv"
)

func (f *fn) extInst(inst *spirv.Inst) error {
	ops := inst.Operands
	if len(ops) < 2 {
		return f.b.errf(inst, "malformed OpExtInst")
	}
	set := f.b.m.ExtInstImports[ops[0]]
	switch set {
	case "OpenCL.std":
		return f.openCLExt(inst, spirv.OpenCLStd(ops[1]), ops[2:])
	case "GLSL.std.450":
		switch spirv.GLSLStd450(ops[1]) {
		case spirv.GLSLStd450InterpolateAtCentroid, spirv.GLSLStd450InterpolateAtSample, spirv.GLSLStd450InterpolateAtOffset:
			return f.unsupported(inst, "GLSL.std.450 "+spirv.GLSLStd450(ops[1]).String())
		}
		if m, ok := glslOps[spirv.GLSLStd450(ops[1])]; ok {
			if done, err := f.directExt(inst, m, ops[2:]); done || err != nil {
				return err
			}
		}
		return f.genericExt(inst, ExtGLSL, ops[1], spirv.GLSLStd450(ops[1]).String(), ops[2:])
	}
	if f.b.isDebugSet(ops[0]) {
		return nil
	}
	return f.b.errf(inst, "extended instruction set %q is not supported", set)
}

// genericExt records a call for the executor's library of extended
// instructions: every operand is an id.
func (f *fn) genericExt(inst *spirv.Inst, set ExtSet, num uint32, name string, args []uint32) error {
	c := ExtCall{Set: set, Num: num, Name: name, Dst: -1, Imm: 0}
	out := f.out(inst)
	if out != nil && out.t.Kind != KindVoid {
		c.Dst, c.N = out.slot, out.t.Slots
		c.ResultTag = valueTag(out.t)
	}
	for _, id := range args {
		v, err := f.get(id)
		if err != nil {
			return err
		}
		c.Args = append(c.Args, v.slot)
		c.ArgN = append(c.ArgN, max(v.t.Slots, 1))
		c.ArgTags = append(c.ArgTags, valueTag(v.t))
		sp := Space(0)
		if v.t.Kind == KindPointer {
			sp, _ = storageSpace(v.t.Storage)
		} else if c.Tag == "" {
			c.Tag = valueTag(v.t)
		}
		c.Spaces = append(c.Spaces, sp)
	}
	if c.Tag == "" {
		c.Tag = c.ResultTag
	}
	c.Site = f.site(inst)
	f.emit(Inst{Op: OpExt, N: uint16(max(c.N, 1)), Dst: c.Dst, Aux: f.addExt(c), Site: c.Site})
	return nil
}

// valueTag is the executor tag of a value's scalar type: floats by width,
// integers as unsigned (the routine knows its signedness), pointers U64.
func valueTag(t *Type) string {
	switch t.Kind {
	case KindPointer:
		return "U64"
	case KindStruct:
		if len(t.Members) > 0 {
			return valueTag(t.Members[0])
		}
	}
	s := t.Scalar()
	switch s.Kind {
	case KindFloat:
		return tagOf('F', s)
	case KindBool:
		return "B"
	case KindInt:
		return tagOf('U', s)
	}
	return "U64"
}

// openCLExt lowers the OpenCL.std instructions that move memory (vloadn,
// vstoren and the half variants) into plain loads, stores and conversions,
// so that the timing model sees them as the memory operations they are; the
// rest go to the executor's library.
func (f *fn) openCLExt(inst *spirv.Inst, op spirv.OpenCLStd, args []uint32) error {
	out := f.out(inst)
	// gets resolves the first n operands (all ids for these instructions).
	gets := func(n int) ([]*value, error) {
		if n > len(args) {
			return nil, f.b.errf(inst, "%s: %d operands, %d needed", op, len(args), n)
		}
		vs := make([]*value, n)
		for i := range vs {
			v, err := f.get(args[i])
			if err != nil {
				return nil, err
			}
			vs[i] = v
		}
		return vs, nil
	}
	lit := func(i int) (uint32, error) {
		if i >= len(args) {
			return 0, f.b.errf(inst, "%s: missing literal operand %d", op, i)
		}
		return args[i], nil
	}
	// address computes p + offset*stride.
	address := func(offset, p *value, stride int) (int32, Space, error) {
		space, ok := storageSpace(p.t.Storage)
		if p.t.Kind != KindPointer || !ok {
			return 0, 0, f.b.errf(inst, "%s needs a pointer", op)
		}
		a := f.tmp(1)
		opc := OpAddrIdx64
		if offset.t.Scalar().Bits < 64 {
			opc = OpAddrIdx32
		}
		if offset.isConst() {
			f.emit(Inst{Op: OpAddrImm, N: 1, Dst: a, Src: [3]int32{p.slot, -1, -1}, Space: space, Imm: int64(offset.konst[0]) * int64(stride), Site: f.site(inst)})
		} else {
			// size_t offsets are unsigned; AddrIdx64 treats 64-bit
			// indices as they are, narrower ones sign-extended.
			f.emit(Inst{Op: opc, N: 1, Dst: a, Src: [3]int32{p.slot, offset.slot, -1}, Space: space, Imm: int64(stride), Aux: int32(offset.t.Scalar().Bits), Site: f.site(inst)})
		}
		return a, space, nil
	}
	aligned := func(n int) int {
		if n == 3 {
			return 4
		}
		return n
	}
	switch op {
	case spirv.OpenCLStdVloadn:
		vs, err := gets(2)
		if err != nil {
			return err
		}
		off, p := vs[0], vs[1]
		es := out.t.Scalar().Size
		a, space, err := address(off, p, out.t.Slots*es)
		if err != nil {
			return err
		}
		return f.access(inst, false, space, a, out.t, out.slot)
	case spirv.OpenCLStdVstoren:
		vs, err := gets(3)
		if err != nil {
			return err
		}
		data, off, p := vs[0], vs[1], vs[2]
		a, space, err := address(off, p, data.t.Slots*data.t.Scalar().Size)
		if err != nil {
			return err
		}
		return f.access(inst, true, space, a, data.t, data.slot)
	case spirv.OpenCLStdVloadHalf, spirv.OpenCLStdVloadHalfn, spirv.OpenCLStdVloadaHalfn:
		vs, err := gets(2)
		if err != nil {
			return err
		}
		off, p := vs[0], vs[1]
		n := out.t.Slots
		stride := n
		if op == spirv.OpenCLStdVloadaHalfn {
			stride = aligned(n)
		}
		a, space, err := address(off, p, stride*2)
		if err != nil {
			return err
		}
		h := f.tmp(n)
		ht := &Type{Kind: KindFloat, Bits: 16, Slots: 1, Size: 2, Align: 2}
		if n > 1 {
			ht = &Type{Kind: KindVector, Elem: ht, Len: n, Slots: n, Size: 2 * aligned(n), Align: 2 * aligned(n)}
		}
		if err := f.access(inst, false, space, a, ht, h); err != nil {
			return err
		}
		return f.aluNamed(inst, "CvtF16"+tagOf('F', out.t), n, out.slot, h)
	case spirv.OpenCLStdVstoreHalf, spirv.OpenCLStdVstoreHalfR, spirv.OpenCLStdVstoreHalfn, spirv.OpenCLStdVstoreHalfnR,
		spirv.OpenCLStdVstoreaHalfn, spirv.OpenCLStdVstoreaHalfnR:
		vs, err := gets(3)
		if err != nil {
			return err
		}
		data, off, p := vs[0], vs[1], vs[2]
		mode := uint32(roundRTE)
		if op == spirv.OpenCLStdVstoreHalfR || op == spirv.OpenCLStdVstoreHalfnR || op == spirv.OpenCLStdVstoreaHalfnR {
			if mode, err = lit(3); err != nil {
				return err
			}
		}
		n := data.t.Slots
		stride := n
		if op == spirv.OpenCLStdVstoreaHalfn || op == spirv.OpenCLStdVstoreaHalfnR {
			stride = aligned(n)
		}
		h := f.tmp(n)
		if mode == roundRTE {
			if err := f.aluNamed(inst, "Cvt"+tagOf('F', data.t)+"F16", n, h, data.slot); err != nil {
				return err
			}
		} else {
			f.emit(Inst{Op: OpExt, N: uint16(n), Dst: h, Aux: f.addExt(ExtCall{Set: ExtInternal, Num: InternalF2HRound, Name: "vstore_half_r",
				Tag: tagOf('F', data.t), ResultTag: "F16", N: n, Dst: h, Args: []int32{data.slot}, ArgN: []int{n}, ArgTags: []string{tagOf('F', data.t)}, Imm: int64(mode)}), Site: f.site(inst)})
		}
		a, space, err := address(off, p, stride*2)
		if err != nil {
			return err
		}
		ht := &Type{Kind: KindFloat, Bits: 16, Slots: 1, Size: 2, Align: 2}
		if n > 1 {
			ht = &Type{Kind: KindVector, Elem: ht, Len: n, Slots: n, Size: 2 * aligned(n), Align: 2 * aligned(n)}
		}
		return f.access(inst, true, space, a, ht, h)
	case spirv.OpenCLStdPrefetch:
		return nil
	}
	if m, ok := openCLOps[op]; ok {
		if done, err := f.directExt(inst, m, args); done || err != nil {
			return err
		}
	}
	return f.genericExt(inst, ExtOpenCL, uint32(op), openCLName(op), args)
}

// directOp names a generated operation that implements an extended
// instruction exactly: the operation's name without its type tag and the
// signedness its operands are read with.
type directOp struct {
	name string
	sign byte
}

var openCLOps = map[spirv.OpenCLStd]directOp{
	spirv.OpenCLStdMad: {"Mad", 'F'}, spirv.OpenCLStdFma: {"Fma", 'F'}, spirv.OpenCLStdFabs: {"FAbs", 'F'},
	spirv.OpenCLStdFmin: {"FMin", 'F'}, spirv.OpenCLStdFmax: {"FMax", 'F'}, spirv.OpenCLStdSqrt: {"Sqrt", 'F'},
	spirv.OpenCLStdRsqrt: {"Rsqrt", 'F'}, spirv.OpenCLStdNativeRsqrt: {"Rsqrt", 'F'}, spirv.OpenCLStdHalfRsqrt: {"Rsqrt", 'F'},
	spirv.OpenCLStdNativeSqrt: {"Sqrt", 'F'}, spirv.OpenCLStdHalfSqrt: {"Sqrt", 'F'},
	spirv.OpenCLStdNativeRecip: {"Recip", 'F'}, spirv.OpenCLStdHalfRecip: {"Recip", 'F'},
	spirv.OpenCLStdFloor: {"Floor", 'F'}, spirv.OpenCLStdCeil: {"Ceil", 'F'}, spirv.OpenCLStdTrunc: {"Trunc", 'F'},
	spirv.OpenCLStdRint: {"Rint", 'F'}, spirv.OpenCLStdFclamp: {"FClamp", 'F'}, spirv.OpenCLStdMix: {"FMix", 'F'},
	spirv.OpenCLStdSMin: {"SMin", 'S'}, spirv.OpenCLStdSMax: {"SMax", 'S'}, spirv.OpenCLStdUMin: {"UMin", 'U'},
	spirv.OpenCLStdUMax: {"UMax", 'U'}, spirv.OpenCLStdSClamp: {"SClamp", 'S'}, spirv.OpenCLStdUClamp: {"UClamp", 'U'},
	spirv.OpenCLStdUMad24: {"UMad24", 'U'}, spirv.OpenCLStdSMad24: {"SMad24", 'S'}, spirv.OpenCLStdUMul24: {"UMul24", 'U'},
	spirv.OpenCLStdSMul24: {"SMul24", 'S'}, spirv.OpenCLStdUMulHi: {"UMulHi", 'U'}, spirv.OpenCLStdSMulHi: {"SMulHi", 'S'},
	spirv.OpenCLStdRotate: {"Rotate", 'U'}, spirv.OpenCLStdClz: {"Clz", 'U'}, spirv.OpenCLStdCtz: {"Ctz", 'U'},
	spirv.OpenCLStdPopcount: {"BitCount", 'U'}, spirv.OpenCLStdSAbs: {"SAbs", 'S'},
}

var glslOps = map[spirv.GLSLStd450]directOp{
	spirv.GLSLStd450FAbs: {"FAbs", 'F'}, spirv.GLSLStd450Sqrt: {"Sqrt", 'F'}, spirv.GLSLStd450InverseSqrt: {"Rsqrt", 'F'},
	spirv.GLSLStd450Floor: {"Floor", 'F'}, spirv.GLSLStd450Ceil: {"Ceil", 'F'}, spirv.GLSLStd450Trunc: {"Trunc", 'F'},
	spirv.GLSLStd450RoundEven: {"Rint", 'F'}, spirv.GLSLStd450Fma: {"Fma", 'F'},
	spirv.GLSLStd450SMin: {"SMin", 'S'}, spirv.GLSLStd450SMax: {"SMax", 'S'}, spirv.GLSLStd450UMin: {"UMin", 'U'},
	spirv.GLSLStd450UMax: {"UMax", 'U'}, spirv.GLSLStd450SClamp: {"SClamp", 'S'}, spirv.GLSLStd450UClamp: {"UClamp", 'U'},
	spirv.GLSLStd450SAbs: {"SAbs", 'S'},
}

// directExt emits a generated operation for an extended instruction when
// one exists for its types; scalar operands of a vector call (clamp(v, lo,
// hi), mix(a, b, t)) are widened first. done is false when there is no such
// operation and the generic routine must be used.
func (f *fn) directExt(inst *spirv.Inst, m directOp, args []uint32) (done bool, err error) {
	out := f.out(inst)
	if out == nil || len(args) == 0 || len(args) > 3 {
		return false, nil
	}
	vs := make([]*value, len(args))
	for i, id := range args {
		if vs[i], err = f.get(id); err != nil {
			return false, err
		}
		if vs[i].t.Kind == KindPointer {
			return false, nil
		}
	}
	op, ok := aluOps[m.name+tagOf(m.sign, vs[0].t)]
	if !ok || vs[0].t.Slots != out.t.Slots {
		return false, nil
	}
	n := out.t.Slots
	srcs := [3]int32{-1, -1, -1}
	for i, v := range vs {
		srcs[i] = v.slot
		if v.t.Slots == n {
			continue
		}
		if v.t.Slots != 1 {
			return false, nil
		}
		wide := f.tmp(n)
		f.emit(Inst{Op: OpBroadcast, N: uint16(n), Dst: wide, Src: [3]int32{v.slot, -1, -1}, Site: f.site(inst)})
		srcs[i] = wide
	}
	f.emit(Inst{Op: op, N: uint16(n), Dst: out.slot, Src: srcs, Site: f.site(inst)})
	return true, nil
}

func openCLName(op spirv.OpenCLStd) string {
	return strings.TrimSpace(op.String())
}
