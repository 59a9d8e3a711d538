package emu

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// extFn runs one extended instruction over the active lanes.
type extFn func(w *Warp, c *ir.ExtCall)

// extMaker checks a call's shape and returns its routine.
type extMaker func(c *ir.ExtCall) (extFn, error)

func (w *Warp) argBits(c *ir.ExtCall, k, comp, l int) uint64 {
	s := int(c.Args[k])
	if c.ArgN[k] > 1 {
		s += comp
	}
	return w.regs[s*w.width+l]
}

func (w *Warp) argF(c *ir.ExtCall, k, comp, l int) float64 {
	return tagToFloat(c.ArgTags[k], w.argBits(c, k, comp, l))
}

// argS reads an integer argument sign-extended from its width.
func (w *Warp) argS(c *ir.ExtCall, k, comp, l int) int64 {
	return signExt(w.argBits(c, k, comp, l), tagBits(c.ArgTags[k]))
}

func (w *Warp) setBits(c *ir.ExtCall, comp, l int, v uint64) {
	w.regs[(int(c.Dst)+comp)*w.width+l] = maskTo(v, tagBits(c.ResultTag))
}

func (w *Warp) setF(c *ir.ExtCall, comp, l int, v float64) {
	w.regs[(int(c.Dst)+comp)*w.width+l] = floatToTag(c.ResultTag, v)
}

func tagBits(tag string) int {
	switch tag {
	case "B":
		return 1
	case "U8", "S8":
		return 8
	case "U16", "S16", "F16":
		return 16
	case "U32", "S32", "F32":
		return 32
	}
	return 64
}

func signExt(v uint64, n int) int64 {
	if n >= 64 {
		return int64(v)
	}
	s := 64 - uint(n)
	return int64(v<<s) >> s
}

func maskTo(v uint64, n int) uint64 {
	if n >= 64 {
		return v
	}
	return v & (1<<uint(n) - 1)
}

// Shapes of routines.

func floatMap(n int, fn func(x []float64) float64) extMaker {
	return func(c *ir.ExtCall) (extFn, error) {
		if len(c.Args) != n {
			return nil, fmt.Errorf("%s takes %d operands, found %d", c.Name, n, len(c.Args))
		}
		return func(w *Warp, c *ir.ExtCall) {
			var x [4]float64
			for comp := 0; comp < c.N; comp++ {
				for _, l := range w.lanes {
					for k := 0; k < n; k++ {
						x[k] = w.argF(c, k, comp, int(l))
					}
					w.setF(c, comp, int(l), fn(x[:n]))
				}
			}
		}, nil
	}
}

func f1(fn func(float64) float64) extMaker {
	return floatMap(1, func(x []float64) float64 { return fn(x[0]) })
}
func f2(fn func(a, b float64) float64) extMaker {
	return floatMap(2, func(x []float64) float64 { return fn(x[0], x[1]) })
}
func f3(fn func(a, b, c float64) float64) extMaker {
	return floatMap(3, func(x []float64) float64 { return fn(x[0], x[1], x[2]) })
}

// fi applies fn to a float operand and an integer one (ldexp's exponent,
// pown's and rootn's n), the integer read signed from its width: the
// builder tags every integer operand unsigned, so reading it as a float
// would take -3 for 4294967293.
func fi(fn func(x float64, n int64) float64) extMaker {
	return func(c *ir.ExtCall) (extFn, error) {
		if len(c.Args) != 2 {
			return nil, fmt.Errorf("%s takes 2 operands, found %d", c.Name, len(c.Args))
		}
		return func(w *Warp, c *ir.ExtCall) {
			for comp := 0; comp < c.N; comp++ {
				for _, l := range w.lanes {
					w.setF(c, comp, int(l), fn(w.argF(c, 0, comp, int(l)), w.argS(c, 1, comp, int(l))))
				}
			}
		}, nil
	}
}

// intMap applies fn to integer operands read signed or unsigned; bits is
// the operand width.
func intMap(n int, signed bool, fn func(x []uint64, bits int) uint64) extMaker {
	return func(c *ir.ExtCall) (extFn, error) {
		if len(c.Args) != n {
			return nil, fmt.Errorf("%s takes %d operands, found %d", c.Name, n, len(c.Args))
		}
		return func(w *Warp, c *ir.ExtCall) {
			var x [4]uint64
			nb := tagBits(c.ArgTags[0])
			for comp := 0; comp < c.N; comp++ {
				for _, l := range w.lanes {
					for k := 0; k < n; k++ {
						if signed {
							x[k] = uint64(w.argS(c, k, comp, int(l)))
						} else {
							x[k] = w.argBits(c, k, comp, int(l))
						}
					}
					w.setBits(c, comp, int(l), fn(x[:n], nb))
				}
			}
		}, nil
	}
}

// reduce computes one scalar from whole vectors (length, distance, dot).
func reduce(n int, fn func(v [][]float64) float64) extMaker {
	return func(c *ir.ExtCall) (extFn, error) {
		if len(c.Args) != n {
			return nil, fmt.Errorf("%s takes %d operands", c.Name, n)
		}
		return func(w *Warp, c *ir.ExtCall) {
			vs := make([][]float64, n)
			for _, l := range w.lanes {
				for k := 0; k < n; k++ {
					vs[k] = vs[k][:0]
					for comp := 0; comp < c.ArgN[k]; comp++ {
						vs[k] = append(vs[k], w.argF(c, k, comp, int(l)))
					}
				}
				w.setF(c, 0, int(l), fn(vs))
			}
		}, nil
	}
}

// vecMap computes a whole vector from whole vectors (normalize, cross,
// reflect, refract).
func vecMap(n int, fn func(v [][]float64, out []float64)) extMaker {
	return func(c *ir.ExtCall) (extFn, error) {
		if len(c.Args) != n {
			return nil, fmt.Errorf("%s takes %d operands", c.Name, n)
		}
		return func(w *Warp, c *ir.ExtCall) {
			vs := make([][]float64, n)
			out := make([]float64, c.N)
			for _, l := range w.lanes {
				for k := 0; k < n; k++ {
					vs[k] = vs[k][:0]
					for comp := 0; comp < c.ArgN[k]; comp++ {
						vs[k] = append(vs[k], w.argF(c, k, comp, int(l)))
					}
				}
				fn(vs, out)
				for comp := range out {
					w.setF(c, comp, int(l), out[comp])
				}
			}
		}, nil
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func length(v []float64) float64 { return math.Sqrt(dot(v, v)) }

func normalize(v [][]float64, out []float64) {
	n := length(v[0])
	for i := range out {
		if n == 0 {
			out[i] = v[0][i]
		} else {
			out[i] = v[0][i] / n
		}
	}
}

func cross(v [][]float64, out []float64) {
	a, b := v[0], v[1]
	out[0] = a[1]*b[2] - a[2]*b[1]
	out[1] = a[2]*b[0] - a[0]*b[2]
	out[2] = a[0]*b[1] - a[1]*b[0]
	if len(out) > 3 {
		out[3] = 0
	}
}

func clampF(x, lo, hi float64) float64 { return math.Min(math.Max(x, lo), hi) }

func smoothstep(e0, e1, x float64) float64 {
	t := clampF((x-e0)/(e1-e0), 0, 1)
	return t * t * (3 - 2*t)
}

func step(edge, x float64) float64 {
	if x < edge {
		return 0
	}
	return 1
}

func sign(x float64) float64 {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	case x != x:
		return 0
	}
	return x
}

// fractExt is OpenCL fract: x - floor(x), kept below 1 in the result's own
// type (the largest value below 1 there: x - floor(x) of a tiny negative x
// rounds to 1), and floor(x) through the pointer.
func fractExt(c *ir.ExtCall) (extFn, error) {
	below := 0x1.fffffep-1
	switch c.ResultTag {
	case "F16":
		below = 0x1.ffcp-1
	case "F64":
		below = 0x1.fffffffffffffp-1
	}
	return withPtr(func(x, _ float64) (float64, float64) { return math.Min(x-math.Floor(x), below), math.Floor(x) }, 1, false)(c)
}

// nextafter steps x to the next value of its own type toward y (stepping
// in float64 and rounding back to float or half left x unchanged).
func nextafter(c *ir.ExtCall) (extFn, error) {
	if len(c.Args) != 2 {
		return nil, fmt.Errorf("%s takes 2 operands, found %d", c.Name, len(c.Args))
	}
	return func(w *Warp, c *ir.ExtCall) {
		for comp := 0; comp < c.N; comp++ {
			for _, l := range w.lanes {
				x, y := w.argF(c, 0, comp, int(l)), w.argF(c, 1, comp, int(l))
				var v uint64
				switch {
				case c.ResultTag == "F32":
					v = uint64(math.Float32bits(math.Nextafter32(float32(x), float32(y))))
				case c.ResultTag != "F16":
					v = math.Float64bits(math.Nextafter(x, y))
				case x != x || y != y:
					v = uint64(f64to16(math.NaN()))
				case x == y:
					v = w.argBits(c, 1, comp, int(l))
				default:
					v = uint64(f16Step(uint16(w.argBits(c, 0, comp, int(l))), y > x))
				}
				w.regs[(int(c.Dst)+comp)*w.width+int(l)] = v
			}
		}
	}, nil
}

func roundHalfAway(x float64) float64 { return math.Round(x) }

func satS(v int64, nb int) uint64 {
	lo, hi := -(int64(1) << (nb - 1)), int64(1)<<(nb-1)-1
	if nb == 64 {
		lo, hi = math.MinInt64, math.MaxInt64
	}
	return uint64(min(max(v, lo), hi))
}

func satU(v uint64, nb int) uint64 {
	if nb < 64 && v > 1<<uint(nb)-1 {
		return 1<<uint(nb) - 1
	}
	return v
}

// pointer-writing routines: frexp, modf, fract, sincos, remquo, lgamma_r.
func withPtr(fn func(x, y float64) (float64, float64), nIn int, ptrIsInt bool) extMaker {
	return func(c *ir.ExtCall) (extFn, error) {
		if len(c.Args) != nIn+1 {
			return nil, fmt.Errorf("%s takes %d operands", c.Name, nIn+1)
		}
		pk := nIn
		elem := tagBits(c.ResultTag) / 8
		if ptrIsInt {
			elem = 4
		}
		return func(w *Warp, c *ir.ExtCall) {
			for _, l := range w.lanes {
				addr := w.argBits(c, pk, 0, int(l))
				for comp := 0; comp < c.N; comp++ {
					x := w.argF(c, 0, comp, int(l))
					y := 0.0
					if nIn > 1 {
						y = w.argF(c, 1, comp, int(l))
					}
					r, side := fn(x, y)
					w.setF(c, comp, int(l), r)
					p := w.mem(nil, c.Spaces[pk], int(l), addr+uint64(comp*elem), elem, true)
					if p == nil {
						return
					}
					if ptrIsInt {
						putLE(p, 4, uint64(uint32(int32(side))))
					} else {
						putLE(p, elem, floatToTag(c.ResultTag, side))
					}
				}
			}
		}, nil
	}
}

var openclLib = map[spirv.OpenCLStd]extMaker{
	spirv.OpenCLStdAcos: f1(math.Acos), spirv.OpenCLStdAcosh: f1(math.Acosh), spirv.OpenCLStdAcospi: f1(func(x float64) float64 { return math.Acos(x) / math.Pi }),
	spirv.OpenCLStdAsin: f1(math.Asin), spirv.OpenCLStdAsinh: f1(math.Asinh), spirv.OpenCLStdAsinpi: f1(func(x float64) float64 { return math.Asin(x) / math.Pi }),
	spirv.OpenCLStdAtan: f1(math.Atan), spirv.OpenCLStdAtan2: f2(math.Atan2), spirv.OpenCLStdAtanh: f1(math.Atanh),
	spirv.OpenCLStdAtanpi: f1(func(x float64) float64 { return math.Atan(x) / math.Pi }), spirv.OpenCLStdAtan2pi: f2(func(y, x float64) float64 { return math.Atan2(y, x) / math.Pi }),
	spirv.OpenCLStdCbrt: f1(math.Cbrt), spirv.OpenCLStdCeil: f1(math.Ceil), spirv.OpenCLStdCopysign: f2(math.Copysign),
	spirv.OpenCLStdCos: f1(math.Cos), spirv.OpenCLStdCosh: f1(math.Cosh), spirv.OpenCLStdCospi: f1(cosPi),
	spirv.OpenCLStdErfc: f1(math.Erfc), spirv.OpenCLStdErf: f1(math.Erf), spirv.OpenCLStdExp: f1(math.Exp), spirv.OpenCLStdExp2: f1(math.Exp2),
	spirv.OpenCLStdExp10: f1(func(x float64) float64 { return math.Pow(10, x) }), spirv.OpenCLStdExpm1: f1(math.Expm1),
	spirv.OpenCLStdFabs: f1(math.Abs), spirv.OpenCLStdFdim: f2(math.Dim), spirv.OpenCLStdFloor: f1(math.Floor),
	spirv.OpenCLStdFma: f3(math.FMA), spirv.OpenCLStdFmax: f2(fmax[float64]), spirv.OpenCLStdFmin: f2(fmin[float64]),
	spirv.OpenCLStdFmod: f2(math.Mod), spirv.OpenCLStdHypot: f2(math.Hypot),
	spirv.OpenCLStdIlogb: f1(func(x float64) float64 { return float64(math.Ilogb(x)) }), spirv.OpenCLStdLdexp: fi(func(x float64, e int64) float64 { return math.Ldexp(x, int(e)) }),
	spirv.OpenCLStdLgamma: f1(func(x float64) float64 { v, _ := math.Lgamma(x); return v }), spirv.OpenCLStdLog: f1(math.Log),
	spirv.OpenCLStdLog2: f1(math.Log2), spirv.OpenCLStdLog10: f1(math.Log10), spirv.OpenCLStdLog1p: f1(math.Log1p),
	spirv.OpenCLStdLogb: f1(math.Logb), spirv.OpenCLStdMad: f3(func(a, b, c float64) float64 { return a*b + c }),
	spirv.OpenCLStdMaxmag: f2(func(x, y float64) float64 {
		if math.Abs(x) > math.Abs(y) {
			return x
		} else if math.Abs(y) > math.Abs(x) {
			return y
		}
		return math.Max(x, y)
	}),
	spirv.OpenCLStdMinmag: f2(func(x, y float64) float64 {
		if math.Abs(x) < math.Abs(y) {
			return x
		} else if math.Abs(y) < math.Abs(x) {
			return y
		}
		return math.Min(x, y)
	}),
	spirv.OpenCLStdNextafter: nextafter, spirv.OpenCLStdPow: f2(math.Pow),
	spirv.OpenCLStdPown: fi(func(x float64, n int64) float64 { return math.Pow(x, float64(n)) }), spirv.OpenCLStdPowr: f2(math.Pow),
	spirv.OpenCLStdRemainder: f2(math.Remainder), spirv.OpenCLStdRint: f1(math.RoundToEven),
	spirv.OpenCLStdRootn: fi(func(x float64, n int64) float64 {
		if x < 0 && n%2 != 0 {
			return -math.Pow(-x, 1/float64(n))
		}
		return math.Pow(x, 1/float64(n))
	}),
	spirv.OpenCLStdRound: f1(roundHalfAway), spirv.OpenCLStdRsqrt: f1(func(x float64) float64 { return 1 / math.Sqrt(x) }),
	spirv.OpenCLStdSin: f1(math.Sin), spirv.OpenCLStdSinh: f1(math.Sinh), spirv.OpenCLStdSinpi: f1(sinPi),
	spirv.OpenCLStdSqrt: f1(math.Sqrt), spirv.OpenCLStdTan: f1(math.Tan), spirv.OpenCLStdTanh: f1(math.Tanh),
	spirv.OpenCLStdTanpi: f1(tanPi), spirv.OpenCLStdTgamma: f1(math.Gamma),
	spirv.OpenCLStdTrunc:   f1(math.Trunc),
	spirv.OpenCLStdHalfCos: f1(math.Cos), spirv.OpenCLStdHalfDivide: f2(func(a, b float64) float64 { return a / b }),
	spirv.OpenCLStdHalfExp: f1(math.Exp), spirv.OpenCLStdHalfExp2: f1(math.Exp2), spirv.OpenCLStdHalfExp10: f1(func(x float64) float64 { return math.Pow(10, x) }),
	spirv.OpenCLStdHalfLog: f1(math.Log), spirv.OpenCLStdHalfLog2: f1(math.Log2), spirv.OpenCLStdHalfLog10: f1(math.Log10),
	spirv.OpenCLStdHalfPowr: f2(math.Pow), spirv.OpenCLStdHalfRecip: f1(func(x float64) float64 { return 1 / x }),
	spirv.OpenCLStdHalfRsqrt: f1(func(x float64) float64 { return 1 / math.Sqrt(x) }), spirv.OpenCLStdHalfSin: f1(math.Sin),
	spirv.OpenCLStdHalfSqrt: f1(math.Sqrt), spirv.OpenCLStdHalfTan: f1(math.Tan),
	spirv.OpenCLStdNativeCos: f1(math.Cos), spirv.OpenCLStdNativeDivide: f2(func(a, b float64) float64 { return a / b }),
	spirv.OpenCLStdNativeExp: f1(math.Exp), spirv.OpenCLStdNativeExp2: f1(math.Exp2), spirv.OpenCLStdNativeExp10: f1(func(x float64) float64 { return math.Pow(10, x) }),
	spirv.OpenCLStdNativeLog: f1(math.Log), spirv.OpenCLStdNativeLog2: f1(math.Log2), spirv.OpenCLStdNativeLog10: f1(math.Log10),
	spirv.OpenCLStdNativePowr: f2(math.Pow), spirv.OpenCLStdNativeRecip: f1(func(x float64) float64 { return 1 / x }),
	spirv.OpenCLStdNativeRsqrt: f1(func(x float64) float64 { return 1 / math.Sqrt(x) }), spirv.OpenCLStdNativeSin: f1(math.Sin),
	spirv.OpenCLStdNativeSqrt: f1(math.Sqrt), spirv.OpenCLStdNativeTan: f1(math.Tan),
	spirv.OpenCLStdFclamp:  f3(func(x, lo, hi float64) float64 { return fmin(fmax(x, lo), hi) }),
	spirv.OpenCLStdDegrees: f1(func(x float64) float64 { return x * 180 / math.Pi }), spirv.OpenCLStdRadians: f1(func(x float64) float64 { return x * math.Pi / 180 }),
	spirv.OpenCLStdFmaxCommon: f2(math.Max), spirv.OpenCLStdFminCommon: f2(math.Min),
	spirv.OpenCLStdMix: f3(func(a, b, t float64) float64 { return a + (b-a)*t }), spirv.OpenCLStdStep: f2(step),
	spirv.OpenCLStdSmoothstep: f3(smoothstep), spirv.OpenCLStdSign: f1(sign),
	spirv.OpenCLStdCross: vecMap(2, cross), spirv.OpenCLStdDistance: reduce(2, func(v [][]float64) float64 {
		d := make([]float64, len(v[0]))
		for i := range d {
			d[i] = v[0][i] - v[1][i]
		}
		return length(d)
	}),
	spirv.OpenCLStdLength: reduce(1, func(v [][]float64) float64 { return length(v[0]) }), spirv.OpenCLStdNormalize: vecMap(1, normalize),
	spirv.OpenCLStdFastDistance: reduce(2, func(v [][]float64) float64 {
		d := make([]float64, len(v[0]))
		for i := range d {
			d[i] = v[0][i] - v[1][i]
		}
		return length(d)
	}),
	spirv.OpenCLStdFastLength: reduce(1, func(v [][]float64) float64 { return length(v[0]) }), spirv.OpenCLStdFastNormalize: vecMap(1, normalize),
	spirv.OpenCLStdFract:   fractExt,
	spirv.OpenCLStdModf:    withPtr(func(x, _ float64) (float64, float64) { i, f := math.Modf(x); return f, i }, 1, false),
	spirv.OpenCLStdSincos:  withPtr(func(x, _ float64) (float64, float64) { return math.Sin(x), math.Cos(x) }, 1, false),
	spirv.OpenCLStdFrexp:   withPtr(func(x, _ float64) (float64, float64) { f, e := math.Frexp(x); return f, float64(e) }, 1, true),
	spirv.OpenCLStdLgammaR: withPtr(func(x, _ float64) (float64, float64) { v, s := math.Lgamma(x); return v, float64(s) }, 1, true),
	spirv.OpenCLStdRemquo: withPtr(func(x, y float64) (float64, float64) {
		r := math.Remainder(x, y)
		q := math.RoundToEven((x - r) / y)
		return r, float64(int64(q) % 128)
	}, 2, true),

	spirv.OpenCLStdSAbs: intMap(1, true, func(x []uint64, _ int) uint64 { return uint64(sabs(int64(x[0]))) }),
	spirv.OpenCLStdUAbs: intMap(1, false, func(x []uint64, _ int) uint64 { return x[0] }),
	spirv.OpenCLStdSAbsDiff: intMap(2, true, func(x []uint64, _ int) uint64 {
		a, b := int64(x[0]), int64(x[1])
		if a > b {
			return uint64(a - b)
		}
		return uint64(b - a)
	}),
	spirv.OpenCLStdUAbsDiff: intMap(2, false, func(x []uint64, _ int) uint64 {
		if x[0] > x[1] {
			return x[0] - x[1]
		}
		return x[1] - x[0]
	}),
	spirv.OpenCLStdSAddSat: intMap(2, true, func(x []uint64, nb int) uint64 { return satAddS(int64(x[0]), int64(x[1]), nb) }),
	spirv.OpenCLStdUAddSat: intMap(2, false, func(x []uint64, nb int) uint64 {
		s, c := bits.Add64(x[0], x[1], 0)
		if c != 0 {
			return math.MaxUint64
		}
		return satU(s, nb)
	}),
	spirv.OpenCLStdSSubSat: intMap(2, true, func(x []uint64, nb int) uint64 { return satSubS(int64(x[0]), int64(x[1]), nb) }),
	spirv.OpenCLStdUSubSat: intMap(2, false, func(x []uint64, _ int) uint64 {
		if x[1] > x[0] {
			return 0
		}
		return x[0] - x[1]
	}),
	spirv.OpenCLStdSHadd:  intMap(2, true, func(x []uint64, _ int) uint64 { a, b := int64(x[0]), int64(x[1]); return uint64(a>>1 + b>>1 + a&b&1) }),
	spirv.OpenCLStdUHadd:  intMap(2, false, func(x []uint64, _ int) uint64 { return x[0]>>1 + x[1]>>1 + x[0]&x[1]&1 }),
	spirv.OpenCLStdSRhadd: intMap(2, true, func(x []uint64, _ int) uint64 { a, b := int64(x[0]), int64(x[1]); return uint64(a>>1 + b>>1 + (a|b)&1) }),
	spirv.OpenCLStdURhadd: intMap(2, false, func(x []uint64, _ int) uint64 { return x[0]>>1 + x[1]>>1 + (x[0]|x[1])&1 }),
	spirv.OpenCLStdSClamp: intMap(3, true, func(x []uint64, _ int) uint64 { return uint64(min(max(int64(x[0]), int64(x[1])), int64(x[2]))) }),
	spirv.OpenCLStdUClamp: intMap(3, false, func(x []uint64, _ int) uint64 { return min(max(x[0], x[1]), x[2]) }),
	spirv.OpenCLStdClz:    intMap(1, false, func(x []uint64, nb int) uint64 { return uint64(bits.LeadingZeros64(x[0]) - (64 - nb)) }),
	spirv.OpenCLStdCtz: intMap(1, false, func(x []uint64, nb int) uint64 {
		if x[0] == 0 {
			return uint64(nb)
		}
		return uint64(bits.TrailingZeros64(x[0]))
	}),
	spirv.OpenCLStdSMadHi: intMap(3, true, func(x []uint64, nb int) uint64 { return smulhi(int64(x[0]), int64(x[1]), nb) + x[2] }),
	spirv.OpenCLStdUMadHi: intMap(3, false, func(x []uint64, nb int) uint64 { return umulhi(x[0], x[1], nb) + x[2] }),
	spirv.OpenCLStdSMadSat: intMap(3, true, func(x []uint64, nb int) uint64 {
		if nb == 64 {
			return madSatS64(int64(x[0]), int64(x[1]), int64(x[2]))
		}
		// Narrower operands: the product and the sum fit in an int64.
		return satAddS(int64(x[0])*int64(x[1]), int64(x[2]), nb)
	}),
	spirv.OpenCLStdUMadSat: intMap(3, false, func(x []uint64, nb int) uint64 {
		hi, lo := bits.Mul64(x[0], x[1])
		if hi != 0 {
			return satU(math.MaxUint64, nb)
		}
		s, c := bits.Add64(lo, x[2], 0)
		if c != 0 {
			return satU(math.MaxUint64, nb)
		}
		return satU(s, nb)
	}),
	spirv.OpenCLStdSMax:   intMap(2, true, func(x []uint64, _ int) uint64 { return uint64(max(int64(x[0]), int64(x[1]))) }),
	spirv.OpenCLStdUMax:   intMap(2, false, func(x []uint64, _ int) uint64 { return max(x[0], x[1]) }),
	spirv.OpenCLStdSMin:   intMap(2, true, func(x []uint64, _ int) uint64 { return uint64(min(int64(x[0]), int64(x[1]))) }),
	spirv.OpenCLStdUMin:   intMap(2, false, func(x []uint64, _ int) uint64 { return min(x[0], x[1]) }),
	spirv.OpenCLStdSMulHi: intMap(2, true, func(x []uint64, nb int) uint64 { return smulhi(int64(x[0]), int64(x[1]), nb) }),
	spirv.OpenCLStdUMulHi: intMap(2, false, func(x []uint64, nb int) uint64 { return umulhi(x[0], x[1], nb) }),
	spirv.OpenCLStdRotate: intMap(2, false, func(x []uint64, nb int) uint64 {
		s := x[1] % uint64(nb)
		return x[0]<<s | x[0]>>((uint64(nb)-s)%uint64(nb))
	}),
	spirv.OpenCLStdPopcount: intMap(1, false, func(x []uint64, _ int) uint64 { return uint64(bits.OnesCount64(x[0])) }),
	spirv.OpenCLStdSMad24: intMap(3, true, func(x []uint64, _ int) uint64 {
		return uint64(signExt(x[0], 24)*signExt(x[1], 24) + int64(x[2]))
	}),
	spirv.OpenCLStdUMad24:    intMap(3, false, func(x []uint64, _ int) uint64 { return (x[0]&0xffffff)*(x[1]&0xffffff) + x[2] }),
	spirv.OpenCLStdSMul24:    intMap(2, true, func(x []uint64, _ int) uint64 { return uint64(signExt(x[0], 24) * signExt(x[1], 24)) }),
	spirv.OpenCLStdUMul24:    intMap(2, false, func(x []uint64, _ int) uint64 { return (x[0] & 0xffffff) * (x[1] & 0xffffff) }),
	spirv.OpenCLStdUUpsample: upsample(false), spirv.OpenCLStdSUpsample: upsample(true),
	spirv.OpenCLStdBitselect: bitselect,
	spirv.OpenCLStdSelect:    clSelect,
	spirv.OpenCLStdShuffle:   shuffle,
	spirv.OpenCLStdShuffle2:  shuffle,
	spirv.OpenCLStdPrintf:    printfExt,
}

func satAddS(a, b int64, nb int) uint64 {
	s := a + b
	if nb == 64 {
		if (a >= 0) == (b >= 0) && (s >= 0) != (a >= 0) {
			if a >= 0 {
				return math.MaxInt64
			}
			return 1 << 63
		}
		return uint64(s)
	}
	return satS(s, nb)
}

// satSubS is a - b clamped to the signed range of nb bits. At 64 bits -b
// cannot be formed for b = MinInt64, so overflow is judged on a - b itself.
func satSubS(a, b int64, nb int) uint64 {
	if nb < 64 {
		return satS(a-b, nb)
	}
	s := a - b
	if (a >= 0) != (b >= 0) && (s >= 0) != (a >= 0) {
		if a >= 0 {
			return math.MaxInt64
		}
		return 1 << 63
	}
	return uint64(s)
}

// madSatS64 is a*b + c for signed 64-bit operands, clamped: the product
// and the sum are formed exactly in 128 bits (the unsigned product with its
// high word corrected for the operands' signs) before the range is judged.
func madSatS64(a, b, c int64) uint64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if a < 0 {
		hi -= uint64(b)
	}
	if b < 0 {
		hi -= uint64(a)
	}
	var carry uint64
	lo, carry = bits.Add64(lo, uint64(c), 0)
	ext := uint64(0)
	if c < 0 {
		ext = math.MaxUint64
	}
	hi, _ = bits.Add64(hi, ext, carry)
	switch {
	case hi == 0 && int64(lo) >= 0, hi == math.MaxUint64 && int64(lo) < 0:
		return lo
	case int64(hi) < 0:
		return 1 << 63
	}
	return math.MaxInt64
}

func umulhi(a, b uint64, nb int) uint64 {
	if nb == 64 {
		return mulhiU(a, b)
	}
	return (a * b) >> uint(nb)
}

func smulhi(a, b int64, nb int) uint64 {
	if nb == 64 {
		return uint64(mulhiS(a, b))
	}
	return uint64((a * b) >> uint(nb))
}

func upsample(signed bool) extMaker {
	return func(c *ir.ExtCall) (extFn, error) {
		return func(w *Warp, c *ir.ExtCall) {
			nb := uint(tagBits(c.ArgTags[1]))
			for comp := 0; comp < c.N; comp++ {
				for _, l := range w.lanes {
					hi := w.argBits(c, 0, comp, int(l))
					lo := w.argBits(c, 1, comp, int(l))
					w.setBits(c, comp, int(l), hi<<nb|lo)
				}
			}
		}, nil
	}
}

func bitselect(c *ir.ExtCall) (extFn, error) {
	return func(w *Warp, c *ir.ExtCall) {
		for comp := 0; comp < c.N; comp++ {
			for _, l := range w.lanes {
				a, b, m := w.argBits(c, 0, comp, int(l)), w.argBits(c, 1, comp, int(l)), w.argBits(c, 2, comp, int(l))
				w.setBits(c, comp, int(l), a&^m|b&m)
			}
		}
	}, nil
}

// clSelect is OpenCL select(a, b, c): per component, c's most significant
// bit (vectors) or c != 0 (scalars) picks b.
func clSelect(c *ir.ExtCall) (extFn, error) {
	return func(w *Warp, c *ir.ExtCall) {
		nb := tagBits(c.ArgTags[2])
		for comp := 0; comp < c.N; comp++ {
			for _, l := range w.lanes {
				m := w.argBits(c, 2, comp, int(l))
				pick := m != 0
				if c.N > 1 {
					pick = m>>uint(nb-1)&1 != 0
				}
				if pick {
					w.setBits(c, comp, int(l), w.argBits(c, 1, comp, int(l)))
				} else {
					w.setBits(c, comp, int(l), w.argBits(c, 0, comp, int(l)))
				}
			}
		}
	}, nil
}

// shuffle and shuffle2: element i of the result is element mask[i] of x
// (or of the concatenation x, y).
func shuffle(c *ir.ExtCall) (extFn, error) {
	return func(w *Warp, c *ir.ExtCall) {
		mk := len(c.Args) - 1
		n0 := c.ArgN[0]
		total := n0
		if mk == 2 {
			total += c.ArgN[1]
		}
		for comp := 0; comp < c.N; comp++ {
			for _, l := range w.lanes {
				k := int(w.argBits(c, mk, comp, int(l)) % uint64(total))
				var v uint64
				if k < n0 {
					v = w.argBits(c, 0, k, int(l))
				} else {
					v = w.argBits(c, 1, k-n0, int(l))
				}
				w.setBits(c, comp, int(l), v)
			}
		}
	}, nil
}

var glslLib = map[spirv.GLSLStd450]extMaker{
	spirv.GLSLStd450Round: f1(roundHalfAway), spirv.GLSLStd450RoundEven: f1(math.RoundToEven), spirv.GLSLStd450Trunc: f1(math.Trunc),
	spirv.GLSLStd450FAbs: f1(math.Abs), spirv.GLSLStd450SAbs: intMap(1, true, func(x []uint64, _ int) uint64 { return uint64(sabs(int64(x[0]))) }),
	spirv.GLSLStd450FSign: f1(sign), spirv.GLSLStd450SSign: intMap(1, true, func(x []uint64, _ int) uint64 {
		switch v := int64(x[0]); {
		case v > 0:
			return 1
		case v < 0:
			return math.MaxUint64
		}
		return 0
	}),
	spirv.GLSLStd450Floor: f1(math.Floor), spirv.GLSLStd450Ceil: f1(math.Ceil), spirv.GLSLStd450Fract: f1(func(x float64) float64 { return x - math.Floor(x) }),
	spirv.GLSLStd450Radians: f1(func(x float64) float64 { return x * math.Pi / 180 }), spirv.GLSLStd450Degrees: f1(func(x float64) float64 { return x * 180 / math.Pi }),
	spirv.GLSLStd450Sin: f1(math.Sin), spirv.GLSLStd450Cos: f1(math.Cos), spirv.GLSLStd450Tan: f1(math.Tan),
	spirv.GLSLStd450Asin: f1(math.Asin), spirv.GLSLStd450Acos: f1(math.Acos), spirv.GLSLStd450Atan: f1(math.Atan),
	spirv.GLSLStd450Sinh: f1(math.Sinh), spirv.GLSLStd450Cosh: f1(math.Cosh), spirv.GLSLStd450Tanh: f1(math.Tanh),
	spirv.GLSLStd450Asinh: f1(math.Asinh), spirv.GLSLStd450Acosh: f1(math.Acosh), spirv.GLSLStd450Atanh: f1(math.Atanh),
	spirv.GLSLStd450Atan2: f2(math.Atan2), spirv.GLSLStd450Pow: f2(math.Pow), spirv.GLSLStd450Exp: f1(math.Exp),
	spirv.GLSLStd450Log: f1(math.Log), spirv.GLSLStd450Exp2: f1(math.Exp2), spirv.GLSLStd450Log2: f1(math.Log2),
	spirv.GLSLStd450Sqrt: f1(math.Sqrt), spirv.GLSLStd450InverseSqrt: f1(func(x float64) float64 { return 1 / math.Sqrt(x) }),
	spirv.GLSLStd450Modf: withPtr(func(x, _ float64) (float64, float64) { i, f := math.Modf(x); return f, i }, 1, false),
	spirv.GLSLStd450FMin: f2(math.Min), spirv.GLSLStd450UMin: intMap(2, false, func(x []uint64, _ int) uint64 { return min(x[0], x[1]) }),
	spirv.GLSLStd450SMin: intMap(2, true, func(x []uint64, _ int) uint64 { return uint64(min(int64(x[0]), int64(x[1]))) }),
	spirv.GLSLStd450FMax: f2(math.Max), spirv.GLSLStd450UMax: intMap(2, false, func(x []uint64, _ int) uint64 { return max(x[0], x[1]) }),
	spirv.GLSLStd450SMax:   intMap(2, true, func(x []uint64, _ int) uint64 { return uint64(max(int64(x[0]), int64(x[1]))) }),
	spirv.GLSLStd450FClamp: f3(clampF), spirv.GLSLStd450UClamp: intMap(3, false, func(x []uint64, _ int) uint64 { return min(max(x[0], x[1]), x[2]) }),
	spirv.GLSLStd450SClamp: intMap(3, true, func(x []uint64, _ int) uint64 { return uint64(min(max(int64(x[0]), int64(x[1])), int64(x[2]))) }),
	spirv.GLSLStd450FMix:   f3(func(a, b, t float64) float64 { return a*(1-t) + b*t }),
	spirv.GLSLStd450Step:   f2(step), spirv.GLSLStd450SmoothStep: f3(smoothstep), spirv.GLSLStd450Fma: f3(math.FMA),
	spirv.GLSLStd450Frexp:  withPtr(func(x, _ float64) (float64, float64) { f, e := math.Frexp(x); return f, float64(e) }, 1, true),
	spirv.GLSLStd450Ldexp:  fi(func(x float64, e int64) float64 { return math.Ldexp(x, int(e)) }),
	spirv.GLSLStd450Length: reduce(1, func(v [][]float64) float64 { return length(v[0]) }),
	spirv.GLSLStd450Distance: reduce(2, func(v [][]float64) float64 {
		d := make([]float64, len(v[0]))
		for i := range d {
			d[i] = v[0][i] - v[1][i]
		}
		return length(d)
	}),
	spirv.GLSLStd450Cross: vecMap(2, cross), spirv.GLSLStd450Normalize: vecMap(1, normalize),
	spirv.GLSLStd450FaceForward: vecMap(3, func(v [][]float64, out []float64) {
		s := 1.0
		if dot(v[2], v[1]) >= 0 {
			s = -1
		}
		for i := range out {
			out[i] = s * v[0][i]
		}
	}),
	spirv.GLSLStd450Reflect: vecMap(2, func(v [][]float64, out []float64) {
		d := 2 * dot(v[1], v[0])
		for i := range out {
			out[i] = v[0][i] - d*v[1][i]
		}
	}),
	spirv.GLSLStd450Refract: func(c *ir.ExtCall) (extFn, error) {
		return func(w *Warp, c *ir.ExtCall) {
			for _, l := range w.lanes {
				n := c.ArgN[0]
				ii, nn := make([]float64, n), make([]float64, n)
				for k := 0; k < n; k++ {
					ii[k], nn[k] = w.argF(c, 0, k, int(l)), w.argF(c, 1, k, int(l))
				}
				eta := w.argF(c, 2, 0, int(l))
				d := dot(nn, ii)
				kk := 1 - eta*eta*(1-d*d)
				for k := 0; k < n; k++ {
					r := 0.0
					if kk >= 0 {
						r = eta*ii[k] - (eta*d+math.Sqrt(kk))*nn[k]
					}
					w.setF(c, k, int(l), r)
				}
			}
		}, nil
	},
	spirv.GLSLStd450FindILsb: intMap(1, false, func(x []uint64, nb int) uint64 {
		if x[0] == 0 {
			return math.MaxUint64
		}
		return uint64(bits.TrailingZeros64(x[0]))
	}),
	spirv.GLSLStd450FindUMsb: intMap(1, false, func(x []uint64, _ int) uint64 { return uint64(int64(bits.Len64(x[0]) - 1)) }),
	spirv.GLSLStd450FindSMsb: intMap(1, true, func(x []uint64, nb int) uint64 {
		v := int64(x[0])
		if v < 0 {
			v = ^v
		}
		return uint64(int64(bits.Len64(uint64(v)) - 1))
	}),
	spirv.GLSLStd450NMin: f2(math.Min), spirv.GLSLStd450NMax: f2(math.Max), spirv.GLSLStd450NClamp: f3(clampF),
	spirv.GLSLStd450PackHalf2x16: func(c *ir.ExtCall) (extFn, error) {
		return func(w *Warp, c *ir.ExtCall) {
			for _, l := range w.lanes {
				a, b := f64to16(w.argF(c, 0, 0, int(l))), f64to16(w.argF(c, 0, 1, int(l)))
				w.setBits(c, 0, int(l), uint64(a)|uint64(b)<<16)
			}
		}, nil
	},
	spirv.GLSLStd450UnpackHalf2x16: func(c *ir.ExtCall) (extFn, error) {
		return func(w *Warp, c *ir.ExtCall) {
			for _, l := range w.lanes {
				v := w.argBits(c, 0, 0, int(l))
				w.setF(c, 0, int(l), float64(h2f(uint16(v))))
				w.setF(c, 1, int(l), float64(h2f(uint16(v>>16))))
			}
		}, nil
	},
	spirv.GLSLStd450PackUnorm4x8: packNorm(4, 8, false), spirv.GLSLStd450PackSnorm4x8: packNorm(4, 8, true),
	spirv.GLSLStd450PackUnorm2x16: packNorm(2, 16, false), spirv.GLSLStd450PackSnorm2x16: packNorm(2, 16, true),
	spirv.GLSLStd450UnpackUnorm4x8: unpackNorm(4, 8, false), spirv.GLSLStd450UnpackSnorm4x8: unpackNorm(4, 8, true),
	spirv.GLSLStd450UnpackUnorm2x16: unpackNorm(2, 16, false), spirv.GLSLStd450UnpackSnorm2x16: unpackNorm(2, 16, true),
}

func packNorm(n, nb int, signed bool) extMaker {
	return func(c *ir.ExtCall) (extFn, error) {
		return func(w *Warp, c *ir.ExtCall) {
			scale := float64(int(1)<<uint(nb) - 1)
			if signed {
				scale = float64(int(1)<<uint(nb-1) - 1)
			}
			for _, l := range w.lanes {
				var v uint64
				for k := 0; k < n; k++ {
					x := w.argF(c, 0, k, int(l))
					var q int64
					if signed {
						q = int64(math.RoundToEven(clampF(x, -1, 1) * scale))
					} else {
						q = int64(math.RoundToEven(clampF(x, 0, 1) * scale))
					}
					v |= uint64(q) & (1<<uint(nb) - 1) << uint(k*nb)
				}
				w.setBits(c, 0, int(l), v)
			}
		}, nil
	}
}

func unpackNorm(n, nb int, signed bool) extMaker {
	return func(c *ir.ExtCall) (extFn, error) {
		return func(w *Warp, c *ir.ExtCall) {
			for _, l := range w.lanes {
				v := w.argBits(c, 0, 0, int(l))
				for k := 0; k < n; k++ {
					q := v >> uint(k*nb) & (1<<uint(nb) - 1)
					var x float64
					if signed {
						x = math.Max(float64(signExt(q, nb))/float64(int(1)<<uint(nb-1)-1), -1)
					} else {
						x = float64(q) / float64(int(1)<<uint(nb)-1)
					}
					w.setF(c, k, int(l), x)
				}
			}
		}, nil
	}
}

var internalLib = map[uint32]extMaker{
	ir.InternalBitFieldInsert: intMap(4, false, func(x []uint64, nb int) uint64 {
		off, cnt := x[2], x[3]
		if cnt == 0 || off >= 64 {
			return x[0]
		}
		m := (uint64(1)<<cnt - 1) << off
		if cnt >= 64 {
			m = math.MaxUint64
		}
		return x[0]&^m | x[1]<<off&m
	}),
	ir.InternalBitFieldUExtract: intMap(3, false, func(x []uint64, nb int) uint64 {
		off, cnt := x[1], x[2]
		if cnt == 0 || off >= 64 {
			return 0
		}
		return x[0] >> off & (uint64(1)<<cnt - 1)
	}),
	ir.InternalBitFieldSExtract: intMap(3, false, func(x []uint64, nb int) uint64 {
		off, cnt := x[1], x[2]
		if cnt == 0 || off >= 64 {
			return 0
		}
		return uint64(signExt(x[0]>>off&(uint64(1)<<cnt-1), int(cnt)))
	}),
	ir.InternalQuantizeToF16: f1(func(x float64) float64 { return float64(h2f(f64to16(x))) }),
	ir.InternalSatConvert:    satConvert,
	ir.InternalRound: func(c *ir.ExtCall) (extFn, error) {
		round := map[int64]func(float64) float64{0: math.RoundToEven, 1: math.Trunc, 2: math.Ceil, 3: math.Floor}[c.Imm]
		if round == nil {
			return nil, fmt.Errorf("rounding mode %d", c.Imm)
		}
		return f1(round)(c)
	},
	ir.InternalF2HRound: func(c *ir.ExtCall) (extFn, error) {
		mode := c.Imm
		return func(w *Warp, c *ir.ExtCall) {
			for comp := 0; comp < c.N; comp++ {
				for _, l := range w.lanes {
					w.regs[(int(c.Dst)+comp)*w.width+int(l)] = uint64(f2hMode(w.argF(c, 0, comp, int(l)), mode))
				}
			}
		}, nil
	},
	ir.InternalAsyncCopy:   asyncCopy,
	ir.InternalArrayLength: arrayLength,
	ir.InternalDeriv:       internalDeriv,
}

// f2hMode rounds to binary16 with a SPIR-V rounding mode (0 nearest even,
// 1 toward zero, 2 toward +inf, 3 toward -inf): round to nearest, then step
// one binary16 value back when that went the wrong way.
func f2hMode(x float64, mode int64) uint16 {
	h := f64to16(x)
	r := float64(h2f(h))
	if x != x || r == x {
		return h
	}
	switch mode {
	case 1:
		if math.Abs(r) > math.Abs(x) {
			return f16Step(h, x < 0)
		}
	case 2:
		if r < x {
			return f16Step(h, true)
		}
	case 3:
		if r > x {
			return f16Step(h, false)
		}
	}
	return h
}

// f16Step gives the next binary16 value up or down.
func f16Step(h uint16, up bool) uint16 {
	if h&0x7fff == 0 {
		if up {
			return 0x0001
		}
		return 0x8001
	}
	if (h&0x8000 == 0) == up {
		return h + 1
	}
	return h - 1
}

func satConvert(c *ir.ExtCall) (extFn, error) {
	fromS := c.Tag[0] == 'S'
	toS := c.ResultTag[0] == 'S'
	nb := tagBits(c.ResultTag)
	return func(w *Warp, c *ir.ExtCall) {
		for comp := 0; comp < c.N; comp++ {
			for _, l := range w.lanes {
				var v uint64
				if fromS {
					s := w.argS(c, 0, comp, int(l))
					if toS {
						v = satS(s, nb)
					} else if s < 0 {
						v = 0
					} else {
						v = satU(uint64(s), nb)
					}
				} else {
					u := w.argBits(c, 0, comp, int(l))
					if toS {
						v = satS(int64(min(u, math.MaxInt64)), nb)
					} else {
						v = satU(u, nb)
					}
				}
				w.setBits(c, comp, int(l), v)
			}
		}
	}, nil
}

// asyncCopy performs async_work_group_copy at once, once per work-group:
// the first warp to reach the instruction (for the k-th time, in a loop)
// copies the elements; the others, passing the same arguments, only take
// the event. Copying again would undo what work-items that already waited
// on the event wrote to the destination. For timing, the work-group's first
// warp records one bulk transfer. A packed warp holds each of its
// work-groups whole, so it copies for every work-group with lanes here,
// with that work-group's arguments, and records one transfer for each.
func asyncCopy(c *ir.ExtCall) (extFn, error) {
	return func(w *Warp, c *ir.ExtCall) {
		if len(w.lanes) == 0 {
			return
		}
		if w.seg > 0 {
			done := -1
			for _, l := range w.lanes {
				if j := w.member(int(l)); j != done {
					done = j
					if !w.copyFor(c, int(l), true) {
						return
					}
				}
			}
		} else {
			if w.copiesSeen == nil {
				w.copiesSeen = map[*ir.ExtCall]int{}
			}
			if w.wg.copies == nil {
				w.wg.copies = map[*ir.ExtCall]int{}
			}
			w.copiesSeen[c]++
			k := w.copiesSeen[c]
			first := k > w.wg.copies[c]
			if first {
				w.wg.copies[c] = k
			}
			if !w.copyFor(c, int(w.lanes[0]), first) {
				return
			}
		}
		for _, ln := range w.lanes {
			w.regs[int(c.Dst)*w.width+int(ln)] = 0
		}
	}, nil
}

// copyFor performs lane l's work-group's copy when perform is set and, for
// the work-group's first warp, records it; it reports false on a fault.
func (w *Warp) copyFor(c *ir.ExtCall, l int, perform bool) bool {
	dst, src := w.argBits(c, 0, 0, l), w.argBits(c, 1, 0, l)
	n := w.argBits(c, 2, 0, l)
	stride := w.argBits(c, 3, 0, l)
	es := uint64(c.Imm)
	dstStride, srcStride := es, es
	if c.Spaces[0] == ir.SpaceLocal {
		srcStride = es * stride // global -> local: strided source
	} else {
		dstStride = es * stride
	}
	if perform {
		for i := uint64(0); i < n; i++ {
			s := w.mem(nil, c.Spaces[1], l, src+i*srcStride, int(es), false)
			d := w.mem(nil, c.Spaces[0], l, dst+i*dstStride, int(es), true)
			if s == nil || d == nil {
				return false
			}
			copy(d, s)
		}
	}
	if w.Trace != nil && w.index == 0 && n > 0 && n <= 1<<20 {
		// Local addresses in the work-group's window (Trace.record).
		win := func(sp ir.Space, a uint64) uint64 {
			if sp == ir.SpaceLocal && w.seg > 0 {
				return a + uint64(w.member(l)*w.d.localSpan)
			}
			return a
		}
		w.Trace.recordBulk(w.extPC, c.Spaces[1], AccessLoad, int(es), win(c.Spaces[1], src), srcStride, int(n))
		w.Trace.recordBulk(w.extPC, c.Spaces[0], AccessStore, int(es), win(c.Spaces[0], dst), dstStride, int(n))
	}
	return true
}

// arrayLength gives a runtime array's length from its buffer's size.
func arrayLength(c *ir.ExtCall) (extFn, error) {
	off, stride := uint64(c.Imm>>32), uint64(c.Imm&0xffffffff)
	if stride == 0 {
		return nil, fmt.Errorf("runtime array with zero stride")
	}
	return func(w *Warp, c *ir.ExtCall) {
		for _, l := range w.lanes {
			base := w.argBits(c, 0, 0, int(l))
			var n uint64
			if b := w.d.Mem.Find(base, 0); b != nil && b.End()-base >= off {
				n = (b.End() - base - off) / stride
			}
			w.setBits(c, 0, int(l), n)
		}
	}, nil
}
