package isa_test

import (
	"errors"
	"fmt"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
	"sort"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

func fmtClasses(m map[string]int) string {
	var ks []string
	for k, v := range m {
		ks = append(ks, fmt.Sprintf("%s×%d", k, v))
	}
	sort.Strings(ks)
	return strings.Join(ks, " ")
}

// Each executor operation maps to arch op classes, emulated classes to their
// sequences, and components to machine operations by the class's pack (or
// Adreno's repeat).
func TestClassification(t *testing.T) {
	tests := []struct {
		gpu  string
		op   ir.Op
		n    int
		imm  int64
		want string
	}{
		{"mali-g52", ir.OpFAddF32, 1, 0, "fp32_add×1"},
		{"mali-g52", ir.OpFSubF32, 3, 0, "fp32_add×3"},
		{"mali-g52", ir.OpMadF32, 1, 0, "fp32_mad×1"},
		{"mali-g52", ir.OpFmaF32, 1, 0, "fp32_fma×1"},
		{"mali-g52", ir.OpRsqrtF32, 1, 0, "fp32_sfu×1"},
		{"mali-g52", ir.OpSqrtF32, 2, 0, "fp32_sfu×2"},
		{"mali-g52", ir.OpRecipF16, 1, 0, "fp16_sfu×1"},
		{"mali-g52", ir.OpFDivF32, 1, 0, "fp32_div×1"},
		{"mali-g52", ir.OpFDivF16, 1, 0, "fp16_mul×1 fp16_sfu×1"},
		{"mali-g52", ir.OpFRemF32, 1, 0, "fp32_cvt×1 fp32_div×1 fp32_mad×1"},
		{"mali-g52", ir.OpCvtF32S32, 1, 0, "fp32_cvt×1"},
		{"mali-g52", ir.OpCvtF32U64, 1, 0, "fp32_cvt×1"},
		{"mali-g52", ir.OpCvtU32U8, 1, 0, "int32_logic×1"},
		{"mali-g52", ir.OpFloorF32, 1, 0, "fp32_cvt×1"},
		{"mali-g52", ir.OpFOrdLessThanF32, 1, 0, "fp32_add×1"},
		{"mali-g52", ir.OpFMinF32, 1, 0, "fp32_add×1"},
		{"mali-g52", ir.OpFNegateF32, 1, 0, "move×1"},
		{"mali-g52", ir.OpIAddU32, 1, 0, "int32_add×1"},
		{"mali-g52", ir.OpIMulU32, 1, 0, "int32_mul×1"},
		{"mali-g52", ir.OpIAddU64, 1, 0, "int64_add×1"},
		{"mali-g52", ir.OpIMulU64, 1, 0, "int64_mul×1"},
		{"mali-g52", ir.OpBitwiseAndU64, 1, 0, "int32_logic×2"},
		{"mali-g52", ir.OpShiftLeftLogicalU32, 1, 0, "int32_shift×1"},
		{"mali-g52", ir.OpSLessThanS32, 1, 0, "int32_cmp×1"},
		{"mali-g52", ir.OpUMinU32, 1, 0, "int32_cmp×1"},
		{"mali-g52", ir.OpUDivU32, 1, 0, "fp32_cvt×3 fp32_mul×1 fp32_sfu×1 int32_add×2 int32_cmp×1 int32_mul×2 select×1"},
		// FP16 packs 2 and INT8 4 on Bifrost; sub-word logic uses the add class.
		{"mali-g52", ir.OpFAddF16, 2, 0, "fp16_add×1"},
		{"mali-g52", ir.OpFAddF16, 4, 0, "fp16_add×2"},
		{"mali-g52", ir.OpIAddU8, 4, 0, "int8_add×1"},
		{"mali-g52", ir.OpIMulU8, 4, 0, "int8_mul×1"},
		{"mali-g52", ir.OpBitwiseXorU8, 4, 0, "int8_add×1"},
		{"mali-g52", ir.OpIAddU16, 2, 0, "int16_add×1"},
		// Adreno: one instruction repeats over up to 4 components.
		{"adreno-640", ir.OpFAddF32, 4, 0, "fp32_add×1"},
		{"adreno-640", ir.OpFAddF32, 8, 0, "fp32_add×2"},
		{"adreno-640", ir.OpIAddU8, 4, 0, "int8_add×1"},
		// 615 and 530: INT8 is an INT32 operation and a mask (expands_to).
		{"adreno-615", ir.OpIAddU8, 1, 0, "int32_add×1 int32_logic×1"},
		{"adreno-615", ir.OpIMulU8, 4, 0, "int32_logic×1 int32_mul×1"},
		{"adreno-530", ir.OpIAddU8, 1, 0, "int32_add×1 int32_logic×1"},
		// Rogue co-issues two FP32 and four FP16 operations per pipe.
		{"powervr-gx6250", ir.OpFAddF32, 4, 0, "fp32_add×2"},
		{"powervr-gx6250", ir.OpFAddF16, 4, 0, "fp16_add×1"},
		// Midgard: a vec4 per operation.
		{"mali-t760", ir.OpFAddF32, 4, 0, "fp32_add×1"},
		{"mali-t760", ir.OpFAddF64, 2, 0, "fp64_add×2"},
	}
	for _, tt := range tests {
		b := isatest.NewProg(64).Op(tt.op, 40, tt.n, 0, 8, 16)
		b.P.Code[0].Imm = tt.imm
		lp := isatest.Lower(t, b.P, tt.gpu, 0)
		if got := fmtClasses(isatest.Classes(lp, 0)); got != tt.want {
			t.Errorf("%s %s×%d: %s, want %s", tt.gpu, tt.op, tt.n, got, tt.want)
		}
	}
}

// Hand-written operations: moves, selects, address arithmetic on 64-bit
// pointers, memory messages, private accesses as register moves.
func TestClassificationHand(t *testing.T) {
	tests := []struct {
		name string
		in   ir.Inst
		want string
	}{
		{"mov", ir.Inst{Op: ir.OpMov, N: 3, Dst: 40, Src: [3]int32{0, -1, -1}}, "move×3"},
		{"broadcast", ir.Inst{Op: ir.OpBroadcast, N: 4, Dst: 40, Src: [3]int32{0, -1, -1}}, "move×4"},
		{"select", ir.Inst{Op: ir.OpSelect, N: 2, Dst: 40, Src: [3]int32{0, 1, 3}, Imm: 1}, "select×2"},
		{"addr imm", ir.Inst{Op: ir.OpAddrImm, N: 1, Dst: 40, Src: [3]int32{0, -1, -1}, Imm: 16}, "int64_add×1"},
		{"addr imm 0", ir.Inst{Op: ir.OpAddrImm, N: 1, Dst: 40, Src: [3]int32{0, -1, -1}}, "move×1"},
		{"addr idx32 pow2", ir.Inst{Op: ir.OpAddrIdx32, N: 1, Dst: 40, Src: [3]int32{0, 1, -1}, Imm: 4}, "int32_shift×1 int64_add×1"},
		{"addr idx32 12", ir.Inst{Op: ir.OpAddrIdx32, N: 1, Dst: 40, Src: [3]int32{0, 1, -1}, Imm: 12}, "int32_mul×2 int64_add×1"},
		{"addr idx64 pow2", ir.Inst{Op: ir.OpAddrIdx64, N: 1, Dst: 40, Src: [3]int32{0, 1, -1}, Imm: 8}, "int32_shift×2 int64_add×1"},
		{"addr idx64 12", ir.Inst{Op: ir.OpAddrIdx64, N: 1, Dst: 40, Src: [3]int32{0, 1, -1}, Imm: 12}, "int64_add×1 int64_mul×1"},
		{"load global", ir.Inst{Op: ir.OpLoadGlobal32, N: 4, Dst: 40, Src: [3]int32{0, -1, -1}}, "load×1"},
		{"store local", ir.Inst{Op: ir.OpStoreLocal32, N: 1, Dst: -1, Src: [3]int32{0, 1, -1}}, "store×1"},
		{"load private", ir.Inst{Op: ir.OpLoadPrivate32, N: 2, Dst: 40, Src: [3]int32{0, -1, -1}}, "move×2"},
		{"store private 64", ir.Inst{Op: ir.OpStorePrivate64, N: 1, Dst: -1, Src: [3]int32{0, 1, -1}}, "move×2"},
		{"add carry", ir.Inst{Op: ir.OpIAddCarry32, N: 1, Dst: 40, Src: [3]int32{0, 1, -1}}, "int32_add×1 int32_cmp×1"},
		{"extract dyn", ir.Inst{Op: ir.OpExtractDyn, N: 1, Dst: 40, Src: [3]int32{0, 8, -1}, Imm: 4}, "int32_cmp×3 select×3"},
		{"nop", ir.Inst{Op: ir.OpNop, Dst: -1, Src: [3]int32{-1, -1, -1}}, ""},
	}
	for _, tt := range tests {
		lp := isatest.Lower(t, isatest.NewProg(64).Inst(tt.in).P, "mali-g52", 0)
		if got := fmtClasses(isatest.Classes(lp, 0)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
		isatest.CheckInvariants(t, tt.name, lp)
	}
}

// Extended calls: special functions with their range reduction, reductions
// over a vector, a pointer result as a private move.
func TestClassificationExt(t *testing.T) {
	tests := []struct {
		name string
		set  ir.ExtSet
		fn   string
		tag  string
		n    int
		argN []int
		want string
	}{
		{"exp", ir.ExtOpenCL, "exp", "F32", 1, []int{1}, "fp32_mul×1 fp32_sfu×1"},
		{"native_exp2 x4", ir.ExtOpenCL, "native_exp2", "F32", 4, []int{4}, "fp32_sfu×4"},
		{"half sin", ir.ExtOpenCL, "sin", "F16", 2, []int{2}, "fp16_mul×2 fp16_sfu×2"},
		{"length float4", ir.ExtOpenCL, "length", "F32", 1, []int{4}, "fp32_mad×4 fp32_sfu×1"},
		{"sincos", ir.ExtOpenCL, "sincos", "F32", 1, []int{1, 1}, "fp32_mul×1 fp32_sfu×2 move×1"},
		{"glsl inversesqrt", ir.ExtGLSL, "InverseSqrt", "F32", 1, []int{1}, "fp32_sfu×1"},
		{"unknown", ir.ExtOpenCL, "frobnicate", "F32", 1, []int{1}, "fp32_mad×4 fp32_sfu×1"},
		{"printf", ir.ExtOpenCL, "printf", "U32", 1, []int{1}, "store×1"},
	}
	for _, tt := range tests {
		b := isatest.NewProg(64)
		c := ir.ExtCall{Set: tt.set, Name: tt.fn, Tag: tt.tag, ResultTag: tt.tag, N: tt.n, Dst: 40}
		for k, an := range tt.argN {
			c.Args = append(c.Args, int32(8*k))
			c.ArgN = append(c.ArgN, an)
			c.ArgTags = append(c.ArgTags, tt.tag)
			c.Spaces = append(c.Spaces, ir.SpacePrivate)
		}
		b.P.Ext = append(b.P.Ext, c)
		b.Inst(ir.Inst{Op: ir.OpExt, N: uint16(tt.n), Dst: 40, Src: [3]int32{-1, -1, -1}})
		lp := isatest.Lower(t, b.P, "mali-g52", 0)
		if got := fmtClasses(isatest.Classes(lp, 0)); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.name, got, tt.want)
		}
	}
}

// A kernel using a class the GPU cannot execute is refused with the class
// and the SPIR-V site.
func TestUnsupportedClass(t *testing.T) {
	p := isatest.NewProg(64).Op(ir.OpFAddF64, 40, 1, 0, 1).P
	p.Sites[0] = ir.Site{Offset: 77, Op: spirv.OpFAdd, Result: 12}
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		_, err := families.Lower(p, isatest.MustGPU(t, gpu), 0)
		var ue *isa.UnsupportedError
		if err == nil || !errors.As(err, &ue) || ue.Class != "fp64_add" || !strings.Contains(err.Error(), "word 77") {
			t.Errorf("%s: %v", gpu, err)
		}
	}
	if _, err := families.Lower(p, isatest.MustGPU(t, "mali-t760"), 0); err != nil {
		t.Errorf("Midgard has FP64: %v", err)
	}
}
