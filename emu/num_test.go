package emu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/kernel"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// The half-float conversions against the kernel package's independent
// implementation: every binary16 value, and a million random doubles.
func TestHalf(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		got := float64(h2f(uint16(h)))
		want := kernel.HalfToFloat64(uint16(h))
		if got != want && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("h2f(%#04x) = %v, want %v", h, got, want)
		}
		if !math.IsNaN(got) {
			if back := f64to16(got); back != uint16(h) {
				t.Fatalf("f64to16(h2f(%#04x)) = %#04x", h, back)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 1_000_000; i++ {
		x := math.Ldexp(r.Float64()*2-1, r.IntN(44)-28)
		if got, want := f64to16(x), kernel.HalfFromFloat64(x); got != want {
			t.Fatalf("f64to16(%v) = %#04x, want %#04x", x, got, want)
		}
	}
	// Ties go to even: 1 + 2^-11 lies halfway between 1 and 1 + 2^-10.
	if got := f64to16(1 + 0x1p-11); got != 0x3c00 {
		t.Errorf("tie to even: %#04x, want 0x3c00", got)
	}
	if got := f64to16(1 + 3*0x1p-11); got != 0x3c02 {
		t.Errorf("tie to even: %#04x, want 0x3c02", got)
	}
}

func TestF2HModes(t *testing.T) {
	x := 1 + 0x1p-11 + 0x1p-20 // just above halfway between 1 and the next half
	cases := []struct {
		mode int64
		x    float64
		want uint16
	}{
		{0, x, 0x3c01}, {1, x, 0x3c00}, {2, x, 0x3c01}, {3, x, 0x3c00},
		{1, -x, 0xbc00}, {2, -x, 0xbc00}, {3, -x, 0xbc01},
		{1, 1e6, 0x7bff}, {0, 1e6, 0x7c00},
	}
	for _, c := range cases {
		if got := f2hMode(c.x, c.mode); got != c.want {
			t.Errorf("f2hMode(%v, %d) = %#04x, want %#04x", c.x, c.mode, got, c.want)
		}
	}
}

func TestF2Int(t *testing.T) {
	cases := []struct {
		x      float64
		bits   int
		signed bool
		want   uint64
	}{
		{3.9, 32, true, 3}, {-3.9, 32, true, uint64(math.MaxUint64 - 2)},
		{1e20, 32, true, math.MaxInt32}, {-1e20, 32, true, uint64(1<<64 - 1<<31)},
		{-5, 8, false, 0}, {300, 8, false, 255}, {300, 8, true, 127},
		{math.NaN(), 32, true, 0}, {1e30, 64, false, math.MaxUint64}, {1e30, 64, true, math.MaxInt64},
	}
	for _, c := range cases {
		if got := f2int(c.x, c.bits, c.signed); got != c.want {
			t.Errorf("f2int(%v, %d, %v) = %#x, want %#x", c.x, c.bits, c.signed, got, c.want)
		}
	}
}

func TestIntegerUndefined(t *testing.T) {
	if udiv(uint32(7), 0) != math.MaxUint32 || umod(uint32(7), 0) != 7 {
		t.Error("unsigned division by zero")
	}
	if sdiv(int32(7), 0) != -1 || srem(int32(7), 0) != 7 {
		t.Error("signed division by zero")
	}
	if sdiv(int32(math.MinInt32), -1) != math.MinInt32 || srem(int32(math.MinInt32), -1) != 0 {
		t.Error("most negative / -1 must wrap, not trap")
	}
	if smod(int32(-7), 3) != 2 || srem(int32(-7), 3) != -1 || smod(int32(7), -3) != -2 {
		t.Error("SMod takes the sign of the divisor, SRem of the dividend")
	}
	if fmod(float32(-7), 3) != 2 || frem(float32(-7), 3) != -1 {
		t.Error("FMod takes the sign of the divisor, FRem of the dividend")
	}
}

func TestMulHi(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 10000; i++ {
		a, b := int64(r.Uint64()), int64(r.Uint64())
		p := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
		want := new(big.Int).Rsh(p, 64).Int64()
		if got := mulhiS(a, b); got != want {
			t.Fatalf("mulhiS(%d, %d) = %d, want %d", a, b, got, want)
		}
		ua, ub := uint64(a), uint64(b)
		up := new(big.Int).Mul(new(big.Int).SetUint64(ua), new(big.Int).SetUint64(ub))
		if got := mulhiU(ua, ub); got != new(big.Int).Rsh(up, 64).Uint64() {
			t.Fatalf("mulhiU(%d, %d)", ua, ub)
		}
		if got, want := mulhiS(int32(a), int32(b)), int32((int64(int32(a))*int64(int32(b)))>>32); got != want {
			t.Fatalf("mulhiS32")
		}
	}
	if rotl(uint8(0x81), 1) != 0x03 || rotl(uint32(1), 33) != 2 || clz(uint16(1)) != 15 || ctz(uint8(0)) != 8 {
		t.Error("bit helpers")
	}
}

// Image addressing and filtering on a 2x2 RGBA8 image.
func TestImageSampling(t *testing.T) {
	m := NewMemory()
	img := &Image{Dim: spirv.Dim2D, Width: 2, Height: 2, Channels: 4, Type: ChanUNorm8}
	img.RowPitch, img.SlicePitch = 8, 16
	img.Buf = m.Alloc(16, "img", false)
	copy(img.Buf.Data, []byte{0, 0, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255, 255, 255, 255, 255})
	for _, c := range []struct {
		i, n, mode, want int
		ok               bool
	}{
		{-1, 4, addrClampToEdge, 0, true}, {5, 4, addrClampToEdge, 3, true}, {5, 4, addrRepeat, 1, true},
		{-1, 4, addrRepeat, 3, true}, {4, 4, addrMirrored, 3, true}, {-1, 4, addrMirrored, 0, true},
		{4, 4, addrClamp, 0, false}, {2, 4, addrNone, 2, true},
	} {
		got, ok := wrap(c.i, c.n, c.mode)
		if ok != c.ok || (ok && got != c.want) {
			t.Errorf("wrap(%d, %d, mode %d) = %d, %v; want %d, %v", c.i, c.n, c.mode, got, ok, c.want, c.ok)
		}
	}
	// The centre of the image averages the four texels equally.
	v, addrs := sampleLinear(img, [3]float64{0.5, 0.5, 0}, 2, addrClampToEdge, true, nil)
	want := [4]float64{0.5, 0.5, 0.25, 1}
	for c := range v {
		if math.Abs(v[c]-want[c]) > 1e-12 {
			t.Errorf("bilinear centre channel %d = %v, want %v", c, v[c], want[c])
		}
	}
	if len(addrs) != 4 {
		t.Errorf("bilinear touched %d texels, want 4", len(addrs))
	}
	// A texel centre returns that texel exactly.
	v, _ = sampleLinear(img, [3]float64{0.75, 0.25, 0}, 2, addrClampToEdge, true, nil)
	if v != [4]float64{1, 0, 0, 1} {
		t.Errorf("texel centre: %v", v)
	}
	if SamplerFromCL(0x1|0x6|0x20) != 0x1_0001_0103 {
		t.Errorf("CLK_NORMALIZED_COORDS_TRUE|CLK_ADDRESS_REPEAT|CLK_FILTER_LINEAR: %#x", SamplerFromCL(0x27))
	}
}

// bothNaN32 says whether two float32 words are both NaNs: which NaN an
// operation on two of them gives depends on the order the compiler put
// them in, which neither specification fixes.
func bothNaN32(a, b uint64) bool {
	return a>>32 == 0 && b>>32 == 0 && a&0x7fffffff > 0x7f800000 && b&0x7fffffff > 0x7f800000
}

// TestFma32FastPath holds fma32 (the float64 sum rounded once more when
// it is not a float32 midpoint) to the exact routine, float32(fmaOdd), bit
// for bit: operands of every class (subnormals, infinities, NaNs, sums that
// overflow), products that cancel with c, and the cases double rounding
// gets wrong: a product that is exactly a float32 midpoint (odd 25-bit
// integers times a power of two, the one past MaxFloat32 included) plus a c
// too small to move the float64 sum off it.
func TestFma32FastPath(t *testing.T) {
	// The handler's loop, which writes fma32's fast path out, runs the
	// same operands a warp at a time.
	const W = 128
	w := &Warp{width: W, full: true}
	w.setRegs(make([]uint64, 4*W))
	x := &decode([]ir.Inst{{Op: ir.OpFmaF32, N: 1, Dst: 3, Src: [3]int32{0, 1, 2}}}, W)[0]
	var batch [][3]float32
	flush := func() {
		for l, abc := range batch {
			for k, v := range abc {
				w.regs[k*W+l] = uint64(math.Float32bits(v))
			}
		}
		x.run(w, x)
		for l, abc := range batch {
			a, b, c := abc[0], abc[1], abc[2]
			if got, want := w.regs[3*W+l], uint64(math.Float32bits(float32(fmaOdd(a, b, c)))); got != want && !bothNaN32(got, want) {
				t.Fatalf("the FmaF32 handler on %#08x, %#08x, %#08x gives %#x, the exact routine %#08x",
					math.Float32bits(a), math.Float32bits(b), math.Float32bits(c), got, want)
			}
		}
		batch = batch[:0]
	}
	check := func(a, b, c float32) {
		t.Helper()
		got, want := math.Float32bits(fma32(a, b, c)), math.Float32bits(float32(fmaOdd(a, b, c)))
		if got != want && !bothNaN32(uint64(got), uint64(want)) {
			t.Fatalf("fma32(%#08x, %#08x, %#08x) = %#08x, the exact routine gives %#08x",
				math.Float32bits(a), math.Float32bits(b), math.Float32bits(c), got, want)
		}
		if batch = append(batch, [3]float32{a, b, c}); len(batch) == W {
			flush()
		}
	}
	defer flush()
	edges := []float32{0, float32(math.Copysign(0, -1)), 1, -1, 1.5, 0x1p-126, -0x1p-126, 0x1p-149, 0x1.fffffcp-127,
		math.MaxFloat32, -math.MaxFloat32, 0x1p64, 0x1p-64, 0x1.000002p0, 0x1.fffffep0, 18631 * 0x1p52, 1801 * 0x1p51,
		float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), math.Float32frombits(0x7f800001), math.Float32frombits(0xffc00123)}
	for _, a := range edges {
		for _, b := range edges {
			for _, c := range edges {
				check(a, b, c)
			}
		}
	}
	// 18631 × 1801 × 2^103 = 2^128 - 2^103, the midpoint between
	// MaxFloat32 and 2^128: a hair below rounds to MaxFloat32.
	for _, c := range []float32{0, 0x1p60, -0x1p60, 0x1p-100, -0x1p-100} {
		check(18631*0x1p52, 1801*0x1p51, c)
		check(-18631*0x1p52, 1801*0x1p51, c)
	}
	r := rand.New(rand.NewPCG(24, 1))
	pow := func(lo, hi int) float32 { return float32(math.Ldexp(1, lo+r.IntN(hi-lo))) }
	sign := func() float32 { return float32(1 - 2*int(r.Uint32()&1)) }
	for i := 0; i < 1_000_000; i++ {
		// Random bits cover subnormals, infinities, NaNs and overflow.
		check(math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32()), math.Float32frombits(r.Uint32()))
		// Operands of similar magnitude, c cancelling most of the product.
		a := math.Float32frombits(0x3f800000 | r.Uint32()&0x7fffff)
		b := math.Float32frombits(0x3f800000 | r.Uint32()&0x7fffff)
		check(a, b, -float32(float64(a)*float64(b)))
		check(a*pow(-150, 130), b, float32(r.NormFloat64())*pow(-150, 130))
		// A product of two odd 13-bit integers is an odd integer of 25
		// or 26 bits: a float32 midpoint, or a quarter point. Scaled
		// across the exponent range, with c zero, tiny, or near the
		// product's last bit.
		a = float32(4097+2*r.IntN(2048)) * pow(-100, 100) * sign()
		b = float32(4097+2*r.IntN(2048)) * pow(-100, 100) * sign()
		p := float64(a) * float64(b)
		for _, c := range []float32{0, float32(p * 0x1p-60), float32(-p * 0x1p-60), float32(p * 0x1p-30), float32(-p * 0x1p-25), float32(p * math.Ldexp(1, -r.IntN(200)))} {
			check(a, b, c)
		}
		// (2^23+1)(2^23-1)×2^k = 2^(k+46) - 2^k: c, a float32 whose last
		// bit is 2^(k+47), takes the sum where 2^k is under half a float64
		// ulp, leaving the float64 sum on the midpoint c + 2^(k+46) while
		// the exact value is a hair below it. In the normal range c's
		// first bit is then 2^(k+70); at k = -196 the sum is a float32
		// subnormal's midpoint (an odd multiple of 2^-150) for any c of
		// 2^-142 or more.
		k, m := r.IntN(260)-196, 1<<23+r.IntN(1<<23)
		if r.IntN(4) == 0 {
			k, m = -196, 1<<7+r.IntN(1<<23-1<<7)
		}
		sg := sign()
		a, b = 0x1.000002p23*pow(k/2, k/2+1)*sg, 0x1.fffffcp22*pow(k-k/2, k-k/2+1)
		c := float32(m) * pow(k+47, k+48) * sg
		check(a, b, c)
		check(a, b, -c)
	}
	// By hand: 2^-150 - 2^-196 + 2^-140+2^-149 rounds to 2^-140+2^-149,
	// not to the float64 sum's even neighbour.
	check(0x1.000002p-75, 0x1.fffffcp-76, 0x1.008p-140)
}
