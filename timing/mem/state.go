package mem

// This file fingerprints the hierarchy's state between kernels: what a
// kernel starting now would find in the caches. Two hierarchies with the
// same fingerprint time the same kernel identically, so a launch that
// repeats an earlier one from the same state can reuse its time.

import (
	"encoding/binary"
	"hash/maphash"
)

// State is a fingerprint of what the hierarchy holds between kernels: every
// cache's and the TLB's lines in recency order and which are dirty (with the
// stream each dirty line is charged to). Servers and counters are left out:
// they restart with every kernel (ResetCounters). Equal states are equal
// fingerprints; different ones collide with probability about 2^-128.
type State [2]uint64

// stateSeeds are the fingerprint's two hash seeds, fixed per process:
// fingerprints compare within one run of pocketgpu only.
var stateSeeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}

// State fingerprints the hierarchy as the next kernel would find it
// (after Flush and ResetCounters, every line is ready at once; lines'
// ready times are therefore not part of it).
func (h *Hierarchy) State() State {
	var hs [2]maphash.Hash
	for i := range hs {
		hs[i].SetSeed(stateSeeds[i])
	}
	var buf []byte
	h.eachCache(func(c *cache) {
		buf = c.appendState(buf[:0])
		for i := range hs {
			hs[i].Write(buf)
		}
	})
	return State{hs[0].Sum64(), hs[1].Sum64()}
}

// appendState appends the cache's contents to b: each set's lines in
// recency order, with their dirty bits and streams. Which way a line sits
// in is left out: replacement looks only at the order, so two caches whose
// sets hold the same lines in the same order behave the same.
func (c *cache) appendState(b []byte) []byte {
	b = binary.LittleEndian.AppendUint64(b, uint64(len(c.tags)))
	for base := 0; base < len(c.tags); base += c.assoc {
		for _, w := range c.order[base : base+c.assoc] {
			k := base + int(w)
			t := c.tags[k]
			b = binary.LittleEndian.AppendUint64(b, t)
			if m := &c.meta[k]; m.dirty && t != 0 {
				b = append(b, 1, byte(m.stream))
			} else {
				b = append(b, 0, 0)
			}
		}
	}
	return b
}
