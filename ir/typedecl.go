package ir

import (
	"github.com/pocketgpu/pocketgpu/spirv"
)

// typ looks a type id up.
func (b *builder) typ(inst *spirv.Inst, id uint32) (*Type, error) {
	t := b.types[id]
	if t == nil {
		return nil, b.errf(inst, "%s is not a type (or is used before it is declared)", b.m.Name(id))
	}
	return t, nil
}

func (b *builder) typeDecl(inst *spirv.Inst) error {
	ops := inst.Operands
	t := &Type{ID: inst.Result}
	arg := func(i int) uint32 {
		if i < len(ops) {
			return ops[i]
		}
		return 0
	}
	switch inst.Op {
	case spirv.OpTypeVoid:
		t.Kind = KindVoid
	case spirv.OpTypeBool:
		// Booleans have no memory layout in SPIR-V; where one is loaded or
		// stored (GLSL bools in buffers are uints) it takes 4 bytes.
		t.Kind, t.Bits, t.Slots, t.Size, t.Align = KindBool, 1, 1, 4, 4
	case spirv.OpTypeInt:
		bits := int(arg(0))
		if bits != 8 && bits != 16 && bits != 32 && bits != 64 {
			return b.errf(inst, "%d-bit integers are not supported (8, 16, 32 and 64 are)", bits)
		}
		t.Kind, t.Bits, t.Signed, t.Slots = KindInt, bits, arg(1) != 0, 1
		t.Size, t.Align = bits/8, bits/8
	case spirv.OpTypeFloat:
		bits := int(arg(0))
		if bits != 16 && bits != 32 && bits != 64 {
			return b.errf(inst, "%d-bit floats are not supported (16, 32 and 64 are)", bits)
		}
		t.Kind, t.Bits, t.Slots, t.Size, t.Align = KindFloat, bits, 1, bits/8, bits/8
	case spirv.OpTypeVector:
		e, err := b.typ(inst, arg(0))
		if err != nil {
			return err
		}
		n := int(arg(1))
		if n < 2 || n > 16 || !e.IsScalar() {
			return b.errf(inst, "vector of %d %s is not supported (2 to 16 scalars are)", n, e)
		}
		t.Kind, t.Elem, t.Len, t.Slots = KindVector, e, n, n
		// OpenCL C: a 3-vector is sized and aligned as a 4-vector.
		m := n
		if n == 3 {
			m = 4
		}
		t.Size, t.Align = m*e.Size, m*e.Size
	case spirv.OpTypeMatrix:
		col, err := b.typ(inst, arg(0))
		if err != nil {
			return err
		}
		if col.Kind != KindVector {
			return b.errf(inst, "matrix columns must be vectors")
		}
		t.Kind, t.Elem, t.Len, t.Slots = KindMatrix, col, int(arg(1)), col.Slots*int(arg(1))
		t.Stride = alignUp(col.Size, col.Align)
		t.Size, t.Align = t.Stride*t.Len, col.Align
	case spirv.OpTypeArray:
		e, err := b.typ(inst, arg(0))
		if err != nil {
			return err
		}
		c := b.globals[arg(1)]
		if c == nil || !c.isConst() {
			return b.errf(inst, "array length %s is not a constant", b.m.Name(arg(1)))
		}
		n := c.konst[0]
		if n == 0 || n > 1<<24 {
			return b.errf(inst, "array length %d is out of range (1 to 16777216)", n)
		}
		t.Kind, t.Elem, t.Len = KindArray, e, int(n)
		if e.Slots*int(n) > 1<<20 {
			// Large arrays are only ever reached through pointers; their
			// values are never held in slots.
			t.Slots = 0
		} else {
			t.Slots = e.Slots * int(n)
		}
		t.Stride = alignUp(e.Size, e.Align)
		if d, ok := b.decor(inst.Result, spirv.DecorationArrayStride); ok && len(d.Args) > 0 {
			t.Stride = int(d.Args[0])
		}
		t.Size, t.Align = t.Stride*t.Len, e.Align
	case spirv.OpTypeRuntimeArray:
		e, err := b.typ(inst, arg(0))
		if err != nil {
			return err
		}
		t.Kind, t.Elem, t.Slots = KindRuntimeArray, e, 0
		t.Stride = alignUp(e.Size, e.Align)
		if d, ok := b.decor(inst.Result, spirv.DecorationArrayStride); ok && len(d.Args) > 0 {
			t.Stride = int(d.Args[0])
		}
		t.Align = e.Align
	case spirv.OpTypeStruct:
		t.Kind = KindStruct
		_, packed := b.decor(inst.Result, spirv.DecorationCPacked)
		_, t.Block = b.decor(inst.Result, spirv.DecorationBlock)
		_, t.BufferBlock = b.decor(inst.Result, spirv.DecorationBufferBlock)
		off, align := 0, 1
		for i, id := range ops {
			m, err := b.typ(inst, id)
			if err != nil {
				return err
			}
			if m.Kind == KindMatrix {
				if d, ok := b.memberDecor(inst.Result, uint32(i), spirv.DecorationMatrixStride); ok && len(d.Args) > 0 && int(d.Args[0]) != m.Stride {
					mm := *m
					mm.Stride = int(d.Args[0])
					mm.Size = mm.Stride * mm.Len
					m = &mm
				}
				if _, ok := b.memberDecor(inst.Result, uint32(i), spirv.DecorationRowMajor); ok {
					return b.errf(inst, "row-major matrices are not supported")
				}
			}
			t.Members = append(t.Members, m)
			t.Slots += m.Slots
			if d, ok := b.memberDecor(inst.Result, uint32(i), spirv.DecorationOffset); ok && len(d.Args) > 0 {
				off = int(d.Args[0])
			} else if !packed {
				off = alignUp(off, m.Align)
			}
			t.Offsets = append(t.Offsets, off)
			off += m.Size
			if !packed && m.Align > align {
				align = m.Align
			}
		}
		t.Align = align
		t.Size = alignUp(off, align)
	case spirv.OpTypePointer:
		t.Kind, t.Storage, t.Slots, t.Size, t.Align = KindPointer, spirv.StorageClass(arg(0)), 1, 8, 8
		if e := b.types[arg(1)]; e != nil {
			t.Elem = e
		} else {
			// A forward-declared pointee (OpTypeForwardPointer): resolve it
			// when first needed.
			t.Elem = &Type{Kind: KindOpaque}
			b.pendingPointee = append(b.pendingPointee, pendingPtr{t, arg(1)})
		}
		if d, ok := b.decor(inst.Result, spirv.DecorationArrayStride); ok && len(d.Args) > 0 {
			t.Stride = int(d.Args[0])
		}
	case spirv.OpTypeForwardPointer:
		return nil
	case spirv.OpTypeFunction:
		t.Kind = KindFunction
	case spirv.OpTypeImage:
		s, err := b.typ(inst, arg(0))
		if err != nil {
			return err
		}
		t.Kind, t.Slots, t.Size, t.Align = KindImage, 1, 8, 8
		t.Image = &ImageType{Sample: s, Dim: spirv.Dim(arg(1)), Depth: arg(2), Arrayed: arg(3) != 0,
			MS: arg(4) != 0, Sampled: arg(5), Format: spirv.ImageFormat(arg(6))}
		if len(ops) > 7 {
			t.Image.Access = spirv.AccessQualifier(ops[7])
		}
	case spirv.OpTypeSampler:
		t.Kind, t.Slots, t.Size, t.Align = KindSampler, 1, 8, 8
	case spirv.OpTypeSampledImage:
		img, err := b.typ(inst, arg(0))
		if err != nil {
			return err
		}
		// An image handle and a sampler.
		t.Kind, t.Elem, t.Slots, t.Size, t.Align = KindSampledImage, img, 2, 16, 8
	case spirv.OpTypeEvent:
		t.Kind, t.Slots, t.Size, t.Align = KindEvent, 1, 8, 8
	case spirv.OpTypeOpaque:
		t.Kind = KindOpaque
	}
	if t.Size > maxTypeBytes || t.Size < 0 {
		return b.errf(inst, "type %s is larger than %d bytes", t, maxTypeBytes)
	}
	b.types[inst.Result] = t
	b.resolvePointees()
	return nil
}

// maxTypeBytes bounds a type's size: a kernel's arrays live in buffers,
// not in one value, and a bound keeps a hostile module from making the
// simulator allocate gigabytes.
const maxTypeBytes = 1 << 30

type pendingPtr struct {
	t  *Type
	id uint32
}

func (b *builder) resolvePointees() {
	keep := b.pendingPointee[:0]
	for _, p := range b.pendingPointee {
		if e := b.types[p.id]; e != nil {
			p.t.Elem = e
			continue
		}
		keep = append(keep, p)
	}
	b.pendingPointee = keep
}
