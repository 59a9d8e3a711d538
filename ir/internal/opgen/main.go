// Command opgen writes the type-specialised arithmetic operations from one
// table, so that adding an operation is one line here: with -pkg ir their
// constants (ir/op_gen.go), with -pkg emu the executor's handlers
// (emu/alu_gen.go). Each package runs it from its own go:generate line and
// it writes only into the current directory, the package's own:
//
//	ir:  go run ./internal/opgen -pkg ir -o op_gen.go
//	emu: go run ../ir/internal/opgen -pkg emu -o alu_gen.go
package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"log"
	"os"
	"path/filepath"
	"strings"
)

// typ is a value type as the executor sees it in a 64-bit slot.
type typ struct {
	Tag    string // F32, S16, U8, B ...
	Go     string // Go type used to compute
	Bits   int
	View   string // the warp's view of its registers the type reads and writes: regs, f32 or f64
	Load   string // expression turning view element x into a Go value
	Store  string // statement storing Go value v in view element d
	Float  bool
	Signed bool
}

// float32 and float64 values are read and written through the warp's
// float views of its registers (f32: each slot as two float32 halves, the
// value in the low half, lo32, and zero in the other; f64: each slot as a
// float64), so that they go between memory and the FPU directly instead of
// through an integer register, as math.Float32frombits and its kin would.
var (
	tF16 = typ{"F16", "float32", 16, "regs", "h2f(uint16(%s))", "%s = uint64(f2h(%s))", true, true}
	tF32 = typ{"F32", "float32", 32, "f32", "%s[lo32]", "%[1]s[lo32], %[1]s[hi32] = %[2]s, 0", true, true}
	tF64 = typ{"F64", "float64", 64, "f64", "%s", "%s = %s", true, true}
	tU8  = typ{"U8", "uint8", 8, "regs", "uint8(%s)", "%s = uint64(%s)", false, false}
	tU16 = typ{"U16", "uint16", 16, "regs", "uint16(%s)", "%s = uint64(%s)", false, false}
	tU32 = typ{"U32", "uint32", 32, "regs", "uint32(%s)", "%s = uint64(%s)", false, false}
	tU64 = typ{"U64", "uint64", 64, "regs", "%s", "%s = %s", false, false}
	tS8  = typ{"S8", "int8", 8, "regs", "int8(uint8(%s))", "%s = uint64(uint8(%s))", false, true}
	tS16 = typ{"S16", "int16", 16, "regs", "int16(uint16(%s))", "%s = uint64(uint16(%s))", false, true}
	tS32 = typ{"S32", "int32", 32, "regs", "int32(uint32(%s))", "%s = uint64(uint32(%s))", false, true}
	tS64 = typ{"S64", "int64", 64, "regs", "int64(%s)", "%s = uint64(%s)", false, true}
	tB   = typ{"B", "bool", 1, "regs", "(%s != 0)", "%s = b2u(%s)", false, false}

	floats = []typ{tF16, tF32, tF64}
	uints  = []typ{tU8, tU16, tU32, tU64}
	sints  = []typ{tS8, tS16, tS32, tS64}
)

// op is one operation over one or more types.
type op struct {
	Name  string // SPIR-V-like name; the constant is Op + Name + type tag(s)
	Arity int    // 1, 2 or 3 operands
	In    []typ
	Out   *typ   // result type when it differs from the operand type (bool for compares)
	Expr  string // Go expression over a, b, c of the operand type
}

func table() []op {
	var t []op
	bin := func(name string, ts []typ, expr string) { t = append(t, op{Name: name, Arity: 2, In: ts, Expr: expr}) }
	un := func(name string, ts []typ, expr string) { t = append(t, op{Name: name, Arity: 1, In: ts, Expr: expr}) }
	cmp := func(name string, ts []typ, expr string) {
		b := tB
		t = append(t, op{Name: name, Arity: 2, In: ts, Out: &b, Expr: expr})
	}
	test := func(name string, ts []typ, expr string) {
		b := tB
		t = append(t, op{Name: name, Arity: 1, In: ts, Out: &b, Expr: expr})
	}

	bin("FAdd", floats, "a + b")
	bin("FSub", floats, "a - b")
	bin("FMul", floats, "a * b")
	bin("FDiv", floats, "a / b")
	bin("FRem", floats, "frem(a, b)")
	bin("FMod", floats, "fmod(a, b)")
	un("FNegate", floats, "-a")
	cmp("FOrdEqual", floats, "a == b")
	cmp("FOrdNotEqual", floats, "a < b || a > b")
	cmp("FOrdLessThan", floats, "a < b")
	cmp("FOrdGreaterThan", floats, "a > b")
	cmp("FOrdLessThanEqual", floats, "a <= b")
	cmp("FOrdGreaterThanEqual", floats, "a >= b")
	cmp("FUnordEqual", floats, "!(a < b || a > b)")
	cmp("FUnordNotEqual", floats, "a != b")
	cmp("FUnordLessThan", floats, "!(a >= b)")
	cmp("FUnordGreaterThan", floats, "!(a <= b)")
	cmp("FUnordLessThanEqual", floats, "!(a > b)")
	cmp("FUnordGreaterThanEqual", floats, "!(a < b)")
	cmp("Ordered", floats, "a == a && b == b")
	cmp("Unordered", floats, "a != a || b != b")
	test("IsNan", floats, "a != a")
	test("IsInf", floats, "isInf(float64(a))")
	test("IsFinite", floats, "!isInf(float64(a)) && a == a")
	test("IsNormal", []typ{tF16}, "isNormal16(a)")
	test("IsNormal", []typ{tF32}, "isNormal32(a)")
	test("IsNormal", []typ{tF64}, "isNormal64(a)")
	test("SignBitSet", floats, "math.Signbit(float64(a))")

	bin("IAdd", uints, "a + b")
	bin("ISub", uints, "a - b")
	bin("IMul", uints, "a * b")
	bin("UDiv", uints, "udiv(a, b)")
	bin("UMod", uints, "umod(a, b)")
	bin("SDiv", sints, "sdiv(a, b)")
	bin("SRem", sints, "srem(a, b)")
	bin("SMod", sints, "smod(a, b)")
	bin("BitwiseAnd", uints, "a & b")
	bin("BitwiseOr", uints, "a | b")
	bin("BitwiseXor", uints, "a ^ b")
	un("Not", uints, "^a")
	un("SNegate", sints, "-a")
	un("BitReverse", uints, "bitsReverse(a)")
	cmp("IEqual", uints, "a == b")
	cmp("INotEqual", uints, "a != b")
	cmp("UGreaterThan", uints, "a > b")
	cmp("UGreaterThanEqual", uints, "a >= b")
	cmp("ULessThan", uints, "a < b")
	cmp("ULessThanEqual", uints, "a <= b")
	cmp("SGreaterThan", sints, "a > b")
	cmp("SGreaterThanEqual", sints, "a >= b")
	cmp("SLessThan", sints, "a < b")
	cmp("SLessThanEqual", sints, "a <= b")

	// Extended-instruction operations hot enough to deserve their own
	// handlers (the builder maps OpenCL.std and GLSL.std.450 calls to them).
	tern := func(name string, ts []typ, expr string) { t = append(t, op{Name: name, Arity: 3, In: ts, Expr: expr}) }
	f32 := []typ{tF32}
	tern("Mad", []typ{tF16}, "fma16(a, b, c)") // fused, as the hardware's half mad is
	tern("Mad", []typ{tF32, tF64}, "mad(a, b, c)")
	tern("Fma", f32, "fma32(a, b, c)")
	tern("Fma", []typ{tF16}, "fma16(a, b, c)")
	tern("Fma", []typ{tF64}, "math.FMA(a, b, c)")
	tern("FClamp", floats, "fmin(fmax(a, b), c)")
	tern("SClamp", sints, "min(max(a, b), c)")
	tern("UClamp", uints, "min(max(a, b), c)")
	tern("FMix", floats, "a + (b-a)*c")
	tern("UMad24", []typ{tU32}, "(a&0xffffff)*(b&0xffffff) + c")
	tern("SMad24", []typ{tS32}, "int32(int64(a<<8>>8)*int64(b<<8>>8)) + c")
	bin("FMin", floats, "fmin(a, b)")
	bin("FMax", floats, "fmax(a, b)")
	bin("SMin", sints, "min(a, b)")
	bin("SMax", sints, "max(a, b)")
	bin("UMin", uints, "min(a, b)")
	bin("UMax", uints, "max(a, b)")
	bin("UMul24", []typ{tU32}, "(a&0xffffff)*(b&0xffffff)")
	bin("SMul24", []typ{tS32}, "int32(int64(a<<8>>8)*int64(b<<8>>8))")
	bin("UMulHi", uints, "mulhiU(a, b)")
	bin("SMulHi", sints, "mulhiS(a, b)")
	bin("Rotate", uints, "rotl(a, b)")
	un("FAbs", floats, "fabs(a)")
	un("SAbs", sints, "sabs(a)")
	un("Sqrt", floats, "fsqrt(a)")
	un("Rsqrt", floats, "1 / fsqrt(a)")
	un("Recip", floats, "1 / a")
	un("Floor", floats, "ffloor(a)")
	un("Ceil", floats, "fceil(a)")
	un("Trunc", floats, "ftrunc(a)")
	un("Rint", floats, "frint(a)")
	un("Clz", uints, "clz(a)")
	un("Ctz", uints, "ctz(a)")

	cmp("LogicalEqual", []typ{tB}, "a == b")
	cmp("LogicalNotEqual", []typ{tB}, "a != b")
	cmp("LogicalOr", []typ{tB}, "a || b")
	cmp("LogicalAnd", []typ{tB}, "a && b")
	test("LogicalNot", []typ{tB}, "!a")
	return t
}

// laneBodies replace the expression of an operation on one type (by its
// constant's name) with statements computing r, where the expression
// would be a call. fma32 is too big to inline, and a float live across a
// call sits in the call's argument registers, so every conversion to
// float64 in the loop wrote the register the last lane's result left:
// cvtss2sd keeps the rest of its destination, which chained the lanes
// (2.6 ns a lane against 1.6 written out). The exact path, for rare sums,
// takes the operand slices.
var laneBodies = map[string]string{
	"FmaF32": `s := float64(a)*float64(b) + float64(c)
		r := float32(s)
		if fma32Tie(s) {
			r = fma32At(as, bs, cs, i)
		}`,
}

// laneStores replace the expression and the store of an operation on one
// type with statements that store d[i] themselves. A half fma rounds the
// float32 sum of the exact product to half unless that sum lies where
// rounding twice may differ from once or is below the normal range
// (fma16Tie); those lanes round the float64 sum (fma16). Through float32
// alone, mad(0x3c02, 0x3bff, 0x000f) gave 0x3c02, where a fused and an
// unfused mad both give 0x3c01. The exact path is written in the loop, not
// called: a call made the loop keep its values on the stack.
var laneStores = map[string]string{
	"MadF16": fma16Lane,
	"FmaF16": fma16Lane,
}

const fma16Lane = `s := math.Float32bits(a*b + c)
		r := f2hNormal(s)
		if fma16Tie(s) {
			r = f64to16(float64(a)*float64(b) + float64(c))
		}
		d[i] = uint64(r)`

// shifts take the shift amount as a raw slot word (its width may differ).
var shifts = []struct {
	Name, Expr string
	Ts         []typ
}{
	{"ShiftLeftLogical", "a << (y & %d)", uints},
	{"ShiftRightLogical", "a >> (y & %d)", uints},
	{"ShiftRightArithmetic", "a >> (y & %d)", sints},
}

// bitcounts store a plain count, whatever the operand width.
var bitcounts = []typ{tU8, tU16, tU32, tU64}

// conversions lists (name, from, to) for every numeric conversion.
func conversions() [][2]typ {
	var c [][2]typ
	all := append(append(append([]typ{}, floats...), uints...), sints...)
	for _, from := range all {
		for _, to := range all {
			if from.Tag == to.Tag {
				continue
			}
			// Integer to integer only within one signedness (UConvert,
			// SConvert); a signedness change at one width is a bitcast.
			if !from.Float && !to.Float && from.Signed != to.Signed {
				continue
			}
			c = append(c, [2]typ{from, to})
		}
	}
	return c
}

func cvtExpr(from, to typ) string {
	switch {
	case from.Float && to.Float:
		if to.Tag == "F16" && from.Tag == "F64" {
			return "f64toF32For16(a)"
		}
		return to.Go + "(a)"
	case from.Float && !to.Float:
		return fmt.Sprintf("%s(f2int(float64(a), %d, %v))", to.Go, to.Bits, to.Signed)
	case !from.Float && to.Float:
		if to.Tag == "F16" {
			return "int2f16(a)"
		}
		return to.Go + "(a)"
	default:
		return to.Go + "(a)"
	}
}

func main() {
	pkg := flag.String("pkg", os.Getenv("GOPACKAGE"), "the package to write for: ir (the operation constants) or emu (the executor's handlers)")
	out := flag.String("o", "", "the file to write, in the current directory")
	flag.Parse()
	if err := checkOutput(*pkg, *out, os.Getenv("GOPACKAGE")); err != nil {
		log.Fatalf("opgen: %v", err)
	}
	irSrc, emuSrc := sources()
	if *pkg == "ir" {
		write(*out, irSrc)
	} else {
		write(*out, emuSrc)
	}
}

// checkOutput refuses what would write outside the package that runs the
// generator: a package other than ir or emu, one other than the go
// generate's (goPackage, when set), an output path with a directory.
func checkOutput(pkg, out, goPackage string) error {
	if pkg != "ir" && pkg != "emu" {
		return fmt.Errorf("-pkg %q: ir or emu", pkg)
	}
	if goPackage != "" && goPackage != pkg {
		return fmt.Errorf("-pkg %s run from go generate in package %s: a package generates only its own files", pkg, goPackage)
	}
	if out == "" || filepath.Base(out) != out || out == "." || out == ".." {
		return fmt.Errorf("-o %q: want a file name in the current directory (a package generates only its own files)", out)
	}
	return nil
}

// sources is the Go source, before gofmt, of ir's operation constants and
// of emu's handlers.
func sources() (irSrc, emuSrc []byte) {
	var names []string
	var consts bytes.Buffer
	var handlers bytes.Buffer
	var reg bytes.Buffer // handler registration

	add := func(constName string, body string) {
		names = append(names, constName)
		fmt.Fprintf(&consts, "\tOp%s\n", constName)
		fmt.Fprintf(&handlers, "func h%s(w *Warp, x *xinst) {\n%s}\n\n", constName, body)
		fmt.Fprintf(&reg, "\tir.Op%s: h%s,\n", constName, constName)
	}

	for _, o := range table() {
		for _, t := range o.In {
			out := t
			if o.Out != nil {
				out = *o.Out
			}
			name := o.Name + t.Tag
			add(name, lanesLoop(operands(o.Arity, t), out, o.Expr, laneBodies[name], laneStores[name]))
		}
	}
	for _, s := range shifts {
		for _, t := range s.Ts {
			expr := fmt.Sprintf(s.Expr, t.Bits-1)
			add(s.Name+t.Tag, shiftBody(t, expr))
		}
	}
	for _, t := range bitcounts {
		u := tU64
		add("BitCount"+t.Tag, lanesLoop(operands(1, t), u, "uint64(bitsOnes(a))", "", ""))
	}
	for _, c := range conversions() {
		add("Cvt"+c[0].Tag+c[1].Tag, lanesLoop(operands(1, c[0]), c[1], cvtExpr(c[0], c[1]), "", ""))
	}

	var ir bytes.Buffer
	fmt.Fprintf(&ir, "// Code generated by ir/internal/opgen; DO NOT EDIT.\n\npackage ir\n\n")
	fmt.Fprintf(&ir, "// Generated arithmetic operations, one per operation and type.\nconst (\n")
	first := true
	for _, line := range strings.Split(strings.TrimRight(consts.String(), "\n"), "\n") {
		if first {
			fmt.Fprintf(&ir, "%s Op = opFirstGenerated + iota\n", line)
			first = false
			continue
		}
		fmt.Fprintln(&ir, line)
	}
	fmt.Fprintf(&ir, "\n\t// NumOps is one more than the largest operation.\n\tNumOps\n)\n\n")
	fmt.Fprintf(&ir, "var genNames = [...]string{\n")
	for _, n := range names {
		fmt.Fprintf(&ir, "\t%q,\n", n)
	}
	fmt.Fprintf(&ir, "}\n\n// aluOps maps an operation name with its type tags to the operation.\nvar aluOps = map[string]Op{\n")
	for _, n := range names {
		fmt.Fprintf(&ir, "\t%q: Op%s,\n", n, n)
	}
	fmt.Fprintf(&ir, "}\n")

	var emu bytes.Buffer
	fmt.Fprintf(&emu, "// Code generated by ir/internal/opgen; DO NOT EDIT.\n\npackage emu\n\nimport (\n\t\"math\"\n\n\t\"github.com/pocketgpu/pocketgpu/ir\"\n)\n\n")
	fmt.Fprintf(&emu, "var _ = math.Signbit\n\n")
	emu.Write(handlers.Bytes())
	fmt.Fprintf(&emu, "func init() {\n\tfor op, h := range map[ir.Op]handler{\n%s\t} {\n\t\thandlers[op] = h\n\t}\n}\n", reg.String())
	return ir.Bytes(), emu.Bytes()
}

// operand is a handler's source: the variable the loop gives it, read
// from the slices <name>s of the warp's view with load (%s: the element).
type operand struct{ name, view, load string }

// operands are a handler's arity operands a, b, c of type in.
func operands(arity int, in typ) []operand {
	var ops []operand
	for _, n := range []string{"a", "b", "c"}[:arity] {
		ops = append(ops, operand{n, in.View, in.Load})
	}
	return ops
}

// shiftBody is the handler of a shift: its amount y is the raw slot word.
func shiftBody(t typ, expr string) string {
	return lanesLoop([]operand{{"a", t.View, t.Load}, {"y", "regs", "%s"}}, t, expr, "", "")
}

// lanesLoop writes a handler's body: a flat loop when the whole warp is
// active, else one over the active lanes, applying expr to every active
// lane of every component of the operands and storing it as type out (or
// running stmts, which set r, before the store; or store, which stores
// d[i] itself). Operand k's elements start at the decoded instruction's
// offset for Src[k] (x.a, x.b, x.c), the result's at x.d, x.n elements
// each.
func lanesLoop(ops []operand, out typ, expr, stmts, store string) string {
	if stmts != "" {
		expr = "r"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\td := w.%s[x.d : x.d+x.n]\n", out.View)
	for k, o := range ops {
		fmt.Fprintf(&b, "\t%ss := w.%s[x.%c:][:len(d)]\n", o.name, o.view, 'a'+k)
	}
	body := func(indent string) {
		for _, o := range ops {
			fmt.Fprintf(&b, "%s%s := %s\n", indent, o.name, fmt.Sprintf(o.load, o.name+"s[i]"))
		}
		if stmts != "" {
			fmt.Fprintf(&b, "%s%s\n", indent, stmts)
		}
		if store != "" {
			fmt.Fprintf(&b, "%s%s\n", indent, store)
			return
		}
		fmt.Fprintf(&b, "%s%s\n", indent, fmt.Sprintf(out.Store, "d[i]", "("+expr+")"))
	}
	fmt.Fprintf(&b, "\tif w.full {\n\t\tfor i := range d {\n")
	body("\t\t\t")
	fmt.Fprintf(&b, "\t\t}\n\t\treturn\n\t}\n")
	fmt.Fprintf(&b, "\tfor o := 0; o < len(d); o += w.width {\n\t\tfor _, l := range w.lanes {\n\t\t\ti := o + int(l)\n")
	body("\t\t\t\t")
	fmt.Fprintf(&b, "\t\t}\n\t}\n")
	return b.String()
}

func write(path string, src []byte) {
	out, err := format.Source(src)
	if err != nil {
		os.WriteFile(path+".broken", src, 0o644)
		log.Fatalf("opgen: %s: %v", path, err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		log.Fatal(err)
	}
}
