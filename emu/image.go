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
)

var chanBytes = [...]int{1, 1, 2, 2, 4, 4, 2, 4, 1, 1, 2}

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
	// SlicePitch for 3D images.
	SlicePitch int
}

// TexelBytes is the size of one texel.
func (img *Image) TexelBytes() int { return img.Channels * img.Type.Bytes() }

func (img *Image) addr(x, y, z int) uint64 {
	return img.Buf.Base + uint64(z*img.SlicePitch+y*img.RowPitch+x*img.TexelBytes())
}

// texel reads the texel at integer coordinates as four float64 channels
// (integer channels hold their integer value); missing channels read as 0,
// alpha as 1.
func (img *Image) texel(x, y, z int) [4]float64 {
	o := z*img.SlicePitch + y*img.RowPitch + x*img.TexelBytes()
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
		}
	}
	return v
}

func (img *Image) writeTexel(x, y, z int, v [4]float64) {
	o := z*img.SlicePitch + y*img.RowPitch + x*img.TexelBytes()
	p := img.Buf.Data[o:]
	cb := img.Type.Bytes()
	for c := 0; c < img.Channels && c < 4; c++ {
		q := p[c*cb:]
		switch img.Type {
		case ChanU8, ChanS8:
			q[0] = byte(int64(v[c]))
		case ChanU16, ChanS16:
			binary.LittleEndian.PutUint16(q, uint16(int64(v[c])))
		case ChanU32, ChanS32:
			binary.LittleEndian.PutUint32(q, uint32(int64(v[c])))
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
		}
	}
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

func hImage(w *Warp, in *ir.Inst) {
	op := &w.prog.Images[in.Aux]
	W := w.width
	handles := w.slot(op.Image)
	var addrs []uint64
	for _, l := range w.lanes {
		h := handles[l]
		if h >= uint64(len(w.d.Images)) || w.d.Images[h] == nil {
			w.fail(fmt.Errorf("image handle %d is not bound", h), &w.prog.Sites[op.Site])
			return
		}
		img := w.d.Images[h]
		switch op.Kind {
		case ir.ImageQuerySize:
			for c := 0; c < op.N; c++ {
				w.regs[(int(op.Dst)+c)*W+int(l)] = uint64(img.size(c))
			}
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
		switch op.Kind {
		case ir.ImageWrite:
			var v [4]float64
			for c := 0; c < op.N && c < 4; c++ {
				v[c] = tagToFloat(op.ResultTag, w.regs[(int(op.Texel)+c)*W+int(l)])
			}
			x, y, z := int(coord[0]), int(coord[1]), int(coord[2])
			if x < 0 || x >= img.Width || (dims > 1 && (y < 0 || y >= img.size(1))) || (dims > 2 && (z < 0 || z >= img.size(2))) {
				w.fault(in, int(l), ir.SpaceGlobal, img.Buf.Base, img.TexelBytes(), true, fmt.Sprintf("image write at (%d,%d,%d) outside a %dx%dx%d image", x, y, z, img.Width, img.size(1), img.size(2)))
				return
			}
			img.writeTexel(x, y, z, v)
			addrs = append(addrs, img.addr(x, y, z))
			continue
		}
		sampler := uint64(ir.EncodeSampler(addrNone, false, filterNearest))
		if op.Sampler >= 0 {
			sampler = w.slot(op.Sampler)[l]
		}
		mode, norm, filter := ir.DecodeSampler(sampler)
		var v [4]float64
		if op.Kind == ir.ImageSample && filter == filterLinear && op.CoordFloat {
			v, addrs = sampleLinear(img, coord, dims, int(mode), norm, addrs)
		} else {
			var ic [3]int
			for k := 0; k < dims; k++ {
				c := coord[k]
				if norm && op.CoordFloat {
					c *= float64(img.size(k))
				}
				i := int(math.Floor(c))
				if !op.CoordFloat {
					i = int(c)
				}
				m := int(mode)
				if op.Kind != ir.ImageSample {
					m = addrClampToEdge // reads of out-of-range coordinates are undefined; clamp
				}
				var ok bool
				ic[k], ok = wrap(i, img.size(k), m)
				if !ok {
					ic[0] = -1
				}
			}
			if ic[0] >= 0 {
				v = img.texel(ic[0], ic[1], ic[2])
				addrs = append(addrs, img.addr(ic[0], ic[1], ic[2]))
			} else {
				v = [4]float64{0, 0, 0, 0} // border colour
			}
		}
		for c := 0; c < op.N && c < 4; c++ {
			w.regs[(int(op.Dst)+c)*W+int(l)] = floatToTag(op.ResultTag, v[c])
		}
	}
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
	var i0 [2]int
	var frac [2]float64
	for k := 0; k < dims && k < 2; k++ {
		c := coord[k]
		if norm {
			c *= float64(img.size(k))
		}
		c -= 0.5
		f := math.Floor(c)
		i0[k], frac[k] = int(f), c-f
	}
	var out [4]float64
	ny := 2
	if dims < 2 {
		ny = 1
		frac[1] = 0
	}
	for dy := 0; dy < ny; dy++ {
		for dx := 0; dx < 2; dx++ {
			wgt := (1 - frac[0]) * (1 - frac[1])
			if dx == 1 {
				wgt = frac[0] * (1 - frac[1])
			}
			if dy == 1 {
				wgt = (1 - frac[0]) * frac[1]
				if dx == 1 {
					wgt = frac[0] * frac[1]
				}
			}
			x, okx := wrap(i0[0]+dx, img.Width, mode)
			y, oky := 0, true
			if dims > 1 {
				y, oky = wrap(i0[1]+dy, img.size(1), mode)
			}
			var t [4]float64
			if okx && oky {
				t = img.texel(x, y, 0)
				addrs = append(addrs, img.addr(x, y, 0))
			}
			for c := range out {
				out[c] += wgt * t[c]
			}
		}
	}
	return out, addrs
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

func floatToTag(tag string, v float64) uint64 {
	switch tag {
	case "F32":
		return uint64(math.Float32bits(float32(v)))
	case "F16":
		return uint64(f64to16(v))
	case "F64":
		return math.Float64bits(v)
	case "S32", "U32":
		return uint64(uint32(int64(v)))
	case "S16", "U16":
		return uint64(uint16(int64(v)))
	case "S8", "U8":
		return uint64(uint8(int64(v)))
	}
	return uint64(int64(v))
}
