package isa_test

import (
	"fmt"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/isa/internal/isatest"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// FuzzLower feeds every module the decoder and IR builder accept to the
// lowering of one GPU of each family (warp widths 8, 64, 32 and 4): it may
// refuse an operation the GPU lacks, but it must not panic, and what it
// lowers must keep the engine's contract (checkInvariants).
func FuzzLower(f *testing.F) {
	for _, b := range corpus.SPIRVSeeds("../cmd/pocketgpu/testdata/kernels/*.spv", "../device/testdata/kernels/*.spv") {
		f.Add(b)
	}
	var gpus []*arch.GPU
	for _, id := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		g, err := arch.Lookup(id)
		if err != nil {
			f.Fatal(err)
		}
		gpus = append(gpus, g)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := spirv.Decode(data)
		if err != nil {
			return
		}
		for _, ep := range m.EntryPoints {
			p, err := ir.Build(m, ep.Name, ir.Options{})
			if err != nil {
				continue
			}
			for _, g := range gpus {
				lp, err := lowerSafely(p, g)
				if err != nil {
					if _, internal := err.(panicError); internal {
						t.Fatalf("entry %q on %s: %v", ep.Name, g.ID, err)
					}
					continue
				}
				isatest.CheckInvariants(t, ep.Name+" on "+g.ID, lp)
			}
		}
	})
}

type panicError struct{ v any }

func (e panicError) Error() string { return fmt.Sprintf("panic: %v", e.v) }

func lowerSafely(p *ir.Program, g *arch.GPU) (lp *isa.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = panicError{r}
		}
	}()
	return families.Lower(p, g, 0)
}
