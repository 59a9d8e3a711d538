package kernel

import "math"

// IEEE 754 binary16 ("half", OpenCL's half, GLSL's float16_t): 1 sign bit,
// 5 exponent bits (bias 15), 10 fraction bits.

// HalfFromFloat64 rounds f to the nearest binary16 value, ties to even, as
// OpenCL's vstore_half does in its default rounding mode. Values too large
// become ±Inf; NaN stays NaN (quiet).
func HalfFromFloat64(f float64) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	exp := int(b>>52) & 0x7ff
	frac := b & (1<<52 - 1)
	if exp == 0x7ff {
		if frac != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	if exp == 0 {
		return sign // float64 subnormals are far below half's range
	}
	e := exp - 1023 // f = 1.frac × 2^e
	if e > 15 {
		return sign | 0x7c00
	}
	full := frac | 1<<52 // f = full × 2^(e-52)
	var shift uint
	var base uint64
	if e >= -14 {
		// Normal half: keep 10 fraction bits; a carry out of the fraction
		// correctly bumps the exponent (and 65520 and up become Inf).
		shift = 42
		base = uint64(e+15) << 10
		full = frac
	} else {
		// Subnormal half, in units of 2^-24: full × 2^(e-52+24).
		if e < -25 {
			return sign // below half of the smallest subnormal
		}
		shift = uint(28 - e)
	}
	m := full >> shift
	rest := full & (1<<shift - 1)
	halfway := uint64(1) << (shift - 1)
	h := base + m
	if rest > halfway || (rest == halfway && m&1 == 1) {
		h++
	}
	return sign | uint16(h)
}

// HalfToFloat64 converts a binary16 value to float64 (exactly).
func HalfToFloat64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp := int(h>>10) & 0x1f
	frac := float64(h & 0x3ff)
	switch exp {
	case 0:
		return sign * frac * 0x1p-24
	case 31:
		if frac != 0 {
			return math.NaN()
		}
		return sign * math.Inf(1)
	}
	return sign * (1024 + frac) * math.Ldexp(1, exp-25)
}
