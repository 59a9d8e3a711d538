package ir

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/kernel"
	"github.com/pocketgpu/pocketgpu/spirv"
)

var (
	tBool = &Type{Kind: KindBool, Bits: 1, Slots: 1, Size: 4, Align: 4}
	tU8   = &Type{Kind: KindInt, Bits: 8, Slots: 1, Size: 1, Align: 1}
	tU16  = &Type{Kind: KindInt, Bits: 16, Slots: 1, Size: 2, Align: 2}
	tI32  = &Type{Kind: KindInt, Bits: 32, Signed: true, Slots: 1, Size: 4, Align: 4}
	tF16  = &Type{Kind: KindFloat, Bits: 16, Slots: 1, Size: 2, Align: 2}
	tF32  = &Type{Kind: KindFloat, Bits: 32, Slots: 1, Size: 4, Align: 4}
	tF64  = &Type{Kind: KindFloat, Bits: 64, Slots: 1, Size: 8, Align: 8}
)

// Specialization values are read by the constant's type; text that is
// not a value of it is refused saying what was expected.
func TestParseSpecValue(t *testing.T) {
	for _, c := range []struct {
		t    *Type
		text string
		want uint64
		err  string
	}{
		{tBool, "true", 1, ""}, {tBool, "1", 1, ""}, {tBool, "false", 0, ""}, {tBool, "0", 0, ""},
		{tBool, "yes", 0, `"yes" is not a bool (true, false, 1, 0)`},
		{tF32, "0.5", uint64(math.Float32bits(0.5)), ""}, {tF32, "1e40", uint64(math.Float32bits(float32(math.Inf(1)))), ""},
		{tF32, "abc", 0, `"abc" is not a number`},
		{tF64, "-2", math.Float64bits(-2), ""},
		{tF16, "1.5", 0x3e00, ""}, {tF16, "-2.25", 0xc080, ""}, {tF16, "65520", 0x7c00, ""}, {tF16, "65504", 0x7bff, ""},
		{tF16, "1.00146484375", 0x3c02, ""}, // 1 + 3*2^-11: a tie, to even
		{tF16, "1.00048828125", 0x3c00, ""}, // 1 + 2^-11: a tie, to even
		{tF16, "NaN", 0x7e00, ""},
		{tI32, "-3", 0xfffffffd, ""}, {tI32, "0x10", 16, ""}, {tI32, "2147483648", 0, `"2147483648" is not a 32-bit integer`},
		{tU16, "65535", 0xffff, ""}, {tU16, "-1", 0xffff, ""}, {tU16, "65536", 0, `"65536" is not a 16-bit unsigned integer`},
		{tU8, "-129", 0, `"-129" is not a 8-bit integer`},
	} {
		got, err := parseSpecValue(c.text, c.t)
		switch {
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s %q: error %v, want %q", c.t, c.text, err, c.err)
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("%s %q = %#x, %v; want %#x", c.t, c.text, got, err, c.want)
		}
	}
}

// How types, operations, kinds and sites print, for messages and dumps.
func TestNames(t *testing.T) {
	v3 := &Type{Kind: KindVector, Elem: tF32, Len: 3, Slots: 3, Size: 16, Align: 16}
	mat := &Type{Kind: KindMatrix, Elem: v3, Len: 2}
	arr := &Type{Kind: KindArray, Elem: tU8, Len: 5}
	for _, c := range []struct {
		t    *Type
		want string
	}{
		{&Type{Kind: KindVoid}, "void"}, {tBool, "bool"}, {tU8, "u8"}, {tI32, "i32"}, {tF16, "f16"}, {v3, "f32x3"},
		{mat, "mat2(f32x3)"}, {arr, "u8[5]"}, {&Type{Kind: KindRuntimeArray, Elem: tI32}, "i32[]"},
		{&Type{Kind: KindStruct, Members: []*Type{tU8, v3}}, "struct{u8, f32x3}"},
		{&Type{Kind: KindPointer, Storage: spirv.StorageClassWorkgroup, Elem: tF32}, "Workgroup f32*"},
		{&Type{Kind: KindImage}, "image"}, {&Type{Kind: KindSampler}, "sampler"}, {&Type{Kind: KindSampledImage}, "sampled_image"},
		{&Type{Kind: KindEvent}, "event"}, {&Type{Kind: KindFunction}, "function"}, {&Type{Kind: KindOpaque}, "opaque"},
	} {
		if got := c.t.String(); got != c.want {
			t.Errorf("String() = %q, want %q", got, c.want)
		}
	}
	for _, c := range []struct {
		t      *Type
		signed bool
		want   string
		comps  int
	}{
		{tBool, true, "B", 1}, {v3, false, "F32", 3}, {tI32, true, "S32", 1}, {tI32, false, "U32", 1},
		{&Type{Kind: KindPointer}, true, "U64", 1}, {&Type{Kind: KindStruct}, true, "?", 1},
	} {
		if got := c.t.Tag(c.signed); got != c.want {
			t.Errorf("%s.Tag(%v) = %q, want %q", c.t, c.signed, got, c.want)
		}
		if got := c.t.Components(); got != c.comps {
			t.Errorf("%s.Components() = %d, want %d", c.t, got, c.comps)
		}
	}
	for _, c := range []struct{ got, want string }{
		{OpMov.String(), "Mov"}, {OpSMulExtended64.String(), "SMulExtended64"}, {Op(60000).String(), "Op?"},
		{aluOps["FAddF32"].String(), "FAddF32"},
		{SpaceGlobal.String(), "global"}, {SpaceLocal.String(), "local"}, {SpacePrivate.String(), "private"}, {Space(9).String(), "space?"},
		{TermSwitch.String(), "switch"}, {TermBarrier.String(), "barrier"}, {ParamPushConstant.String(), "push constants"},
		{ParamLocal.String(), "local memory"}, {AtomicCompareExchange.String(), "compare-exchange"}, {AtomicFlagClear.String(), "flag-clear"},
		{Site{Offset: 12, Op: spirv.OpFAdd, Result: 7}.String(), "OpFAdd %7 at word 12"},
		{Site{Offset: 30, Op: spirv.OpStore}.String(), "OpStore at word 30"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

// Every memory operation names its space, width and direction, and the
// sampler encoding round-trips.
func TestMemOpsAndSamplers(t *testing.T) {
	for _, sp := range []Space{SpaceGlobal, SpaceLocal, SpacePrivate} {
		for _, n := range []int{1, 2, 4, 8} {
			for _, store := range []bool{false, true} {
				op := LoadOp(sp, n)
				if store {
					op = StoreOp(sp, n)
				}
				s, b, st, ok := op.MemInfo()
				if !ok || s != sp || b != n || st != store {
					t.Errorf("%s: MemInfo = %v %d %v %v, want %v %d %v", op, s, b, st, ok, sp, n, store)
				}
			}
		}
	}
	if _, _, _, ok := OpMov.MemInfo(); ok {
		t.Error("OpMov is a memory operation")
	}
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(r.(string), "1, 2, 4 or 8 bytes") {
				t.Errorf("a 3-byte access: %v", r)
			}
		}()
		LoadOp(SpaceGlobal, 3)
	}()
	for _, c := range []struct {
		addr, filter uint32
		norm         bool
	}{{0, 0, false}, {4, 1, true}, {2, 0, true}, {3, 1, false}} {
		a, n, f := DecodeSampler(EncodeSampler(c.addr, c.norm, c.filter))
		if a != c.addr || n != c.norm || f != c.filter {
			t.Errorf("sampler %+v round-trips as %d %v %d", c, a, n, f)
		}
	}
}

// The program dump lists the parameters, each block with its label,
// post-dominator and loop depth, its instructions and its terminator with
// the edges' phi moves.
func TestProgramString(t *testing.T) {
	p := &Program{Entry: "k", Model: spirv.ExecutionModelKernel, Regs: 4, PrivateBytes: 8,
		Params: []Param{{Name: "out", Kind: ParamGlobal, Slot: 0}},
		Code:   []Inst{{Op: OpMov, N: 1, Dst: 2, Src: [3]int32{1, -1, -1}}},
		Blocks: []Block{
			{Start: 0, End: 1, Label: 5, IPDom: 1, Term: Term{Kind: TermCond, Cond: 3}, Succs: []Edge{{To: 1, Moves: []Move{{Dst: 2, Src: 1, N: 1}}}, {To: 1}}},
			{Start: 1, End: 1, Label: 6, IPDom: NoBlock, LoopDepth: 1, Term: Term{Kind: TermReturn}},
		}}
	s := p.String()
	for _, want := range []string{
		"program k (Kernel): 4 slots, 8 private bytes, 0 local bytes\n",
		`  param 0 "out": global buffer, slot 0` + "\n",
		"b0 (label %5, ipdom b1, loop depth 0):\n",
		"     0 Mov              n=1 dst=2 src=[1 -1 -1] imm=0 aux=0\n",
		"  cond cond=3 -> b1[{2 1 1}] -> b1[]\n",
		"b1 (label %6, ipdom b-1, loop depth 1):\n  return cond=0\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("dump lacks %q:\n%s", want, s)
		}
	}
}

// A half specialization value is rounded once, to nearest even, from the
// value the text names, subnormals included (the kernel package's
// conversion is the reference): it went through float32 first, so a value
// just above a tie rounded to the tie and then to even, and every
// subnormal half became zero.
func TestHalfSpecRounding(t *testing.T) {
	vals := []float64{1 + 0x1p-11 + 0x1p-40, -(1 + 0x1p-11 + 0x1p-40), 1e-6, -3e-8, 0x1p-24, 0x1p-25, 0x1p-25 + 0x1p-60,
		0x1p-14, 0x1p-14 - 0x1p-26, 65504, 65519.99, 65520, 1e9, 0, math.Copysign(0, -1), 2049.5, 0.1, math.Inf(-1)}
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		vals = append(vals, math.Ldexp(r.Float64()*2-1, r.IntN(46)-30))
	}
	for _, v := range vals {
		if got, want := halfBits(v), kernel.HalfFromFloat64(v); got != want {
			t.Errorf("halfBits(%v) = %#04x, want %#04x", v, got, want)
		}
	}
	if got := halfBits(math.NaN()); got&0x7c00 != 0x7c00 || got&0x3ff == 0 {
		t.Errorf("halfBits(NaN) = %#04x", got)
	}
}
