package mem

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// One wave128 of float4 loads sweeping a footprint linearly, pass after
// pass, keeps nothing of a footprint four times the Adreno 640's 128 KB L2
// (true LRU: every line is gone before the sweep comes back to it) and
// everything of one half its size. Issue 25 suspected the L2 of keeping much
// of a footprint 4-12 times its size; the hits a GpuMemLatency-shaped
// kernel gets there come from its work-groups rereading each other's lines
// (docs/timing.md), not from the L2's replacement.
func TestLinearSweepL2Hits(t *testing.T) {
	for _, tc := range []struct {
		kib    int
		lo, hi float64 // L2 hit rate of the last pass
	}{
		{512, 0, 0},
		{64, 1, 1},
	} {
		h := New(lookup(t, "adreno-640"))
		addrs := make([]uint64, 128)
		r := &Request{Core: 0, Space: ir.SpaceGlobal, Kind: Load, Bytes: 16, Lanes: 128, Addrs: addrs}
		now := 0.0
		var acc, hits int64
		for pass := range 3 {
			before := h.Counters()
			for off := 0; off < tc.kib*1024; off += len(addrs) * 16 {
				for i := range addrs {
					addrs[i] = bufBase + uint64(off+16*i)
				}
				now = h.Access(now, r).Done
			}
			if pass == 2 {
				after := h.Counters()
				for s := range after.L2 {
					acc += after.L2[s].Accesses - before.L2[s].Accesses
					hits += after.L2[s].Hits - before.L2[s].Hits
				}
			}
		}
		if rate := float64(hits) / float64(acc); rate < tc.lo || rate > tc.hi {
			t.Errorf("%d KB swept: L2 hit rate %.3f on the third pass, want %.0f to %.0f", tc.kib, rate, tc.lo, tc.hi)
		}
	}
}
