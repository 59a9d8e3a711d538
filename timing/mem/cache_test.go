package mem

import (
	"math/rand/v2"
	"testing"
)

// refLRU is the plainest true-LRU cache: use stamps, the victim the first
// way used longest ago (never-used ways have stamp 0, so the lowest empty
// way fills first).
type refLRU struct {
	sets, ways int
	tags, used []uint64
	dirty      []bool
	clock      uint64
}

func (r *refLRU) access(line uint64, write bool) (hit bool, victim uint64, victimDirty bool) {
	b := int(line%uint64(r.sets)) * r.ways
	r.clock++
	for i := b; i < b+r.ways; i++ {
		if r.tags[i] == line+1 {
			r.used[i] = r.clock
			r.dirty[i] = r.dirty[i] || write
			return true, 0, false
		}
	}
	k := b
	for i := b; i < b+r.ways; i++ {
		if r.used[i] < r.used[k] {
			k = i
		}
	}
	if r.tags[k] != 0 {
		victim, victimDirty = r.tags[k]-1, r.dirty[k]
	}
	r.tags[k], r.used[k], r.dirty[k] = line+1, r.clock, write
	return false, victim, victimDirty
}

// TestCacheMatchesReferenceLRU runs random traces with locality through
// caches of several shapes and the reference: every hit, victim and dirty
// write-back must agree, and so must the flush order.
func TestCacheMatchesReferenceLRU(t *testing.T) {
	for _, shape := range []struct{ sets, ways int }{{1, 1}, {4, 1}, {1, 16}, {8, 4}, {16, 8}, {3, 5}} {
		c := newCache(shape.sets*shape.ways*64, 64, shape.ways, 1)
		r := &refLRU{sets: shape.sets, ways: shape.ways, tags: make([]uint64, shape.sets*shape.ways),
			used: make([]uint64, shape.sets*shape.ways), dirty: make([]bool, shape.sets*shape.ways)}
		rng := rand.New(rand.NewPCG(1, uint64(shape.sets*100+shape.ways)))
		span := uint64(shape.sets * shape.ways * 2)
		for i := 0; i < 20000; i++ {
			line := rng.Uint64N(span)
			if rng.IntN(4) == 0 {
				line += uint64(i) // a stream of new lines
			}
			write := rng.IntN(3) == 0
			hit, _, victim, dirty := c.access(line, write, float64(i))
			rh, rv, rd := r.access(line, write)
			if hit != rh || victim != rv || dirty != rd {
				t.Fatalf("%d×%d access %d (line %d write %v): hit %v victim %d dirty %v; reference %v %d %v",
					shape.sets, shape.ways, i, line, write, hit, victim, dirty, rh, rv, rd)
			}
		}
		var got, want []uint64
		c.dirtyLines(func(line uint64, _ Stream) { got = append(got, line) })
		for i, d := range r.dirty {
			if d && r.tags[i] != 0 {
				want = append(want, r.tags[i]-1)
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%d×%d: flush wrote %d lines, reference %d", shape.sets, shape.ways, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%d×%d: flush line %d is %d, reference %d", shape.sets, shape.ways, i, got[i], want[i])
			}
		}
	}
}

// A line allocated by a miss is present at once but ready only when its
// fill returns: a second access hits and waits for the same fill.
func TestCacheHitAfterMissWaitsForFill(t *testing.T) {
	c := newCache(4*64, 64, 2, 1) // 2 sets × 2 ways
	if hit, ready, _, _ := c.access(5, false, 10); hit || ready != 10 {
		t.Fatalf("cold access: hit %v ready %.0f, want a miss ready at 10", hit, ready)
	}
	c.setReady(5, 100)
	if hit, ready, _, _ := c.access(5, false, 20); !hit || ready != 100 {
		t.Errorf("second access: hit %v ready %.0f, want a hit ready at the fill (100)", hit, ready)
	}
	c.settle()
	if _, ready, _, _ := c.access(5, false, 0); ready != 0 {
		t.Errorf("after settle: ready %.0f, want 0", ready)
	}
	c.reset()
	if hit, _, _, _ := c.access(5, false, 0); hit {
		t.Error("after reset: hit, want a miss")
	}
}

// In a 2-way set the victim is the least recently used line; a written
// line is evicted dirty, and other sets are not disturbed.
func TestCacheLRUEvictionOrder(t *testing.T) {
	c := newCache(4*64, 64, 2, 1) // lines 0, 2, 4, 6 share set 0
	type want struct {
		hit    bool
		victim uint64
		dirty  bool
	}
	steps := []struct {
		line  uint64
		write bool
		want  want
	}{
		{0, false, want{false, 0, false}},
		{2, false, want{false, 0, false}},
		{0, false, want{true, 0, false}}, // 0 most recently used
		{4, false, want{false, 2, false}},
		{0, true, want{true, 0, false}}, // 0 dirty and most recent
		{6, false, want{false, 4, false}},
		{2, false, want{false, 0, true}}, // evicts the dirty 0
		{1, false, want{false, 0, false}},
		{6, false, want{true, 0, false}},
	}
	for i, s := range steps {
		hit, _, victim, dirty := c.access(s.line, s.write, 0)
		if got := (want{hit, victim, dirty}); got != s.want {
			t.Errorf("step %d (line %d): %+v, want %+v", i, s.line, got, s.want)
		}
	}
}

// A slice of an address-interleaved level holds every stride-th line: with
// two slices, lines 0 and 2 are consecutive in slice 0 and fall in
// different sets of a 2-set direct-mapped slice, while 0 and 4 collide.
func TestCacheSliceSetIndex(t *testing.T) {
	c := newCache(2*64, 64, 1, 2)
	c.access(0, false, 0)
	if hit, _, _, _ := c.access(2, false, 0); hit {
		t.Fatal("line 2 hit a cold slice")
	}
	if hit, _, _, _ := c.access(0, false, 0); !hit {
		t.Error("line 2 evicted line 0: consecutive lines of a slice must use consecutive sets")
	}
	if _, _, victim, _ := c.access(4, false, 0); victim != 0 {
		t.Errorf("line 4 evicted %d, want 0 (same set)", victim)
	}
}

// A server starts a request when both it and the request are there, and
// the first cycle of a service counts as part of the level's latency.
func TestServerQueueing(t *testing.T) {
	var s server
	if got := s.take(10, 4); got != 10 {
		t.Errorf("idle server started at %.0f, want 10", got)
	}
	if got := s.take(11, 4); got != 14 {
		t.Errorf("busy server started at %.0f, want 14", got)
	}
	if got := s.take(30, 0.5); got != 30 {
		t.Errorf("idle again: started at %.0f, want 30", got)
	}
	if s.busy != 8.5 || s.free != 30.5 {
		t.Errorf("busy %.1f free %.1f, want 8.5 and 30.5", s.busy, s.free)
	}
	if tail(10, 4) != 13 || tail(10, 1) != 10 || tail(10, 0.5) != 10 {
		t.Errorf("tail(10, 4/1/0.5) = %.1f %.1f %.1f, want 13 10 10", tail(10, 4), tail(10, 1), tail(10, 0.5))
	}
}
