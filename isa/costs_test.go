package isa_test

import (
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Costs come from the arch ops table through IssueCycles, at the warp width:
// pipe cycles, issue cycles and the pipe the class runs on.
func TestCosts(t *testing.T) {
	tests := []struct {
		name  string
		gpu   string
		warp  int
		op    ir.Op
		n     int
		pipe  string
		busy  float32
		issue float32
	}{
		// seed 004: a wave128 FP32 instruction takes two cycles on a 64-wide
		// partition, FP16 one; seed 001: SFU 1/8, integer add 1/2, 64-bit 1/4.
		{"640 wave128 fp32", "adreno-640", 128, ir.OpFAddF32, 1, "alu", 2, 1},
		{"640 wave128 fp16", "adreno-640", 128, ir.OpFAddF16, 1, "alu", 1, 1},
		{"640 wave64 fp32", "adreno-640", 64, ir.OpFAddF32, 1, "alu", 1, 1},
		{"640 wave128 vec4 fp32", "adreno-640", 128, ir.OpFAddF32, 4, "alu", 8, 1},
		{"640 wave128 rsqrt", "adreno-640", 128, ir.OpRsqrtF32, 1, "sfu", 16, 1},
		{"640 wave128 fp16 rsqrt", "adreno-640", 128, ir.OpRsqrtF16, 1, "sfu", 8, 1},
		{"640 wave128 int add", "adreno-640", 128, ir.OpIAddU32, 1, "alu", 4, 1},
		{"640 wave128 int64 add", "adreno-640", 128, ir.OpIAddU64, 1, "alu", 8, 1},
		{"640 wave128 int8 native", "adreno-640", 128, ir.OpIAddU8, 1, "alu", 4, 1},
		// seed 000: 615 true FMA over 600 cycles a wave, mad full rate.
		{"615 fma", "adreno-615", 64, ir.OpFmaF32, 1, "alu", 600, 1},
		{"615 mad", "adreno-615", 64, ir.OpMadF32, 1, "alu", 2, 1},
		// 615 INT8 add: an INT32 add and an AND, each 64 threads on 32 lanes.
		{"615 int8 emulated", "adreno-615", 64, ir.OpIAddU8, 1, "alu", 4, 2},
		// seed 003: a task of 32 on 16 pipes, two cycles an instruction.
		{"rogue fp32", "powervr-gx6250", 32, ir.OpFAddF32, 1, "alu", 2, 2},
		{"rogue fp32 pair", "powervr-gx6250", 32, ir.OpFAddF32, 2, "alu", 2, 2},
		{"rogue rsqrt", "powervr-gx6250", 32, ir.OpRsqrtF32, 1, "sfu", 8, 2},
		// seed 000: Bifrost SFU on FADD at half rate; multiplies on FMA.
		// (the return's branch needs the FADD slot too: a third tuple)
		{"g52 rsqrt", "mali-g52", 8, ir.OpRsqrtF32, 1, "fadd", 2, 3},
		{"g52 int mul", "mali-g52", 8, ir.OpIMulU32, 1, "fma", 1, 1},
		{"g52 fma", "mali-g52", 8, ir.OpFmaF32, 1, "fma", 1, 1},
		{"g52 int64 add", "mali-g52", 8, ir.OpIAddU64, 1, "", 2, 2},
		// Midgard: one thread a cycle, a 4-thread group takes 4.
		{"t760 vec4 add", "mali-t760", 4, ir.OpFAddF32, 4, "", 4, 4},
	}
	for _, tt := range tests {
		p := isatest.NewProg(64).Op(tt.op, 40, tt.n, 0, 8, 16).P
		lp := isatest.Lower(t, p, tt.gpu, tt.warp)
		g := isatest.GroupOf(lp, 0)
		if g == nil {
			t.Fatalf("%s: no group", tt.name)
		}
		var busy float32
		if tt.pipe != "" {
			busy = g.Pipe[isatest.PipeIndex(lp, tt.pipe)]
		} else {
			for _, c := range g.Pipe {
				busy += c
			}
		}
		if busy != tt.busy || g.Issue != tt.issue {
			t.Errorf("%s: %s busy %v, issue %v; want %v, %v", tt.name, tt.pipe, busy, g.Issue, tt.busy, tt.issue)
		}
	}
}

// The warp width defaults to the occupancy rules' choice; Adreno drops to
// wave64 when registers leave more waves resident that way.
func TestWarpWidthChoice(t *testing.T) {
	for _, gpu := range []string{"adreno-640", "mali-g52", "powervr-gx6250", "mali-t760"} {
		g := isatest.MustGPU(t, gpu)
		p := isatest.CorpusProgram(t, "matmul")
		lp := isatest.LowerGPU(t, p, g, 0)
		occ, err := g.Occupancy(isatest.OccQuery(lp.Regs))
		if err != nil {
			t.Fatal(err)
		}
		if lp.WarpWidth != occ.WarpWidth {
			t.Errorf("%s: warp %d, occupancy chose %d", gpu, lp.WarpWidth, occ.WarpWidth)
		}
	}
	if _, err := families.Lower(isatest.CorpusProgram(t, "vecadd"), isatest.MustGPU(t, "mali-g52"), -1); err == nil {
		t.Error("negative warp width accepted")
	}
}

// Registers past the GPU's maximum spill to private memory: the liveness
// estimate plus the private frame kept in registers.
func TestSpill(t *testing.T) {
	p := isatest.CorpusProgram(t, "vectors")
	need := p.Registers() + (p.PrivateBytes+3)/4
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		g := isatest.MustGPU(t, gpu)
		lp := isatest.LowerGPU(t, p, g, 0)
		if lp.Regs != min(need, g.MaxRegistersPerThread) || lp.Regs+lp.SpillBytes/4 != need {
			t.Errorf("%s: %d regs, %d B spilled; want %d registers in all, at most %d kept", gpu, lp.Regs, lp.SpillBytes, need, g.MaxRegistersPerThread)
		}
	}
	if need <= 64 || p.PrivateBytes == 0 {
		t.Fatalf("vectors needs %d registers (private %d B); the test needs more than Bifrost's 64 and a private frame", need, p.PrivateBytes)
	}
}

// Latency: cycles after issue until a dependent group can read the result,
// from execution.alu_latency_cycles and sfu_latency_cycles.
func TestLatency(t *testing.T) {
	tests := []struct {
		gpu  string
		warp int
		op   ir.Op
		n    int
		want float32
	}{
		{"adreno-640", 128, ir.OpFAddF32, 1, 2 - 1 + 4}, // two cycles on the pipe, then 4
		{"adreno-640", 64, ir.OpFAddF32, 1, 1 - 1 + 4},
		{"adreno-640", 128, ir.OpRsqrtF32, 1, 16 - 1 + 10},
		{"powervr-gx6250", 32, ir.OpFAddF32, 1, 2 - 1 + 4},
		{"mali-g52", 8, ir.OpFmaF32, 1, 1 - 1 + 3},  // a 1-tuple clause (FMA pipe only, so the pair cannot share a tuple)
		{"mali-t760", 4, ir.OpMadF32, 4, 4 - 1 + 8}, // vec4 on vmul only: bundles of their own
	}
	for _, tt := range tests {
		// A dependent pair: the second reads the first.
		p := isatest.NewProg(64).Op(tt.op, 40, tt.n, 0, 4, 8).Op(tt.op, 44, tt.n, 40, 12, 16).P
		g := isatest.MustGPU(t, tt.gpu)
		if tt.gpu == "mali-g52" {
			// Keep them apart: a clause of one tuple each.
			g = isatest.ParseGPU(t, "base: mali-g52\nbifrost: {clause_max_tuples: 1}\n")
		}
		lp := isatest.LowerGPU(t, p, g, tt.warp)
		first, second := isatest.GroupOf(lp, 0), isatest.GroupOf(lp, 1)
		if first == second {
			t.Fatalf("%s: dependent pair in one group", tt.gpu)
		}
		if first.Latency != tt.want {
			t.Errorf("%s %s: latency %v, want %v", tt.gpu, tt.op, first.Latency, tt.want)
		}
		if !hasSlot(second.Reads, 40) || !hasSlot(first.Writes, 40) || hasSlot(second.Reads, 4) {
			t.Errorf("%s: writes %v, reads %v", tt.gpu, first.Writes, second.Reads)
		}
	}
}

func hasSlot(s []int32, x int32) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// A GPU built in Go without its family section is refused, not a panic.
func TestLowerNeedsFamilySection(t *testing.T) {
	g := *isatest.MustGPU(t, "mali-g52")
	g.Bifrost = nil
	if _, err := families.Lower(isatest.NewProg(8).Op(ir.OpFAddF32, 4, 1, 0, 1).P, &g, 0); err == nil {
		t.Error("no bifrost section: lowered anyway")
	}
	if _, err := families.Lower(nil, &g, 0); err == nil {
		t.Error("nil program lowered")
	}
}
