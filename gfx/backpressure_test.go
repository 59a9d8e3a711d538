package gfx

import "testing"

// TestSlowBlenderBacksUp: a blender at a quarter of the rate keeps
// finished fragment warps resident, so the cores fill, the rasteriser's
// queue backs up and the frame takes at least the blender's time.
func TestSlowBlenderBacksUp(t *testing.T) {
	base := gpu(t, "mali-g52")
	s := builtin(t, "spheres:2000")
	opt := Options{Width: 320, Height: 180}
	ref := render(t, base, s, opt, 1)[0].Stats
	slow := *base
	slow.Raster.BlendPixelsPerCycle /= 4
	st := render(t, &slow, s, opt, 1)[0].Stats

	if !(st.BlendWaitCycles > 4*ref.BlendWaitCycles) {
		t.Errorf("finished warps waited %.0f warp-cycles for the blender, was %.0f", st.BlendWaitCycles, ref.BlendWaitCycles)
	}
	if !(st.RasterStallCycles > ref.RasterStallCycles) {
		t.Errorf("rasteriser stalled %.0f cycles, was %.0f", st.RasterStallCycles, ref.RasterStallCycles)
	}
	// Each core's blender takes its fragments one after another: the
	// fragment work cannot be shorter than the busiest blender.
	floor := st.BlendBusyCycles / float64(slow.Cores)
	if !(st.Cycles > floor) || !(st.Cycles > 1.2*ref.Cycles) {
		t.Errorf("frame %.0f cycles (blenders busy %.0f per core), was %.0f", st.Cycles, floor, ref.Cycles)
	}
	if got, want := st.BlendBusyCycles, float64(st.FragmentsWritten)/slow.Raster.BlendPixelsPerCycle; got != want {
		t.Errorf("blender busy %.0f cycles, want one per %v pixels: %.0f", got, slow.Raster.BlendPixelsPerCycle, want)
	}
}

// TestZSUnitCountsSamples: the ZS unit tests each rasterised sample once
// early (the default shaders write no depth), so 4x MSAA quadruples its
// busy cycles.
func TestZSUnitCountsSamples(t *testing.T) {
	g := gpu(t, "mali-g52")
	s := builtin(t, "spheres:2000")
	one := render(t, g, s, Options{Width: 256, Height: 160}, 1)[0].Stats
	four := render(t, g, s, Options{Width: 256, Height: 160, MSAA: 4}, 1)[0].Stats
	if one.ZSBusyCycles <= 0 {
		t.Fatalf("ZS busy %v cycles", one.ZSBusyCycles)
	}
	if r := four.ZSBusyCycles / one.ZSBusyCycles; r < 3.6 || r > 4.4 {
		t.Errorf("4x MSAA: ZS busy %.0f cycles, 1x %.0f (%.2fx, want about 4)", four.ZSBusyCycles, one.ZSBusyCycles, r)
	}
}
