package gfx

import (
	"math"
	"testing"
)

// TestCostPhysics: the estimate follows the GPU's parameters — with ample
// DRAM bandwidth twice the clock gives the same cycles in half the time;
// with the same DRAM a memory-bound frame takes more cycles at a higher
// clock; less DRAM bandwidth lengthens a frame-buffer-bound immediate
// frame; more cores shorten the shading and leave the image alone.
func TestCostPhysics(t *testing.T) {
	base := gpu(t, "mali-g52")
	s := builtin(t, "spheres:2000")
	opt := Options{Width: 128, Height: 80, Mode: Immediate}
	ref := render(t, base, s, opt, 1)[0].Stats

	ample := *base
	ample.DRAM.TransferMTs *= 1000
	a1 := render(t, &ample, s, opt, 1)[0].Stats
	fast := ample
	fast.ClockMHz *= 2
	a2 := render(t, &fast, s, opt, 1)[0].Stats
	if a1.Cycles != a2.Cycles || math.Abs(a2.TimeMS-a1.TimeMS/2) > 1e-9*a1.TimeMS || math.Abs(a2.FPS-2*a1.FPS) > 1e-6*a1.FPS {
		t.Errorf("double clock: %v cycles, %v ms; was %v cycles, %v ms", a2.Cycles, a2.TimeMS, a1.Cycles, a1.TimeMS)
	}
	memFast := *base
	memFast.ClockMHz *= 2
	if st := render(t, &memFast, s, opt, 1)[0].Stats; !(st.Cycles > ref.Cycles) {
		t.Errorf("double clock, same DRAM: %v cycles, was %v", st.Cycles, ref.Cycles)
	}

	slow := *base
	slow.DRAM.TransferMTs /= 8 // 0.5 GB/s achieved
	st := render(t, &slow, s, opt, 1)[0].Stats
	if !(st.Cycles > 2*ref.Cycles) {
		t.Errorf("an eighth of the DRAM bandwidth: %v cycles, was %v", st.Cycles, ref.Cycles)
	}

	wide := *base
	wide.Cores *= 4
	wide.DRAM.TransferMTs *= 100
	narrow := *base
	narrow.DRAM.TransferMTs *= 100
	a := render(t, &narrow, s, Options{Width: 128, Height: 80}, 1)[0].Stats
	b := render(t, &wide, s, Options{Width: 128, Height: 80}, 1)[0].Stats
	if !(b.Cycles < a.Cycles/2) {
		t.Errorf("4x cores: %v cycles, was %v", b.Cycles, a.Cycles)
	}
	if countDiff(render(t, &wide, s, Options{Width: 128, Height: 80}, 1)[0].Image, render(t, base, s, Options{Width: 128, Height: 80}, 1)[0].Image) != 0 {
		t.Error("the core count changes the image")
	}
}
