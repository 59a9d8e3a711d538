package mem

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// The tallies taken around each request add up to the hierarchy's own
// totals, on a GPU with an L1 and one without, loads, stores and textures.
func TestTallyAddsUp(t *testing.T) {
	for _, name := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		h := New(lookup(t, name))
		var sum Tally
		now := 0.0
		addrs := make([]uint64, 16)
		for i := 0; i < 4000; i++ {
			for l := range addrs {
				addrs[l] = bufBase + uint64((i*977+l*64*(i%3))%(4<<20))
			}
			r := &Request{Core: i % 2, Space: ir.SpaceGlobal, Kind: Kind(i % 4), Addrs: addrs, Bytes: 4, Lanes: len(addrs)}
			if r.Kind == Atomic {
				r.Kind = Load
			}
			before := h.Tally()
			res := h.Access(now, r)
			sum = addTally(sum, h.Tally().Sub(before))
			now = max(now+1, res.Done-200)
		}
		c := h.Counters()
		l1, tex, l2 := c.L1Total(), c.TextureTotal(), c.L2Total()
		want := Tally{l1.Accesses, l1.Misses, tex.Accesses, tex.Misses, l2.Accesses, l2.Misses, c.DRAMReadBytes + c.DRAMWriteBytes}
		if sum != want || want.L2Misses == 0 {
			t.Errorf("%s: tallies add up to %+v, the counters say %+v", name, sum, want)
		}
	}
}

func addTally(a, b Tally) Tally {
	return Tally{a.L1Accesses + b.L1Accesses, a.L1Misses + b.L1Misses, a.TextureAccesses + b.TextureAccesses, a.TextureMisses + b.TextureMisses,
		a.L2Accesses + b.L2Accesses, a.L2Misses + b.L2Misses, a.DRAMBytes + b.DRAMBytes}
}
