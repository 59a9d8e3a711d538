package isa

import (
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
		p := newProg(64).op(tt.op, 40, tt.n, 0, 8, 16).p
		lp := lower(t, p, tt.gpu, tt.warp)
		g := groupOf(lp, 0)
		if g == nil {
			t.Fatalf("%s: no group", tt.name)
		}
		var busy float32
		if tt.pipe != "" {
			busy = g.Pipe[pipeIndex(lp, tt.pipe)]
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
		g := mustGPU(t, gpu)
		p := corpusProgram(t, "matmul")
		lp := lowerGPU(t, p, g, 0)
		occ, err := g.Occupancy(occQuery(lp.Regs))
		if err != nil {
			t.Fatal(err)
		}
		if lp.WarpWidth != occ.WarpWidth {
			t.Errorf("%s: warp %d, occupancy chose %d", gpu, lp.WarpWidth, occ.WarpWidth)
		}
	}
	if _, err := Lower(corpusProgram(t, "vecadd"), mustGPU(t, "mali-g52"), -1); err == nil {
		t.Error("negative warp width accepted")
	}
}

// Registers past the GPU's maximum spill to private memory: the liveness
// estimate plus the private frame kept in registers.
func TestSpill(t *testing.T) {
	p := corpusProgram(t, "vectors")
	need := p.Registers() + (p.PrivateBytes+3)/4
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		g := mustGPU(t, gpu)
		lp := lowerGPU(t, p, g, 0)
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
		p := newProg(64).op(tt.op, 40, tt.n, 0, 4, 8).op(tt.op, 44, tt.n, 40, 12, 16).p
		g := mustGPU(t, tt.gpu)
		if tt.gpu == "mali-g52" {
			// Keep them apart: a clause of one tuple each.
			g = parseGPU(t, "base: mali-g52\nbifrost: {clause_max_tuples: 1}\n")
		}
		lp := lowerGPU(t, p, g, tt.warp)
		first, second := groupOf(lp, 0), groupOf(lp, 1)
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
	g := *mustGPU(t, "mali-g52")
	g.Bifrost = nil
	if _, err := Lower(newProg(8).op(ir.OpFAddF32, 4, 1, 0, 1).p, &g, 0); err == nil {
		t.Error("no bifrost section: lowered anyway")
	}
	if _, err := Lower(nil, &g, 0); err == nil {
		t.Error("nil program lowered")
	}
}

// Rogue co-issues two independent FP32 operations on a pipe (the preset's
// pack 2): they share an instruction; a dependent pair does not.
func TestRogueCoIssue(t *testing.T) {
	tests := []struct {
		name   string
		p      *ir.Program
		groups int // before the branch
	}{
		{"independent adds pair", newProg(64).op(ir.OpFAddF32, 40, 1, 0, 1).op(ir.OpFAddF32, 41, 1, 2, 3).p, 1},
		{"dependent adds do not", newProg(64).op(ir.OpFAddF32, 40, 1, 0, 1).op(ir.OpFAddF32, 41, 1, 40, 3).p, 2},
		{"an add and a multiply do not", newProg(64).op(ir.OpFAddF32, 40, 1, 0, 1).op(ir.OpFMulF32, 41, 1, 2, 3).p, 2},
		{"a float2 add is already a pair", newProg(64).op(ir.OpFAddF32, 40, 2, 0, 2).op(ir.OpFAddF32, 42, 1, 4, 5).p, 2},
	}
	for _, tt := range tests {
		lp := lower(t, tt.p, "powervr-gx6250", 0)
		checkInvariants(t, tt.name, lp)
		gs := lp.Blocks[0].Groups
		if len(gs)-1 != tt.groups || gs[0].Pipe[0] != 2 || gs[0].Issue != 2 {
			t.Errorf("%s: %d groups before the branch, first alu %v issue %v; want %d, 2, 2\n%s", tt.name, len(gs)-1, gs[0].Pipe[0], gs[0].Issue, tt.groups, lp)
		}
	}
}
