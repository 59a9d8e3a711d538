package midgard_test

import (
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Midgard bundles: one operation per vector unit and per scalar unit in
// pipeline order, a later unit reading an earlier one's result in the same
// bundle; loads and stores in bundles of their own, two to a bundle.
func TestMidgardBundles(t *testing.T) {
	tests := []struct {
		name    string
		p       *ir.Program
		bundles int // before the branch's
		ops     int32
	}{
		{"vec4 add and vec4 multiply share a bundle",
			isatest.NewProg(64).Op(ir.OpFAddF32, 40, 4, 0, 4).Op(ir.OpFMulF32, 44, 4, 8, 12).P, 1, 2},
		{"four scalar adds: two vector and two scalar units",
			isatest.NewProg(64).Op(ir.OpFAddF32, 40, 1, 0, 1).Op(ir.OpFAddF32, 41, 1, 2, 3).Op(ir.OpFAddF32, 42, 1, 4, 5).Op(ir.OpFAddF32, 43, 1, 6, 7).P, 1, 4},
		{"multiply feeding an add in one bundle",
			isatest.NewProg(64).Op(ir.OpFMulF32, 40, 4, 0, 4).Op(ir.OpFAddF32, 44, 4, 40, 8).P, 1, 2},
		{"two loads in one load/store bundle, the add after",
			isatest.NewProg(64).Arg(0, 1).Op(ir.OpLoadGlobal32, 10, 4, 0).Op(ir.OpLoadGlobal32, 14, 4, 1).Op(ir.OpFAddF32, 20, 4, 10, 14).P, 2, 2},
	}
	for _, tt := range tests {
		lp := isatest.Lower(t, tt.p, "mali-t760", 0)
		isatest.CheckInvariants(t, tt.name, lp)
		gs := lp.Blocks[0].Groups
		n := len(gs)
		if gs[n-1].Ops > 1 {
			n++ // the branch joined the last ALU bundle
		}
		ops := gs[0].Ops
		if gs[0].Branch {
			ops--
		}
		if n-1 != tt.bundles || ops != tt.ops {
			t.Errorf("%s: %d bundles before the branch, first with %d operations; want %d, %d\n%s", tt.name, n-1, ops, tt.bundles, tt.ops, lp)
		}
		if gs[0].Issue != 4 && len(gs[0].Mem) == 0 {
			t.Errorf("%s: an ALU bundle issues %v cycles, want 4 (4 threads, one a cycle)", tt.name, gs[0].Issue)
		}
	}
}
