package rogue_test

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
)

// Rogue co-issues two independent FP32 operations on a pipe (the preset's
// pack 2): they share an instruction; a dependent pair does not.
func TestRogueCoIssue(t *testing.T) {
	tests := []struct {
		name   string
		p      *ir.Program
		groups int // before the branch
	}{
		{"independent adds pair", isatest.NewProg(64).Op(ir.OpFAddF32, 40, 1, 0, 1).Op(ir.OpFAddF32, 41, 1, 2, 3).P, 1},
		{"dependent adds do not", isatest.NewProg(64).Op(ir.OpFAddF32, 40, 1, 0, 1).Op(ir.OpFAddF32, 41, 1, 40, 3).P, 2},
		{"an add and a multiply do not", isatest.NewProg(64).Op(ir.OpFAddF32, 40, 1, 0, 1).Op(ir.OpFMulF32, 41, 1, 2, 3).P, 2},
		{"a float2 add is already a pair", isatest.NewProg(64).Op(ir.OpFAddF32, 40, 2, 0, 2).Op(ir.OpFAddF32, 42, 1, 4, 5).P, 2},
	}
	for _, tt := range tests {
		lp := isatest.Lower(t, tt.p, "powervr-gx6250", 0)
		isatest.CheckInvariants(t, tt.name, lp)
		gs := lp.Blocks[0].Groups
		if len(gs)-1 != tt.groups || gs[0].Pipe[0] != 2 || gs[0].Issue != 2 {
			t.Errorf("%s: %d groups before the branch, first alu %v issue %v; want %d, 2, 2\n%s", tt.name, len(gs)-1, gs[0].Pipe[0], gs[0].Issue, tt.groups, lp)
		}
	}
}

// A message wider than l1.burst_bytes per thread issues once a burst
// (seed 003 §System Memory Access): a float4 load of 16 bytes in 8-byte
// bursts holds the issue port twice as long as a float2 load.
func TestRogueBursts(t *testing.T) {
	g := isatest.MustGPU(t, "powervr-gx6250")
	issueOf := func(comps int) float32 {
		p := isatest.NewProg(64).Arg(0).Op(ir.OpLoadGlobal32, 10, comps, 0).P
		lp := isatest.LowerGPU(t, p, g, 0)
		isatest.CheckInvariants(t, "load", lp)
		return isatest.GroupOf(lp, 0).Issue
	}
	burst := g.L1.BurstBytes
	narrow, wide := issueOf(burst/4), issueOf(2*burst/4)
	if wide != 2*narrow {
		t.Errorf("a %d-byte load issues %v cycles, a %d-byte one %v; want twice", 2*burst, wide, burst, narrow)
	}
}
