package isa_test

import (
	"os"
	"testing"

	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
)

// The spill choice on device/testdata/kernels/spill.cl: 48 float4 values
// (about 200 registers) live across a loop. spill_after's loop reads four
// of them, so the values spilled are ones it does not read — stores before
// the loop, reloads after it, nothing in it; spill_inside's loop reads all
// of them, so its reloads are in the loop. Either way the scratch holds the
// excess over the GPU's registers, and the kernel keeps them all.
func TestSpillChoice(t *testing.T) {
	spv, err := os.ReadFile("../device/testdata/kernels/spill.spv")
	if err != nil {
		t.Fatal(err)
	}
	for _, entry := range []string{"spill_after", "spill_inside"} {
		p := isatest.BuildSPIRV(t, spv, entry)
		need := p.Registers()
		for _, gpu := range []string{"mali-g52", "adreno-615", "powervr-gx6250", "mali-t760"} {
			g := isatest.MustGPU(t, gpu)
			lp, err := families.Lower(p, g, 0)
			if err != nil {
				t.Fatal(err)
			}
			what := entry + " on " + gpu
			isatest.CheckInvariants(t, what, lp)
			if lp.Regs != g.MaxRegistersPerThread {
				t.Errorf("%s: %d registers kept, want all %d", what, lp.Regs, g.MaxRegistersPerThread)
			}
			// The scratch is the excess, give or take a partly used
			// vector's words.
			excess := 4 * (need - g.MaxRegistersPerThread)
			if lp.SpillBytes < excess || lp.SpillBytes > excess+32 {
				t.Errorf("%s: %d B spilled a thread, want about the excess, %d B", what, lp.SpillBytes, excess)
			}
			var stores, reloads, inLoop int
			for b, blk := range lp.Blocks {
				for _, gr := range blk.Groups {
					for _, m := range gr.Spill {
						if m.Store {
							stores++
						} else {
							reloads++
						}
						if p.Blocks[b].LoopDepth > 0 {
							inLoop++
							if m.Store {
								t.Errorf("%s: a spill store in loop block %d (the values are defined before it)", what, b)
							}
						}
					}
				}
			}
			runs := (lp.SpillBytes + 15) / 16
			if stores < runs || stores > runs+4 || reloads != stores {
				t.Errorf("%s: %d stores, %d reloads; want one a spilled float4 (%d) each", what, stores, reloads, runs)
			}
			switch entry {
			case "spill_after":
				if inLoop > 0 {
					t.Errorf("%s: %d spill messages in the loop, which reads only values it could keep", what, inLoop)
				}
			case "spill_inside":
				if inLoop != reloads {
					t.Errorf("%s: %d of %d reloads in the loop, want all", what, inLoop, reloads)
				}
			}
		}
	}
}

// A kernel within the registers spills nothing: no spill messages, no
// scratch.
func TestNoSpillWithinBudget(t *testing.T) {
	p := isatest.CorpusProgram(t, "matmul")
	for _, gpu := range []string{"mali-g52", "adreno-615"} {
		lp := isatest.Lower(t, p, gpu, 0)
		if lp.SpillBytes != 0 {
			t.Errorf("%s: %d B spilled", gpu, lp.SpillBytes)
		}
		for _, blk := range lp.Blocks {
			for _, gr := range blk.Groups {
				if len(gr.Spill) > 0 {
					t.Errorf("%s: spill messages %+v", gpu, gr.Spill)
				}
			}
		}
	}
}
