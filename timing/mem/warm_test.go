package mem

import (
	"reflect"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// TestWarming: accesses while warming leave the caches as the same
// accesses made for real would (the state fingerprint agrees), but no
// count and no server changes, and a later access finds the warmed lines
// at once.
func TestWarming(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		t.Run(gpu, func(t *testing.T) {
			g := lookup(t, gpu)
			warm, real := New(g), New(g)
			req := func(i int, kind Kind) *Request {
				addrs := make([]uint64, 16)
				for l := range addrs {
					addrs[l] = bufBase + uint64(i*1024+l*4)
				}
				return &Request{Core: i % g.Cores, Space: ir.SpaceGlobal, Kind: kind, Bytes: 4, Lanes: 16, Addrs: addrs}
			}
			// Some detailed work first, then a stretch warmed on one
			// hierarchy and run for real on the other.
			for i := range 4 {
				warm.Access(float64(i), req(i, Load))
				real.Access(float64(i), req(i, Load))
			}
			before := warm.Counters()
			servers := append([]server(nil), warm.l2Srv...)
			warm.StartWarming()
			for i := 4; i < 400; i++ {
				kind := Load
				if i%3 == 0 {
					kind = Store
				}
				warm.Access(1000, req(i, kind))
				real.Access(1000, req(i, kind))
			}
			warm.StopWarming()
			if !reflect.DeepEqual(warm.Counters(), before) {
				t.Error("warming changed the counters")
			}
			if !reflect.DeepEqual(warm.l2Srv, servers) {
				t.Error("warming booked the L2's servers")
			}
			if warm.State() != real.State() {
				t.Error("the warmed caches differ from the ones the same accesses left for real")
			}
			// The last line warmed is there and ready: an L1 (or L2) hit.
			res := warm.Access(2000, req(399, Load))
			if res.Cause != L1Hit && res.Cause != L2Hit {
				t.Errorf("a load of a warmed line: %v", res.Cause)
			}
			if res.Done > 2000+2*float64(g.L2.LatencyCycles)+100 {
				t.Errorf("a load of a warmed line at 2000 returned at %v", res.Done)
			}
		})
	}
}
