package isa

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// Every generated operation has a lowering: adding one to the opgen table
// without a class here fails.
func TestEveryGeneratedOpClassified(t *testing.T) {
	n := 0
	for op := ir.Op(0); op < ir.NumOps; op++ {
		name := op.String()
		if op <= ir.OpSMulExtended64 {
			continue // hand-written, lowered by instOps
		}
		g, ok := genInfo(op)
		if !ok {
			t.Errorf("%s has no lowering", name)
			continue
		}
		for _, s := range g.steps {
			for _, c := range resolve(s, g.float, g.bits) {
				if ClassIndex(c) < 0 {
					t.Errorf("%s resolves to unknown class %s", name, c)
				}
			}
		}
		n++
	}
	if n < 300 {
		t.Errorf("only %d generated operations checked", n)
	}
}

// Every OpenCL.std and GLSL.std.450 function has a cost, except those the
// IR lowers to loads, stores and generated operations itself.
func TestExtTablesCoverGrammar(t *testing.T) {
	inIR := map[string]bool{"vloadn": true, "vstoren": true, "vload_half": true, "vload_halfn": true,
		"vstore_half": true, "vstore_half_r": true, "vstore_halfn": true, "vstore_halfn_r": true,
		"vloada_halfn": true, "vstorea_halfn": true, "vstorea_halfn_r": true, "prefetch": true,
		"interpolateatcentroid": true, "interpolateatsample": true, "interpolateatoffset": true}
	for _, set := range []string{spirv.ExtSetOpenCLStd, "GLSL.std.450"} {
		for n := uint32(0); n < 300; n++ {
			info, ok := spirv.LookupExtInst(set, n)
			if !ok {
				continue
			}
			k := extKey(info.Name)
			if inIR[k] {
				continue
			}
			e, ok := extTable[k]
			if !ok {
				t.Errorf("%s %s has no cost", set, info.Name)
				continue
			}
			for _, s := range cat(e.perIn, e.fixed, e.per) {
				for _, c := range resolve(s, true, 32) {
					if ClassIndex(c) < 0 {
						t.Errorf("%s: class %s", info.Name, c)
					}
				}
			}
		}
	}
	for num := range internalTable {
		if num > ir.InternalDeriv {
			t.Errorf("internal %d unknown", num)
		}
	}
	for num := ir.InternalBitFieldInsert; num <= ir.InternalDeriv; num++ {
		if _, ok := internalTable[num]; !ok {
			t.Errorf("internal extended operation %d has no cost", num)
		}
	}
}
