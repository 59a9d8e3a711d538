package describe

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/probe"
)

// sweepOf is the register sweep a GPU would give: the probe's register
// counts plus a compiler's overhead, counted by the GPU's own rule.
func sweepOf(t *testing.T, g *arch.GPU, wg, overhead int) *probe.RegisterSweep {
	sw := &probe.RegisterSweep{WorkGroup: wg}
	for r := 4; r <= 128; r += 4 {
		o, err := g.Occupancy(arch.OccupancyQuery{Regs: min(r+overhead, g.MaxRegistersPerThread), WorkgroupSize: wg})
		if err != nil {
			t.Fatal(err)
		}
		sw.Points = append(sw.Points, probe.RegisterPoint{Values: r, Resident: o.ResidentThreads})
	}
	return sw
}

// FitRegisters recovers a register file and allocation rule that differ
// from the base's, from the steps alone; with the base's own sweep it
// changes nothing.
func TestFitRegisters(t *testing.T) {
	for _, c := range []struct {
		base   string
		wg     int
		change func(g *arch.GPU)
	}{
		{"mali-g52", 8, func(g *arch.GPU) {}},
		{"mali-g52", 8, func(g *arch.GPU) { g.RegisterFileKiB = 96 }},
		{"mali-t760", 4, func(g *arch.GPU) { g.RegisterFileKiB = 32 }},
		{"mali-t760", 4, func(g *arch.GPU) { g.RegisterAllocPow2, g.RegisterGranule = false, 8 }},
		{"adreno-640", 128, func(g *arch.GPU) { g.RegisterFileKiB = 96 }},
		{"adreno-615", 64, func(g *arch.GPU) { g.MaxWarpsPerEngine = 12 }},
		{"powervr-gx6250", 32, func(g *arch.GPU) { u := *g.UnifiedStore; u.Registers = 1024; g.UnifiedStore = &u }},
	} {
		base, err := arch.Lookup(c.base)
		if err != nil {
			t.Fatal(err)
		}
		g := *base
		c.change(&g)
		sw := sweepOf(t, &g, c.wg, 7)
		fit, ok := FitRegisters(sw, base)
		if !ok {
			t.Errorf("%s changed: no fit", c.base)
			continue
		}
		want := RegisterFit{FileBytesPerCore: g.RegisterFileBytesPerCore(), Granule: g.RegisterGranule, Pow2: g.RegisterAllocPow2, WarpSlots: g.MaxWarpsPerEngine}
		fit2 := fit
		fit2.Overhead = 0
		if fit2 != want {
			// Another rule may give the same steps over the sweep: it
			// must then give every point.
			h := *base
			h.MaxWarpsPerEngine, h.RegisterGranule, h.RegisterAllocPow2 = fit.WarpSlots, fit.Granule, fit.Pow2
			if h.UnifiedStore != nil {
				u := *h.UnifiedStore
				u.Registers = fit.FileBytesPerCore / (u.Stores * u.RegisterBits / 8)
				h.UnifiedStore = &u
			} else {
				h.RegisterFileKiB = fit.FileBytesPerCore / 1024
			}
			if got := sweepOf(t, &h, c.wg, fit.Overhead); !samePoints(got, sw) {
				t.Errorf("%s changed: fit %+v, want %+v, and its steps differ", c.base, fit, want)
			} else {
				t.Logf("%s changed: fit %+v gives the same steps as %+v", c.base, fit, want)
			}
		}
	}
}

func samePoints(a, b *probe.RegisterSweep) bool {
	for i := range a.Points {
		if a.Points[i].Resident != b.Points[i].Resident {
			return false
		}
	}
	return len(a.Points) == len(b.Points)
}
