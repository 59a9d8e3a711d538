package ir

import (
	"fmt"
	"strings"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// Kind is the kind of a SPIR-V type.
type Kind uint8

const (
	KindVoid Kind = iota
	KindBool
	KindInt
	KindFloat
	KindVector
	KindMatrix
	KindArray
	KindRuntimeArray
	KindStruct
	KindPointer
	KindImage
	KindSampler
	KindSampledImage
	KindEvent
	KindFunction
	KindOpaque
)

// Type is a SPIR-V type with what the executor needs: how many 64-bit slots
// a value of it occupies (composites are flattened, component by component)
// and its layout in memory.
type Type struct {
	ID      uint32
	Kind    Kind
	Bits    int  // scalars: width in bits (bool: 1)
	Signed  bool // OpTypeInt signedness (advisory: SPIR-V operations choose)
	Elem    *Type
	Len     int // vector components, matrix columns, array length
	Members []*Type
	Storage spirv.StorageClass // pointers

	// Slots is the register footprint of a value: one per scalar leaf.
	Slots int

	// Memory layout: size, alignment, element stride for arrays and
	// matrices, member offsets for structs. From decorations where present
	// (Offset, ArrayStride, MatrixStride), else the OpenCL C rules (natural
	// alignment; a 3-component vector is sized and aligned as 4).
	Size, Align int
	Stride      int
	Offsets     []int
	// Block marks a Vulkan interface block (Block or BufferBlock).
	Block       bool
	BufferBlock bool

	Image *ImageType
}

// ImageType describes an OpTypeImage.
type ImageType struct {
	Dim     spirv.Dim
	Depth   uint32
	Arrayed bool
	MS      bool
	Sampled uint32
	Format  spirv.ImageFormat
	Access  spirv.AccessQualifier
	// Sample is the sampled type (float, int or uint).
	Sample *Type
}

// IsScalar reports whether t is a bool, integer or float.
func (t *Type) IsScalar() bool { return t.Kind == KindBool || t.Kind == KindInt || t.Kind == KindFloat }

// Scalar returns the scalar element of a scalar or vector type.
func (t *Type) Scalar() *Type {
	if t.Kind == KindVector {
		return t.Elem
	}
	return t
}

// Components is the vector length, or 1 for a scalar.
func (t *Type) Components() int {
	if t.Kind == KindVector {
		return t.Len
	}
	return 1
}

func (t *Type) String() string {
	switch t.Kind {
	case KindVoid:
		return "void"
	case KindBool:
		return "bool"
	case KindInt:
		if t.Signed {
			return fmt.Sprintf("i%d", t.Bits)
		}
		return fmt.Sprintf("u%d", t.Bits)
	case KindFloat:
		return fmt.Sprintf("f%d", t.Bits)
	case KindVector:
		return fmt.Sprintf("%sx%d", t.Elem, t.Len)
	case KindMatrix:
		return fmt.Sprintf("mat%d(%s)", t.Len, t.Elem)
	case KindArray:
		return fmt.Sprintf("%s[%d]", t.Elem, t.Len)
	case KindRuntimeArray:
		return fmt.Sprintf("%s[]", t.Elem)
	case KindStruct:
		parts := make([]string, len(t.Members))
		for i, m := range t.Members {
			parts[i] = m.String()
		}
		return "struct{" + strings.Join(parts, ", ") + "}"
	case KindPointer:
		return fmt.Sprintf("%s %s*", t.Storage, t.Elem)
	case KindImage:
		return "image"
	case KindSampler:
		return "sampler"
	case KindSampledImage:
		return "sampled_image"
	case KindEvent:
		return "event"
	case KindFunction:
		return "function"
	}
	return "opaque"
}

// Tag is the executor's type tag for a scalar type with a signedness
// choice: "F32", "S16", "U8", "B".
func (t *Type) Tag(signed bool) string {
	s := t.Scalar()
	switch s.Kind {
	case KindBool:
		return "B"
	case KindFloat:
		return fmt.Sprintf("F%d", s.Bits)
	case KindInt:
		if signed {
			return fmt.Sprintf("S%d", s.Bits)
		}
		return fmt.Sprintf("U%d", s.Bits)
	case KindPointer:
		return "U64"
	}
	return "?"
}

// Leaf is one scalar of a flattened value: its slot offset within the
// value and its byte offset within the value's memory layout.
type Leaf struct {
	Slot   int
	Offset int
	Bytes  int
	Bool   bool // a bool: 4 bytes in memory, 0 or 1 in its slot
}

// Leaves lists the scalar leaves of t in slot order with their memory
// offsets. Runtime arrays have no leaves (they are only reached through
// pointers).
func (t *Type) Leaves() []Leaf {
	var out []Leaf
	var walk func(t *Type, slot, off int)
	walk = func(t *Type, slot, off int) {
		switch t.Kind {
		case KindBool:
			out = append(out, Leaf{Slot: slot, Offset: off, Bytes: 4, Bool: true})
		case KindInt, KindFloat, KindPointer, KindImage, KindSampler, KindEvent:
			out = append(out, Leaf{Slot: slot, Offset: off, Bytes: t.Size})
		case KindSampledImage:
			out = append(out, Leaf{Slot: slot, Offset: off, Bytes: 8}, Leaf{Slot: slot + 1, Offset: off + 8, Bytes: 8})
		case KindVector:
			for i := 0; i < t.Len; i++ {
				walk(t.Elem, slot+i, off+i*t.Elem.Size)
			}
		case KindMatrix, KindArray:
			for i := 0; i < t.Len; i++ {
				walk(t.Elem, slot+i*t.Elem.Slots, off+i*t.Stride)
			}
		case KindStruct:
			s := slot
			for i, m := range t.Members {
				walk(m, s, off+t.Offsets[i])
				s += m.Slots
			}
		}
	}
	walk(t, 0, 0)
	return out
}

func alignUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}
