package gfx

import (
	"testing"
)

// TestFramePhysics: a frame on the timing engine follows the GPU's
// parameters — with ample DRAM bandwidth twice the clock takes about half
// the time; with the same DRAM a memory-bound frame takes more cycles at a
// higher clock; less DRAM bandwidth lengthens a frame-buffer-bound
// immediate frame; a fragment-bound frame's time scales about 1/cores
// (with the L2 grown alike, so it does not become the limit); a smaller
// texture cache misses more and takes longer; and none of it changes the
// image.
func TestFramePhysics(t *testing.T) {
	base := gpu(t, "mali-g52")
	s := builtin(t, "spheres:2000")
	opt := Options{Width: 128, Height: 80, Mode: Immediate}
	ref := render(t, base, s, opt, 1)[0].Stats

	ample := *base
	ample.DRAM.TransferMTs = 99000
	a1 := render(t, &ample, s, opt, 1)[0].Stats
	fast := ample
	fast.ClockMHz *= 2
	a2 := render(t, &fast, s, opt, 1)[0].Stats
	if r := a2.TimeMS / a1.TimeMS; r < 0.45 || r > 0.6 {
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

	big := Options{Width: 640, Height: 360}
	narrow := ample
	wide := ample
	wide.Cores *= 4
	wide.L2.Slices *= 4
	wide.L2.SizeKiB *= 4
	a := render(t, &narrow, s, big, 1)[0].Stats
	b := render(t, &wide, s, big, 1)[0].Stats
	if r := b.Cycles / a.Cycles; r > 0.4 {
		t.Errorf("4x cores: %v cycles, was %v (%.2f of it, want about 1/4)", b.Cycles, a.Cycles, r)
	}

	small := ample
	small.TextureCache.SizeKiB /= 2
	c := render(t, &small, s, big, 1)[0].Stats
	if !(c.TexCacheMisses > a.TexCacheMisses) || !(c.Cycles > a.Cycles) {
		t.Errorf("half the texture cache: %d misses, %v cycles; was %d, %v", c.TexCacheMisses, c.Cycles, a.TexCacheMisses, a.Cycles)
	}
	if countDiff(render(t, &wide, s, Options{Width: 128, Height: 80}, 1)[0].Image, render(t, base, s, Options{Width: 128, Height: 80}, 1)[0].Image) != 0 {
		t.Error("the core count changes the image")
	}
}
