package emu

import "testing"

// Runs counts the runs of n lanes with an active lane, over the warp's
// width only.
func TestMaskRuns(t *testing.T) {
	var lowHalf, oneEach, none Mask
	for l := 0; l < 64; l++ {
		lowHalf.Set(l)
	}
	oneEach.Set(3)
	oneEach.Set(127)
	tests := []struct {
		m        Mask
		width, n int
		want     int
	}{
		{lowHalf, 128, 64, 1},
		{lowHalf, 128, 32, 2},
		{lowHalf, 64, 64, 1},
		{oneEach, 128, 64, 2},
		{oneEach, 128, 16, 2},
		{oneEach, 64, 16, 1}, // lane 127 is past the width
		{none, 128, 64, 0},
		{lowHalf, 128, 0, 0},
		{lowHalf, 96, 64, 1}, // a last, shorter run
	}
	for _, tt := range tests {
		if got := tt.m.Runs(tt.width, tt.n); got != tt.want {
			t.Errorf("Runs(%d, %d) of %x = %d, want %d", tt.width, tt.n, tt.m, got, tt.want)
		}
	}
}

// firstLanes holds lanes 0 to n-1.
func TestFirstLanes(t *testing.T) {
	for _, n := range []int{0, 1, 7, 63, 64, 65, 100, 127, 128} {
		m := firstLanes(n)
		for l := 0; l < MaxWidth; l++ {
			if m.Has(l) != (l < n) {
				t.Fatalf("firstLanes(%d) has lane %d: %v", n, l, m.Has(l))
			}
		}
	}
}
