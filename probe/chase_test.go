package probe

import (
	"encoding/binary"
	"math"
	"testing"
)

// A ring is one cycle through every slot, and the same ring for the same
// footprint and stride.
func TestRingIsOneCycle(t *testing.T) {
	for _, c := range []struct{ footprint, stride int }{{1024, 64}, {100 << 10, 64}, {300 << 10, 16}, {64, 64}, {1 << 20, 512}} {
		buf := ring(c.footprint, c.stride, 1)
		slots := c.footprint / c.stride
		seen := map[uint32]bool{}
		i := uint32(0)
		for range slots {
			if i%uint32(c.stride/4) != 0 || seen[i] {
				t.Fatalf("%+v: slot index %d repeats or is not on a slot", c, i)
			}
			seen[i] = true
			i = binary.LittleEndian.Uint32(buf[4*i:])
		}
		if i != 0 || len(seen) != slots {
			t.Errorf("%+v: %d slots visited, back at %d; want all %d and back at 0", c, len(seen), i, slots)
		}
		if string(ring(c.footprint, c.stride, 1)) != string(buf) {
			t.Errorf("%+v: two rings differ", c)
		}
	}
}

func steps(xs []float64, ys []float64) []Point {
	pts := make([]Point, len(xs))
	for i := range xs {
		pts[i] = Point{xs[i], ys[i]}
	}
	return pts
}

// levels reads a staircase: plateaus become levels, a single point between
// them is a transition, and a rise that never settles makes no level.
func TestLevels(t *testing.T) {
	xs := []float64{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048}
	for _, c := range []struct {
		name string
		ys   []float64
		want []float64 // latencies
		last []float64 // lastInside of each level
	}{
		{"two caches and memory", []float64{60, 60, 60, 113, 113, 113, 252, 252, 252, 252, 252, 252}, []float64{60, 113, 252}, []float64{4, 32, 2048}},
		{"a transition point", []float64{60, 60, 90, 113, 113, 113, 113, 113, 113, 113, 113, 113}, []float64{60, 113}, []float64{2, 2048}},
		{"TLB creep after memory", []float64{47, 47, 47, 47, 169, 169, 169, 169, 257, 300, 350, 420}, []float64{47, 169}, []float64{8, 128}},
		{"one level", []float64{5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5}, []float64{5}, []float64{2048}},
	} {
		lv := levels(steps(xs, c.ys), 0.05, 0.2)
		if len(lv) != len(c.want) {
			t.Errorf("%s: %d levels %+v, want %d", c.name, len(lv), lv, len(c.want))
			continue
		}
		for i := range lv {
			if lv[i].Latency != c.want[i] || lv[i].lastInside != c.last[i] {
				t.Errorf("%s: level %d at %.0f up to %.0f, want %.0f up to %.0f", c.name, i, lv[i].Latency, lv[i].lastInside, c.want[i], c.last[i])
			}
		}
	}
}

// smooth keeps a staircase's steps and drops a lone spike.
func TestSmooth(t *testing.T) {
	got := smooth(steps([]float64{1, 2, 3, 4, 5, 6}, []float64{3, 3, 9, 3, 10, 10}))
	want := []float64{3, 3, 3, 9, 10, 10}
	for i := range want {
		if got[i].Y != want[i] {
			t.Fatalf("smooth: %v, want %v", got, want)
		}
	}
}

// FuzzLevels: any sweep, however odd, gives levels without a panic, in
// order of footprint.
func FuzzLevels(f *testing.F) {
	f.Add(60.0, 113.0, 252.0, 0.05, 0.2)
	f.Add(3.1, 9.4, 31.0, 0.15, 0.5)
	f.Add(0.0, -1.0, math.Inf(1), 0.0, 0.0)
	f.Fuzz(func(t *testing.T, a, b, c, tol, knee float64) {
		ys := []float64{a, a, b, a, b, b, c, c, b, c}
		xs := make([]float64, len(ys))
		for i := range xs {
			xs[i] = float64(int(1) << i)
		}
		lv := levels(smooth(steps(xs, ys)), tol, knee)
		for i := 1; i < len(lv); i++ {
			if lv[i].lastInside < lv[i-1].lastInside {
				t.Fatalf("levels out of order: %+v", lv)
			}
		}
	})
}

// roundSize snaps a knee to the sizes caches are made in.
func TestRoundSize(t *testing.T) {
	for _, c := range [][2]int{{16576, 16 << 10}, {1184960, 1152 << 10}, {660288, 640 << 10}, {99200, 96 << 10}, {49600, 48 << 10}, {1060928, 1 << 20}, {64, 64}} {
		if got := roundSize(c[0]); got != c[1] {
			t.Errorf("roundSize(%d) = %d, want %d", c[0], got, c[1])
		}
	}
}
