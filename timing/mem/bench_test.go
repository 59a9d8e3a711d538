package mem

import (
	"math/rand/v2"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// BenchmarkAccess measures how many warp-instruction accesses per second the
// model times (the engine needs millions). Each case cycles through a
// prepared list of requests so that only Access is timed.
func BenchmarkAccess(b *testing.B) {
	cases := []struct {
		name      string
		gpu       string
		kind      Kind
		space     ir.Space
		bytes     int
		footprint int
		random    bool
	}{
		{"g52/coalesced-L1", "mali-g52", Load, ir.SpaceGlobal, 4, 8 << 10, false},
		{"g52/coalesced-DRAM", "mali-g52", Load, ir.SpaceGlobal, 4, 64 << 20, false},
		{"g52/gather-DRAM", "mali-g52", Load, ir.SpaceGlobal, 4, 64 << 20, true},
		{"g52/store-L2", "mali-g52", Store, ir.SpaceGlobal, 16, 64 << 10, false},
		{"g52/local", "mali-g52", Load, ir.SpaceLocal, 16, 16 << 10, false},
		{"g52/texture", "mali-g52", Texture, ir.SpaceGlobal, 16, 64 << 10, false},
		{"a640/wave128-L2", "adreno-640", Load, ir.SpaceGlobal, 4, 64 << 10, false},
		{"a640/wave128-gather-DRAM", "adreno-640", Load, ir.SpaceGlobal, 4, 256 << 20, true},
		{"a640/local", "adreno-640", Load, ir.SpaceLocal, 4, 16 << 10, false},
		{"gx6250/task-L1", "powervr-gx6250", Load, ir.SpaceGlobal, 4, 8 << 10, false},
		{"gx6250/task-DRAM", "powervr-gx6250", Load, ir.SpaceGlobal, 16, 64 << 20, false},
		{"gx6250/common-store", "powervr-gx6250", Load, ir.SpaceLocal, 4, 4 << 10, false},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			g := lookup(b, tc.gpu)
			h := New(g)
			warp := g.WidestWarp()
			rng := rand.New(rand.NewPCG(3, 4))
			const n = 4096
			reqs := make([]Request, n)
			for i := range reqs {
				addrs := make([]uint64, warp)
				base := uint64(i*warp*tc.bytes) % uint64(tc.footprint)
				for l := range addrs {
					off := base + uint64(l*tc.bytes)
					if tc.random {
						off = uint64(rng.IntN(tc.footprint/tc.bytes) * tc.bytes)
					}
					if tc.space == ir.SpaceGlobal {
						off += bufBase
					}
					addrs[l] = off
				}
				reqs[i] = Request{Core: i % g.Cores, Space: tc.space, Kind: tc.kind, Addrs: addrs, Bytes: tc.bytes, Lanes: warp}
			}
			b.ResetTimer()
			t := 0.0
			for i := 0; i < b.N; i++ {
				h.Access(t, &reqs[i%n])
				t += 0.25
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "accesses/s")
		})
	}
}
