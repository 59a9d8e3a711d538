package isa

import (
	"strings"

	"github.com/pocketgpu/pocketgpu/ir"
)

// extCost is how an extended instruction (OpenCL.std, GLSL.std.450 or an
// internal one the IR builder uses) becomes machine operations: steps per
// component of the first argument (reductions), fixed steps, then steps per
// result component. These follow how GPU compilers expand the functions:
// the hardware's special-function unit does exp2, log2, sin, cos, rsqrt and
// reciprocal (seed 000 §Register Access and Execution Pipelines: "only the
// most common built-in functions ... get handled with a single instruction.
// More complex special operations take multiple instructions"); the rest is
// range reduction and polynomials on the FMA/ADD pipes.
type extCost struct {
	perIn  []string
	fixed  []string
	per    []string
	ptrOut bool   // writes a second result through a pointer (a private move per component)
	msg    string // a message instead of ALU work (PseudoLoad, PseudoStore)
}

// elementwise reports whether the function works component by component.
func (e extCost) elementwise() bool { return len(e.perIn) == 0 && len(e.fixed) == 0 && e.msg == "" }

func rep(s string, k int) []string { return repeat(s, k) }

func cat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

var (
	trig     = []string{sMul, sSfu}                                       // range reduction, then the SFU
	invTrig  = cat([]string{sSfu}, rep(sMad, 6), []string{sCmp, sSelect}) // polynomial around a reciprocal or rsqrt
	hyper    = []string{sMul, sSfu, sSfu, sAdd, sMul}                     // from exp: e^x, its reciprocal, a sum
	invHyper = []string{sMad, sSfu, sAdd, sSfu, sMul}                     // log(x + sqrt(x*x ± 1))
	gamma    = cat(rep(sSfu, 2), rep(sMad, 10))
	pack4    = []string{sMul, sCvt, sShift, sLogic}
	unpack4  = []string{sShift, sLogic, sCvt, sMul}
)

// extTable is keyed by the lower-case function name without a native_ or
// half_ prefix (reduced-precision variants cost the same operations).
var extTable = map[string]extCost{
	// OpenCL.std math
	"acos": {per: invTrig}, "asin": {per: invTrig}, "atan": {per: invTrig},
	"acospi": {per: invTrig}, "asinpi": {per: invTrig}, "atanpi": {per: invTrig},
	"atan2":   {per: cat([]string{sDiv}, rep(sMad, 6), []string{sCmp, sCmp, sSelect, sSelect})},
	"atan2pi": {per: cat([]string{sDiv}, rep(sMad, 6), []string{sCmp, sCmp, sSelect, sSelect, sMul})},
	"acosh":   {per: invHyper}, "asinh": {per: invHyper}, "atanh": {per: []string{sAdd, sDiv, sSfu, sMul}},
	"cbrt": {per: []string{sSfu, sMul, sSfu, sMad}},
	"ceil": {per: []string{sCvt}}, "floor": {per: []string{sCvt}}, "trunc": {per: []string{sCvt}},
	"rint": {per: []string{sCvt}}, "round": {per: []string{sAdd, sCvt}},
	"copysign": {per: []string{sLogic, sLogic}},
	"cos":      {per: trig}, "sin": {per: trig}, "cospi": {per: trig}, "sinpi": {per: trig},
	"tan": {per: []string{sMul, sSfu, sSfu, sDiv}}, "tanpi": {per: []string{sMul, sSfu, sSfu, sDiv}},
	"cosh": {per: hyper}, "sinh": {per: hyper}, "tanh": {per: []string{sMul, sSfu, sAdd, sDiv}},
	"erf": {per: cat([]string{sMul, sSfu}, rep(sMad, 8))}, "erfc": {per: cat([]string{sMul, sSfu}, rep(sMad, 8))},
	"tgamma": {per: gamma}, "lgamma": {per: gamma}, "lgamma_r": {per: gamma, ptrOut: true},
	"exp2": {per: []string{sSfu}}, "exp": {per: []string{sMul, sSfu}}, "exp10": {per: []string{sMul, sSfu}},
	"expm1": {per: []string{sMul, sSfu, sAdd}},
	"log2":  {per: []string{sSfu}}, "log": {per: []string{sSfu, sMul}}, "log10": {per: []string{sSfu, sMul}},
	"log1p": {per: []string{sAdd, sSfu, sMul}}, "logb": {per: []string{sLogic, sLogic, sCvt}},
	"ilogb": {per: []string{sLogic, sLogic}},
	"fabs":  {per: []string{sMove}}, "fdim": {per: []string{sAdd, sMinMax}}, "fma": {per: []string{sFma}},
	"mad": {per: []string{sMad}}, "fmax": {per: []string{sMinMax}}, "fmin": {per: []string{sMinMax}},
	"fmax_common": {per: []string{sMinMax}}, "fmin_common": {per: []string{sMinMax}},
	"maxmag": {per: []string{sCmp, sCmp, sSelect}}, "minmag": {per: []string{sCmp, sCmp, sSelect}},
	"fmod": {per: []string{sDiv, sCvt, sMad}}, "remainder": {per: []string{sDiv, sCvt, sMad}},
	"remquo": {per: []string{sDiv, sCvt, sMad, sCvt}, ptrOut: true},
	"fract":  {per: []string{sCvt, sAdd, sMinMax}, ptrOut: true}, "modf": {per: []string{sCvt, sAdd}, ptrOut: true},
	"frexp": {per: []string{sLogic, sLogic, sLogic}, ptrOut: true}, "sincos": {per: []string{sMul, sSfu, sSfu}, ptrOut: true},
	"hypot": {per: []string{sMul, sMad, sSfu}}, "ldexp": {per: []string{sCvt, sMul}},
	"nan": {per: []string{sMove}}, "nextafter": {per: []string{sLogic, sAdd, sSelect}},
	"pow": {per: []string{sSfu, sMul, sSfu, sCmp, sSelect}}, "powr": {per: []string{sSfu, sMul, sSfu}},
	"pown": {per: []string{sCvt, sSfu, sMul, sSfu, sCmp, sSelect}}, "rootn": {per: []string{sCvt, sDiv, sSfu, sMul, sSfu}},
	"rsqrt": {per: []string{sSfu}}, "sqrt": {per: []string{sSfu}}, "recip": {per: []string{sSfu}},
	"divide": {per: []string{sDiv}},
	"fclamp": {per: []string{sMinMax, sMinMax}}, "degrees": {per: []string{sMul}}, "radians": {per: []string{sMul}},
	"mix": {per: []string{sAdd, sMad}}, "step": {per: []string{sCmp, sSelect}},
	"smoothstep": {per: []string{sAdd, sDiv, sMinMax, sMinMax, sMul, sMad, sMul}},
	"sign":       {per: []string{sCmp, sCmp, sSelect, sSelect}},
	// geometric
	"cross":          {per: []string{sMul, sMad}},
	"length":         {perIn: []string{sMad}, fixed: []string{sSfu}},
	"fast_length":    {perIn: []string{sMad}, fixed: []string{sSfu}},
	"distance":       {perIn: []string{sAdd, sMad}, fixed: []string{sSfu}},
	"fast_distance":  {perIn: []string{sAdd, sMad}, fixed: []string{sSfu}},
	"normalize":      {perIn: []string{sMad}, fixed: []string{sSfu}, per: []string{sMul}},
	"fast_normalize": {perIn: []string{sMad}, fixed: []string{sSfu}, per: []string{sMul}},
	// OpenCL.std integer
	"s_abs": {per: []string{sAdd}}, "u_abs": {per: []string{sMove}},
	"s_abs_diff": {per: []string{sAdd, sCmp, sSelect}}, "u_abs_diff": {per: []string{sAdd, sCmp, sSelect}},
	"s_add_sat": {per: []string{sAdd, sCmp, sSelect}}, "u_add_sat": {per: []string{sAdd, sCmp, sSelect}},
	"s_sub_sat": {per: []string{sAdd, sCmp, sSelect}}, "u_sub_sat": {per: []string{sAdd, sCmp, sSelect}},
	"s_hadd": {per: []string{sShift, sShift, sAdd, sLogic, sAdd}}, "u_hadd": {per: []string{sShift, sShift, sAdd, sLogic, sAdd}},
	"s_rhadd": {per: []string{sShift, sShift, sAdd, sLogic, sAdd}}, "u_rhadd": {per: []string{sShift, sShift, sAdd, sLogic, sAdd}},
	"s_clamp": {per: []string{sMinMax, sMinMax}}, "u_clamp": {per: []string{sMinMax, sMinMax}},
	"clz": {per: []string{sLogic}}, "ctz": {per: []string{sLogic}}, "popcount": {per: []string{sLogic}},
	"s_mad_hi": {per: []string{sMulHi, sAdd}}, "u_mad_hi": {per: []string{sMulHi, sAdd}},
	"s_mad_sat": {per: []string{sMul, sMulHi, sAdd, sCmp, sSelect}}, "u_mad_sat": {per: []string{sMul, sMulHi, sAdd, sCmp, sSelect}},
	"s_max": {per: []string{sMinMax}}, "u_max": {per: []string{sMinMax}}, "s_min": {per: []string{sMinMax}}, "u_min": {per: []string{sMinMax}},
	"s_mul_hi": {per: []string{sMulHi}}, "u_mul_hi": {per: []string{sMulHi}},
	"rotate":     {per: []string{sShift, sShift, sLogic}},
	"s_upsample": {per: []string{sShift, sLogic}}, "u_upsample": {per: []string{sShift, sLogic}},
	"s_mad24": {per: []string{sMul, sAdd}}, "u_mad24": {per: []string{sMul, sAdd}},
	"s_mul24": {per: []string{sMul}}, "u_mul24": {per: []string{sMul}},
	"bitselect": {per: []string{sLogic, sLogic, sLogic}}, "select": {per: []string{sSelect}},
	"shuffle": {per: []string{sCmp, sSelect}}, "shuffle2": {per: []string{sCmp, sSelect, sSelect}},
	"printf": {msg: PseudoStore},

	// GLSL.std.450 (names lower-cased)
	"roundeven": {per: []string{sCvt}}, "sabs": {per: []string{sAdd}},
	"fsign": {per: []string{sCmp, sCmp, sSelect, sSelect}}, "ssign": {per: []string{sCmp, sCmp, sSelect, sSelect}},
	"inversesqrt": {per: []string{sSfu}}, "modfstruct": {per: []string{sCvt, sAdd}},
	"umin": {per: []string{sMinMax}}, "smin": {per: []string{sMinMax}}, "umax": {per: []string{sMinMax}}, "smax": {per: []string{sMinMax}},
	"uclamp": {per: []string{sMinMax, sMinMax}}, "sclamp": {per: []string{sMinMax, sMinMax}},
	"fmix": {per: []string{sAdd, sMad}}, "imix": {per: []string{sSelect}},
	"frexpstruct": {per: []string{sLogic, sLogic, sLogic}},
	"determinant": {perIn: rep(sMad, 3)}, "matrixinverse": {fixed: []string{sDiv}, perIn: rep(sMad, 4)},
	"packsnorm4x8": {perIn: pack4}, "packunorm4x8": {perIn: pack4}, "packsnorm2x16": {perIn: pack4}, "packunorm2x16": {perIn: pack4},
	"packhalf2x16": {perIn: []string{sCvt, sLogic}}, "packdouble2x32": {perIn: []string{sMove}},
	"unpacksnorm2x16": {per: unpack4}, "unpackunorm2x16": {per: unpack4}, "unpacksnorm4x8": {per: unpack4}, "unpackunorm4x8": {per: unpack4},
	"unpackhalf2x16": {per: []string{sShift, sCvt}}, "unpackdouble2x32": {per: []string{sMove}},
	"faceforward": {perIn: []string{sMad}, fixed: []string{sCmp}, per: []string{sSelect}},
	"reflect":     {perIn: []string{sMad}, per: []string{sMul, sMad}},
	"refract":     {perIn: []string{sMad}, fixed: []string{sMad, sMad, sSfu, sCmp}, per: []string{sMul, sMad, sSelect}},
	"findilsb":    {per: []string{sLogic}}, "findsmsb": {per: []string{sLogic}}, "findumsb": {per: []string{sLogic}},
	"nmin": {per: []string{sMinMax}}, "nmax": {per: []string{sMinMax}}, "nclamp": {per: []string{sMinMax, sMinMax}},
}

// internalTable covers the builder's own extended operations, by number.
var internalTable = map[uint32]extCost{
	ir.InternalBitFieldInsert:   {per: []string{sShift, sLogic, sLogic, sLogic}},
	ir.InternalBitFieldSExtract: {per: []string{sShift, sShift}},
	ir.InternalBitFieldUExtract: {per: []string{sShift, sLogic}},
	ir.InternalQuantizeToF16:    {per: []string{sCvt, sCvt}},
	ir.InternalSatConvert:       {per: []string{sMinMax, sMinMax, sCvt}},
	ir.InternalRound:            {per: []string{sCvt}},
	ir.InternalAsyncCopy:        {msg: PseudoLoad},
	ir.InternalArrayLength:      {per: []string{sMove}}, // the buffer size is a uniform
	ir.InternalF2HRound:         {per: []string{sCvt}},
	// A derivative reads a neighbour lane's value (a quad swizzle, as a
	// move) and subtracts; fwidth does it in x and y and adds the
	// magnitudes.
	ir.InternalDeriv: {per: []string{sMove, sAdd}},
}

// genericExt is the cost of a function the tables do not know: a special
// function with a short polynomial.
var genericExt = extCost{per: cat([]string{sSfu}, rep(sMad, 4))}

func extKey(name string) string {
	k := strings.ToLower(strings.TrimSpace(name))
	k = strings.TrimPrefix(k, "native_")
	k = strings.TrimPrefix(k, "half_")
	return k
}

// extSteps gives an extended call's cost and whether a table knew it.
func extSteps(c *ir.ExtCall) ([]string, bool) {
	e, ok := extLookup(c)
	return cat(e.perIn, e.fixed, e.per), ok
}

func extLookup(c *ir.ExtCall) (extCost, bool) {
	if c.Set == ir.ExtInternal {
		e, ok := internalTable[c.Num]
		if !ok {
			return genericExt, false
		}
		return e, true
	}
	e, ok := extTable[extKey(c.Name)]
	if !ok {
		return genericExt, false
	}
	return e, true
}

// extOps lowers an extended call.
func (l *lowerer) extOps(i int32, in *ir.Inst) error {
	c := &l.p.Ext[in.Aux]
	e, _ := extLookup(c)
	float, b := tagInfo(c.Tag)
	var reads []Operand
	for k, a := range c.Args {
		ab := 32
		if k < len(c.ArgTags) {
			_, ab = tagInfo(c.ArgTags[k])
		}
		reads = append(reads, l.span(a, max(c.ArgN[k], 1), ab)...)
	}
	n := max(c.N, 1)
	if c.Dst < 0 {
		n = 0
	}
	_, rb := tagInfo(c.ResultTag)
	if e.msg != "" {
		l.message(i, e.msg, reads, slotsFrom(c.Dst, n), ir.SpaceGlobal, 0)
		return nil
	}
	if e.elementwise() && !e.ptrOut && n > 0 {
		srcs := make([]int32, len(c.Args))
		bcast := make([]bool, len(c.Args))
		for k, a := range c.Args {
			srcs[k] = a
			bcast[k] = c.ArgN[k] < n
		}
		return l.elementwise(i, l.resolveAll(e.per, float, b), n, srcs, bcast, b, c.Dst, rb)
	}
	inN := 1
	if len(c.ArgN) > 0 {
		inN = max(c.ArgN[0], 1)
	}
	var steps []string
	for k := 0; k < inN; k++ {
		steps = append(steps, e.perIn...)
	}
	steps = append(steps, e.fixed...)
	for k := 0; k < max(n, 1); k++ {
		steps = append(steps, e.per...)
	}
	classes := l.resolveAll(steps, float, b)
	if e.ptrOut {
		classes = append(classes, repeat("move", max(n, 1))...)
	}
	if len(classes) == 0 {
		classes = []string{"move"}
	}
	start := len(l.ops)
	if err := l.chain(i, classes, 1, reads, slotsFrom(c.Dst, n), words(rb, n)); err != nil {
		return err
	}
	if e.ptrOut {
		for k := start; k < len(l.ops); k++ {
			l.ops[k].Priv = true
		}
	}
	return nil
}

// ExtIsMessage reports whether an extended call lowers to a message (printf,
// prefetch) rather than ALU work.
func ExtIsMessage(c *ir.ExtCall) bool {
	e, _ := extLookup(c)
	return e.msg != ""
}
