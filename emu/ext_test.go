package emu

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// Extended-instruction conformance: the routines of the OpenCL.std,
// GLSL.std.450 and internal libraries (ext.go) called the way the IR
// builder calls them — integer operands tagged unsigned as ir.valueTag tags
// them, pointers as U64 with their space — and checked against references
// written here from the OpenCL C and GLSL specifications: exact integers
// with math/big, floats at points whose results are exact.

// xarg is one operand of a call: its type tag, its components and, for a
// pointer, its space.
type xarg struct {
	tag   string
	v     []uint64
	space ir.Space
}

func xs(tag string, v ...uint64) xarg { return xarg{tag: tag, v: v} }

// extWarp is a one-lane warp with a private frame, enough to run a routine.
func extWarp(slots int) *Warp {
	d := &Dispatch{Mem: NewMemory(), Width: 1, Local: [3]int{1, 1, 1}}
	return &Warp{d: d, width: 1, regs: make([]uint64, slots), full: true, lanes: []int32{0},
		priv: make([]byte, 64), frame: 64, wg: &WorkGroup{}, prog: &Program{Program: &ir.Program{Entry: "ext"}}}
}

// callExt runs routine mk with the operands on one lane and returns the n
// result components (the warp too, for pointer results).
func callExt(t *testing.T, mk extMaker, name, resTag string, n int, args ...xarg) ([]uint64, *Warp) {
	t.Helper()
	c := ir.ExtCall{Name: name, ResultTag: resTag, N: n}
	slot := 0
	for _, a := range args {
		c.Args = append(c.Args, int32(slot))
		c.ArgN = append(c.ArgN, len(a.v))
		c.ArgTags = append(c.ArgTags, a.tag)
		c.Spaces = append(c.Spaces, a.space)
		slot += len(a.v)
	}
	c.Tag = args[0].tag
	c.Dst = int32(slot)
	w := extWarp(slot + n)
	for k, a := range args {
		copy(w.regs[c.Args[k]:], a.v)
	}
	for i := 0; i < n; i++ {
		w.regs[slot+i] = 0xdeadbeef
	}
	fn, err := mk(&c)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	fn(w, &c)
	if w.err != nil {
		t.Fatalf("%s: %v", name, w.err)
	}
	return w.regs[slot : slot+n], w
}

// An integer reference: exact operands in, the exact result out (wrapped
// into the result type by the caller), or why the result is undefined.
type intRef struct {
	arity  int
	signed bool                                           // operands read signed
	fn     func(x []*big.Int, t ctype) (*big.Int, string) // t: the operand type
}

func bigRange(t ctype) (lo, hi *big.Int) {
	if t.signed {
		hi = new(big.Int).Lsh(big.NewInt(1), uint(t.bits-1))
		lo = new(big.Int).Neg(hi)
		return lo, hi.Sub(hi, big.NewInt(1))
	}
	hi = new(big.Int).Lsh(big.NewInt(1), uint(t.bits))
	return big.NewInt(0), hi.Sub(hi, big.NewInt(1))
}

func bclamp(v *big.Int, t ctype) *big.Int {
	lo, hi := bigRange(t)
	if v.Cmp(lo) < 0 {
		return lo
	}
	if v.Cmp(hi) > 0 {
		return hi
	}
	return v
}

func badd(a, b *big.Int) *big.Int { return new(big.Int).Add(a, b) }
func bsub(a, b *big.Int) *big.Int { return new(big.Int).Sub(a, b) }
func bmul(a, b *big.Int) *big.Int { return new(big.Int).Mul(a, b) }
func babs(a *big.Int) *big.Int    { return new(big.Int).Abs(a) }
func bmin(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return a
	}
	return b
}
func bmax(a, b *big.Int) *big.Int {
	if a.Cmp(b) > 0 {
		return a
	}
	return b
}

// mulHi is the high half of the double-width product (floor division by
// 2^bits, as an arithmetic shift does).
func mulHi(a, b *big.Int, t ctype) *big.Int { return new(big.Int).Rsh(bmul(a, b), uint(t.bits)) }

func fits24Big(x *big.Int, t ctype) bool {
	if t.signed {
		return x.Cmp(big.NewInt(-(1<<23))) >= 0 && x.Cmp(big.NewInt(1<<23)) < 0
	}
	return x.Cmp(big.NewInt(1<<24)) < 0
}

func openCLIntRefs() map[spirv.OpenCLStd]intRef {
	def := func(v *big.Int) (*big.Int, string) { return v, "" }
	return map[spirv.OpenCLStd]intRef{
		spirv.OpenCLStdSAbs:     {1, true, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(babs(x[0])) }},
		spirv.OpenCLStdUAbs:     {1, false, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(x[0]) }},
		spirv.OpenCLStdSAbsDiff: {2, true, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(babs(bsub(x[0], x[1]))) }},
		spirv.OpenCLStdUAbsDiff: {2, false, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(babs(bsub(x[0], x[1]))) }},
		spirv.OpenCLStdSAddSat:  {2, true, func(x []*big.Int, t ctype) (*big.Int, string) { return def(bclamp(badd(x[0], x[1]), t)) }},
		spirv.OpenCLStdUAddSat:  {2, false, func(x []*big.Int, t ctype) (*big.Int, string) { return def(bclamp(badd(x[0], x[1]), t)) }},
		spirv.OpenCLStdSSubSat:  {2, true, func(x []*big.Int, t ctype) (*big.Int, string) { return def(bclamp(bsub(x[0], x[1]), t)) }},
		spirv.OpenCLStdUSubSat:  {2, false, func(x []*big.Int, t ctype) (*big.Int, string) { return def(bclamp(bsub(x[0], x[1]), t)) }},
		// hadd: (x + y) >> 1 without overflow; rhadd: (x + y + 1) >> 1.
		spirv.OpenCLStdSHadd: {2, true, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(new(big.Int).Rsh(badd(x[0], x[1]), 1)) }},
		spirv.OpenCLStdUHadd: {2, false, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(new(big.Int).Rsh(badd(x[0], x[1]), 1)) }},
		spirv.OpenCLStdSRhadd: {2, true, func(x []*big.Int, _ ctype) (*big.Int, string) {
			return def(new(big.Int).Rsh(badd(badd(x[0], x[1]), big.NewInt(1)), 1))
		}},
		spirv.OpenCLStdURhadd: {2, false, func(x []*big.Int, _ ctype) (*big.Int, string) {
			return def(new(big.Int).Rsh(badd(badd(x[0], x[1]), big.NewInt(1)), 1))
		}},
		spirv.OpenCLStdSClamp: {3, true, clampBig},
		spirv.OpenCLStdUClamp: {3, false, clampBig},
		spirv.OpenCLStdClz: {1, false, func(x []*big.Int, t ctype) (*big.Int, string) {
			return def(big.NewInt(int64(t.bits - x[0].BitLen())))
		}},
		spirv.OpenCLStdCtz: {1, false, func(x []*big.Int, t ctype) (*big.Int, string) {
			if x[0].Sign() == 0 {
				return def(big.NewInt(int64(t.bits)))
			}
			return def(big.NewInt(int64(x[0].TrailingZeroBits())))
		}},
		spirv.OpenCLStdSMadHi: {3, true, func(x []*big.Int, t ctype) (*big.Int, string) { return def(badd(mulHi(x[0], x[1], t), x[2])) }},
		spirv.OpenCLStdUMadHi: {3, false, func(x []*big.Int, t ctype) (*big.Int, string) { return def(badd(mulHi(x[0], x[1], t), x[2])) }},
		spirv.OpenCLStdSMadSat: {3, true, func(x []*big.Int, t ctype) (*big.Int, string) {
			return def(bclamp(badd(bmul(x[0], x[1]), x[2]), t))
		}},
		spirv.OpenCLStdUMadSat: {3, false, func(x []*big.Int, t ctype) (*big.Int, string) {
			return def(bclamp(badd(bmul(x[0], x[1]), x[2]), t))
		}},
		spirv.OpenCLStdSMax:   {2, true, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(bmax(x[0], x[1])) }},
		spirv.OpenCLStdUMax:   {2, false, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(bmax(x[0], x[1])) }},
		spirv.OpenCLStdSMin:   {2, true, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(bmin(x[0], x[1])) }},
		spirv.OpenCLStdUMin:   {2, false, func(x []*big.Int, _ ctype) (*big.Int, string) { return def(bmin(x[0], x[1])) }},
		spirv.OpenCLStdSMulHi: {2, true, func(x []*big.Int, t ctype) (*big.Int, string) { return def(mulHi(x[0], x[1], t)) }},
		spirv.OpenCLStdUMulHi: {2, false, func(x []*big.Int, t ctype) (*big.Int, string) { return def(mulHi(x[0], x[1], t)) }},
		// rotate: bits shifted out on the left come back on the right; the
		// count is taken modulo the width.
		spirv.OpenCLStdRotate: {2, false, func(x []*big.Int, t ctype) (*big.Int, string) {
			s := new(big.Int).Mod(x[1], big.NewInt(int64(t.bits))).Uint64()
			v := x[0].Uint64()
			r := v
			for i := uint64(0); i < s; i++ {
				top := r >> uint(t.bits-1) & 1
				r = (r<<1 | top) & t.mask()
			}
			return def(new(big.Int).SetUint64(r))
		}},
		spirv.OpenCLStdPopcount: {1, false, func(x []*big.Int, _ ctype) (*big.Int, string) {
			n := 0
			for i := 0; i < x[0].BitLen(); i++ {
				n += int(x[0].Bit(i))
			}
			return def(big.NewInt(int64(n)))
		}},
		// mad24/mul24: defined only when the operands fit in 24 bits.
		spirv.OpenCLStdSMad24: {3, true, mad24Big(true)},
		spirv.OpenCLStdUMad24: {3, false, mad24Big(true)},
		spirv.OpenCLStdSMul24: {2, true, mad24Big(false)},
		spirv.OpenCLStdUMul24: {2, false, mad24Big(false)},
	}
}

func clampBig(x []*big.Int, _ ctype) (*big.Int, string) {
	if x[1].Cmp(x[2]) > 0 {
		return nil, "OpenCL clamp: undefined if minval > maxval"
	}
	return bmin(bmax(x[0], x[1]), x[2]), ""
}

func mad24Big(add bool) func(x []*big.Int, t ctype) (*big.Int, string) {
	return func(x []*big.Int, t ctype) (*big.Int, string) {
		if !fits24Big(x[0], t) || !fits24Big(x[1], t) {
			return nil, "OpenCL mul24: undefined unless the operands fit in 24 bits"
		}
		p := bmul(x[0], x[1])
		if add {
			p = badd(p, x[2])
		}
		return p, ""
	}
}

// wrap reduces an exact result to a slot word of bits bits (two's
// complement for negative values).
func wrapBig(v *big.Int, bits int) uint64 {
	m := new(big.Int).Lsh(big.NewInt(1), uint(bits))
	r := new(big.Int).Mod(v, m) // Euclidean: 0 <= r < m
	return r.Uint64()
}

// bigOperand reads a slot word as the exact value it stands for.
func bigOperand(t ctype, w uint64) *big.Int {
	if t.signed {
		return big.NewInt(t.s(w))
	}
	return new(big.Int).SetUint64(w & t.mask())
}

// knownExtDiffs are results where a routine and the specification
// disagree for now, by "routine type[operands]" as the tests name them,
// with the reason.
var knownExtDiffs = map[string]string{}

// TestExtIntegerConformance runs every integer routine of the OpenCL.std
// library on every width over the edge values (all pairs; for three
// operands the cube of a smaller set).
func TestExtIntegerConformance(t *testing.T) {
	refs := openCLIntRefs()
	for op, ref := range refs {
		mk := openclLib[op]
		if mk == nil {
			t.Errorf("%s: not in the library", op)
			continue
		}
		for _, width := range []int{8, 16, 32, 64} {
			if (op == spirv.OpenCLStdSMad24 || op == spirv.OpenCLStdUMad24 || op == spirv.OpenCLStdSMul24 || op == spirv.OpenCLStdUMul24) && width != 32 {
				continue
			}
			ut := ctypes[fmt.Sprintf("U%d", width)]
			rt := ut
			rt.signed = ref.signed
			ev := intEdges(ut)
			if ref.arity == 3 {
				ev = []uint64{0, 1, 2, ut.mask(), ut.mask() - 1, ut.mask() >> 1, ut.mask()>>1 + 1, 7}
			}
			tag := ut.tag // the builder tags integer operands unsigned
			fails := 0
			var walk func(k int, cur []uint64)
			walk = func(k int, cur []uint64) {
				if k < ref.arity {
					for _, v := range ev {
						walk(k+1, append(cur, v))
					}
					return
				}
				args := make([]xarg, ref.arity)
				ex := make([]*big.Int, ref.arity)
				for i, v := range cur {
					args[i] = xs(tag, v)
					ex[i] = bigOperand(rt, v)
				}
				w, why := ref.fn(ex, rt)
				if why != "" {
					return
				}
				want := wrapBig(w, width)
				got, _ := callExt(t, mk, op.String(), tag, 1, args...)
				if got[0] != want && knownExtDiffs[fmt.Sprintf("%s %s", op, tag)] == "" {
					if fails++; fails <= 4 {
						t.Errorf("%s on %d-bit %#x = %#x, want %#x", op, width, cur, got[0], want)
					}
				}
			}
			walk(0, nil)
		}
	}
}

// Upsample joins hi and lo into the double-width result; bitselect picks
// bits, select picks components (scalars by != 0, vectors by the sign bit).
func TestExtUpsampleSelect(t *testing.T) {
	for _, c := range []struct {
		op           spirv.OpenCLStd
		hiTag, loTag string
		hi, lo, want uint64
		resTag       string
	}{
		{op: spirv.OpenCLStdUUpsample, hiTag: "U8", loTag: "U8", hi: 0xab, lo: 0xcd, want: 0xabcd, resTag: "U16"},
		{op: spirv.OpenCLStdUUpsample, hiTag: "U16", loTag: "U16", hi: 0xffff, lo: 0x0001, want: 0xffff0001, resTag: "U32"},
		{op: spirv.OpenCLStdUUpsample, hiTag: "U32", loTag: "U32", hi: 0x80000000, lo: 0xffffffff, want: 0x80000000ffffffff, resTag: "U64"},
		// s_upsample(-1, 0x01) as shorts: (short)0xff01 = -255.
		{op: spirv.OpenCLStdSUpsample, hiTag: "U8", loTag: "U8", hi: 0xff, lo: 0x01, want: 0xff01, resTag: "U16"},
		{op: spirv.OpenCLStdSUpsample, hiTag: "U32", loTag: "U32", hi: 0xfffffffe, lo: 0x7, want: 0xfffffffe00000007, resTag: "U64"},
	} {
		got, _ := callExt(t, openclLib[c.op], c.op.String(), c.resTag, 1, xs(c.hiTag, c.hi), xs(c.loTag, c.lo))
		if got[0] != c.want {
			t.Errorf("%s(%#x, %#x) = %#x, want %#x", c.op, c.hi, c.lo, got[0], c.want)
		}
	}
	got, _ := callExt(t, openclLib[spirv.OpenCLStdBitselect], "bitselect", "U32", 2,
		xs("U32", 0xffff0000, 0x12345678), xs("U32", 0x0000ffff, 0x9abcdef0), xs("U32", 0x00ff00ff, 0xffffffff))
	if want := []uint64{0xff0000ff, 0x9abcdef0}; got[0] != want[0] || got[1] != want[1] {
		t.Errorf("bitselect = %#x, want %#x", got, want)
	}
	// Scalar select: c != 0 picks b.
	for _, c := range []struct{ cond, want uint64 }{{0, 10}, {1, 20}, {0x80000000, 20}} {
		got, _ := callExt(t, openclLib[spirv.OpenCLStdSelect], "select", "U32", 1, xs("U32", 10), xs("U32", 20), xs("U32", c.cond))
		if got[0] != c.want {
			t.Errorf("select(10, 20, %#x) = %d, want %d", c.cond, got[0], c.want)
		}
	}
	// Vector select: the most significant bit of each c component picks b;
	// 1 has it clear.
	got, _ = callExt(t, openclLib[spirv.OpenCLStdSelect], "select", "U32", 4,
		xs("U32", 1, 2, 3, 4), xs("U32", 5, 6, 7, 8), xs("U32", 0xffffffff, 1, 0x80000000, 0))
	if want := []uint64{5, 2, 7, 4}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("vector select = %v, want %v", got, want)
	}
	// shuffle(x, mask) and shuffle2(x, y, mask): the mask's components
	// index x (then y).
	got, _ = callExt(t, openclLib[spirv.OpenCLStdShuffle], "shuffle", "U32", 4, xs("U32", 10, 11, 12, 13), xs("U32", 3, 0, 2, 5))
	if want := []uint64{13, 10, 12, 11}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("shuffle = %v, want %v (mask component 5 selects 5 mod 4)", got, want)
	}
	got, _ = callExt(t, openclLib[spirv.OpenCLStdShuffle2], "shuffle2", "U32", 4, xs("U32", 10, 11), xs("U32", 20, 21), xs("U32", 3, 0, 2, 1))
	if want := []uint64{21, 10, 20, 11}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("shuffle2 = %v, want %v", got, want)
	}
}

// The saturating conversions of OpSatConvertSToU / OpSatConvertUToS (and
// convert_T_sat between integers): the value clamped to the result type.
func TestExtSatConvert(t *testing.T) {
	for _, from := range []string{"S8", "U8", "S16", "U16", "S32", "U32", "S64", "U64"} {
		for _, to := range []string{"S8", "U8", "S16", "U16", "S32", "U32", "S64", "U64"} {
			ft, tt := ctypes[from], ctypes[to]
			for _, v := range intEdges(ft) {
				c := ir.ExtCall{Tag: from, ResultTag: to}
				// the builder tags the argument by its signedness here
				mk := func(cc *ir.ExtCall) (extFn, error) {
					cc.Tag = c.Tag
					return satConvert(cc)
				}
				got, _ := callExt(t, mk, "sat_convert", to, 1, xs(from, v))
				want := wrapBig(bclamp(bigOperand(ft, v), tt), tt.bits)
				if got[0] != want {
					t.Errorf("sat_convert %s %#x to %s = %#x, want %#x", from, v, to, got[0], want)
				}
			}
		}
	}
}

// GLSL.std.450 integer routines and the builder's internal bit-field
// operations, at hand-worked points.
func TestExtGLSLIntegers(t *testing.T) {
	type tc struct {
		name string
		mk   extMaker
		tag  string
		args []uint64
		want uint64
	}
	g := func(op spirv.GLSLStd450) extMaker { return glslLib[op] }
	in := func(num uint32) extMaker { return internalLib[num] }
	m32 := uint64(math.MaxUint32)
	for _, c := range []tc{
		{"SAbs(-5)", g(spirv.GLSLStd450SAbs), "U32", []uint64{m32 - 4}, 5},
		{"SSign(-5)", g(spirv.GLSLStd450SSign), "U32", []uint64{m32 - 4}, m32},
		{"SSign(0)", g(spirv.GLSLStd450SSign), "U32", []uint64{0}, 0},
		{"SSign(7)", g(spirv.GLSLStd450SSign), "U32", []uint64{7}, 1},
		{"UMin", g(spirv.GLSLStd450UMin), "U32", []uint64{m32, 3}, 3},
		{"SMin", g(spirv.GLSLStd450SMin), "U32", []uint64{m32, 3}, m32},
		{"UMax", g(spirv.GLSLStd450UMax), "U32", []uint64{m32, 3}, m32},
		{"SMax", g(spirv.GLSLStd450SMax), "U32", []uint64{m32, 3}, 3},
		{"UClamp", g(spirv.GLSLStd450UClamp), "U32", []uint64{m32, 2, 9}, 9},
		{"SClamp", g(spirv.GLSLStd450SClamp), "U32", []uint64{m32, 2, 9}, 2},
		{"FindILsb(0)", g(spirv.GLSLStd450FindILsb), "U32", []uint64{0}, m32},
		{"FindILsb(0x50)", g(spirv.GLSLStd450FindILsb), "U32", []uint64{0x50}, 4},
		{"FindUMsb(0)", g(spirv.GLSLStd450FindUMsb), "U32", []uint64{0}, m32},
		{"FindUMsb(0x80000000)", g(spirv.GLSLStd450FindUMsb), "U32", []uint64{0x80000000}, 31},
		{"FindSMsb(-1)", g(spirv.GLSLStd450FindSMsb), "U32", []uint64{m32}, m32},
		{"FindSMsb(-8)", g(spirv.GLSLStd450FindSMsb), "U32", []uint64{m32 - 7}, 2},
		{"FindSMsb(5)", g(spirv.GLSLStd450FindSMsb), "U32", []uint64{5}, 2},
		// bitfieldInsert(base, insert, offset, count)
		{"BitFieldInsert", in(ir.InternalBitFieldInsert), "U32", []uint64{0xffffffff, 0x5, 4, 4}, 0xffffff5f},
		{"BitFieldInsert count 0", in(ir.InternalBitFieldInsert), "U32", []uint64{0x1234, 0xf, 4, 0}, 0x1234},
		{"BitFieldInsert all 64", in(ir.InternalBitFieldInsert), "U64", []uint64{0x1234, 0xabcd, 0, 64}, 0xabcd},
		{"BitFieldUExtract", in(ir.InternalBitFieldUExtract), "U32", []uint64{0xabcd1234, 8, 8}, 0x12},
		{"BitFieldUExtract count 0", in(ir.InternalBitFieldUExtract), "U32", []uint64{0xabcd1234, 8, 0}, 0},
		{"BitFieldSExtract negative", in(ir.InternalBitFieldSExtract), "U32", []uint64{0xabcd1234, 16, 4}, m32 - 2}, // 0xd = -3 in 4 bits
		{"BitFieldSExtract positive", in(ir.InternalBitFieldSExtract), "U32", []uint64{0xabcd1234, 4, 4}, 3},
		{"BitFieldSExtract count 0", in(ir.InternalBitFieldSExtract), "U32", []uint64{0xabcd1234, 4, 0}, 0},
	} {
		args := make([]xarg, len(c.args))
		for i, v := range c.args {
			args[i] = xs(c.tag, v)
		}
		got, _ := callExt(t, c.mk, c.name, c.tag, 1, args...)
		if got[0] != c.want {
			t.Errorf("%s = %#x, want %#x", c.name, got[0], c.want)
		}
	}
}

// fx is a float routine at one point: operands (float64: a scalar of the
// type under test; []float64: a vector of it; int: a 32-bit integer,
// tagged U32 as the builder tags integers), the result components and the
// tolerance in units in the last place (0: exact).
type fx struct {
	name string
	mk   extMaker
	args []any
	want []float64
	ulp  int
	// intResult marks routines returning a 32-bit integer (ilogb).
	intResult bool
}

func f1x(name string, mk extMaker, x, want float64) fx {
	return fx{name: name, mk: mk, args: []any{x}, want: []float64{want}}
}

func f2x(name string, mk extMaker, x, y, want float64) fx {
	return fx{name: name, mk: mk, args: []any{x, y}, want: []float64{want}}
}

func (c fx) run(t *testing.T, ft ctype) {
	t.Helper()
	args := make([]xarg, len(c.args))
	for i, a := range c.args {
		switch v := a.(type) {
		case float64:
			args[i] = xs(ft.tag, ft.enc(v))
		case []float64:
			args[i] = xarg{tag: ft.tag}
			for _, x := range v {
				args[i].v = append(args[i].v, ft.enc(x))
			}
		case int:
			args[i] = xs("U32", uint64(uint32(int32(v))))
		}
	}
	res := ft
	if c.intResult {
		res = ctypes["U32"]
	}
	got, _ := callExt(t, c.mk, c.name, res.tag, len(c.want), args...)
	for i, w := range c.want {
		var word uint64
		if c.intResult {
			word = uint64(uint32(int32(w)))
		} else {
			word = ft.enc(w)
		}
		if !accepts(res, want{words: []uint64{word}, ulp: c.ulp}, got[i]) && knownExtDiffs[fmt.Sprintf("%s %s%v", c.name, ft.tag, c.args)] == "" {
			t.Errorf("%s %s%v component %d = %#x (%v), want %#x (%v)", ft.tag, c.name, c.args, i, got[i], res.f(got[i]), word, w)
		}
	}
}

func openCLFloatPoints() []fx {
	o := func(op spirv.OpenCLStd) extMaker { return openclLib[op] }
	nan := math.NaN()
	negZero := math.Copysign(0, -1)
	return []fx{
		f1x("acos", o(spirv.OpenCLStdAcos), 1, 0), f1x("acosh", o(spirv.OpenCLStdAcosh), 1, 0),
		f1x("acospi", o(spirv.OpenCLStdAcospi), -1, 1), f1x("asin", o(spirv.OpenCLStdAsin), negZero, negZero),
		f1x("asinh", o(spirv.OpenCLStdAsinh), 0, 0), f1x("asinpi", o(spirv.OpenCLStdAsinpi), 1, 0.5),
		f1x("atan", o(spirv.OpenCLStdAtan), 0, 0), f2x("atan2", o(spirv.OpenCLStdAtan2), 0, 1, 0),
		f1x("atanh", o(spirv.OpenCLStdAtanh), 0, 0), f1x("atanpi", o(spirv.OpenCLStdAtanpi), 1, 0.25),
		f2x("atan2pi", o(spirv.OpenCLStdAtan2pi), -1, -1, -0.75),
		f1x("cbrt", o(spirv.OpenCLStdCbrt), -27, -3), f1x("ceil", o(spirv.OpenCLStdCeil), -0.5, negZero),
		f2x("copysign", o(spirv.OpenCLStdCopysign), 2, negZero, -2),
		f1x("cos", o(spirv.OpenCLStdCos), 0, 1), f1x("cosh", o(spirv.OpenCLStdCosh), 0, 1),
		f1x("cospi", o(spirv.OpenCLStdCospi), 1, -1), f1x("cospi", o(spirv.OpenCLStdCospi), 0.5, 0),
		f1x("cospi", o(spirv.OpenCLStdCospi), -1.5, 0), f1x("cospi", o(spirv.OpenCLStdCospi), 64.5, 0),
		f1x("sinpi", o(spirv.OpenCLStdSinpi), 1, 0), f1x("sinpi", o(spirv.OpenCLStdSinpi), -2, negZero),
		f1x("sinpi", o(spirv.OpenCLStdSinpi), -0.5, -1), f1x("sinpi", o(spirv.OpenCLStdSinpi), 2.5, 1),
		f1x("sinpi", o(spirv.OpenCLStdSinpi), math.Inf(1), nan),
		f1x("tanpi", o(spirv.OpenCLStdTanpi), 1, negZero), f1x("tanpi", o(spirv.OpenCLStdTanpi), 2, 0),
		f1x("tanpi", o(spirv.OpenCLStdTanpi), -1, 0), f1x("tanpi", o(spirv.OpenCLStdTanpi), 0.5, math.Inf(1)),
		f1x("tanpi", o(spirv.OpenCLStdTanpi), 1.5, math.Inf(-1)), f1x("tanpi", o(spirv.OpenCLStdTanpi), -0.5, math.Inf(-1)),
		f1x("erfc", o(spirv.OpenCLStdErfc), 0, 1), f1x("erf", o(spirv.OpenCLStdErf), 0, 0),
		f1x("exp", o(spirv.OpenCLStdExp), 0, 1), f1x("exp2", o(spirv.OpenCLStdExp2), 10, 1024),
		{name: "exp10", mk: o(spirv.OpenCLStdExp10), args: []any{3.0}, want: []float64{1000}, ulp: 1},
		f1x("expm1", o(spirv.OpenCLStdExpm1), 0, 0), f1x("fabs", o(spirv.OpenCLStdFabs), -3, 3),
		f2x("fdim", o(spirv.OpenCLStdFdim), 5, 3, 2), f2x("fdim", o(spirv.OpenCLStdFdim), 3, 5, 0),
		f1x("floor", o(spirv.OpenCLStdFloor), -0.5, -1),
		{name: "fma", mk: o(spirv.OpenCLStdFma), args: []any{2.0, 3.0, 1.0}, want: []float64{7}},
		f2x("fmax", o(spirv.OpenCLStdFmax), 1, nan, 1), f2x("fmin", o(spirv.OpenCLStdFmin), nan, 2, 2),
		f2x("fmod", o(spirv.OpenCLStdFmod), 7, -3, 1), f2x("fmod", o(spirv.OpenCLStdFmod), -7, 3, -1),
		f2x("hypot", o(spirv.OpenCLStdHypot), 3, 4, 5),
		{name: "ilogb", mk: o(spirv.OpenCLStdIlogb), args: []any{8.0}, want: []float64{3}, intResult: true},
		{name: "ilogb", mk: o(spirv.OpenCLStdIlogb), args: []any{0.25}, want: []float64{-2}, intResult: true},
		{name: "ldexp", mk: o(spirv.OpenCLStdLdexp), args: []any{3.0, 4}, want: []float64{48}},
		{name: "ldexp", mk: o(spirv.OpenCLStdLdexp), args: []any{1.0, -3}, want: []float64{0.125}},
		f1x("lgamma", o(spirv.OpenCLStdLgamma), 1, 0), f1x("log", o(spirv.OpenCLStdLog), 1, 0),
		f1x("log2", o(spirv.OpenCLStdLog2), 1024, 10),
		{name: "log10", mk: o(spirv.OpenCLStdLog10), args: []any{1000.0}, want: []float64{3}, ulp: 1},
		f1x("log1p", o(spirv.OpenCLStdLog1p), 0, 0), f1x("logb", o(spirv.OpenCLStdLogb), 8, 3),
		{name: "mad", mk: o(spirv.OpenCLStdMad), args: []any{2.0, 3.0, 1.0}, want: []float64{7}},
		f2x("maxmag", o(spirv.OpenCLStdMaxmag), -3, 2, -3), f2x("maxmag", o(spirv.OpenCLStdMaxmag), 1, -2, -2),
		f2x("maxmag", o(spirv.OpenCLStdMaxmag), -2, 2, 2),
		f2x("minmag", o(spirv.OpenCLStdMinmag), -3, 2, 2), f2x("minmag", o(spirv.OpenCLStdMinmag), 1, -2, 1),
		f2x("minmag", o(spirv.OpenCLStdMinmag), -2, 2, -2),
		f2x("pow", o(spirv.OpenCLStdPow), 2, 10, 1024),
		{name: "pown", mk: o(spirv.OpenCLStdPown), args: []any{-2.0, 3}, want: []float64{-8}},
		{name: "pown", mk: o(spirv.OpenCLStdPown), args: []any{2.0, -2}, want: []float64{0.25}},
		f2x("powr", o(spirv.OpenCLStdPowr), 4, 0.5, 2),
		f2x("remainder", o(spirv.OpenCLStdRemainder), 5, 2, 1), f2x("remainder", o(spirv.OpenCLStdRemainder), 7, 2, -1),
		f1x("rint", o(spirv.OpenCLStdRint), 2.5, 2),
		// rootn: 16 ulp (OpenCL 7.4).
		{name: "rootn", mk: o(spirv.OpenCLStdRootn), args: []any{-8.0, 3}, want: []float64{-2}, ulp: 16},
		{name: "rootn", mk: o(spirv.OpenCLStdRootn), args: []any{16.0, -2}, want: []float64{0.25}, ulp: 16},
		f1x("round", o(spirv.OpenCLStdRound), 2.5, 3), f1x("round", o(spirv.OpenCLStdRound), -2.5, -3),
		f1x("rsqrt", o(spirv.OpenCLStdRsqrt), 4, 0.5),
		f1x("sin", o(spirv.OpenCLStdSin), 0, 0), f1x("sinh", o(spirv.OpenCLStdSinh), 0, 0),
		f1x("sinpi", o(spirv.OpenCLStdSinpi), 0.5, 1), f1x("sqrt", o(spirv.OpenCLStdSqrt), 16, 4),
		f1x("tan", o(spirv.OpenCLStdTan), 0, 0), f1x("tanh", o(spirv.OpenCLStdTanh), 0, 0),
		{name: "tanpi", mk: o(spirv.OpenCLStdTanpi), args: []any{0.25}, want: []float64{1}, ulp: 1},
		f1x("tgamma", o(spirv.OpenCLStdTgamma), 5, 24), f1x("trunc", o(spirv.OpenCLStdTrunc), -2.5, -2),
		f1x("half_cos", o(spirv.OpenCLStdHalfCos), 0, 1), f2x("half_divide", o(spirv.OpenCLStdHalfDivide), 1, 4, 0.25),
		f1x("half_exp", o(spirv.OpenCLStdHalfExp), 0, 1), f1x("half_exp2", o(spirv.OpenCLStdHalfExp2), 3, 8),
		{name: "half_exp10", mk: o(spirv.OpenCLStdHalfExp10), args: []any{2.0}, want: []float64{100}, ulp: 1},
		f1x("half_log", o(spirv.OpenCLStdHalfLog), 1, 0), f1x("half_log2", o(spirv.OpenCLStdHalfLog2), 8, 3),
		{name: "half_log10", mk: o(spirv.OpenCLStdHalfLog10), args: []any{100.0}, want: []float64{2}, ulp: 1},
		f2x("half_powr", o(spirv.OpenCLStdHalfPowr), 2, 3, 8), f1x("half_recip", o(spirv.OpenCLStdHalfRecip), 4, 0.25),
		f1x("half_rsqrt", o(spirv.OpenCLStdHalfRsqrt), 4, 0.5), f1x("half_sin", o(spirv.OpenCLStdHalfSin), 0, 0),
		f1x("half_sqrt", o(spirv.OpenCLStdHalfSqrt), 9, 3), f1x("half_tan", o(spirv.OpenCLStdHalfTan), 0, 0),
		f1x("native_cos", o(spirv.OpenCLStdNativeCos), 0, 1), f2x("native_divide", o(spirv.OpenCLStdNativeDivide), 1, 4, 0.25),
		f1x("native_exp", o(spirv.OpenCLStdNativeExp), 0, 1), f1x("native_exp2", o(spirv.OpenCLStdNativeExp2), 3, 8),
		{name: "native_exp10", mk: o(spirv.OpenCLStdNativeExp10), args: []any{2.0}, want: []float64{100}, ulp: 1},
		f1x("native_log", o(spirv.OpenCLStdNativeLog), 1, 0), f1x("native_log2", o(spirv.OpenCLStdNativeLog2), 8, 3),
		{name: "native_log10", mk: o(spirv.OpenCLStdNativeLog10), args: []any{100.0}, want: []float64{2}, ulp: 1},
		f2x("native_powr", o(spirv.OpenCLStdNativePowr), 2, 3, 8), f1x("native_recip", o(spirv.OpenCLStdNativeRecip), 4, 0.25),
		f1x("native_rsqrt", o(spirv.OpenCLStdNativeRsqrt), 4, 0.5), f1x("native_sin", o(spirv.OpenCLStdNativeSin), 0, 0),
		f1x("native_sqrt", o(spirv.OpenCLStdNativeSqrt), 9, 3), f1x("native_tan", o(spirv.OpenCLStdNativeTan), 0, 0),
		{name: "fclamp", mk: o(spirv.OpenCLStdFclamp), args: []any{5.0, 0.0, 1.0}, want: []float64{1}},
		{name: "fclamp", mk: o(spirv.OpenCLStdFclamp), args: []any{nan, 0.0, 1.0}, want: []float64{0}},
		f1x("degrees", o(spirv.OpenCLStdDegrees), 0, 0), f1x("radians", o(spirv.OpenCLStdRadians), 0, 0),
		{name: "degrees", mk: o(spirv.OpenCLStdDegrees), args: []any{0.5}, want: []float64{28.64788975654116}, ulp: 1},
		{name: "radians", mk: o(spirv.OpenCLStdRadians), args: []any{90.0}, want: []float64{1.5707963267948966}, ulp: 1},
		f2x("fmax_common", o(spirv.OpenCLStdFmaxCommon), 1, 2, 2), f2x("fmin_common", o(spirv.OpenCLStdFminCommon), 1, 2, 1),
		{name: "mix", mk: o(spirv.OpenCLStdMix), args: []any{2.0, 4.0, 0.25}, want: []float64{2.5}},
		f2x("step", o(spirv.OpenCLStdStep), 1, 0.5, 0), f2x("step", o(spirv.OpenCLStdStep), 1, 1, 1),
		{name: "smoothstep", mk: o(spirv.OpenCLStdSmoothstep), args: []any{0.0, 1.0, 0.5}, want: []float64{0.5}},
		{name: "smoothstep", mk: o(spirv.OpenCLStdSmoothstep), args: []any{1.0, 2.0, 3.0}, want: []float64{1}},
		{name: "smoothstep", mk: o(spirv.OpenCLStdSmoothstep), args: []any{1.0, 2.0, -3.0}, want: []float64{0}},
		f1x("sign", o(spirv.OpenCLStdSign), -7, -1), f1x("sign", o(spirv.OpenCLStdSign), 0.25, 1),
		f1x("sign", o(spirv.OpenCLStdSign), negZero, negZero), f1x("sign", o(spirv.OpenCLStdSign), nan, 0),
		// Geometric functions take whole vectors.
		{name: "cross", mk: o(spirv.OpenCLStdCross), args: []any{[]float64{1, 0, 0}, []float64{0, 1, 0}}, want: []float64{0, 0, 1}},
		{name: "cross4", mk: o(spirv.OpenCLStdCross), args: []any{[]float64{0, 2, 0, 7}, []float64{0, 0, 3, 9}}, want: []float64{6, 0, 0, 0}},
		{name: "distance", mk: o(spirv.OpenCLStdDistance), args: []any{[]float64{1, 1}, []float64{4, 5}}, want: []float64{5}},
		{name: "fast_distance", mk: o(spirv.OpenCLStdFastDistance), args: []any{[]float64{1, 1}, []float64{4, 5}}, want: []float64{5}},
		{name: "length", mk: o(spirv.OpenCLStdLength), args: []any{[]float64{3, 4}}, want: []float64{5}},
		{name: "fast_length", mk: o(spirv.OpenCLStdFastLength), args: []any{[]float64{0, 3, 4}}, want: []float64{5}},
		{name: "normalize", mk: o(spirv.OpenCLStdNormalize), args: []any{[]float64{3, 4}}, want: []float64{0.6, 0.8}, ulp: 1},
		{name: "normalize zero", mk: o(spirv.OpenCLStdNormalize), args: []any{[]float64{0, 0}}, want: []float64{0, 0}},
		{name: "fast_normalize", mk: o(spirv.OpenCLStdFastNormalize), args: []any{[]float64{0, -2}}, want: []float64{0, -1}},
	}
}

func TestExtFloatPoints(t *testing.T) {
	for _, ft := range []ctype{ctypes["F16"], ctypes["F32"], ctypes["F64"]} {
		for _, c := range openCLFloatPoints() {
			c.run(t, ft)
		}
	}
}

func glslFloatPoints() []fx {
	g := func(op spirv.GLSLStd450) extMaker { return glslLib[op] }
	return []fx{
		f1x("Round", g(spirv.GLSLStd450Round), -2.5, -3), f1x("RoundEven", g(spirv.GLSLStd450RoundEven), 2.5, 2),
		f1x("Trunc", g(spirv.GLSLStd450Trunc), -2.5, -2), f1x("FAbs", g(spirv.GLSLStd450FAbs), -2, 2),
		f1x("FSign", g(spirv.GLSLStd450FSign), -2, -1), f1x("Floor", g(spirv.GLSLStd450Floor), -2.5, -3),
		f1x("Ceil", g(spirv.GLSLStd450Ceil), -2.5, -2), f1x("Fract", g(spirv.GLSLStd450Fract), -2.25, 0.75),
		f1x("Radians", g(spirv.GLSLStd450Radians), 0, 0), f1x("Degrees", g(spirv.GLSLStd450Degrees), 0, 0),
		f1x("Sin", g(spirv.GLSLStd450Sin), 0, 0), f1x("Cos", g(spirv.GLSLStd450Cos), 0, 1),
		f1x("Tan", g(spirv.GLSLStd450Tan), 0, 0), f1x("Asin", g(spirv.GLSLStd450Asin), 0, 0),
		f1x("Acos", g(spirv.GLSLStd450Acos), 1, 0), f1x("Atan", g(spirv.GLSLStd450Atan), 0, 0),
		f1x("Sinh", g(spirv.GLSLStd450Sinh), 0, 0), f1x("Cosh", g(spirv.GLSLStd450Cosh), 0, 1),
		f1x("Tanh", g(spirv.GLSLStd450Tanh), 0, 0), f1x("Asinh", g(spirv.GLSLStd450Asinh), 0, 0),
		f1x("Acosh", g(spirv.GLSLStd450Acosh), 1, 0), f1x("Atanh", g(spirv.GLSLStd450Atanh), 0, 0),
		f2x("Atan2", g(spirv.GLSLStd450Atan2), 0, 1, 0), f2x("Pow", g(spirv.GLSLStd450Pow), 2, 3, 8),
		f1x("Exp", g(spirv.GLSLStd450Exp), 0, 1), f1x("Log", g(spirv.GLSLStd450Log), 1, 0),
		f1x("Exp2", g(spirv.GLSLStd450Exp2), 3, 8), f1x("Log2", g(spirv.GLSLStd450Log2), 8, 3),
		f1x("Sqrt", g(spirv.GLSLStd450Sqrt), 9, 3), f1x("InverseSqrt", g(spirv.GLSLStd450InverseSqrt), 4, 0.5),
		f2x("FMin", g(spirv.GLSLStd450FMin), 1, 2, 1), f2x("FMax", g(spirv.GLSLStd450FMax), 1, 2, 2),
		f2x("NMin", g(spirv.GLSLStd450NMin), 1, 2, 1), f2x("NMax", g(spirv.GLSLStd450NMax), 1, 2, 2),
		{name: "FClamp", mk: g(spirv.GLSLStd450FClamp), args: []any{-5.0, 0.0, 1.0}, want: []float64{0}},
		{name: "NClamp", mk: g(spirv.GLSLStd450NClamp), args: []any{5.0, 0.0, 1.0}, want: []float64{1}},
		{name: "FMix", mk: g(spirv.GLSLStd450FMix), args: []any{2.0, 4.0, 0.25}, want: []float64{2.5}},
		f2x("Step", g(spirv.GLSLStd450Step), 1, 0.5, 0),
		{name: "SmoothStep", mk: g(spirv.GLSLStd450SmoothStep), args: []any{0.0, 1.0, 0.5}, want: []float64{0.5}},
		{name: "Fma", mk: g(spirv.GLSLStd450Fma), args: []any{2.0, 3.0, 1.0}, want: []float64{7}},
		{name: "Ldexp", mk: g(spirv.GLSLStd450Ldexp), args: []any{3.0, 4}, want: []float64{48}},
		{name: "Ldexp", mk: g(spirv.GLSLStd450Ldexp), args: []any{1.0, -3}, want: []float64{0.125}},
		{name: "Length", mk: g(spirv.GLSLStd450Length), args: []any{[]float64{3, 4}}, want: []float64{5}},
		{name: "Distance", mk: g(spirv.GLSLStd450Distance), args: []any{[]float64{1, 1}, []float64{4, 5}}, want: []float64{5}},
		{name: "Cross", mk: g(spirv.GLSLStd450Cross), args: []any{[]float64{0, 1, 0}, []float64{0, 0, 1}}, want: []float64{1, 0, 0}},
		{name: "Normalize", mk: g(spirv.GLSLStd450Normalize), args: []any{[]float64{0, 0, -4}}, want: []float64{0, 0, -1}},
		// faceforward(N, I, Nref): N if dot(Nref, I) < 0, else -N.
		{name: "FaceForward", mk: g(spirv.GLSLStd450FaceForward), args: []any{[]float64{1, 2}, []float64{0, -1}, []float64{0, 1}}, want: []float64{1, 2}},
		{name: "FaceForward", mk: g(spirv.GLSLStd450FaceForward), args: []any{[]float64{1, 2}, []float64{0, 1}, []float64{0, 1}}, want: []float64{-1, -2}},
		// reflect(I, N) = I - 2 dot(N, I) N.
		{name: "Reflect", mk: g(spirv.GLSLStd450Reflect), args: []any{[]float64{1, -1}, []float64{0, 1}}, want: []float64{1, 1}},
		// refract(I, N, eta): straight through at eta 1; total internal
		// reflection (k < 0) gives zero.
		{name: "Refract", mk: g(spirv.GLSLStd450Refract), args: []any{[]float64{0, -1}, []float64{0, 1}, 1.0}, want: []float64{0, -1}},
		{name: "Refract", mk: g(spirv.GLSLStd450Refract), args: []any{[]float64{0.75, -0.5}, []float64{0, 1}, 2.0}, want: []float64{0, 0}},
	}
}

func TestExtGLSLFloatPoints(t *testing.T) {
	for _, ft := range []ctype{ctypes["F32"], ctypes["F64"]} {
		for _, c := range glslFloatPoints() {
			c.run(t, ft)
		}
	}
}

// nextafter steps to the neighbouring value of the operand's own type;
// fract's result stays below 1 in that type (OpenCL: fmin(x - floor(x),
// 0x1.fffffep-1f) for float, the largest value below 1 for each type).
func TestExtTypeSteps(t *testing.T) {
	for _, c := range []struct {
		tag                   string
		one, belowOne, tiny   uint64 // 1, the largest value below 1, the smallest subnormal
		negTiny, onePlusUlp   uint64
		oneMinusHalfUlpAbove1 uint64 // nextafter(1, 0): 1 - 2^-p
	}{
		{"F16", 0x3c00, 0x3bff, 0x0001, 0x8001, 0x3c01, 0x3bff},
		{"F32", 0x3f800000, 0x3f7fffff, 0x1, 0x80000001, 0x3f800001, 0x3f7fffff},
		{"F64", 0x3ff0000000000000, 0x3fefffffffffffff, 0x1, 0x8000000000000001, 0x3ff0000000000001, 0x3fefffffffffffff},
	} {
		ft := ctypes[c.tag]
		next := openclLib[spirv.OpenCLStdNextafter]
		for _, p := range []struct {
			name       string
			x, y, want uint64
		}{
			{"nextafter(1, 2)", c.one, ft.enc(2), c.onePlusUlp},
			{"nextafter(1, 0)", c.one, 0, c.oneMinusHalfUlpAbove1},
			{"nextafter(0, 1)", 0, c.one, c.tiny},
			{"nextafter(0, -1)", 0, ft.enc(-1), c.negTiny},
		} {
			got, _ := callExt(t, next, "nextafter", c.tag, 1, xs(c.tag, p.x), xs(c.tag, p.y))
			if got[0] != p.want && knownExtDiffs[p.name+" "+c.tag] == "" {
				t.Errorf("%s %s = %#x, want %#x", c.tag, p.name, got[0], p.want)
			}
		}
		// fract(-tiny): x - floor(x) rounds to 1, which fract never returns.
		got, w := callExt(t, openclLib[spirv.OpenCLStdFract], "fract", c.tag, 1, xs(c.tag, c.negTiny), xarg{tag: "U64", v: []uint64{8}, space: ir.SpacePrivate})
		if got[0] != c.belowOne && knownExtDiffs["fract(-tiny) "+c.tag] == "" {
			t.Errorf("%s fract(-tiny) = %#x, want %#x (the largest value below 1)", c.tag, got[0], c.belowOne)
		}
		if fl := readLE(w.priv[8:], ft.bits/8); fl != ft.enc(-1) {
			t.Errorf("%s fract(-tiny) wrote floor %#x, want -1 (%#x)", c.tag, fl, ft.enc(-1))
		}
	}
}

// Routines writing a second result through a pointer (fract, modf, sincos,
// frexp, lgamma_r, remquo, GLSL modf and frexp): the value and what lands
// in the pointed-to private memory.
func TestExtPointerResults(t *testing.T) {
	for _, c := range []struct {
		name     string
		mk       extMaker
		args     []float64
		want     float64
		side     []float64 // per component; ints for frexp, lgamma_r, remquo
		sideInt  bool
		vector   bool
		glslOnly bool
	}{
		{name: "fract", mk: openclLib[spirv.OpenCLStdFract], args: []float64{2.75}, want: 0.75, side: []float64{2}},
		{name: "modf", mk: openclLib[spirv.OpenCLStdModf], args: []float64{-3.5}, want: -0.5, side: []float64{-3}},
		{name: "sincos", mk: openclLib[spirv.OpenCLStdSincos], args: []float64{0}, want: 0, side: []float64{1}},
		{name: "frexp", mk: openclLib[spirv.OpenCLStdFrexp], args: []float64{12}, want: 0.75, side: []float64{4}, sideInt: true},
		{name: "frexp", mk: openclLib[spirv.OpenCLStdFrexp], args: []float64{-0.375}, want: -0.75, side: []float64{-1}, sideInt: true},
		{name: "lgamma_r", mk: openclLib[spirv.OpenCLStdLgammaR], args: []float64{1}, want: 0, side: []float64{1}, sideInt: true},
		{name: "lgamma_r sign", mk: openclLib[spirv.OpenCLStdLgammaR], args: []float64{-0.5}, want: math.NaN(), side: []float64{-1}, sideInt: true},
		// remquo: x - n*y with n = x/y rounded to even; the quotient's low
		// bits with its sign.
		{name: "remquo", mk: openclLib[spirv.OpenCLStdRemquo], args: []float64{7, 2}, want: -1, side: []float64{4}, sideInt: true},
		{name: "remquo", mk: openclLib[spirv.OpenCLStdRemquo], args: []float64{-7, 2}, want: 1, side: []float64{-4}, sideInt: true},
		{name: "GLSL modf", mk: glslLib[spirv.GLSLStd450Modf], args: []float64{2.25}, want: 0.25, side: []float64{2}, glslOnly: true},
		{name: "GLSL frexp", mk: glslLib[spirv.GLSLStd450Frexp], args: []float64{3}, want: 0.75, side: []float64{2}, sideInt: true, glslOnly: true},
	} {
		for _, tag := range []string{"F16", "F32", "F64"} {
			if c.glslOnly && tag == "F16" {
				continue
			}
			ft := ctypes[tag]
			args := []xarg{}
			for _, a := range c.args {
				args = append(args, xs(tag, ft.enc(a)))
			}
			args = append(args, xarg{tag: "U64", v: []uint64{16}, space: ir.SpacePrivate})
			got, w := callExt(t, c.mk, c.name, tag, 1, args...)
			if !math.IsNaN(c.want) && got[0] != ft.enc(c.want) {
				t.Errorf("%s %s%v = %v, want %v", tag, c.name, c.args, ft.f(got[0]), c.want)
			}
			var side float64
			if c.sideInt {
				side = float64(int32(readLE(w.priv[16:], 4)))
			} else {
				side = ft.f(readLE(w.priv[16:], ft.bits/8))
			}
			if side != c.side[0] {
				t.Errorf("%s %s%v wrote %v, want %v", tag, c.name, c.args, side, c.side[0])
			}
		}
	}
	// A vector call writes each component's side result in turn.
	ft := ctypes["F32"]
	got, w := callExt(t, openclLib[spirv.OpenCLStdFrexp], "frexp", "F32", 2, xs("F32", ft.enc(1), ft.enc(40)), xarg{tag: "U64", v: []uint64{8}, space: ir.SpacePrivate})
	if ft.f(got[0]) != 0.5 || ft.f(got[1]) != 0.625 || readLE(w.priv[8:], 4) != 1 || readLE(w.priv[12:], 4) != 6 {
		t.Errorf("frexp((1, 40)) = %v, %v with exponents %v", ft.f(got[0]), ft.f(got[1]), w.priv[8:16])
	}
	// A pointer outside the frame faults instead of writing.
	c := ir.ExtCall{Name: "modf", ResultTag: "F32", Tag: "F32", N: 1, Args: []int32{0, 1}, ArgN: []int{1, 1}, ArgTags: []string{"F32", "U64"}, Spaces: []ir.Space{0, ir.SpacePrivate}, Dst: 2}
	w = extWarp(3)
	w.regs[0], w.regs[1] = ft.enc(1.5), 4096
	fn, _ := openclLib[spirv.OpenCLStdModf](&c)
	fn(w, &c)
	if f, ok := w.err.(*Fault); !ok || f.Space != ir.SpacePrivate || !f.Write || f.Addr != 4096 {
		t.Errorf("modf through a pointer past the frame: %v", w.err)
	}
}

// GLSL packing: round(clamp(c) * scale) into fields, first component in
// the low bits; unpacking divides back (signed: clamped at -1).
func TestExtGLSLPacking(t *testing.T) {
	f32 := ctypes["F32"]
	v := func(xs ...float64) xarg {
		a := xarg{tag: "F32"}
		for _, x := range xs {
			a.v = append(a.v, f32.enc(x))
		}
		return a
	}
	for _, c := range []struct {
		name string
		op   spirv.GLSLStd450
		in   xarg
		want uint64
	}{
		{"PackUnorm4x8", spirv.GLSLStd450PackUnorm4x8, v(0, 0.2, 1, 2), 0xffff3300},
		{"PackSnorm4x8", spirv.GLSLStd450PackSnorm4x8, v(-1, 1, 0, -2), 0x81007f81},
		{"PackUnorm2x16", spirv.GLSLStd450PackUnorm2x16, v(1, -1), 0x0000ffff},
		{"PackSnorm2x16", spirv.GLSLStd450PackSnorm2x16, v(-1, 0.5), 0x4000_8001},
		{"PackHalf2x16", spirv.GLSLStd450PackHalf2x16, v(1, -2), 0xc0003c00},
	} {
		got, _ := callExt(t, glslLib[c.op], c.name, "U32", 1, c.in)
		if got[0] != c.want {
			t.Errorf("%s = %#x, want %#x", c.name, got[0], c.want)
		}
	}
	for _, c := range []struct {
		name string
		op   spirv.GLSLStd450
		in   uint64
		want []float64
	}{
		{"UnpackUnorm4x8", spirv.GLSLStd450UnpackUnorm4x8, 0xff00_33ff, []float64{1, 0.2, 0, 1}},
		{"UnpackSnorm4x8", spirv.GLSLStd450UnpackSnorm4x8, 0x80_7f_81_00, []float64{0, -1, 1, -1}},
		{"UnpackUnorm2x16", spirv.GLSLStd450UnpackUnorm2x16, 0xffff_0000, []float64{0, 1}},
		{"UnpackSnorm2x16", spirv.GLSLStd450UnpackSnorm2x16, 0x8000_7fff, []float64{1, -1}},
		{"UnpackHalf2x16", spirv.GLSLStd450UnpackHalf2x16, 0xc000_3c00, []float64{1, -2}},
	} {
		got, _ := callExt(t, glslLib[c.op], c.name, "F32", len(c.want), xs("U32", c.in))
		for i, w := range c.want {
			if !accepts(f32, want{words: []uint64{f32.enc(w)}, ulp: 1}, got[i]) {
				t.Errorf("%s(%#x)[%d] = %v, want %v", c.name, c.in, i, f32.f(got[i]), w)
			}
		}
	}
}

// Internal routines: rounding a float before a converting op, rounding to
// half with an explicit mode, quantizing to half.
func TestExtInternalRounding(t *testing.T) {
	f32 := ctypes["F32"]
	for mode, want := range map[int64]float64{0: 2, 1: 2, 2: 3, 3: 2} {
		mk := internalLib[ir.InternalRound]
		c := ir.ExtCall{Imm: mode}
		m := func(cc *ir.ExtCall) (extFn, error) { cc.Imm = c.Imm; return mk(cc) }
		got, _ := callExt(t, m, "round", "F32", 1, xs("F32", f32.enc(2.5)))
		if f32.f(got[0]) != want {
			t.Errorf("round(2.5) in mode %d = %v, want %v", mode, f32.f(got[0]), want)
		}
	}
	if _, err := internalLib[ir.InternalRound](&ir.ExtCall{Imm: 7, Args: []int32{0}}); err == nil {
		t.Error("rounding mode 7 accepted")
	}
	// 1 + 2^-11 + 2^-20 lies just above the half tie between 1 and 1+2^-10.
	x := 1 + 0x1p-11 + 0x1p-20
	for mode, want := range map[int64]uint64{0: 0x3c01, 1: 0x3c00, 2: 0x3c01, 3: 0x3c00} {
		m := func(cc *ir.ExtCall) (extFn, error) { cc.Imm = mode; return internalLib[ir.InternalF2HRound](cc) }
		got, _ := callExt(t, m, "vstore_half_r", "F16", 1, xs("F32", f32.enc(x)))
		if got[0] != want {
			t.Errorf("f32 %v to half in mode %d = %#x, want %#x", x, mode, got[0], want)
		}
	}
	got, _ := callExt(t, internalLib[ir.InternalQuantizeToF16], "quantize", "F32", 1, xs("F32", f32.enc(x)))
	if f32.f(got[0]) != 1+0x1p-10 {
		t.Errorf("OpQuantizeToF16(%v) = %v, want %v", x, f32.f(got[0]), 1+0x1p-10)
	}
}

// A call with the wrong number of operands is refused when the program is
// prepared, naming the routine.
func TestExtArity(t *testing.T) {
	for _, c := range []struct {
		mk   extMaker
		args int
		want string
	}{
		{openclLib[spirv.OpenCLStdSin], 2, "sin takes 1 operands, found 2"},
		{openclLib[spirv.OpenCLStdSAddSat], 1, "s_add_sat takes 2 operands, found 1"},
		{openclLib[spirv.OpenCLStdLength], 2, "length takes 1 operands"},
		{openclLib[spirv.OpenCLStdCross], 1, "cross takes 2 operands"},
		{openclLib[spirv.OpenCLStdFract], 1, "fract takes 2 operands"},
		{openclLib[spirv.OpenCLStdPrintf], 0, "printf without a format"},
	} {
		name := strings.Fields(c.want)[0]
		_, err := c.mk(&ir.ExtCall{Name: name, Args: make([]int32, c.args)})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s with %d operands: %v, want %q", name, c.args, err, c.want)
		}
	}
	if _, err := internalLib[ir.InternalArrayLength](&ir.ExtCall{Imm: 16 << 32}); err == nil || !strings.Contains(err.Error(), "zero stride") {
		t.Errorf("array length with a zero stride: %v", err)
	}
}

// Regressions: every disagreement the extended-instruction tests found, by
// name, with the routine, its operands (tagged as the builder tags them)
// and the specified result.
var extRegressions = []struct {
	name   string
	mk     extMaker
	resTag string
	args   []xarg
	want   uint64
}{
	// sub_sat(x, LONG_MIN) negated LONG_MIN, which stays LONG_MIN.
	{"sub_sat(0L, LONG_MIN)", openclLib[spirv.OpenCLStdSSubSat], "U64", []xarg{xs("U64", 0), xs("U64", 1<<63)}, math.MaxInt64},
	{"sub_sat(-1L, LONG_MIN)", openclLib[spirv.OpenCLStdSSubSat], "U64", []xarg{xs("U64", math.MaxUint64), xs("U64", 1<<63)}, math.MaxInt64},
	// mad_sat judged 64-bit overflow on the unsigned product: 1 * -1 overflowed.
	{"mad_sat(1L, -1L, 0L)", openclLib[spirv.OpenCLStdSMadSat], "U64", []xarg{xs("U64", 1), xs("U64", math.MaxUint64), xs("U64", 0)}, math.MaxUint64},
	{"mad_sat(-2L, 3L, 1L)", openclLib[spirv.OpenCLStdSMadSat], "U64", []xarg{xs("U64", math.MaxUint64-1), xs("U64", 3), xs("U64", 1)}, math.MaxUint64 - 4},
	{"mad_sat(LONG_MIN, -1L, 0L)", openclLib[spirv.OpenCLStdSMadSat], "U64", []xarg{xs("U64", 1<<63), xs("U64", math.MaxUint64), xs("U64", 0)}, math.MaxInt64},
	{"mad_sat(LONG_MAX, 2L, LONG_MIN)", openclLib[spirv.OpenCLStdSMadSat], "U64", []xarg{xs("U64", math.MaxInt64), xs("U64", 2), xs("U64", 1<<63)}, math.MaxInt64 - 1},
	// The int operand of ldexp, pown and rootn was read as an unsigned
	// number: ldexp(1.0f, -3) gave +inf.
	{"ldexp(1.0f, -3)", openclLib[spirv.OpenCLStdLdexp], "F32", []xarg{xs("F32", 0x3f800000), xs("U32", 0xfffffffd)}, 0x3e000000},
	{"ldexp(1.0, -1074)", openclLib[spirv.OpenCLStdLdexp], "F64", []xarg{xs("F64", 0x3ff0000000000000), xs("U32", uint64(uint32(0xffffffff-1073)))}, 1},
	{"ldexp(1.0h, -24)", openclLib[spirv.OpenCLStdLdexp], "F16", []xarg{xs("F16", 0x3c00), xs("U32", uint64(uint32(0xffffffff-23)))}, 1},
	{"pown(2.0f, -2)", openclLib[spirv.OpenCLStdPown], "F32", []xarg{xs("F32", 0x40000000), xs("U32", 0xfffffffe)}, 0x3e800000},
	{"rootn(16.0f, -2)", openclLib[spirv.OpenCLStdRootn], "F32", []xarg{xs("F32", 0x41800000), xs("U32", 0xfffffffe)}, 0x3e800000},
	{"rootn(-8.0f, -3)", openclLib[spirv.OpenCLStdRootn], "F32", []xarg{xs("F32", 0xc1000000), xs("U32", 0xfffffffd)}, 0xbf000000},
	{"GLSL ldexp(1.0, -3)", glslLib[spirv.GLSLStd450Ldexp], "F32", []xarg{xs("F32", 0x3f800000), xs("U32", 0xfffffffd)}, 0x3e000000},
	{"ldexp with a long exponent", openclLib[spirv.OpenCLStdLdexp], "F32", []xarg{xs("F32", 0x3f800000), xs("U64", math.MaxUint64-1)}, 0x3e800000},
	// nextafter stepped in float64 and rounded back: float and half
	// came back unchanged.
	{"nextafter(1.0f, 2.0f)", openclLib[spirv.OpenCLStdNextafter], "F32", []xarg{xs("F32", 0x3f800000), xs("F32", 0x40000000)}, 0x3f800001},
	{"nextafter(0.0f, -1.0f)", openclLib[spirv.OpenCLStdNextafter], "F32", []xarg{xs("F32", 0), xs("F32", 0xbf800000)}, 0x80000001},
	{"nextafter(1.0h, 0.0h)", openclLib[spirv.OpenCLStdNextafter], "F16", []xarg{xs("F16", 0x3c00), xs("F16", 0)}, 0x3bff},
	{"nextafter(-0.0h, 1.0h)", openclLib[spirv.OpenCLStdNextafter], "F16", []xarg{xs("F16", 0x8000), xs("F16", 0x3c00)}, 0x0001},
	{"nextafter(inf h, 0.0h)", openclLib[spirv.OpenCLStdNextafter], "F16", []xarg{xs("F16", 0x7c00), xs("F16", 0)}, 0x7bff},
	{"nextafter(2.0h, 2.0h)", openclLib[spirv.OpenCLStdNextafter], "F16", []xarg{xs("F16", 0x4000), xs("F16", 0x4000)}, 0x4000},
	// fract was clamped to float's largest value below 1, which is 1 in
	// half and not the largest below 1 in double.
	{"fract(-0x1p-24h)", openclLib[spirv.OpenCLStdFract], "F16", []xarg{xs("F16", 0x8001), {tag: "U64", v: []uint64{0}, space: ir.SpacePrivate}}, 0x3bff},
	{"fract(-0x1p-1074)", openclLib[spirv.OpenCLStdFract], "F64", []xarg{xs("F64", 0x8000000000000001), {tag: "U64", v: []uint64{0}, space: ir.SpacePrivate}}, 0x3fefffffffffffff},
	{"fract(-0x1p-149f)", openclLib[spirv.OpenCLStdFract], "F32", []xarg{xs("F32", 0x80000001), {tag: "U64", v: []uint64{0}, space: ir.SpacePrivate}}, 0x3f7fffff},
}

func TestExtRegressions(t *testing.T) {
	for _, r := range extRegressions {
		t.Run(r.name, func(t *testing.T) {
			got, _ := callExt(t, r.mk, r.name, r.resTag, 1, r.args...)
			if got[0] != r.want {
				t.Errorf("%s = %#x, want %#x", r.name, got[0], r.want)
			}
		})
	}
}
