package emu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

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
