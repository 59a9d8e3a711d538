package emu

import (
	"math"
	"testing"
)

// The float views agree with the slot words on this host: a float32
// written through f32 is the word math.Float32bits gives (upper half zero),
// a float64 through f64 the word math.Float64bits gives (lo32 is right for
// the host's byte order).
func TestFloatViews(t *testing.T) {
	w := &Warp{}
	w.setRegs(make([]uint64, 4))
	for _, f := range []float32{1.5, -0.0, float32(math.Inf(-1)), math.Float32frombits(0xffc00001), math.MaxFloat32} {
		w.regs[1] = math.MaxUint64
		w.f32[1][lo32], w.f32[1][hi32] = f, 0
		if want := uint64(math.Float32bits(f)); w.regs[1] != want {
			t.Errorf("float32 %v through the view is word %#x, want %#x", f, w.regs[1], want)
		}
		if g := w.f32[1][lo32]; math.Float32bits(g) != math.Float32bits(f) {
			t.Errorf("float32 %v reads back as %v", f, g)
		}
	}
	for _, f := range []float64{1.5, -0.0, math.Inf(1), math.Float64frombits(0x7ff0000000000001)} {
		w.f64[2] = f
		if want := math.Float64bits(f); w.regs[2] != want {
			t.Errorf("float64 %v through the view is word %#x, want %#x", f, w.regs[2], want)
		}
	}
}
