package device

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/kernel"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// Bound is a kernel's argument list made from argument specs, with the
// memory each spec got so that results can be read back.
type Bound struct {
	Args []Arg
	// Buffers[i] is spec i's buffer (or an image's backing buffer); nil for
	// scalars and local memory.
	Buffers []*Buffer
}

// BindSpecs allocates and fills memory for argument specs (in the order
// users pass them) and maps them onto k's parameters. data[i] is spec i's
// initial contents (kernel.Arg.Materialize). For Vulkan shaders the specs
// are the resources in (set, binding) order, then one scalar spec per
// push-constant member.
func (d *Device) BindSpecs(k *Kernel, specs []kernel.Arg, data [][]byte) (*Bound, error) {
	b := &Bound{Buffers: make([]*Buffer, len(specs))}
	si := 0
	params := k.program().Params
	need := 0
	for _, p := range params {
		need += specsFor(p)
	}
	if len(specs) != need {
		return nil, &LaunchError{fmt.Sprintf("kernel %s takes %d argument specs, %d given%s", k.Name, need, len(specs), listParams(k.params))}
	}
	for pi, p := range params {
		if p.Kind == ir.ParamPushConstant && p.Elem.Kind == ir.KindStruct && len(specs[si:]) > 0 && specs[si].Kind == kernel.ScalarArg {
			block := make([]byte, p.Elem.Size)
			for m, mt := range p.Elem.Members {
				s := specs[si]
				if s.Kind != kernel.ScalarArg {
					return nil, argError(si, p, fmt.Sprintf("push-constant member %d wants a scalar spec, got %q", m, s.Spec))
				}
				if len(s.Scalar) != mt.Size && !(mt.Kind == ir.KindVector && mt.Len == 3 && len(s.Scalar) >= 3*mt.Elem.Size) {
					return nil, argError(si, p, fmt.Sprintf("push-constant member %d is %s (%d bytes); %q is %d bytes", m, mt, mt.Size, s.Spec, len(s.Scalar)))
				}
				copy(block[p.Elem.Offsets[m]:], s.Scalar)
				si++
			}
			b.Args = append(b.Args, ValueArg(block))
			continue
		}
		s := specs[si]
		a, buf, err := d.specArg(pi, p, s, data[si])
		if err != nil {
			return nil, err
		}
		b.Args = append(b.Args, a)
		b.Buffers[si] = buf
		si++
	}
	return b, nil
}

func specsFor(p ir.Param) int {
	if p.Kind == ir.ParamPushConstant && p.Elem.Kind == ir.KindStruct {
		return len(p.Elem.Members)
	}
	return 1
}

func (d *Device) specArg(i int, p ir.Param, s kernel.Arg, data []byte) (Arg, *Buffer, error) {
	bad := func(format string, args ...any) (Arg, *Buffer, error) {
		return Arg{}, nil, argError(i, p, fmt.Sprintf("%q: ", s.Spec)+fmt.Sprintf(format, args...))
	}
	switch s.Kind {
	case kernel.BufferArg:
		if p.Kind != ir.ParamGlobal && p.Kind != ir.ParamConstant && p.Kind != ir.ParamPushConstant {
			return bad("a buffer was given; the kernel wants %s", paramOf(p))
		}
		if err := checkElem(p, s); err != nil {
			return bad("%v", err)
		}
		buf := d.AllocFrom(data, fmt.Sprintf("arg%d", i))
		if p.Kind == ir.ParamConstant {
			buf.b.ReadOnly = true
		}
		return BufferArg(buf), buf, nil
	case kernel.ScalarArg:
		if p.Kind != ir.ParamValue {
			return bad("a scalar was given; the kernel wants %s", paramOf(p))
		}
		if want := p.Type.Size; len(s.Scalar) != want {
			return bad("the kernel's %s is %d bytes; this value is %d bytes (type %s)", p.Type, want, len(s.Scalar), s.Elem)
		}
		if err := checkScalar(p.Type, s.Elem); err != nil {
			return bad("%v", err)
		}
		return ValueArg(s.Scalar), nil, nil
	case kernel.BytesArg:
		if p.Kind != ir.ParamValue {
			return bad("bytes were given; the kernel wants %s", paramOf(p))
		}
		if want := p.Type.Size; len(s.Scalar) != want {
			return bad("the kernel's %s is %d bytes; %d bytes were given", p.Type, want, len(s.Scalar))
		}
		return ValueArg(s.Scalar), nil, nil
	case kernel.LocalArg:
		if p.Kind != ir.ParamLocal {
			return bad("local memory was given; the kernel wants %s", paramOf(p))
		}
		return LocalArg(s.LocalBytes), nil, nil
	case kernel.Image1DBufferArg, kernel.Image2DArg:
		if p.Kind != ir.ParamImage {
			return bad("an image was given; the kernel wants %s", paramOf(p))
		}
		dim, h := ImageBuffer, 1
		if s.Kind == kernel.Image2DArg {
			dim, h = Image2D, s.ImageH
		}
		if p.Image != nil && ImageDim(p.Image.Dim) != dim && !(dim == ImageBuffer && p.Image.Dim == spirv.Dim1D) {
			return bad("the kernel's image is %s-dimensional, a %s was given", p.Image.Dim, s.Kind)
		}
		ct, err := channelType(s.Elem)
		if err != nil {
			return bad("%v", err)
		}
		img, err := d.NewImage(ImageDesc{Dim: dim, Width: s.ImageW, Height: h, Depth: 1}, ImageFormat{Channels: 4, Type: ct}, data, fmt.Sprintf("image%d", i))
		if err != nil {
			return bad("%v", err)
		}
		return ImageArg(img), img.Buffer(), nil
	}
	return bad("unsupported argument kind")
}

// checkElem checks a buffer spec's element type against a pointer
// parameter's pointee where the pointee is a plain scalar or vector.
func checkElem(p ir.Param, s kernel.Arg) error {
	t := p.Elem
	if t == nil || (t.Kind == ir.KindInt && t.Bits == 8) {
		return nil // char* and void*: any bytes
	}
	if t.Kind == ir.KindStruct || t.Kind == ir.KindArray || t.Kind == ir.KindRuntimeArray {
		return nil
	}
	sc := t.Scalar()
	if !sc.IsScalar() {
		return nil
	}
	if sc.Bits != s.Elem.Bits || (sc.Kind == ir.KindFloat) != s.Elem.Float {
		return fmt.Errorf("the kernel's buffer holds %s, the spec gives %s", t, s.Elem)
	}
	return nil
}

func checkScalar(t *ir.Type, e kernel.ElemType) error {
	sc := t.Scalar()
	if sc.Kind == ir.KindFloat && !e.Float {
		return fmt.Errorf("the kernel takes %s, an integer type %s was given", t, e)
	}
	if sc.Kind == ir.KindInt && e.Float {
		return fmt.Errorf("the kernel takes %s, a float type %s was given", t, e)
	}
	return nil
}

func channelType(e kernel.ElemType) (ChannelType, error) {
	switch e.Base {
	case kernel.U8:
		return ChanU8, nil
	case kernel.I8:
		return ChanS8, nil
	case kernel.U16:
		return ChanU16, nil
	case kernel.I16:
		return ChanS16, nil
	case kernel.U32:
		return ChanU32, nil
	case kernel.I32:
		return ChanS32, nil
	case kernel.F16:
		return ChanF16, nil
	case kernel.F32:
		return ChanF32, nil
	}
	return 0, fmt.Errorf("image channel type %s is not supported", e)
}
