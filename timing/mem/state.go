package mem

// This file fingerprints the hierarchy's state between kernels: what a
// kernel starting now would find in the caches. Two hierarchies with the
// same fingerprint time the same kernel identically, so a launch that
// repeats an earlier one from the same state can reuse its time.

import (
	"hash/maphash"
	"unsafe"
)

// State is a fingerprint of what the hierarchy holds between kernels: every
// cache's and the TLB's lines in recency order and which are dirty (with the
// stream each dirty line is charged to). Servers and counters are left out:
// they restart with every kernel (ResetCounters). Equal states are equal
// fingerprints; different ones collide with probability about 2^-64.
type State uint64

// stateSeed is the fingerprint's hash seed, fixed per process:
// fingerprints compare within one run of pocketgpu only.
var stateSeed = maphash.MakeSeed()

// State fingerprints the hierarchy as the next kernel would find it
// (after Flush and ResetCounters, every line is ready at once; lines'
// ready times are therefore not part of it). It is taken twice a timed
// launch, so it hashes words gathered into one buffer, not a value at a
// time: the Adreno 640's 2 MiB system-level cache takes about 0.1 ms.
func (h *Hierarchy) State() State {
	var hs maphash.Hash
	hs.SetSeed(stateSeed)
	h.eachCache(func(c *cache) {
		h.stateWords = c.appendState(h.stateWords[:0])
		w := h.stateWords
		hs.Write(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(w))), 8*len(w)))
	})
	return State(hs.Sum64())
}

// appendState appends the cache's contents to b, a word a way: each set's
// lines in recency order, the tag (line + 1, 0 for an empty way) with the
// line's dirty bit in bit 63 and, when dirty, its stream in bits 60-62.
// Which way a line sits in is left out: replacement looks only at the
// order, so two caches whose sets hold the same lines in the same order
// behave the same. (Line numbers are addresses over a line size of at
// least a byte, well under 2^60.)
func (c *cache) appendState(b []uint64) []uint64 {
	b = append(b, uint64(len(c.tags)))
	n := len(b)
	b = append(b, make([]uint64, len(c.tags))...)
	out := b[n:]
	for base := 0; base < len(c.tags); base += c.assoc {
		for j, w := range c.order[base : base+c.assoc] {
			k := base + int(w)
			v := c.tags[k]
			if m := &c.meta[k]; m.dirty && v != 0 {
				v |= 1<<63 | uint64(m.stream&7)<<60
			}
			out[base+j] = v
		}
	}
	return b
}
