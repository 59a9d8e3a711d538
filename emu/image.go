package emu

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// ChannelType is an image channel's storage format.
type ChannelType uint8

const (
	ChanU8 ChannelType = iota
	ChanS8
	ChanU16
	ChanS16
	ChanU32
	ChanS32
	ChanF16
	ChanF32
	ChanUNorm8
	ChanSNorm8
	ChanUNorm16
	ChanSNorm16
)

var chanBytes = [...]int{1, 1, 2, 2, 4, 4, 2, 4, 1, 1, 2, 2}

// Bytes per channel.
func (c ChannelType) Bytes() int { return chanBytes[c] }

// Float reports channel types read as floats.
func (c ChannelType) Float() bool { return c >= ChanF16 }

// Image is an image's description and its backing buffer. Texels are
// stored row by row; channels are R, G, B, A in that order.
type Image struct {
	Dim      spirv.Dim
	Width    int
	Height   int
	Depth    int
	Channels int
	Type     ChannelType
	Buf      *Buffer
	RowPitch int
	// SlicePitch for 3D images and image arrays (the distance between
	// layers).
	SlicePitch int
	// Arrayed images (OpenCL 1D and 2D arrays) take one more coordinate,
	// the layer; Depth is the layer count and layers lie SlicePitch apart.
	Arrayed bool
	// BGRA images store B, G, R, A: kernels still see R, G, B, A.
	BGRA bool
	// Mips are the mip levels after level 0 (which is the image's own
	// size and pitches at the start of Buf), each with its size and place
	// in Buf; empty for an image without mipmaps. MipChain lays out a full
	// chain.
	Mips []Level

	off int // the first byte of this level in Buf (level views, see level)
}

// TexelBytes is the size of one texel.
func (img *Image) TexelBytes() int { return img.Channels * img.Type.Bytes() }

func (img *Image) addr(x, y, z int) uint64 {
	return img.Buf.Base + uint64(img.off+z*img.SlicePitch+y*img.RowPitch+x*img.TexelBytes())
}

// Texel reads the texel at integer coordinates (z is the layer of an
// array) the way a kernel does, for hosts that convert formats.
func (img *Image) Texel(x, y, z int) [4]float64 { return img.texel(x, y, z) }

// WriteTexel stores a texel the way write_image does: clamped and rounded
// to the channel type (hosts fill images with it).
func (img *Image) WriteTexel(x, y, z int, v [4]float64) { img.writeTexel(x, y, z, v) }

// texel reads the texel at integer coordinates as four float64 channels
// (integer channels hold their integer value); missing channels read as 0,
// alpha as 1.
func (img *Image) texel(x, y, z int) [4]float64 {
	o := img.off + z*img.SlicePitch + y*img.RowPitch + x*img.TexelBytes()
	p := img.Buf.Data[o:]
	v := [4]float64{0, 0, 0, 1}
	cb := img.Type.Bytes()
	for c := 0; c < img.Channels && c < 4; c++ {
		q := p[c*cb:]
		switch img.Type {
		case ChanU8:
			v[c] = float64(q[0])
		case ChanS8:
			v[c] = float64(int8(q[0]))
		case ChanU16:
			v[c] = float64(binary.LittleEndian.Uint16(q))
		case ChanS16:
			v[c] = float64(int16(binary.LittleEndian.Uint16(q)))
		case ChanU32:
			v[c] = float64(binary.LittleEndian.Uint32(q))
		case ChanS32:
			v[c] = float64(int32(binary.LittleEndian.Uint32(q)))
		case ChanF16:
			v[c] = float64(h2f(binary.LittleEndian.Uint16(q)))
		case ChanF32:
			v[c] = float64(math.Float32frombits(binary.LittleEndian.Uint32(q)))
		case ChanUNorm8:
			v[c] = float64(q[0]) / 255
		case ChanSNorm8:
			v[c] = math.Max(float64(int8(q[0]))/127, -1)
		case ChanUNorm16:
			v[c] = float64(binary.LittleEndian.Uint16(q)) / 65535
		case ChanSNorm16:
			v[c] = math.Max(float64(int16(binary.LittleEndian.Uint16(q)))/32767, -1)
		}
	}
	if img.BGRA {
		v[0], v[2] = v[2], v[0]
	}
	return v
}

func (img *Image) writeTexel(x, y, z int, v [4]float64) {
	o := img.off + z*img.SlicePitch + y*img.RowPitch + x*img.TexelBytes()
	p := img.Buf.Data[o:]
	cb := img.Type.Bytes()
	if img.BGRA {
		v[0], v[2] = v[2], v[0]
	}
	for c := 0; c < img.Channels && c < 4; c++ {
		q := p[c*cb:]
		switch img.Type {
		// write_imagei and write_imageui saturate to the channel type.
		case ChanU8:
			q[0] = byte(sat(v[c], 0, math.MaxUint8))
		case ChanS8:
			q[0] = byte(sat(v[c], math.MinInt8, math.MaxInt8))
		case ChanU16:
			binary.LittleEndian.PutUint16(q, uint16(sat(v[c], 0, math.MaxUint16)))
		case ChanS16:
			binary.LittleEndian.PutUint16(q, uint16(sat(v[c], math.MinInt16, math.MaxInt16)))
		case ChanU32:
			binary.LittleEndian.PutUint32(q, uint32(sat(v[c], 0, math.MaxUint32)))
		case ChanS32:
			binary.LittleEndian.PutUint32(q, uint32(sat(v[c], math.MinInt32, math.MaxInt32)))
		case ChanF16:
			binary.LittleEndian.PutUint16(q, f64to16(v[c]))
		case ChanF32:
			binary.LittleEndian.PutUint32(q, math.Float32bits(float32(v[c])))
		case ChanUNorm8:
			q[0] = byte(math.RoundToEven(math.Min(math.Max(v[c], 0), 1) * 255))
		case ChanSNorm8:
			q[0] = byte(int8(math.RoundToEven(math.Min(math.Max(v[c], -1), 1) * 127)))
		case ChanUNorm16:
			binary.LittleEndian.PutUint16(q, uint16(math.RoundToEven(math.Min(math.Max(v[c], 0), 1)*65535)))
		case ChanSNorm16:
			binary.LittleEndian.PutUint16(q, uint16(int16(math.RoundToEven(math.Min(math.Max(v[c], -1), 1)*32767))))
		}
	}
}

// sat converts an integer channel value with saturation.
func sat(v float64, lo, hi int64) int64 {
	if math.IsNaN(v) {
		return 0
	}
	return int64(math.Min(math.Max(v, float64(lo)), float64(hi)))
}

// querySize is component c of get_image_dim and get_image_array_size:
// the spatial sizes, then an array's layer count.
func (img *Image) querySize(c int) int {
	if d := imageDims(img); img.Arrayed && c == d {
		return max(img.Depth, 1)
	}
	return img.size(c)
}

// layer is the array layer a coordinate selects: rounded to the nearest
// integer and clamped to the layers there are, as OpenCL specifies.
func (img *Image) layer(c float64, isFloat bool) int {
	if isFloat {
		c = math.RoundToEven(c)
	}
	return int(math.Min(math.Max(c, 0), float64(max(img.Depth, 1)-1)))
}

func (img *Image) size(k int) int {
	switch k {
	case 0:
		return img.Width
	case 1:
		return max(img.Height, 1)
	}
	return max(img.Depth, 1)
}

// Sampler addressing modes and filters (SPIR-V SamplerAddressingMode and
// SamplerFilterMode values).
const (
	addrNone        = 0
	addrClampToEdge = 1
	addrClamp       = 2
	addrRepeat      = 3
	addrMirrored    = 4
	filterNearest   = 0
	filterLinear    = 1
)

// SamplerFromCL converts an OpenCL sampler_t bit pattern (CLK_* flags, as a
// host passes a sampler argument) into the executor's encoding.
func SamplerFromCL(v uint32) uint64 {
	addr := map[uint32]uint32{0: addrNone, 2: addrClampToEdge, 4: addrClamp, 6: addrRepeat, 8: addrMirrored}[v&0xe]
	filter := uint32(filterNearest)
	if v&0x20 != 0 {
		filter = filterLinear
	}
	return ir.EncodeSampler(addr, v&1 != 0, filter)
}

// VulkanSampler is the default sampler for combined image samplers:
// normalised coordinates, clamp to edge, bilinear.
var VulkanSampler = ir.EncodeSampler(addrClampToEdge, true, filterLinear)

// readSampler is how an image read without a sampler addresses texels.
var readSampler = uint64(ir.EncodeSampler(addrNone, false, filterNearest))

// wrap applies an addressing mode to an integer coordinate; ok is false for
// a border texel (Clamp mode outside the image).
func wrap(i, n, mode int) (int, bool) {
	switch mode {
	case addrRepeat:
		i %= n
		if i < 0 {
			i += n
		}
	case addrMirrored:
		p := 2 * n
		i %= p
		if i < 0 {
			i += p
		}
		if i >= n {
			i = p - 1 - i
		}
	case addrClamp:
		if i < 0 || i >= n {
			return 0, false
		}
	default:
		i = min(max(i, 0), n-1)
	}
	return i, true
}

// wrapNormalized is the texel a normalized coordinate picks with the
// repeat and mirrored-repeat modes, by OpenCL's own formulas (they wrap
// the coordinate before scaling it, which differs from wrapping the texel
// index at the image's edges).
func wrapNormalized(s float64, n, mode int) int {
	if mode == addrMirrored {
		s = math.Abs(s - 2*math.RoundToEven(0.5*s))
		return min(int(math.Floor(s*float64(n))), n-1)
	}
	i := int(math.Floor((s - math.Floor(s)) * float64(n)))
	if i > n-1 {
		i -= n
	}
	return i
}

func hImage(w *Warp, x *xinst) {
	in := x.in
	op := &w.prog.Images[in.Aux]
	W := w.width
	handles := w.slot(op.Image)
	addrs := w.texAddrs[:0]
	var act Mask
	if op.LodMode == ir.LodImplicit {
		act = w.activeMask()
	}
	tag := tagOf(op.ResultTag)
	// A read at integer coordinates without a sampler (read_imageui(img,
	// int), texelFetch) reads its texel directly (readAt).
	direct := (op.Kind == ir.ImageRead || op.Kind == ir.ImageFetch) && !op.CoordFloat && op.Sampler < 0
	// Lanes mostly share one sampler: it is decoded when it changes.
	var st ir.SamplerState
	decoded := false
	var lastSampler uint64
	var mip, mip2 Image // views of mip levels (view)
	// Lanes mostly sample one level: it is chosen when the LOD, the image
	// or the sampler changes.
	var sel lodSample
	var selFor struct {
		lam     float64
		img     *Image
		sampler uint64
	}
	selected := false
	for _, l := range w.lanes {
		h := handles[l]
		if h >= uint64(len(w.d.Images)) || w.d.Images[h] == nil {
			w.fail(fmt.Errorf("image handle %d is not bound", h), &w.prog.Sites[op.Site])
			return
		}
		img := w.d.Images[h]
		// level is the Lod operand of a read, write, fetch or size query:
		// the mip level it addresses.
		level := 0
		if op.Kind != ir.ImageSample && op.Lod >= 0 {
			x := w.regs[int(op.Lod)*W+int(l)]
			if op.LodFloat {
				level = int(math.Max(math.Min(float64(math.Float32frombits(uint32(x))), MaxLevels), -1))
			} else {
				level = int(int32(uint32(x)))
			}
			if level < 0 || level >= img.Levels() {
				w.fail(fmt.Errorf("mip level %d of an image with %d levels", level, img.Levels()), &w.prog.Sites[op.Site])
				return
			}
		}
		lv := img.view(level, &mip)
		if direct && !img.Arrayed {
			addrs = w.readAt(op, lv, int(l), tag, addrs)
			continue
		}
		switch op.Kind {
		case ir.ImageQuerySize:
			for c := 0; c < op.N; c++ {
				w.regs[(int(op.Dst)+c)*W+int(l)] = uint64(lv.querySize(c))
			}
			continue
		case ir.ImageQueryLevels:
			w.regs[int(op.Dst)*W+int(l)] = uint64(img.Levels())
			continue
		case ir.ImageQueryFormat, ir.ImageQueryOrder:
			w.regs[int(op.Dst)*W+int(l)] = 0
			continue
		}
		var coord [3]float64
		for c := 0; c < op.CoordN && c < 3; c++ {
			x := w.regs[(int(op.Coord)+c)*W+int(l)]
			if op.CoordFloat {
				coord[c] = float64(math.Float32frombits(uint32(x)))
			} else {
				coord[c] = float64(int32(uint32(x)))
			}
		}
		dims := imageDims(img)
		if op.Kind == ir.ImageWrite {
			var v [4]float64
			for c := 0; c < op.N && c < 4; c++ {
				v[c] = img.Type.texelValue(op.ResultTag, w.regs[(int(op.Texel)+c)*W+int(l)])
			}
			x, y, z := int(coord[0]), int(coord[1]), int(coord[2])
			if img.Arrayed {
				// The layer follows the spatial coordinates; layers are z.
				z = int(coord[dims])
				if dims == 1 {
					y = 0
				}
			}
			if x < 0 || x >= lv.Width || (dims > 1 && (y < 0 || y >= lv.size(1))) || ((dims > 2 || img.Arrayed) && (z < 0 || z >= lv.size(2))) {
				what := fmt.Sprintf("image write at (%d,%d,%d) outside a %dx%dx%d image", x, y, z, lv.Width, lv.size(1), lv.size(2))
				if level > 0 {
					what += fmt.Sprintf(" (mip level %d)", level)
				}
				w.fault(in, int(l), ir.SpaceGlobal, img.Buf.Base, img.TexelBytes(), true, what)
				return
			}
			lv.writeTexel(x, y, z, v)
			addrs = append(addrs, lv.addr(x, y, z))
			continue
		}
		sampler := readSampler
		if op.Sampler >= 0 {
			sampler = w.slot(op.Sampler)[l]
		}
		if !decoded || sampler != lastSampler {
			st, lastSampler, decoded = ir.DecodeSamplerState(sampler), sampler, true
		}
		layer := 0
		if img.Arrayed {
			layer = img.layer(coord[dims], op.CoordFloat)
		}
		var v [4]float64
		if op.Kind != ir.ImageSample {
			v, addrs = lv.sampleNearest(coord, dims, addrClampToEdge, st.Normalized, op.CoordFloat, layer, addrs)
		} else {
			lam := w.lambda(op, img, st, dims, int(l), act)
			if !selected || selFor.lam != lam || selFor.img != img || selFor.sampler != lastSampler {
				sel, selected = selectLevels(lam, img.Levels(), st), true
				selFor.lam, selFor.img, selFor.sampler = lam, img, lastSampler
			}
			linear := sel.linear && op.CoordFloat
			lv := img.view(sel.hi, &mip)
			v, addrs = lv.filter(coord, dims, int(st.Addressing), st.Normalized, op.CoordFloat, linear, layer, addrs)
			if sel.delta > 0 {
				lv2 := img.view(sel.lo, &mip2)
				var v2 [4]float64
				v2, addrs = lv2.filter(coord, dims, int(st.Addressing), st.Normalized, op.CoordFloat, linear, layer, addrs)
				for c := range v {
					v[c] = (1-sel.delta)*v[c] + sel.delta*v2[c]
				}
				w.Tex.TwoLevels++
			}
			w.Tex.Samples++
			if sel.minified {
				w.Tex.Minified++
			}
			w.Tex.LevelSum += sel.d
		}
		for c := 0; c < op.N && c < 4; c++ {
			w.regs[(int(op.Dst)+c)*W+int(l)] = tag.fromFloat(v[c])
		}
	}
	w.texAddrs = addrs
	if w.Trace != nil && len(addrs) > 0 {
		if h := handles[w.lanes[0]]; h < uint64(len(w.d.Images)) && w.d.Images[h] != nil {
			kind := AccessTexture
			if op.Kind == ir.ImageWrite {
				kind = AccessStore
			}
			w.Trace.recordAddrs(w.pc(in), ir.SpaceGlobal, kind, w.d.Images[h].TexelBytes(), addrs)
		}
	}
}

// readAt is lane l's image read at integer coordinates without a sampler:
// the texel they clamp to (as sampleNearest finds it with clamp-to-edge
// addressing; a missing coordinate is 0), converted to the result's type.
// It appends the texel's address to addrs.
func (w *Warp) readAt(op *ir.ImageOp, img *Image, l int, tag valueTag, addrs []uint64) []uint64 {
	W := w.width
	var ic [3]int
	for k := 0; k < imageDims(img) && k < op.CoordN; k++ {
		c := int(int32(uint32(w.regs[(int(op.Coord)+k)*W+l])))
		ic[k] = min(max(c, 0), img.size(k)-1)
	}
	v := img.texel(ic[0], ic[1], ic[2])
	for c := 0; c < op.N && c < 4; c++ {
		w.regs[(int(op.Dst)+c)*W+l] = tag.fromFloat(v[c])
	}
	return append(addrs, img.addr(ic[0], ic[1], ic[2]))
}

// filter samples one level with the nearest or the linear filter.
func (img *Image) filter(coord [3]float64, dims, mode int, norm, coordFloat, linear bool, layer int, addrs []uint64) ([4]float64, []uint64) {
	if linear {
		return sampleLinearAt(img, coord, dims, mode, norm, layer, addrs)
	}
	return img.sampleNearest(coord, dims, mode, norm, coordFloat, layer, addrs)
}

// sampleNearest reads the texel coord falls in (integer coordinates are
// texel indices), with the addressing mode; a border texel reads the
// border colour.
func (img *Image) sampleNearest(coord [3]float64, dims, mode int, norm, coordFloat bool, layer int, addrs []uint64) ([4]float64, []uint64) {
	ic := [3]int{0, 0, layer}
	for k := 0; k < dims; k++ {
		c := coord[k]
		if norm && coordFloat && (mode == addrRepeat || mode == addrMirrored) {
			ic[k] = wrapNormalized(c, img.size(k), mode)
			continue
		}
		if norm && coordFloat {
			c *= float64(img.size(k))
		}
		i := int(math.Floor(c))
		if !coordFloat {
			i = int(c)
		}
		var ok bool
		ic[k], ok = wrap(i, img.size(k), mode)
		if !ok {
			return img.border(), addrs
		}
	}
	return img.texel(ic[0], ic[1], ic[2]), append(addrs, img.addr(ic[0], ic[1], ic[2]))
}

func imageDims(img *Image) int {
	switch img.Dim {
	case spirv.Dim1D, spirv.DimBuffer:
		return 1
	case spirv.Dim3D:
		return 3
	}
	return 2
}

// sampleLinear filters bilinearly (linearly in 1D) around coord.
func sampleLinear(img *Image, coord [3]float64, dims, mode int, norm bool, addrs []uint64) ([4]float64, []uint64) {
	return sampleLinearAt(img, coord, dims, mode, norm, 0, addrs)
}

// sampleLinearAt filters linearly in each of dims dimensions (bilinear in
// 2D, trilinear in 3D) around coord, in layer of an array.
func sampleLinearAt(img *Image, coord [3]float64, dims, mode int, norm bool, layer int, addrs []uint64) ([4]float64, []uint64) {
	var i0 [3]int
	var frac [3]float64
	for k := 0; k < dims; k++ {
		c := coord[k]
		if norm {
			c *= float64(img.size(k))
		}
		c -= 0.5
		f := math.Floor(c)
		i0[k], frac[k] = int(f), c-f
	}
	var out [4]float64
	for tap := 0; tap < 1<<dims; tap++ {
		wgt := 1.0
		ic := [3]int{0, 0, layer}
		inside := true
		for k := 0; k < dims; k++ {
			d := tap >> k & 1
			if d == 1 {
				wgt *= frac[k]
			} else {
				wgt *= 1 - frac[k]
			}
			var ok bool
			ic[k], ok = wrap(i0[k]+d, img.size(k), mode)
			inside = inside && ok
		}
		t := img.border()
		if inside {
			t = img.texel(ic[0], ic[1], ic[2])
			addrs = append(addrs, img.addr(ic[0], ic[1], ic[2]))
		}
		for c := range out {
			out[c] += wgt * t[c]
		}
	}
	return out, addrs
}

// border is the colour CLK_ADDRESS_CLAMP reads outside the image: all zero,
// with alpha 1 for formats without alpha, as OpenCL specifies.
func (img *Image) border() [4]float64 {
	if img.Channels < 4 {
		return [4]float64{0, 0, 0, 1}
	}
	return [4]float64{}
}

// texelValue is the value of a texel component a kernel writes, as a
// float64: integers are read signed for a signed channel type and unsigned
// otherwise. OpenCL integers are signless in SPIR-V, so write_imagei's
// int4 arrives tagged U32; the channel type says it is signed
// (write_imagei writes only the signed types, write_imageui the unsigned).
func (c ChannelType) texelValue(tag string, x uint64) float64 {
	switch c {
	case ChanS8, ChanS16, ChanS32:
		if tag[0] == 'U' || tag[0] == 'S' {
			return float64(signExt(x, tagBits(tag)))
		}
	}
	return tagToFloat(tag, x)
}

func tagToFloat(tag string, x uint64) float64 {
	switch tag {
	case "F32":
		return float64(math.Float32frombits(uint32(x)))
	case "F16":
		return float64(h2f(uint16(x)))
	case "F64":
		return math.Float64frombits(x)
	case "S32":
		return float64(int32(uint32(x)))
	case "S16":
		return float64(int16(uint16(x)))
	case "S8":
		return float64(int8(uint8(x)))
	}
	return float64(x)
}

func floatToTag(tag string, v float64) uint64 { return tagOf(tag).fromFloat(v) }

// valueTag is a value type tag ("F32", "U16" ...) resolved once, so that
// a loop over lanes switches on a number rather than compares strings.
type valueTag uint8

const (
	tagOther valueTag = iota // 64-bit integers
	tagF32
	tagF16
	tagF64
	tag32
	tag16
	tag8
)

func tagOf(tag string) valueTag {
	switch tag {
	case "F32":
		return tagF32
	case "F16":
		return tagF16
	case "F64":
		return tagF64
	case "S32", "U32":
		return tag32
	case "S16", "U16":
		return tag16
	case "S8", "U8":
		return tag8
	}
	return tagOther
}

// fromFloat is a value of the tag's type as a slot holds it.
func (t valueTag) fromFloat(v float64) uint64 {
	switch t {
	case tagF32:
		return uint64(math.Float32bits(float32(v)))
	case tagF16:
		return uint64(f64to16(v))
	case tagF64:
		return math.Float64bits(v)
	case tag32:
		return uint64(uint32(int64(v)))
	case tag16:
		return uint64(uint16(int64(v)))
	case tag8:
		return uint64(uint8(int64(v)))
	}
	return uint64(int64(v))
}
