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

// TestGeometryFrontEnd: the vertex fetch is busy for the attribute bytes
// at its rate, and primitive assembly for every triangle, culled ones
// included; starving either makes the frame wait for it.
func TestGeometryFrontEnd(t *testing.T) {
	base := gpu(t, "mali-g52")
	s := builtin(t, "spheres:2000")
	opt := Options{Width: 160, Height: 90}
	ref := render(t, base, s, opt, 1)[0].Stats
	if want := float64(ref.PrimitivesIn) / base.Geometry.PrimitivesPerCycle; ref.AssemblyBusyCycles != want {
		t.Errorf("primitive assembly busy %.0f cycles, want %.0f (%d triangles)", ref.AssemblyBusyCycles, want, ref.PrimitivesIn)
	}
	if ref.VertexFetchBusyCycles <= 0 {
		t.Fatalf("vertex fetch busy %v cycles", ref.VertexFetchBusyCycles)
	}

	slowFetch := *base
	slowFetch.Geometry.VertexFetchBytesPerCycle /= 64
	st := render(t, &slowFetch, s, opt, 1)[0].Stats
	if r := st.VertexFetchBusyCycles / ref.VertexFetchBusyCycles; r < 63.9 || r > 64.1 {
		t.Errorf("vertex fetch at 1/64 the rate: busy %.0f cycles, was %.0f (%.1fx)", st.VertexFetchBusyCycles, ref.VertexFetchBusyCycles, r)
	}
	if !(st.Cycles > st.VertexFetchBusyCycles) || !(st.VertexFetchWaitCycles > ref.VertexFetchWaitCycles) {
		t.Errorf("vertex fetch busy %.0f cycles, frame %.0f; warps waited %.0f warp-cycles, was %.0f",
			st.VertexFetchBusyCycles, st.Cycles, st.VertexFetchWaitCycles, ref.VertexFetchWaitCycles)
	}

	slowSetup := *base
	slowSetup.Geometry.PrimitivesPerCycle /= 64
	st = render(t, &slowSetup, s, opt, 1)[0].Stats
	if !(st.Cycles > st.AssemblyBusyCycles) || !(st.Cycles > 2*ref.Cycles) {
		t.Errorf("primitive assembly busy %.0f cycles, frame %.0f, was %.0f", st.AssemblyBusyCycles, st.Cycles, ref.Cycles)
	}
	imm := render(t, &slowSetup, s, Options{Width: 160, Height: 90, Mode: Immediate}, 1)[0].Stats
	if !(imm.Cycles > imm.AssemblyBusyCycles) {
		t.Errorf("immediate: primitive assembly busy %.0f cycles, frame %.0f", imm.AssemblyBusyCycles, imm.Cycles)
	}
}
