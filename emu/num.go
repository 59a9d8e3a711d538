package emu

import (
	"math"
	"math/bits"
	"unsafe"
)

// Numeric helpers for the generated handlers. Where SPIR-V leaves a result
// undefined (division by zero, out-of-range float to integer conversion) the
// executor picks one documented answer instead of failing; see docs.

type floatT interface{ ~float32 | ~float64 }
type uintT interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}
type sintT interface {
	~int8 | ~int16 | ~int32 | ~int64
}
type intT interface{ uintT | sintT }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// f2int converts toward zero with saturation to a bits-wide integer (NaN
// gives 0) and returns its two's complement bits.
func f2int(x float64, nbits int, signed bool) uint64 {
	if x != x {
		return 0
	}
	x = math.Trunc(x)
	if signed {
		lo := -math.Ldexp(1, nbits-1)
		hi := math.Ldexp(1, nbits-1) - 1
		if x <= lo {
			return uint64(int64(lo))
		}
		if x >= hi {
			if nbits == 64 {
				return math.MaxInt64
			}
			return uint64(int64(hi))
		}
		return uint64(int64(x))
	}
	if x <= 0 {
		return 0
	}
	hi := math.Ldexp(1, nbits) - 1
	if x >= hi {
		if nbits == 64 {
			return math.MaxUint64
		}
		return uint64(hi)
	}
	return uint64(x)
}

func frem[T floatT](a, b T) T { return T(math.Mod(float64(a), float64(b))) }

// fmod is OpFMod: the remainder takes the sign of b.
func fmod[T floatT](a, b T) T {
	r := math.Mod(float64(a), float64(b))
	if r != 0 && (r < 0) != (b < 0) {
		r += float64(b)
	}
	return T(r)
}

func isInf(x float64) bool { return math.IsInf(x, 0) }

func isNormal16(x float32) bool { a := math.Abs(float64(x)); return a >= 0x1p-14 && a <= 65504 }
func isNormal32(x float32) bool {
	a := math.Abs(float64(x))
	return a >= 0x1p-126 && a <= math.MaxFloat32
}
func isNormal64(x float64) bool { a := math.Abs(x); return a >= 0x1p-1022 && a <= math.MaxFloat64 }

// Integer division by zero is undefined in SPIR-V; the executor gives an
// all-ones quotient and the dividend as remainder, as many GPUs do.
func udiv[T uintT](a, b T) T {
	if b == 0 {
		return ^T(0)
	}
	return a / b
}

func umod[T uintT](a, b T) T {
	if b == 0 {
		return a
	}
	return a % b
}

func sdiv[T sintT](a, b T) T {
	if b == 0 {
		return -1
	}
	if b == -1 {
		return -a // wraps for the most negative value, as two's complement does
	}
	return a / b
}

func srem[T sintT](a, b T) T {
	if b == 0 {
		return a
	}
	if b == -1 {
		return 0
	}
	return a % b
}

// smod is OpSMod: the remainder takes the sign of b.
func smod[T sintT](a, b T) T {
	r := srem(a, b)
	if r != 0 && (r < 0) != (b < 0) {
		r += b
	}
	return r
}

func width[T intT](a T) uint { return uint(unsafe.Sizeof(a)) * 8 }

func bitsReverse[T uintT](a T) T { return T(bits.Reverse64(uint64(a)) >> (64 - width(a))) }
func bitsOnes[T uintT](a T) int  { return bits.OnesCount64(uint64(a)) }

func clz[T uintT](a T) T { return T(bits.LeadingZeros64(uint64(a)) - int(64-width(a))) }
func ctz[T uintT](a T) T {
	if a == 0 {
		return T(width(a))
	}
	return T(bits.TrailingZeros64(uint64(a)))
}

func mulhiU[T uintT](a, b T) T {
	w := width(a)
	if w == 64 {
		hi, _ := bits.Mul64(uint64(a), uint64(b))
		return T(hi)
	}
	return T((uint64(a) * uint64(b)) >> w)
}

func mulhiS[T sintT](a, b T) T {
	w := width(a)
	if w == 64 {
		hi, _ := bits.Mul64(uint64(a), uint64(b))
		if a < 0 {
			hi -= uint64(b)
		}
		if b < 0 {
			hi -= uint64(a)
		}
		return T(hi)
	}
	return T((int64(a) * int64(b)) >> w)
}

func rotl[T uintT](a, b T) T {
	w := T(width(a))
	s := b % w
	return a<<s | a>>((w-s)%w)
}

func sabs[T sintT](a T) T {
	if a < 0 {
		return -a
	}
	return a
}

// mad is OpenCL's mad: a multiply and an add, each rounded (not fused).
func mad[T floatT](a, b, c T) T { return T(a*b) + c }

// fmin and fmax follow OpenCL: a NaN operand yields the other operand.
func fmin[T floatT](a, b T) T {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case b < a:
		return b
	}
	return a
}

func fmax[T floatT](a, b T) T {
	switch {
	case a != a:
		return b
	case b != b:
		return a
	case b > a:
		return b
	}
	return a
}

// fmaOdd is a*b+c for float32 (or narrower) operands as a float64 rounded
// to odd: the product is exact in float64, the sum's rounding error is
// recovered (TwoSum) and, when not zero, pushes an even result one step
// toward it. Rounding that once more to 24 or 11 bits is then correct; the
// plain float64 FMA rounded again could land on a false tie and round the
// wrong way (fma(1.5, 1+2^-23, -2^-126) gave 1.5+2^-22, not 1.5+2^-23).
func fmaOdd(a, b, c float32) float64 {
	p, z := float64(a)*float64(b), float64(c)
	s := p + z
	if math.IsInf(s, 0) || s != s {
		return s
	}
	v := s - p
	e := (p - (s - v)) + (z - v)
	if e != 0 && math.Float64bits(s)&1 == 0 {
		s = math.Nextafter(s, math.Copysign(math.Inf(1), e))
	}
	return s
}

// fma32 is OpenCL fma for float32: a*b+c with one rounding. The product
// is exact in float64 and the sum s is the exact value rounded once, so s
// rounds to the same float32 as the exact value unless a float32 rounding
// boundary lies between them; the boundary would then be a float64 nearer
// the exact value than s, so s must be that boundary itself: a midpoint
// between two float32s (in the normal range, the 29 bits below float32's
// precision 1 followed by zeros; the midpoint past MaxFloat32 included).
// Only those, and results below the normal range where the boundaries lie
// elsewhere, take the exact path (fmaOdd); a zero sum is exact. The
// handler does the same in its loop (opgen's laneBodies).
func fma32(a, b, c float32) float32 {
	if s := float64(a)*float64(b) + float64(c); !fma32Tie(s) {
		return float32(s)
	}
	return float32(fmaOdd(a, b, c))
}

// fma32Tie says whether a float64 sum must not be rounded to float32
// directly (fma32).
func fma32Tie(s float64) bool {
	u := math.Float64bits(s)
	return u&(1<<29-1) == 1<<28 || u>>52&0x7ff < 1023-126 && s != 0
}

// fma32At is the exact fma of lane element i of the operands: the
// handler's slow path, given slices and not floats so that no float is
// live across the call (see opgen's laneBodies).
//
//go:noinline
func fma32At(as, bs, cs [][2]float32, i int) float32 {
	return float32(fmaOdd(as[i][lo32], bs[i][lo32], cs[i][lo32]))
}

func fabs[T floatT](a T) T   { return T(math.Abs(float64(a))) }
func fsqrt[T floatT](a T) T  { return T(math.Sqrt(float64(a))) }
func ffloor[T floatT](a T) T { return T(math.Floor(float64(a))) }
func fceil[T floatT](a T) T  { return T(math.Ceil(float64(a))) }
func ftrunc[T floatT](a T) T { return T(math.Trunc(float64(a))) }
func frint[T floatT](a T) T  { return T(math.RoundToEven(float64(a))) }

// sinPi, cosPi and tanPi are sin(πx), cos(πx) and tan(πx) with x reduced
// exactly first (math.Mod is exact), so that they keep OpenCL's special
// values: sinpi of an integer n is ±0 (n's sign), cospi of n+0.5 is +0,
// tanpi of an integer is ±0 and of n+0.5 ±∞, and infinities give NaN.
func sinPi(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	r := math.Mod(x, 2) // (-2, 2), x's sign
	switch math.Abs(r) {
	case 0, 1:
		return math.Copysign(0, x)
	case 0.5:
		return math.Copysign(1, r)
	case 1.5:
		return -math.Copysign(1, r)
	}
	return math.Sin(math.Pi * r)
}

func cosPi(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	switch r := math.Mod(math.Abs(x), 2); r { // [0, 2)
	case 0:
		return 1
	case 1:
		return -1
	case 0.5, 1.5:
		return 0
	default:
		return math.Cos(math.Pi * r)
	}
}

func tanPi(x float64) float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return math.NaN()
	}
	r := math.Mod(x, 1) // (-1, 1): tan has period π
	odd := math.Mod(math.Trunc(x), 2) != 0
	switch math.Abs(r) {
	case 0:
		if odd {
			return math.Copysign(0, -x)
		}
		return math.Copysign(0, x)
	case 0.5:
		if odd := math.Mod(math.Floor(x), 2) != 0; odd {
			return math.Inf(-1)
		}
		return math.Inf(1)
	}
	return math.Tan(math.Pi * r)
}
