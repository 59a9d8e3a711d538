package emu

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// Executor conformance: every generated operation (ir/internal/opgen's
// table) × every type it is generated for, run through its handler on edge
// values (NaN, ±0, ±Inf, subnormals, min/max integers, shift counts at and
// past the width, division by zero) and compared with a reference written
// here, independently of emu/num.go, from the SPIR-V and OpenCL C rules.
// Results the specifications leave undefined are skipped, each with its rule.

// ctype is a value type as a slot holds it.
type ctype struct {
	tag    string
	bits   int
	float  bool
	signed bool
}

var ctypes = map[string]ctype{
	"F16": {"F16", 16, true, true}, "F32": {"F32", 32, true, true}, "F64": {"F64", 64, true, true},
	"U8": {"U8", 8, false, false}, "U16": {"U16", 16, false, false}, "U32": {"U32", 32, false, false}, "U64": {"U64", 64, false, false},
	"S8": {"S8", 8, false, true}, "S16": {"S16", 16, false, true}, "S32": {"S32", 32, false, true}, "S64": {"S64", 64, false, true},
	"B": {"B", 1, false, false},
}

func (t ctype) mask() uint64 {
	if t.bits == 64 {
		return math.MaxUint64
	}
	return 1<<t.bits - 1
}

// f decodes a float slot word exactly.
func (t ctype) f(x uint64) float64 {
	switch t.bits {
	case 16:
		return kernel.HalfToFloat64(uint16(x))
	case 32:
		return float64(math.Float32frombits(uint32(x)))
	}
	return math.Float64frombits(x)
}

// enc rounds x once, to nearest even, into the type's slot word.
func (t ctype) enc(x float64) uint64 {
	switch t.bits {
	case 16:
		return uint64(kernel.HalfFromFloat64(x))
	case 32:
		return uint64(math.Float32bits(float32(x)))
	}
	return math.Float64bits(x)
}

// encBig rounds an exact value once into a float type.
func (t ctype) encBig(x *big.Float) uint64 {
	switch t.bits {
	case 64:
		f, _ := x.Float64()
		return math.Float64bits(f)
	case 32:
		f, _ := x.Float32()
		return uint64(math.Float32bits(f))
	}
	// binary16: 11 significant bits above 2^-14, a fixed quantum 2^-24 below.
	a := new(big.Float).Abs(x)
	if a.Cmp(big.NewFloat(0x1p-14)) >= 0 {
		r := new(big.Float).SetMode(big.ToNearestEven).SetPrec(11).Set(x)
		f, _ := r.Float64()
		return uint64(kernel.HalfFromFloat64(f)) // exact, or overflow to inf
	}
	q := new(big.Float).SetPrec(200).Mul(x, big.NewFloat(0x1p24))
	i, _ := q.Int(nil) // toward zero
	frac := new(big.Float).SetPrec(200).Sub(q, new(big.Float).SetInt(i))
	frac.Abs(frac)
	switch frac.Cmp(big.NewFloat(0.5)) {
	case 1:
		i.Add(i, big.NewInt(int64(x.Sign())))
	case 0:
		if i.Bit(0) == 1 {
			i.Add(i, big.NewInt(int64(x.Sign())))
		}
	}
	return uint64(kernel.HalfFromFloat64(math.Copysign(float64(i.Int64())*0x1p-24, float64(x.Sign()))))
}

// s decodes an integer slot word, sign-extended when signed.
func (t ctype) s(x uint64) int64 {
	x &= t.mask()
	if t.signed && t.bits < 64 && x>>(t.bits-1)&1 == 1 {
		return int64(x | ^t.mask())
	}
	return int64(x)
}

func (t ctype) isNaN(x uint64) bool { return t.float && math.IsNaN(t.f(x)) }

// floatEdges are the float inputs: the common edge values and, per type,
// the smallest and largest subnormals and normals.
func floatEdges(t ctype) []uint64 {
	vs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3, 1.0 / 3,
		127, 128, -129, 255, 256, 32767, -32768, 65504, 65520, 1 << 31, -(1 << 31), 1 << 32, 1 << 63, -(1 << 63),
		0x1p64, 1e30, -1e30, math.NaN(), math.Inf(1), math.Inf(-1)}
	var w []uint64
	seen := map[uint64]bool{}
	add := func(x uint64) {
		if !seen[x] {
			seen[x] = true
			w = append(w, x)
		}
	}
	for _, v := range vs {
		add(t.enc(v))
	}
	switch t.bits {
	case 16:
		for _, x := range []uint64{0x0001, 0x8001, 0x03ff, 0x0400, 0x8400, 0x7bff, 0xfbff, 0x7c01, 0x3c01, 0x3bff} {
			add(x)
		}
	case 32:
		for _, x := range []uint64{0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x80800000, 0x7f7fffff, 0xff7fffff, 0x7f800001, 0x3f800001, 0x3f7fffff} {
			add(x)
		}
	case 64:
		for _, x := range []uint64{1, 1<<63 | 1, 1<<52 - 1, 1 << 52, 1<<63 | 1<<52, 0x7fefffffffffffff, 0xffefffffffffffff, 0x7ff0000000000001, 0x3ff0000000000001, 0x3fefffffffffffff} {
			add(x)
		}
	}
	return w
}

// intEdges are the integer inputs: 0, 1, -1, the extremes, values around
// the width (shift counts), and bit patterns.
func intEdges(t ctype) []uint64 {
	if t.tag == "B" {
		return []uint64{0, 1}
	}
	m := t.mask()
	n := uint64(t.bits)
	vs := []uint64{0, 1, 2, 3, 7, m, m - 1, m >> 1, m>>1 + 1, m>>1 + 2, n - 1, n, n + 1, 2*n - 1, 0x5555555555555555, 0xaaaaaaaaaaaaaaaa, 0x00ffffff, 0x00800000, 0xff7fffff, 0x1234567890abcdef, 0x0100}
	var w []uint64
	seen := map[uint64]bool{}
	for _, v := range vs {
		v &= m
		if !seen[v] {
			seen[v] = true
			w = append(w, v)
		}
	}
	return w
}

func edges(t ctype) []uint64 {
	if t.float {
		return floatEdges(t)
	}
	return intEdges(t)
}

// want is what the reference accepts: any of words; any NaN when one of
// words is a NaN; within ulp units in the last place when ulp > 0; either
// zero when anyZero. skip says the result is undefined (why).
type want struct {
	words   []uint64
	ulp     int
	anyZero bool
	skip    string
}

func one(w uint64) want     { return want{words: []uint64{w}} }
func undef(why string) want { return want{skip: why} }

func b2w(b bool) want {
	if b {
		return one(1)
	}
	return one(0)
}

// opRef is an operation's reference: arity, result type (nil: the operand
// type) and the function.
type opRef struct {
	arity int
	out   string // result type tag, "" for the operand type
	fn    func(t ctype, a, b, c uint64) want
}

func fl(fn func(x, y, z float64) float64) func(t ctype, a, b, c uint64) want {
	return func(t ctype, a, b, c uint64) want { return one(t.enc(fn(t.f(a), t.f(b), t.f(c)))) }
}

func fcmp(fn func(x, y float64) bool) opRef {
	return opRef{2, "B", func(t ctype, a, b, c uint64) want { return b2w(fn(t.f(a), t.f(b))) }}
}

func ftest(fn func(t ctype, x float64, w uint64) bool) opRef {
	return opRef{1, "B", func(t ctype, a, b, c uint64) want { return b2w(fn(t, t.f(a), a)) }}
}

func in(t ctype, a, b, c uint64, fn func(x, y, z int64) int64) want {
	return one(uint64(fn(t.s(a), t.s(b), t.s(c))) & t.mask())
}

func iop(arity int, fn func(x, y, z int64) int64) opRef {
	return opRef{arity, "", func(t ctype, a, b, c uint64) want { return in(t, a, b, c, fn) }}
}

func icmp(fn func(t ctype, x, y int64) bool) opRef {
	return opRef{2, "B", func(t ctype, a, b, c uint64) want { return b2w(fn(t, t.s(a), t.s(b))) }}
}

// less compares integers as their type's signedness says.
func less(t ctype, x, y int64) bool {
	if t.signed {
		return x < y
	}
	return uint64(x) < uint64(y)
}

// refMin is OpenCL fmin: a NaN operand gives the other one; the sign of a
// zero result from (+0, -0) is not specified (IEEE 754-2008 minNum).
func refMinMax(t ctype, a, b uint64, max bool) want {
	x, y := t.f(a), t.f(b)
	switch {
	case x != x:
		return one(b)
	case y != y:
		return one(a)
	case x == 0 && y == 0:
		return want{words: []uint64{a}, anyZero: true}
	case (x < y) != max:
		return one(a)
	}
	return one(b)
}

func bigOf(x float64) *big.Float { return new(big.Float).SetPrec(0).SetFloat64(x) }

// exactFMA is a*b+c rounded once into t (nil-free: the caller handles
// NaN and infinities).
func exactFMA(t ctype, x, y, z float64) uint64 {
	if math.IsNaN(x) || math.IsNaN(y) || math.IsNaN(z) || math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsInf(z, 0) {
		return t.enc(x*y + z)
	}
	p := new(big.Float).SetPrec(2000).Mul(bigOf(x), bigOf(y))
	s := new(big.Float).SetPrec(2000).Add(p, bigOf(z))
	if s.Sign() == 0 {
		return t.enc(x*y + z) // the zero's sign by IEEE rules
	}
	return t.encBig(s)
}

// rounding to integral values, on the decoded value (exact in float64).
func floatRefs() map[string]opRef {
	return map[string]opRef{
		"FAdd": {2, "", fl(func(x, y, _ float64) float64 { return x + y })},
		"FSub": {2, "", fl(func(x, y, _ float64) float64 { return x - y })},
		"FMul": {2, "", fl(func(x, y, _ float64) float64 { return x * y })},
		"FDiv": {2, "", fl(func(x, y, _ float64) float64 { return x / y })},
		// OpFRem: the sign of a non-zero result comes from operand 1 (C fmod).
		"FRem": {2, "", fl(func(x, y, _ float64) float64 { return math.Mod(x, y) })},
		// OpFMod: the sign of a non-zero result comes from operand 2; that of
		// a zero result is not specified.
		"FMod": {2, "", func(t ctype, a, b, _ uint64) want {
			x, y := t.f(a), t.f(b)
			r := math.Mod(x, y)
			if r != 0 && math.Signbit(r) != math.Signbit(y) {
				r += y
			}
			return want{words: []uint64{t.enc(r)}, anyZero: true}
		}},
		"FNegate": {1, "", func(t ctype, a, _, _ uint64) want { return one(a ^ 1<<(t.bits-1)) }},

		"FOrdEqual":              fcmp(func(x, y float64) bool { return x == y }),
		"FOrdNotEqual":           fcmp(func(x, y float64) bool { return x == x && y == y && x != y }),
		"FOrdLessThan":           fcmp(func(x, y float64) bool { return x < y }),
		"FOrdGreaterThan":        fcmp(func(x, y float64) bool { return x > y }),
		"FOrdLessThanEqual":      fcmp(func(x, y float64) bool { return x <= y }),
		"FOrdGreaterThanEqual":   fcmp(func(x, y float64) bool { return x >= y }),
		"FUnordEqual":            fcmp(func(x, y float64) bool { return x != x || y != y || x == y }),
		"FUnordNotEqual":         fcmp(func(x, y float64) bool { return x != x || y != y || x != y }),
		"FUnordLessThan":         fcmp(func(x, y float64) bool { return x != x || y != y || x < y }),
		"FUnordGreaterThan":      fcmp(func(x, y float64) bool { return x != x || y != y || x > y }),
		"FUnordLessThanEqual":    fcmp(func(x, y float64) bool { return x != x || y != y || x <= y }),
		"FUnordGreaterThanEqual": fcmp(func(x, y float64) bool { return x != x || y != y || x >= y }),
		"Ordered":                fcmp(func(x, y float64) bool { return !math.IsNaN(x) && !math.IsNaN(y) }),
		"Unordered":              fcmp(func(x, y float64) bool { return math.IsNaN(x) || math.IsNaN(y) }),
		"IsNan":                  ftest(func(_ ctype, x float64, _ uint64) bool { return math.IsNaN(x) }),
		"IsInf":                  ftest(func(_ ctype, x float64, _ uint64) bool { return math.IsInf(x, 0) }),
		"IsFinite":               ftest(func(_ ctype, x float64, _ uint64) bool { return !math.IsInf(x, 0) && !math.IsNaN(x) }),
		// Normal: the biased exponent field is neither all zeros nor all ones.
		"IsNormal": ftest(func(t ctype, _ float64, w uint64) bool {
			eb := map[int]int{16: 5, 32: 8, 64: 11}[t.bits]
			e := w >> (t.bits - 1 - eb) & (1<<eb - 1)
			return e != 0 && e != 1<<eb-1
		}),
		"SignBitSet": ftest(func(t ctype, _ float64, w uint64) bool { return w>>(t.bits-1)&1 == 1 }),

		// OpenCL mad: "a * b + c" with any accuracy; fused or not, both
		// roundings are accepted.
		"Mad": {3, "", func(t ctype, a, b, c uint64) want {
			x, y, z := t.f(a), t.f(b), t.f(c)
			p := t.f(t.enc(x * y))
			return want{words: []uint64{t.enc(p + z), exactFMA(t, x, y, z)}, ulp: 1, anyZero: true}
		}},
		// fma: correctly rounded, one rounding (OpenCL 7.4, IEEE fusedMultiplyAdd).
		"Fma": {3, "", func(t ctype, a, b, c uint64) want { return one(exactFMA(t, t.f(a), t.f(b), t.f(c))) }},
		// clamp(x, lo, hi) = fmin(fmax(x, lo), hi); undefined if lo > hi.
		"FClamp": {3, "", func(t ctype, a, b, c uint64) want {
			if t.f(b) > t.f(c) || t.isNaN(b) || t.isNaN(c) {
				return undef("OpenCL clamp: undefined if minval > maxval (or either is NaN)")
			}
			m := refMinMax(t, a, b, true)
			r := refMinMax(t, m.words[0], c, false)
			r.anyZero = r.anyZero || m.anyZero
			return r
		}},
		// GLSL mix: x + (y - x) * a, its precision that of those operations:
		// rounded after each step in the type (or, for half, in float32).
		"FMix": {3, "", func(t ctype, a, b, c uint64) want {
			x, y, z := t.f(a), t.f(b), t.f(c)
			r := func(v float64) float64 { return t.f(t.enc(v)) }
			r32 := func(v float64) float64 { return float64(float32(v)) }
			return want{words: []uint64{t.enc(r(x + r(r(y-x)*z))), t.enc(r32(x + r32(r32(y-x)*z)))}, ulp: 1, anyZero: true}
		}},
		"FMin": {2, "", func(t ctype, a, b, _ uint64) want { return refMinMax(t, a, b, false) }},
		"FMax": {2, "", func(t ctype, a, b, _ uint64) want { return refMinMax(t, a, b, true) }},
		"FAbs": {1, "", func(t ctype, a, _, _ uint64) want { return one(a &^ (1 << (t.bits - 1))) }},
		// sqrt correctly rounded; rsqrt within 2 ulp (OpenCL 7.4); 1/x exact division.
		"Sqrt":  {1, "", fl(func(x, _, _ float64) float64 { return math.Sqrt(x) })},
		"Rsqrt": {1, "", func(t ctype, a, _, _ uint64) want { return want{words: []uint64{t.enc(1 / math.Sqrt(t.f(a)))}, ulp: 2} }},
		"Recip": {1, "", fl(func(x, _, _ float64) float64 { return 1 / x })},
		"Floor": {1, "", fl(func(x, _, _ float64) float64 { return math.Floor(x) })},
		"Ceil":  {1, "", fl(func(x, _, _ float64) float64 { return math.Ceil(x) })},
		"Trunc": {1, "", fl(func(x, _, _ float64) float64 { return math.Trunc(x) })},
		"Rint":  {1, "", fl(func(x, _, _ float64) float64 { return math.RoundToEven(x) })},
	}
}

func fits24(t ctype, x int64) bool {
	if t.signed {
		return x >= -(1<<23) && x < 1<<23
	}
	return uint64(x) < 1<<24
}

func intRefs() map[string]opRef {
	div := func(t ctype, a, b, c uint64, fn func(x, y int64) int64) want {
		if t.s(b) == 0 {
			return undef("OpenCL C 6.3: integer division by zero is undefined")
		}
		if !t.signed {
			return one(uint64(fn(t.s(a), t.s(b))) & t.mask()) // fn sees uint64 bits
		}
		return one(uint64(fn(t.s(a), t.s(b))) & t.mask())
	}
	return map[string]opRef{
		"IAdd": iop(2, func(x, y, _ int64) int64 { return x + y }),
		"ISub": iop(2, func(x, y, _ int64) int64 { return x - y }),
		"IMul": iop(2, func(x, y, _ int64) int64 { return x * y }),
		"UDiv": {2, "", func(t ctype, a, b, c uint64) want {
			return div(t, a, b, c, func(x, y int64) int64 { return int64(uint64(x) / uint64(y)) })
		}},
		"UMod": {2, "", func(t ctype, a, b, c uint64) want {
			return div(t, a, b, c, func(x, y int64) int64 { return int64(uint64(x) % uint64(y)) })
		}},
		"SDiv": {2, "", func(t ctype, a, b, c uint64) want {
			if t.s(b) == -1 && t.s(a) == t.s(1<<(t.bits-1)) {
				return undef("OpenCL C 6.3: INT_MIN / -1 overflows: undefined")
			}
			return div(t, a, b, c, func(x, y int64) int64 { return new(big.Int).Quo(big.NewInt(x), big.NewInt(y)).Int64() })
		}},
		// OpSRem: sign from operand 1; OpSMod: sign from operand 2.
		"SRem": {2, "", func(t ctype, a, b, c uint64) want {
			return div(t, a, b, c, func(x, y int64) int64 { return new(big.Int).Rem(big.NewInt(x), big.NewInt(y)).Int64() })
		}},
		"SMod": {2, "", func(t ctype, a, b, c uint64) want {
			return div(t, a, b, c, func(x, y int64) int64 {
				r := new(big.Int).Rem(big.NewInt(x), big.NewInt(y)).Int64()
				if r != 0 && (r < 0) != (y < 0) {
					r += y
				}
				return r
			})
		}},
		"BitwiseAnd": iop(2, func(x, y, _ int64) int64 { return x & y }),
		"BitwiseOr":  iop(2, func(x, y, _ int64) int64 { return x | y }),
		"BitwiseXor": iop(2, func(x, y, _ int64) int64 { return x ^ y }),
		"Not":        iop(1, func(x, _, _ int64) int64 { return ^x }),
		"SNegate":    iop(1, func(x, _, _ int64) int64 { return -x }),
		"BitReverse": {1, "", func(t ctype, a, _, _ uint64) want {
			var r uint64
			for i := 0; i < t.bits; i++ {
				if a>>i&1 == 1 {
					r |= 1 << (t.bits - 1 - i)
				}
			}
			return one(r)
		}},
		"IEqual":            icmp(func(_ ctype, x, y int64) bool { return x == y }),
		"INotEqual":         icmp(func(_ ctype, x, y int64) bool { return x != y }),
		"UGreaterThan":      icmp(func(t ctype, x, y int64) bool { return less(t, y, x) }),
		"UGreaterThanEqual": icmp(func(t ctype, x, y int64) bool { return !less(t, x, y) }),
		"ULessThan":         icmp(func(t ctype, x, y int64) bool { return less(t, x, y) }),
		"ULessThanEqual":    icmp(func(t ctype, x, y int64) bool { return !less(t, y, x) }),
		"SGreaterThan":      icmp(func(t ctype, x, y int64) bool { return less(t, y, x) }),
		"SGreaterThanEqual": icmp(func(t ctype, x, y int64) bool { return !less(t, x, y) }),
		"SLessThan":         icmp(func(t ctype, x, y int64) bool { return less(t, x, y) }),
		"SLessThanEqual":    icmp(func(t ctype, x, y int64) bool { return !less(t, y, x) }),
		"SClamp":            clampRef(),
		"UClamp":            clampRef(),
		// mul24/mad24: undefined unless the operands fit in 24 bits (OpenCL 6.15.3).
		"UMad24": mul24Ref(3),
		"SMad24": mul24Ref(3),
		"UMul24": mul24Ref(2),
		"SMul24": mul24Ref(2),
		"SMin":   minmaxRef(false),
		"SMax":   minmaxRef(true),
		"UMin":   minmaxRef(false),
		"UMax":   minmaxRef(true),
		"UMulHi": mulhiRef(),
		"SMulHi": mulhiRef(),
		// rotate: the count is taken modulo the width (OpenCL 6.15.3).
		"Rotate": {2, "", func(t ctype, a, b, _ uint64) want {
			r := a
			for i := uint64(0); i < b%uint64(t.bits); i++ {
				r = (r<<1 | r>>(t.bits-1)) & t.mask()
			}
			return one(r)
		}},
		// abs of the most negative value is its magnitude as unsigned: the same bits.
		"SAbs": iop(1, func(x, _, _ int64) int64 {
			if x < 0 {
				return -x
			}
			return x
		}),
		// clz(0) and ctz(0) are the width (OpenCL 6.15.3).
		"Clz": {1, "", func(t ctype, a, _, _ uint64) want {
			n := 0
			for i := t.bits - 1; i >= 0 && a>>i&1 == 0; i-- {
				n++
			}
			return one(uint64(n))
		}},
		"Ctz": {1, "", func(t ctype, a, _, _ uint64) want {
			n := 0
			for i := 0; i < t.bits && a>>i&1 == 0; i++ {
				n++
			}
			return one(uint64(n))
		}},
		"LogicalEqual":    {2, "B", func(_ ctype, a, b, _ uint64) want { return b2w(a == b) }},
		"LogicalNotEqual": {2, "B", func(_ ctype, a, b, _ uint64) want { return b2w(a != b) }},
		"LogicalOr":       {2, "B", func(_ ctype, a, b, _ uint64) want { return b2w(a|b != 0) }},
		"LogicalAnd":      {2, "B", func(_ ctype, a, b, _ uint64) want { return b2w(a&b != 0) }},
		"LogicalNot":      {1, "B", func(_ ctype, a, _, _ uint64) want { return b2w(a == 0) }},
		// Shifts: OpenCL takes the count modulo the width (SPIR-V leaves
		// counts >= width undefined; OpenCL's rule is a valid choice).
		"ShiftLeftLogical": {2, "", func(t ctype, a, b, _ uint64) want {
			return one(a << (b % uint64(t.bits)) & t.mask())
		}},
		"ShiftRightLogical": {2, "", func(t ctype, a, b, _ uint64) want {
			return one(a >> (b % uint64(t.bits)))
		}},
		"ShiftRightArithmetic": {2, "", func(t ctype, a, b, _ uint64) want {
			return one(uint64(t.s(a)>>(b%uint64(t.bits))) & t.mask())
		}},
		"BitCount": {1, "U64", func(t ctype, a, _, _ uint64) want {
			n := 0
			for i := 0; i < t.bits; i++ {
				n += int(a >> i & 1)
			}
			return one(uint64(n))
		}},
	}
}

func clampRef() opRef {
	return opRef{3, "", func(t ctype, a, b, c uint64) want {
		x, lo, hi := t.s(a), t.s(b), t.s(c)
		if less(t, hi, lo) {
			return undef("OpenCL clamp: undefined if minval > maxval")
		}
		if less(t, x, lo) {
			x = lo
		}
		if less(t, hi, x) {
			x = hi
		}
		return one(uint64(x) & t.mask())
	}}
}

func minmaxRef(max bool) opRef {
	return opRef{2, "", func(t ctype, a, b, _ uint64) want {
		if less(t, t.s(a), t.s(b)) != max {
			return one(a)
		}
		return one(b)
	}}
}

func mul24Ref(arity int) opRef {
	return opRef{arity, "", func(t ctype, a, b, c uint64) want {
		x, y := t.s(a), t.s(b)
		if !fits24(t, x) || !fits24(t, y) {
			return undef("OpenCL mul24/mad24: undefined unless both operands fit in 24 bits")
		}
		r := x * y
		if arity == 3 {
			r += t.s(c)
		}
		return one(uint64(r) & t.mask())
	}}
}

func mulhiRef() opRef {
	return opRef{2, "", func(t ctype, a, b, _ uint64) want {
		var x, y *big.Int
		if t.signed {
			x, y = big.NewInt(t.s(a)), big.NewInt(t.s(b))
		} else {
			x, y = new(big.Int).SetUint64(a), new(big.Int).SetUint64(b)
		}
		p := new(big.Int).Mul(x, y)
		p.Rsh(p, uint(t.bits)) // floor, as the high half of two's complement is
		m := new(big.Int).SetUint64(t.mask())
		return one(new(big.Int).And(p, m).Uint64())
	}}
}

// cvtRef converts from one numeric type to another (OpConvert*, OpUConvert,
// OpSConvert, OpFConvert): floats round to nearest even; float to integer
// rounds toward zero and is undefined out of range or on NaN (OpenCL
// convert_T without _sat); integers truncate or extend by their signedness.
func cvtRef(from, to ctype, a uint64) want {
	switch {
	case from.float && to.float:
		return one(to.enc(from.f(a)))
	case from.float:
		x := math.Trunc(from.f(a))
		var lo, hi float64
		if to.signed {
			lo, hi = -math.Ldexp(1, to.bits-1), math.Ldexp(1, to.bits-1)
		} else {
			lo, hi = 0, math.Ldexp(1, to.bits)
		}
		if x != x || x < lo || x >= hi {
			return undef("OpenCL 6.2.3.3: out-of-range float to integer conversion without _sat is undefined")
		}
		if x < 0 {
			return one(uint64(int64(x)) & to.mask())
		}
		return one(uint64(x))
	case to.float:
		var v *big.Float
		if from.signed {
			v = new(big.Float).SetInt64(from.s(a))
		} else {
			v = new(big.Float).SetUint64(a)
		}
		if v.Sign() == 0 {
			return one(0)
		}
		return one(to.encBig(v))
	}
	return one(uint64(from.s(a)) & to.mask())
}

// parseOp splits a generated operation's name into its base and type tags.
func parseOp(name string) (base string, tags []string) {
	suffix := func(s string) (string, string) {
		for _, n := range []int{3, 2, 1} {
			if len(s) >= n {
				if _, ok := ctypes[s[len(s)-n:]]; ok {
					return s[:len(s)-n], s[len(s)-n:]
				}
			}
		}
		return s, ""
	}
	if rest, ok := strings.CutPrefix(name, "Cvt"); ok {
		r, to := suffix(rest)
		_, from := suffix(r)
		return "Cvt", []string{from, to}
	}
	b, t := suffix(name)
	return b, []string{t}
}

// runOp runs handler h on the operand columns (one case per element) with a
// full warp, then again with only the odd lanes active, and returns the
// full-warp results; the partial run must agree on active lanes and leave
// the others alone.
func runOp(t *testing.T, op ir.Op, args [][]uint64) []uint64 {
	const W = 32
	cases := len(args[0])
	N := (cases + W - 1) / W
	arity := len(args)
	run := func(partial bool) []uint64 {
		w := &Warp{width: W, full: !partial}
		w.setRegs(make([]uint64, (arity+1)*N*W))
		code := []ir.Inst{{Op: op, N: uint16(N), Dst: int32(arity * N), Src: [3]int32{-1, -1, -1}}}
		in := &code[0]
		for k := range args {
			in.Src[k] = int32(k * N)
			for i, v := range args[k] {
				w.regs[k*N*W+i] = v // component i/W, lane i%W
			}
		}
		d := w.regs[arity*N*W:]
		for i := range d {
			d[i] = 0xdeadbeef
		}
		if partial {
			for l := 1; l < W; l += 2 {
				w.lanes = append(w.lanes, int32(l))
			}
		}
		x := &decode(code, W)[0]
		x.run(w, x)
		if w.err != nil {
			t.Fatalf("%s: %v", op, w.err)
		}
		return d[:cases]
	}
	full := run(false)
	part := run(true)
	for i := range part {
		// NaN payloads may differ between the two loops (the compiler may
		// commute a + b); neither specification fixes them.
		same := part[i] == full[i] || accepts(ctypes["F64"], want{words: []uint64{full[i]}}, part[i]) ||
			accepts(ctypes["F32"], want{words: []uint64{full[i]}}, part[i]) && full[i]>>32 == 0
		if i%2 == 1 && !same || i%2 == 0 && part[i] != 0xdeadbeef {
			t.Errorf("%s: lane %d of case %d: partial warp wrote %#x, full %#x", op, i%W, i, part[i], full[i])
			break
		}
	}
	return full
}

// accepts says whether got meets w for a result of type t.
func accepts(t ctype, w want, got uint64) bool {
	for _, x := range w.words {
		if got == x {
			return true
		}
		if !t.float {
			continue
		}
		if t.isNaN(x) && t.isNaN(got) {
			return true
		}
		if w.anyZero && t.f(x) == 0 && t.f(got) == 0 {
			return true
		}
		if w.ulp > 0 && !t.isNaN(got) && !t.isNaN(x) && (x^got)>>(t.bits-1) == 0 {
			d := int64(x&t.mask()) - int64(got&t.mask())
			if d >= -int64(w.ulp) && d <= int64(w.ulp) {
				return true
			}
		}
	}
	return false
}

// knownDiffs are results where the executor and the specification
// disagree on purpose or for now, by "op a b c" (hex words).
var knownDiffs = map[string]string{}

// TestConformance runs every generated operation on every type it is
// generated for.
func TestConformance(t *testing.T) {
	refs := floatRefs()
	for k, v := range intRefs() {
		refs[k] = v
	}
	reached := 0
	for op := ir.OpFAddF16; op < ir.NumOps; op++ {
		name := op.String()
		base, tags := parseOp(name)
		var ref opRef
		var ti, to ctype
		if base == "Cvt" {
			ti, to = ctypes[tags[0]], ctypes[tags[1]]
			ref = opRef{1, tags[1], func(_ ctype, a, _, _ uint64) want { return cvtRef(ti, to, a) }}
		} else {
			r, ok := refs[base]
			if !ok {
				t.Errorf("%s: no reference for %q", name, base)
				continue
			}
			ref = r
			ti = ctypes[tags[0]]
			to = ti
			if r.out != "" {
				to = ctypes[r.out]
			}
		}
		if ti.tag == "" {
			t.Errorf("%s: cannot parse the type", name)
			continue
		}
		reached++
		ev := edges(ti)
		if ref.arity == 3 && len(ev) > 16 { // keep the cube small: the interesting third of the values
			ev = append(append([]uint64{}, ev[:8]...), ev[len(ev)-8:]...)
			ev = append(ev, ti.enc(2), ti.enc(-3))
		}
		args := make([][]uint64, ref.arity)
		var idx func(k int, cur []uint64)
		idx = func(k int, cur []uint64) {
			if k == ref.arity {
				for j := range args {
					args[j] = append(args[j], cur[j])
				}
				return
			}
			for _, v := range ev {
				idx(k+1, append(cur, v))
			}
		}
		idx(0, nil)
		got := runOp(t, op, args)
		fails := 0
		for i, g := range got {
			var a, b, c uint64
			a = args[0][i]
			if ref.arity > 1 {
				b = args[1][i]
			}
			if ref.arity > 2 {
				c = args[2][i]
			}
			w := ref.fn(ti, a, b, c)
			if w.skip != "" || accepts(to, w, g) {
				continue
			}
			key := fmt.Sprintf("%s %#x %#x %#x", name, a, b, c)
			if _, ok := knownDiffs[key]; ok {
				continue
			}
			if fails++; fails <= 5 {
				t.Errorf("%s(%#x, %#x, %#x) = %#x, want %#x", name, a, b, c, g, w.words)
			}
		}
		if fails > 5 {
			t.Errorf("%s: %d more", name, fails-5)
		}
	}
	if want := int(ir.NumOps - ir.OpFAddF16); reached != want {
		t.Errorf("reached %d of %d generated handlers", reached, want)
	}

}

// Regressions: every executor disagreement the conformance test found,
// by name, with the operation, operands and the specified result.
var regressions = []struct {
	name    string
	op      ir.Op
	a, b, c uint64
	want    uint64
}{
	// fma rounded twice (to float64, then to float32) landed on a false tie.
	{"fma32 double rounding", ir.OpFmaF32, 0x3fc00000, 0x3f800001, 0x80800000, 0x3fc00001},
	{"fma32 double rounding negative", ir.OpFmaF32, 0xbfc00000, 0x3f800001, 0x00800000, 0xbfc00001},
	// The same through float32 to half.
	{"fma16 double rounding", ir.OpFmaF16, 0x3e00, 0x3c01, 0x8001, 0x3e01},
	// half mad summed in float32 before rounding to half: the exact
	// 1+3·2^-11-2^-24 rounded to the float32 midpoint 1+3·2^-11, then
	// to even, 0x3c02; fused or not, mad gives 0x3c01.
	{"mad16 double rounding", ir.OpMadF16, 0x3c02, 0x3bff, 0x000f, 0x3c01},
}

func TestConformanceRegressions(t *testing.T) {
	for _, r := range regressions {
		t.Run(r.name, func(t *testing.T) {
			got := runOp(t, r.op, [][]uint64{{r.a}, {r.b}, {r.c}})
			if got[0] != r.want {
				t.Errorf("%s(%#x, %#x, %#x) = %#x, want %#x", r.op, r.a, r.b, r.c, got[0], r.want)
			}
		})
	}
}
