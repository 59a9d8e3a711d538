package isa

import (
	"strings"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Steps are type-generic kinds of machine operation; resolve turns one into
// op classes for an operand type.
//
//	add mul mad fma sfu div cvt cmp minmax  arithmetic by type
//	logic shift                              bitwise by type
//	bits                                     a bit test on a float's encoding
//	idiv                                     integer division (a sequence)
//	mulhi                                    the high half of a product
//	move select                              as named
const (
	sAdd, sMul, sMad, sFma, sSfu, sDiv, sCvt = "add", "mul", "mad", "fma", "sfu", "div", "cvt"
	sCmp, sMinMax, sLogic, sShift, sBits     = "cmp", "minmax", "logic", "shift", "bits"
	sIDiv, sMulHi, sMove, sSelect            = "idiv", "mulhi", "move", "select"
)

// genSteps gives each generated operation (by its name without type tags)
// its steps, per component.
var genSteps = map[string][]string{
	"FAdd": {sAdd}, "FSub": {sAdd}, "FMul": {sMul}, "FDiv": {sDiv},
	// remainder: a quotient, truncated, then x - q*y
	"FRem": {sDiv, sCvt, sMad}, "FMod": {sDiv, sCvt, sMad},
	// negation and absolute value: source modifiers the compiler folds into
	// a move at worst
	"FNegate": {sMove}, "FAbs": {sMove},
	"Mad": {sMad}, "Fma": {sFma}, "FClamp": {sMinMax, sMinMax}, "FMix": {sAdd, sMad},
	"FMin": {sMinMax}, "FMax": {sMinMax},
	"Sqrt": {sSfu}, "Rsqrt": {sSfu}, "Recip": {sSfu},
	"Floor": {sCvt}, "Ceil": {sCvt}, "Trunc": {sCvt}, "Rint": {sCvt},
	"IsNan": {sBits}, "IsInf": {sBits}, "IsFinite": {sBits}, "IsNormal": {sBits, sBits}, "SignBitSet": {sBits},
	"Ordered": {sCmp}, "Unordered": {sCmp},

	"IAdd": {sAdd}, "ISub": {sAdd}, "SNegate": {sAdd}, "SAbs": {sAdd}, "IMul": {sMul},
	"UDiv": {sIDiv}, "UMod": {sIDiv}, "SDiv": {sIDiv}, "SRem": {sIDiv}, "SMod": {sIDiv},
	"BitwiseAnd": {sLogic}, "BitwiseOr": {sLogic}, "BitwiseXor": {sLogic}, "Not": {sLogic},
	"BitReverse": {sLogic}, "BitCount": {sLogic}, "Clz": {sLogic}, "Ctz": {sLogic},
	"SClamp": {sMinMax, sMinMax}, "UClamp": {sMinMax, sMinMax},
	"SMin": {sMinMax}, "SMax": {sMinMax}, "UMin": {sMinMax}, "UMax": {sMinMax},
	"UMul24": {sMul}, "SMul24": {sMul}, "UMad24": {sMul, sAdd}, "SMad24": {sMul, sAdd},
	"UMulHi": {sMulHi}, "SMulHi": {sMulHi}, "Rotate": {sShift, sShift, sLogic},
	"ShiftLeftLogical": {sShift}, "ShiftRightLogical": {sShift}, "ShiftRightArithmetic": {sShift},
	"LogicalEqual": {sLogic}, "LogicalNotEqual": {sLogic}, "LogicalOr": {sLogic}, "LogicalAnd": {sLogic}, "LogicalNot": {sLogic},
}

// Float and integer compares: every generated name that is a comparison.
func isCompare(base string) bool {
	for _, p := range []string{"FOrd", "FUnord", "IEqual", "INotEqual", "UGreaterThan", "ULessThan", "SGreaterThan", "SLessThan"} {
		if strings.HasPrefix(base, p) {
			return true
		}
	}
	return false
}

// gen is a generated operation's lowering.
type gen struct {
	steps   []string
	float   bool // operand type
	bits    int  // operand width (1 for bool)
	srcBits int
	dstBits int
}

var genTable = func() map[ir.Op]gen {
	m := map[ir.Op]gen{}
	for op := ir.Op(0); op < ir.NumOps; op++ {
		if g, ok := parseGen(op.String()); ok {
			m[op] = g
		}
	}
	return m
}()

func genInfo(op ir.Op) (gen, bool) {
	g, ok := genTable[op]
	return g, ok
}

var tagList = []string{"F16", "F32", "F64", "U16", "U32", "U64", "S16", "S32", "S64", "U8", "S8", "B"}

// splitTag cuts a type tag off the end of a name.
func splitTag(name string) (string, string) {
	for _, t := range tagList {
		if strings.HasSuffix(name, t) && len(name) > len(t) {
			return name[:len(name)-len(t)], t
		}
	}
	return name, ""
}

func isTag(s string) bool {
	for _, t := range tagList {
		if s == t {
			return true
		}
	}
	return false
}

// tagInfo reads a type tag: float or not, and bits.
func tagInfo(tag string) (float bool, b int) {
	switch tag {
	case "B":
		return false, 1
	case "":
		return false, 32
	}
	n := 0
	for _, r := range tag[1:] {
		n = n*10 + int(r-'0')
	}
	return tag[0] == 'F', n
}

// parseGen reads a generated operation's name ("FAddF32", "CvtF32S32").
func parseGen(name string) (gen, bool) {
	base, tag := splitTag(name)
	if tag == "" {
		return gen{}, false
	}
	f, b := tagInfo(tag)
	if to, ok := strings.CutPrefix(base, "Cvt"); ok {
		if !isTag(to) {
			return gen{}, false
		}
		tf, tb := tagInfo(to)
		step := sCvt
		if !tf && !f {
			step = sLogic // integer widening or narrowing: a mask or sign extension
		}
		g := gen{steps: []string{step}, float: f || tf, bits: 32, srcBits: b, dstBits: tb}
		if (f && b == 64) || (tf && tb == 64) {
			g.bits = 64 // to or from a double: the FP64 unit, where there is one
		}
		return g, true
	}
	steps, ok := genSteps[base]
	if !ok && isCompare(base) {
		steps, ok = []string{sCmp}, true
	}
	if !ok {
		return gen{}, false
	}
	g := gen{steps: steps, float: f, bits: b, srcBits: b, dstBits: b}
	if isCompare(base) || base == "Ordered" || base == "Unordered" || strings.HasPrefix(base, "Is") || base == "SignBitSet" {
		g.dstBits = 1
	}
	return g, true
}

// resolve turns a step into op classes for an operand type. Sub-word
// integer operations other than multiplies use the add class of their width
// (packed SIMD on Bifrost; emulated on Adreno 530/615); 64-bit integer
// bitwise operations and compares are two 32-bit ones.
func resolve(step string, float bool, b int) []string {
	if float {
		p := map[int]string{16: "fp16_", 32: "fp32_", 64: "fp64_"}[b]
		if p == "" {
			p = "fp32_"
		}
		switch step {
		case sAdd, sCmp, sMinMax:
			return []string{p + "add"}
		case sMul:
			return []string{p + "mul"}
		case sMad:
			if b == 64 {
				return []string{"fp64_fma"}
			}
			return []string{p + "mad"}
		case sFma:
			return []string{p + "fma"}
		case sSfu:
			if b == 64 {
				return repeat("fp64_fma", 4) // no FP64 special-function unit: Newton iterations
			}
			return []string{p + "sfu"}
		case sDiv:
			switch b {
			case 16:
				return []string{"fp16_sfu", "fp16_mul"} // reciprocal, then multiply
			case 64:
				return repeat("fp64_fma", 6)
			}
			return []string{"fp32_div"}
		case sCvt:
			if b == 64 {
				return []string{"fp64_add"}
			}
			return []string{"fp32_cvt"}
		case sBits:
			if b == 64 {
				return []string{"int32_logic", "int32_logic"}
			}
			return []string{"int32_logic"}
		case sMove:
			return []string{"move"}
		case sSelect:
			return []string{"select"}
		}
	}
	switch step {
	case sMove:
		return []string{"move"}
	case sSelect:
		return []string{"select"}
	case sAdd:
		return []string{intClass(b) + "add"}
	case sMul:
		return []string{intClass(b) + "mul"}
	case sMulHi:
		if b == 64 {
			return []string{"int64_mul", "int64_mul"}
		}
		return []string{intClass(b) + "mul"}
	case sIDiv:
		// A reciprocal estimate in floating point, a product, and two
		// correction steps (the usual GPU integer division sequence).
		seq := []string{"fp32_cvt", "fp32_cvt", "fp32_sfu", "fp32_mul", "fp32_cvt",
			"int32_mul", "int32_add", "int32_mul", "int32_add", "int32_cmp", "select"}
		if b == 64 {
			seq = append(seq, "int64_mul", "int64_mul", "int64_add", "int64_add")
		}
		return seq
	}
	var c32 string
	switch step {
	case sLogic, sBits:
		c32 = "int32_logic"
	case sShift:
		c32 = "int32_shift"
	case sCmp, sMinMax:
		c32 = "int32_cmp"
	case sCvt:
		c32 = "fp32_cvt"
	default:
		c32 = "int32_logic"
	}
	switch {
	case b == 64:
		return []string{c32, c32}
	case b == 8 || b == 16:
		return []string{intClass(b) + "add"}
	}
	return []string{c32}
}

func intClass(b int) string {
	switch b {
	case 8:
		return "int8_"
	case 16:
		return "int16_"
	case 64:
		return "int64_"
	}
	return "int32_"
}
