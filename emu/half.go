package emu

import "math"

// Half precision (IEEE binary16) by bit manipulation: a half is widened
// to float32 exactly and rounded back once, to nearest even. The old
// routines scaled through float64 with math.Ldexp and RoundToEven and were
// a fifth of the CPU of a half kernel; half_test.go keeps them and checks
// these against them on every half and every float32.

// Bit patterns of the boundaries the conversions test.
const (
	f32Min16   = 0x38800000         // float32 2^-14, the smallest normal half
	f32Over16  = 0x47800000         // float32 2^16: at or past it, infinity (or NaN)
	f32Half    = 0x3f000000         // float32 0.5, whose ulp is 2^-24: a half subnormal's quantum
	f64Min16   = 0x3f10000000000000 // float64 2^-14
	f64Over16  = 0x40f0000000000000 // float64 2^16
	f64Two28   = 0x41b0000000000000 // float64 2^28, whose ulp is 2^-24
	f64Inf     = 0x7ff0000000000000
	half16NaN  = 0x7e00 // the quiet NaN every NaN becomes (its payload is not kept)
	half16Inf  = 0x7c00
	f32Rebias  = (127 - 15) << 23 // float32 minus half exponent bias, in place
	f64Rebias  = (1023 - 15) << 52
	f32Dropped = 23 - 10 // mantissa bits float32 has beyond a half's
	f64Dropped = 52 - 10
)

// h2f widens a binary16 value to float32, exactly (a NaN keeps its
// payload), from a table.
func h2f(h uint16) float32 { return halfFloats[h] }

// halfFloats holds every half widened (256 KiB; a kernel's values are
// mostly in a few binades, so the lines it reads stay in cache).
var halfFloats = func() (t [1 << 16]float32) {
	for h := range t {
		t[h] = h2fBits(uint16(h))
	}
	return
}()

// h2fBits widens a half by its bits. Straight-line code: a kernel whose
// values overflowed meets infinities and NaNs as often as numbers.
func h2fBits(h uint16) float32 {
	a := uint32(h & 0x7fff)
	r := a<<f32Dropped + f32Rebias
	if a >= half16Inf {
		r += f32Rebias // exponent 31 to 255
	}
	f := math.Float32frombits(r)
	if a < 0x0400 {
		// Zero or subnormal, a count of 2^-24: as the mantissa of
		// 2^-14·(1+a/1024), less 2^-14 (exact).
		f = math.Float32frombits(r+1<<23) - 0x1p-14
	}
	return math.Float32frombits(math.Float32bits(f) | uint32(h&0x8000)<<16)
}

// f2h rounds a float32 to binary16, to nearest even. Its normal range is
// f2hNormal's, written out again so that f2h stays within the compiler's
// inlining budget.
func f2h(f float32) uint16 {
	u := math.Float32bits(f)
	a := u & 0x7fffffff
	r := min((a-f32Rebias+(1<<(f32Dropped-1)-1)+a>>f32Dropped&1)>>f32Dropped, half16Inf)
	if a > 0x7f800000 {
		r = half16NaN
	}
	if a < f32Min16 {
		// Adding 0.5, whose ulp is the subnormal quantum, lets the FPU
		// round once to nearest even; what it added above 0.5 is the
		// subnormal's mantissa (1024: the smallest normal).
		r = math.Float32bits(math.Float32frombits(a)+0.5) - f32Half
	}
	return uint16(u>>16&0x8000 | r)
}

// f2hNormal is f2h of float32 bits u whose magnitude is 2^-14 or more: it
// rebiases the exponent, then rounds the dropped bits: adding half an ulp
// less one plus the kept last bit carries exactly when above half, or at
// half with an odd last bit; a carry out of the mantissa bumps the
// exponent, up to infinity from 65520 on.
func f2hNormal(u uint32) uint16 {
	a := u & 0x7fffffff
	r := min((a-f32Rebias+(1<<(f32Dropped-1)-1)+a>>f32Dropped&1)>>f32Dropped, half16Inf)
	if a > 0x7f800000 {
		r = half16NaN
	}
	return uint16(u>>16&0x8000 | r)
}

// f64to16 rounds a float64 to binary16, to nearest even, as f2h does
// (one rounding: through float32 would round twice).
func f64to16(x float64) uint16 {
	u := math.Float64bits(x)
	a := u &^ (1 << 63)
	r := min((a-f64Rebias+(1<<(f64Dropped-1)-1)+a>>f64Dropped&1)>>f64Dropped, half16Inf)
	if a > f64Inf {
		r = half16NaN
	}
	if a < f64Min16 { // 2^28's ulp is 2^-24
		r = math.Float64bits(math.Float64frombits(a)+0x1p28) - f64Two28
	}
	return uint16(u>>48&0x8000 | r)
}

func f64toF32For16(x float64) float32 { return h2f(f64to16(x)) }

func int2f16[T intT](a T) float32 { return h2f(f64to16(float64(a))) }

// fma16 is a*b+c for half operands with one rounding: OpenCL fma, and
// mad too (the hardware's half mad is fused). The product of two halves
// is exact in float64 and so is its sum with a half whenever the result is
// in half range (the bits span at most 17+24); where the sum is not exact,
// the product is too small to move it off a half boundary, or the result
// overflows, so rounding the float64 sum to half rounds once.
func fma16(a, b, c float32) float32 {
	return h2f(f64to16(float64(a)*float64(b) + float64(c)))
}

// fma16Tie says whether the float32 sum of a half product (exact in
// float32) and a half, by its bits u, may round to another half than the
// exact sum does: a float32 lies nearest the exact sum, so no half
// boundary can lie between the two, and the sum rounds as the exact one
// unless it is a boundary itself. Those are the midpoints between normal
// halves (the 13 bits float32 has beyond a half's: 1 then zeros; 65520,
// where infinity starts, included) and, below 2^-14, any sum: the
// handlers round the others with f2hNormal.
func fma16Tie(u uint32) bool {
	u &= 0x7fffffff
	return u&(1<<f32Dropped-1) == 1<<(f32Dropped-1) || u < f32Min16
}
