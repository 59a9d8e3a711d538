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
