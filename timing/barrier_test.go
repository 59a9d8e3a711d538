package timing

import "testing"

// A barrier is full when every warp of the work-group is there or has
// finished, opens its latency after the last arrival (stores accepted),
// and starts over empty.
func TestBarrier(t *testing.T) {
	var b barrier
	if b.full(4, 0) {
		t.Fatal("an empty barrier is full")
	}
	b.arrive(30)
	b.arrive(12) // arrivals out of time order: the latest counts
	b.arrive(25)
	if b.full(4, 0) {
		t.Error("full with 3 of 4 warps")
	}
	if !b.full(4, 1) {
		t.Error("not full with 3 warps waiting and the fourth finished")
	}
	b.arrive(28)
	if !b.full(4, 0) {
		t.Error("not full with all 4 warps")
	}
	if at := b.opens(4); at != 34 {
		t.Errorf("opens at %v, want 30 + 4", at)
	}
	b.reset()
	if b.full(4, 3) || b.opens(4) != 4 {
		t.Errorf("after reset: %+v", b)
	}
	// Finished warps alone do not make a barrier: nobody waits at it.
	if b.full(2, 2) {
		t.Error("full with no warp waiting")
	}
}
