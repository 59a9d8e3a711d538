package emu

import (
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"sync"
	"testing"
)

// refH2F and refF64to16 are the half conversions as they were before the
// bit-manipulating ones (through float64 with Ilogb, Ldexp and
// RoundToEven): the new ones must give the same bits.
func refH2F(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := int(h>>10) & 0x1f
	man := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | man<<13)
	case exp != 0:
		return math.Float32frombits(sign | uint32(exp-15+127)<<23 | man<<13)
	case man == 0:
		return math.Float32frombits(sign)
	}
	f := float32(man) * (1.0 / (1 << 24))
	if sign != 0 {
		return -f
	}
	return f
}

func refF64to16(x float64) uint16 {
	b := math.Float64bits(x)
	sign := uint16(b>>63) << 15
	if x != x {
		return sign | 0x7e00
	}
	a := math.Abs(x)
	if a >= 65520 {
		return sign | 0x7c00
	}
	if a <= 0x1p-25 {
		return sign
	}
	exp := math.Ilogb(a)
	if exp < -14 {
		exp = -14
	}
	q := math.RoundToEven(math.Ldexp(a, 10-exp))
	if q >= 2048 {
		q /= 2
		exp++
	}
	m := uint16(q)
	if m < 1024 {
		return sign | m
	}
	if exp > 15 {
		return sign | 0x7c00
	}
	return sign | uint16(exp+15)<<10 | (m & 0x3ff)
}

// Every half widens to the same float32 bits (NaN payloads included).
func TestH2FEveryHalf(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		want := math.Float32bits(refH2F(uint16(h)))
		if got := math.Float32bits(h2f(uint16(h))); got != want {
			t.Fatalf("h2f(%#04x) = %#08x, want %#08x", h, got, want)
		}
		if got := math.Float32bits(h2fBits(uint16(h))); got != want {
			t.Fatalf("h2fBits(%#04x) = %#08x, want %#08x", h, got, want)
		}
	}
}

// Every float32 bit pattern rounds to the same half through f2h, and
// through f64to16 of the float64 it widens to (and f2hNormal from 2^-14
// on). The reference is slow (14 ns): the test runs it once for x and -x
// (it rounds the magnitude and puts the sign back), and only from 2^-25 to
// 2^16, where rounding happens; elsewhere it compares with what the
// reference's first branches answer without computing (NaN, infinity from
// 65520 on, zero up to 2^-25). The 256 binades are shared among the host's
// threads: about 15 s of CPU.
func TestF2HEveryFloat32(t *testing.T) {
	next := make(chan uint32, 256)
	for exp := uint32(0); exp < 256; exp++ {
		next <- exp
	}
	close(next)
	var mu sync.Mutex
	var bad []uint32
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for exp := range next {
				if u, ok := checkBinade(exp); !ok {
					mu.Lock()
					bad = append(bad, u)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	for _, u := range bad {
		f := math.Float32frombits(u)
		t.Errorf("float32 %#08x (%g): f2h %#04x, f64to16 %#04x, want %#04x", u, f, f2h(f), f64to16(float64(f)), refF64to16(float64(f)))
	}
}

// checkBinade checks TestF2HEveryFloat32's binade of biased exponent exp,
// both signs, and returns the first pattern that fails.
func checkBinade(exp uint32) (uint32, bool) {
	const neg = 1 << 31
	lo, hi := exp<<23, exp<<23+1<<23
	normal := exp >= 127-14 // f2hNormal's range too
	var want uint16
	switch {
	case exp == 0xff: // infinity, then NaNs
		if f2h(math.Float32frombits(lo)) != 0x7c00 || f2h(math.Float32frombits(lo|neg)) != 0xfc00 {
			return lo, false
		}
		lo, want = lo+1, 0x7e00
	case exp >= 127+16: // 2^16 and up
		want = 0x7c00
	case exp < 127-25: // below 2^-25
		want = 0
	default:
		for u := lo; u < hi; u++ {
			want := refF64to16(float64(math.Float32frombits(u)))
			for _, v := range [2]uint32{u, u | neg} {
				w := want | uint16(v>>16)&0x8000
				if f := math.Float32frombits(v); f2h(f) != w || f64to16(float64(f)) != w || normal && f2hNormal(v) != w {
					return v, false
				}
			}
		}
		return 0, true
	}
	for u := lo; u < hi; u++ {
		if f2h(math.Float32frombits(u)) != want || f2h(math.Float32frombits(u|neg)) != want|0x8000 {
			return u, false
		}
		if normal && (f2hNormal(u) != want || f2hNormal(u|neg) != want|0x8000) {
			return u, false
		}
	}
	return 0, true
}

// float64s round as before: a dense sweep around every half and every
// midpoint between two (the values themselves and 1 to 64 float64 ulps to
// either side), the edges of the ranges, and random values of every
// exponent. Float64s with float32 precision are all in TestF2HEveryFloat32.
func TestF64to16Boundaries(t *testing.T) {
	check := func(x float64) {
		t.Helper()
		if got, want := f64to16(x), refF64to16(x); got != want {
			t.Fatalf("f64to16(%v = %#016x) = %#04x, want %#04x", x, math.Float64bits(x), got, want)
		}
	}
	around := func(x float64) {
		check(x)
		up, down := x, x
		for range 64 {
			up, down = math.Nextafter(up, math.Inf(1)), math.Nextafter(down, math.Inf(-1))
			check(up)
			check(down)
		}
	}
	for h := 0; h < 0x7c00; h++ {
		x := float64(refH2F(uint16(h)))
		next := float64(refH2F(uint16(h + 1))) // 0x7c00: infinity; its "midpoint" 65520 is below
		if h == 0x7bff {
			next = 65536
		}
		for _, s := range []float64{1, -1} {
			around(s * x)
			around(s * (x + next) / 2)
		}
	}
	for _, x := range []float64{0x1p-25, 0x1p-24, 0x1p-14, 65504, 65520, 65536, 0x1p-1074, 0x1p-1022,
		math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1)} {
		around(x)
		around(-x)
	}
	for _, u := range []uint64{0x7ff0000000000001, 0x7ff8000000000000, 0x7fffffffffffffff, 0xfff0000000000001, 0xffffffffffffffff} {
		if got := f64to16(math.Float64frombits(u)); got != refF64to16(math.Float64frombits(u)) {
			t.Errorf("NaN %#016x: %#04x", u, got)
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 4_000_000 {
		check(math.Float64frombits(r.Uint64()))                                  // every exponent alike
		check(math.Ldexp(1+r.Float64(), r.IntN(50)-30) * float64(1-2*r.IntN(2))) // near half range
	}
}

// fma16 (and the handlers' fast path, the float32 sum unless fma16Tie)
// rounds a*b+c once: against the exact sum rounded by big.Float, on
// random halves of every kind and on halves whose product is tiny against
// the addend, where the float64 sum is not exact.
func TestFma16RoundsOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	exact := func(a, b, c float32) uint16 {
		if x := float64(a)*float64(b) + float64(c); math.IsInf(x, 0) || x != x || x == 0 {
			return f64to16(x) // the float64 answer is exact for these
		}
		p := new(big.Float).SetPrec(200).Mul(big.NewFloat(float64(a)), big.NewFloat(float64(b)))
		p.Add(p, big.NewFloat(float64(c)))
		return uint16(ctypes["F16"].encBig(p))
	}
	fast := func(a, b, c float32) uint16 {
		s := math.Float32bits(a*b + c)
		if fma16Tie(s) {
			return f64to16(float64(a)*float64(b) + float64(c))
		}
		return f2hNormal(s)
	}
	half := func() uint16 {
		if r.IntN(4) == 0 { // near 1, where midpoints are dense
			return 0x3800 + uint16(r.IntN(0x800)) | uint16(r.IntN(2))<<15
		}
		return uint16(r.Uint32())
	}
	for i := range 300_000 {
		a, b, c := h2f(half()), h2f(half()), h2f(half())
		if i%3 == 0 { // a tiny product against a large addend
			a, b = h2f(uint16(r.IntN(0x400))), h2f(uint16(r.IntN(0x800)))
		}
		want := exact(a, b, c)
		if want == 0x7e00 || want == 0xfe00 {
			want = 0x7e00 // a NaN's sign depends on which NaN operand the FPU passes on
		}
		if got := f2h(fma16(a, b, c)) &^ 0x8000; want == 0x7e00 && got == 0x7e00 {
			continue
		}
		if got := f2h(fma16(a, b, c)); got != want {
			t.Fatalf("fma16(%v, %v, %v) = %#04x, want %#04x", a, b, c, got, want)
		}
		if got := fast(a, b, c); got != want {
			t.Fatalf("fast fma16(%v, %v, %v) = %#04x, want %#04x", a, b, c, got, want)
		}
	}
}
