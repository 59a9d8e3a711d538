package adreno_test

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
)

// ir3's (rptN) repeats one instruction over up to adreno.repeat_max
// registers: a vector add of repeat_max components is one machine
// instruction, one more component takes a second, whatever the class's
// pack in the ops table.
func TestAdrenoRepeat(t *testing.T) {
	g := isatest.MustGPU(t, "adreno-640")
	n := g.Adreno.RepeatMax
	for _, tt := range []struct {
		comps, want int
	}{{1, 1}, {n, 1}, {n + 1, 2}} {
		p := isatest.NewProg(64).Op(ir.OpFAddF32, 40, tt.comps, 0, 8).P
		lp := isatest.LowerGPU(t, p, g, 0)
		isatest.CheckInvariants(t, "add", lp)
		gr := isatest.GroupOf(lp, 0)
		if int(gr.Ops) != tt.want || int(gr.CodeBytes) != tt.want*g.Adreno.InstructionBits/8 {
			t.Errorf("a %d-component add: %d instructions, %d bytes; want %d of %d bits", tt.comps, gr.Ops, gr.CodeBytes, tt.want, g.Adreno.InstructionBits)
		}
	}
}
