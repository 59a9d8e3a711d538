package emu

import (
	"fmt"
	"math"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// Mip levels, level-of-detail selection and derivatives across a fragment
// quad. The rules are the Vulkan specification's (chapter "Image
// Operations": "Scale Factor Operation, Level-of-Detail Operation and
// Image Level(s) Selection", "Texel Filtering"; chapter "Derivative
// Operations"), with the choices it leaves to an implementation named
// where they are made.

// MaxLevels is the most mip levels an image may have: a full chain of a
// 32768-texel side.
const MaxLevels = 16

// Level is one mip level of an image beyond level 0: its size and where
// its texels lie in the image's buffer.
type Level struct {
	Width, Height int
	// Depth is a 3D level's depth; arrays keep their layer count at every
	// level and ignore it.
	Depth int
	// Offset is the level's first byte in Buf.
	Offset               int
	RowPitch, SlicePitch int
}

// Levels is the number of mip levels, level 0 included.
func (img *Image) Levels() int { return 1 + len(img.Mips) }

// MipChain lays out a full mip chain after img's level 0, tightly packed
// in the order of the levels: level i is max(1, size >> i) in each
// dimension (Vulkan's rule; 3D images halve their depth too, arrays keep
// their layers), down to 1×1(×1). It returns the levels (for img.Mips)
// and the bytes the whole image then takes; level 0 must already have its
// size and pitches.
func MipChain(img *Image) ([]Level, int) {
	tb := img.TexelBytes()
	layers := max(img.Depth, 1)
	end := img.SlicePitch * layers
	if img.Dim != spirv.Dim3D && !img.Arrayed {
		end = img.SlicePitch
		if img.SlicePitch == 0 {
			end = img.RowPitch * max(img.Height, 1)
		}
	}
	w, h, d := img.Width, max(img.Height, 1), max(img.Depth, 1)
	var levels []Level
	for len(levels)+1 < MaxLevels && (w > 1 || h > 1 || (img.Dim == spirv.Dim3D && d > 1)) {
		w, h = max(w/2, 1), max(h/2, 1)
		if img.Dim == spirv.Dim3D {
			d = max(d/2, 1)
		}
		lv := Level{Width: w, Height: h, Depth: d, Offset: end, RowPitch: w * tb}
		lv.SlicePitch = lv.RowPitch * h
		n := lv.SlicePitch
		switch {
		case img.Dim == spirv.Dim3D:
			n *= d
		case img.Arrayed:
			n *= layers
			lv.Depth = layers
		}
		levels = append(levels, lv)
		end += n
	}
	return levels, end
}

// level returns level i of img as an image of its own (the same buffer,
// the level's size, pitches and offset), for the texel and filter code.
func (img *Image) level(i int) Image {
	v := *img
	v.Mips = nil
	if i <= 0 || i > len(img.Mips) {
		return v
	}
	lv := &img.Mips[i-1]
	v.Width, v.Height, v.RowPitch, v.SlicePitch, v.off = lv.Width, lv.Height, lv.RowPitch, lv.SlicePitch, lv.Offset
	if img.Dim == spirv.Dim3D {
		v.Depth = lv.Depth
	}
	return v
}

// view is level i of img to read from: img itself for level 0, else the
// level's view written into buf (no copy of the image for the common case).
func (img *Image) view(i int, buf *Image) *Image {
	if i <= 0 || i > len(img.Mips) {
		return img
	}
	*buf = img.level(i)
	return buf
}

// Check reports an image whose description does not fit its buffer or
// whose mip levels are malformed, so that sampling it cannot go out of
// range. Dispatch.Init checks the images it is given.
func (img *Image) Check() error {
	if img.Buf == nil {
		return fmt.Errorf("image has no buffer")
	}
	if img.Channels < 1 || img.Channels > 4 || int(img.Type) >= len(chanBytes) {
		return fmt.Errorf("image has %d channels of type %d", img.Channels, img.Type)
	}
	if len(img.Mips)+1 > MaxLevels {
		return fmt.Errorf("image has %d mip levels, at most %d are allowed", len(img.Mips)+1, MaxLevels)
	}
	for i := 0; i <= len(img.Mips); i++ {
		v := img.level(i)
		if v.Width < 1 || (imageDims(img) > 1 && v.Height < 1) {
			return fmt.Errorf("mip level %d of the image is %dx%d", i, v.Width, v.Height)
		}
		tb := v.TexelBytes()
		n := 1
		if img.Dim == spirv.Dim3D || img.Arrayed {
			n = max(v.Depth, 1)
		}
		last := v.off + (n-1)*v.SlicePitch + (max(v.Height, 1)-1)*v.RowPitch + v.Width*tb
		if v.off < 0 || v.RowPitch < v.Width*tb || (n > 1 && v.SlicePitch < v.RowPitch*max(v.Height, 1)) || last > len(img.Buf.Data) {
			return fmt.Errorf("mip level %d of the image (%dx%dx%d, offset %d, pitches %d and %d) does not fit its %d-byte buffer",
				i, v.Width, max(v.Height, 1), n, v.off, v.RowPitch, v.SlicePitch, len(img.Buf.Data))
		}
	}
	return nil
}

// TexStats counts a warp's sampling instructions' lanes (helper lanes
// included).
type TexStats struct {
	// Samples is the lanes that sampled through a sampler.
	Samples uint64
	// Minified is the samples whose LOD was above 0 (the minification
	// filter).
	Minified uint64
	// TwoLevels is the samples that blended two mip levels (a linear
	// mipmap between levels: trilinear with linear filters).
	TwoLevels uint64
	// LevelSum is the sum over samples of the mip level read: the level a
	// nearest mipmap picks, or d (Vulkan's d', fractional between the two
	// levels blended) for a linear one.
	LevelSum float64
}

// quad is the first lane of lane l's 2×2 fragment quad: a fragment warp
// holds quads in lanes 4k to 4k+3, top-left, top-right, bottom-left,
// bottom-right (gfx packs them so).
func quad(l int) int { return l &^ 3 }

// activeMask is the set of lanes running the current instruction.
func (w *Warp) activeMask() Mask {
	if w.full {
		return w.d.fullMask
	}
	var m Mask
	for _, l := range w.lanes {
		m.Set(int(l))
	}
	return m
}

// quadDiffs returns the differences of a float value (slot s, tag) across
// lane l's quad: dx along a row, dy along a column (Vulkan "Derivative
// Operations"). Coarse derivatives are the top row's and the left
// column's, the same for the four lanes; fine ones are l's own row's and
// column's. A pair with a lane that is not running the instruction (it has
// left on another path or was discarded) is replaced by the other row or
// column, and the difference is 0 when neither pair is whole, so the
// result never depends on a stale register. The differences are taken in
// the value's own precision.
func (w *Warp) quadDiffs(s int32, tag string, l int, fine bool, act Mask) (dx, dy float64) {
	q := quad(l)
	val := func(k int) float64 { return tagToFloat(tag, w.regs[int(s)*w.width+k]) }
	ok := func(a, b int) bool { return b < w.width && act.Has(a) && act.Has(b) }
	diff := func(a, b int) float64 {
		switch tag {
		case "F32":
			return float64(float32(val(b)) - float32(val(a)))
		case "F16":
			return float64(h2f(f64to16(val(b) - val(a))))
		}
		return val(b) - val(a)
	}
	row, col := 0, 0 // top row, left column
	if fine {
		row, col = (l-q)>>1, (l-q)&1
	}
	rows := [2]int{row, 1 - row}
	cols := [2]int{col, 1 - col}
	for _, r := range rows {
		if a := q + 2*r; ok(a, a+1) {
			dx = diff(a, a+1)
			break
		}
	}
	for _, c := range cols {
		if a := q + c; ok(a, a+2) {
			dy = diff(a, a+2)
			break
		}
	}
	return dx, dy
}

// internalDeriv runs OpDPdx and its kin: Imm holds ir.DerivX, DerivY or
// DerivWidth, with DerivFine for the fine forms.
func internalDeriv(c *ir.ExtCall) (extFn, error) {
	kind, fine := c.Imm&3, c.Imm&ir.DerivFine != 0
	if kind > ir.DerivWidth || len(c.Args) != 1 {
		return nil, fmt.Errorf("malformed derivative")
	}
	return func(w *Warp, c *ir.ExtCall) {
		act := w.activeMask()
		tag := c.Tag
		for comp := 0; comp < c.N; comp++ {
			s := c.Args[0] + int32(comp)
			for _, l := range w.lanes {
				dx, dy := w.quadDiffs(s, tag, int(l), fine, act)
				var v float64
				switch kind {
				case ir.DerivX:
					v = dx
				case ir.DerivY:
					v = dy
				default:
					// |dx| + |dy|, rounded as the value's type adds.
					v = math.Abs(dx) + math.Abs(dy)
					if tag == "F32" {
						v = float64(float32(math.Abs(dx)) + float32(math.Abs(dy)))
					}
				}
				w.regs[(int(c.Dst)+comp)*w.width+int(l)] = floatToTag(c.ResultTag, v)
			}
		}
	}, nil
}

// lodSample is what a sample's level of detail selects: the filter within
// a level, and one level or two with the weight of the second.
type lodSample struct {
	linear   bool    // the filter within a level (magnification or minification)
	d        float64 // the level read: d' in [0, last level] (linear mipmap), or the nearest level
	lo, hi   int     // the level(s) read: hi is the finer, lo the coarser
	delta    float64 // weight of level lo (0: level hi alone)
	minified bool
}

// lambda is lane l's level of detail λ for a sample of img: from the Lod
// operand, the Grad operands or the quad's derivatives, plus the Bias
// operand, clamped to the sampler's [minLod, maxLod] (raised by the MinLod
// operand). Unnormalised coordinates take level 0 (Vulkan requires their
// samplers to clamp the LOD to 0), and so do non-fragment programs'
// implicit-LOD samples (there is no quad to differentiate over). A NaN LOD
// becomes the minimum.
func (w *Warp) lambda(op *ir.ImageOp, img *Image, st ir.SamplerState, dims, l int, act Mask) float64 {
	if !st.Normalized {
		return 0
	}
	f32 := func(s int32) float64 { return float64(math.Float32frombits(uint32(w.regs[int(s)*w.width+l]))) }
	var base float64
	switch op.LodMode {
	case ir.LodExplicit:
		if op.LodFloat {
			base = f32(op.Lod)
		} else {
			base = float64(int32(uint32(w.regs[int(op.Lod)*w.width+l])))
		}
	case ir.LodGrad:
		var rx, ry float64
		for k := 0; k < dims && k < op.GradN; k++ {
			n := float64(img.size(k))
			rx = math.Max(rx, math.Abs(f32(op.GradX+int32(k)))*n)
			ry = math.Max(ry, math.Abs(f32(op.GradY+int32(k)))*n)
		}
		base = math.Log2(math.Max(rx, ry))
	case ir.LodImplicit:
		if w.prog.Model != spirv.ExecutionModelFragment || !op.CoordFloat {
			base = math.Inf(-1)
			break
		}
		var rx, ry float64
		for k := 0; k < dims && k < op.CoordN; k++ {
			dx, dy := w.quadDiffs(op.Coord+int32(k), "F32", l, false, act)
			n := float64(img.size(k))
			rx = math.Max(rx, math.Abs(dx)*n)
			ry = math.Max(ry, math.Abs(dy)*n)
		}
		base = math.Log2(math.Max(rx, ry))
	}
	if op.Bias >= 0 {
		base += f32(op.Bias)
	}
	lo, hi := st.MinLod, st.MaxLod
	if op.MinLod >= 0 {
		lo = math.Max(lo, f32(op.MinLod))
	}
	if base != base {
		return lo
	}
	return math.Min(math.Max(base, lo), hi)
}

// selectLevels turns λ into the filter and the level(s) to read
// (Vulkan's "Image Level(s) Selection" with the base level 0 and q the
// last level): d = clamp(λ, 0, q); a nearest mipmap reads level
// ceil(d + 0.5) − 1 (the spec's preferred rounding, which rounds d = 0.5
// down), a linear one floor(d) and floor(d) + 1 weighted by d's fraction.
// λ ≤ 0 is magnification.
func selectLevels(lambda float64, levels int, st ir.SamplerState) lodSample {
	q := float64(levels - 1)
	s := lodSample{linear: st.MagFilter == filterLinear}
	if lambda > 0 {
		s.linear, s.minified = st.MinFilter == filterLinear, true
	}
	s.d = math.Min(math.Max(lambda, 0), q)
	if !st.MipmapLinear {
		s.hi = int(math.Ceil(s.d+0.5)) - 1
		s.lo, s.d = s.hi, float64(s.hi)
		return s
	}
	f := math.Floor(s.d)
	s.hi, s.delta = int(f), s.d-f
	s.lo = min(s.hi+1, levels-1)
	if s.lo == s.hi {
		s.delta = 0
	}
	return s
}
