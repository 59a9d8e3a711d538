package mem

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// A wave128 whose lanes all read the same float4 (a broadcast) costs the
// Adreno 640's uSPTP path every lane's 16 bytes with l2.core_path_per_lane:
// 2048 bytes at 32 B/cycle, 64 cycles, so back-to-back broadcasts complete
// 64 cycles apart, as loads of 128 distinct float4s do. Without it the
// path carries the one line once and they come half a cycle apart.
func TestBroadcastCostsEveryLane(t *testing.T) {
	for _, tc := range []struct {
		name    string
		perLane bool
		lo, hi  float64 // cycles between the two completions
	}{
		{"per lane", true, 63, 65},
		{"per line", false, 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := lookup(t, "adreno-640")
			gg := *g
			gg.L2.CorePathPerLane = tc.perLane
			h := New(&gg)
			addrs := make([]uint64, 128)
			for i := range addrs {
				addrs[i] = bufBase
			}
			r := &Request{Core: 0, Space: ir.SpaceGlobal, Kind: Load, Bytes: 16, Lanes: 128, Addrs: addrs}
			h.Access(0, r) // the line comes into L2
			a := h.Access(10000, r)
			b := h.Access(10000, r)
			if d := b.Done - a.Done; d < tc.lo || d > tc.hi {
				t.Errorf("second broadcast done %.1f cycles after the first, want %.0f to %.0f", d, tc.lo, tc.hi)
			}
			// Distinct lanes cost the same either way.
			for i := range addrs {
				addrs[i] = bufBase + uint64(16*i)
			}
			h.Access(20000, r)
			c := h.Access(30000, r)
			d := h.Access(30000, r)
			if diff := d.Done - c.Done; diff < 63 || diff > 65 {
				t.Errorf("distinct lanes: second load done %.1f cycles after the first, want 64", diff)
			}
		})
	}
}
