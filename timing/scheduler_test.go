package timing

import (
	"math"
	"testing"
)

// newTestScheduler is a scheduler holding n warps whose next groups are
// ready at the given times (+Inf: nothing to issue), using no pipe.
func newTestScheduler(ready ...float64) *scheduler {
	s := &scheduler{}
	s.ready.flat = true
	for _, at := range ready {
		w := &warpState{nextWhy: StallMemory}
		s.add(w)
		s.set(w, at, 0)
	}
	return s
}

// pickOrder picks n times at t with a free port and pipes and returns the
// warps chosen, by index.
func pickOrder(s *scheduler, t float64, n int) []int {
	var out []int
	for range n {
		w, start, why := s.pick(t, 0, nil)
		if w == nil || start != t || why != StallNone {
			return append(out, -1)
		}
		out = append(out, w.pos)
	}
	return out
}

// Warps that can all issue take turns: each pick takes the next after the
// one that issued last (the first pick starts after warp 0).
func TestSchedulerRoundRobin(t *testing.T) {
	s := newTestScheduler(0, 0, 0, 0)
	if got, want := pickOrder(s, 5, 6), []int{1, 2, 3, 0, 1, 2}; !equalInts(got, want) {
		t.Errorf("picks %v, want %v", got, want)
	}
	// A warp not ready yet is passed over; the turn goes on after the
	// warp that issued.
	s.set(s.warps[3], 9, 0)
	if got, want := pickOrder(s, 5, 3), []int{0, 1, 2}; !equalInts(got, want) {
		t.Errorf("with warp 3 waiting: picks %v, want %v", got, want)
	}
}

// With no warp ready, pick chooses the one that can start soonest (ties:
// round-robin from the last issuer) and says what it waits for: its
// inputs, or the pipe its group needs when that is free later.
func TestSchedulerEarliest(t *testing.T) {
	s := newTestScheduler(8, 3, 3, math.Inf(1))
	s.last = 1 // warp 2 is next in turn, so it wins the tie at 3
	w, start, why := s.pick(0, 0, nil)
	if w != s.warps[2] || start != 3 || why != StallMemory {
		t.Fatalf("pick = warp %d at %v (%v), want warp 2 at 3 (memory)", w.pos, start, why)
	}
	// Warp 0's group needs pipe 1, busy until 20: warp 1 starts at 3.
	pipeFree := []float64{0, 20}
	s.set(s.warps[0], 0, 1<<1)
	s.set(s.warps[1], 25, 0)
	s.set(s.warps[2], 25, 0)
	w, start, why = s.pick(0, 0, pipeFree)
	if w != s.warps[0] || start != 20 || why != StallPipe {
		t.Fatalf("pick = warp %d at %v (%v), want warp 0 at 20 (pipe)", w.pos, start, why)
	}
	// A busy issue port holds every warp back to its free time; the tie
	// at 30 goes to warp 1, next in turn, waiting on its inputs (25).
	w, start, why = s.pick(0, 30, pipeFree)
	if w != s.warps[1] || start != 30 || why != StallMemory {
		t.Errorf("port busy until 30: warp %d at %v (%v), want warp 1 at 30 (memory)", w.pos, start, why)
	}
}

// With nothing to issue anywhere the engine has no warp to run.
func TestSchedulerNoWarp(t *testing.T) {
	for _, s := range []*scheduler{newTestScheduler(), newTestScheduler(math.Inf(1), math.Inf(1))} {
		if w, _, why := s.pick(0, 0, nil); w != nil || why != StallNoWarp {
			t.Errorf("%d warps with nothing to issue: picked %v (%v)", len(s.warps), w, why)
		}
	}
}

// A retired warp leaves the others in order, and the turn still passes to
// the warp after the one that issued last.
func TestSchedulerRemove(t *testing.T) {
	s := newTestScheduler(0, 0, 0, 0, 0)
	w2, w3 := s.warps[2], s.warps[3]
	pickOrder(s, 0, 2) // warps 1 and 2
	s.remove(s.warps[1])
	if w2.pos != 1 || w3.pos != 2 || len(s.warps) != 4 {
		t.Fatalf("after removing warp 1: positions %d %d, %d warps", w2.pos, w3.pos, len(s.warps))
	}
	if w, _, _ := s.pick(0, 0, nil); w != w3 {
		t.Errorf("next pick %d, want the warp that followed the last issuer", w.pos)
	}
	// Removing the last issuer hands the turn to the warp after it.
	s.remove(w3)
	if w, _, _ := s.pick(0, 0, nil); w != s.warps[2] {
		t.Errorf("after removing the last issuer: picked %d, want 2", w.pos)
	}
}

// A stall is booked when it closes, for the time actually waited, by the
// cause it opened with.
func TestSchedulerStalls(t *testing.T) {
	s := newTestScheduler(0)
	w := s.warps[0]
	s.stall(10, StallBarrier, w)
	if got, why, d := s.closeStall(25); got != w || why != StallBarrier || d != 15 {
		t.Errorf("closeStall = %v, %v, %v; want the warp, barrier, 15", got, why, d)
	}
	if _, _, d := s.closeStall(40); d != 0 {
		t.Errorf("a closed stall booked %v more", d)
	}
	// A wake brought the step forward to the stall's start: nothing waited.
	s.stall(50, StallMemory, w)
	if _, _, d := s.closeStall(50); d != 0 {
		t.Errorf("an empty stall booked %v", d)
	}
	want := StallCounts{}
	want[StallBarrier] = 15
	if s.stalls != want {
		t.Errorf("stalls %v, want %v", s.stalls, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
