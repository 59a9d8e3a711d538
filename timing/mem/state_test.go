package mem

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// TestStateFollowsContents checks the fingerprint sees what a kernel would
// find: equal for equal histories, changed by an access, a write (dirty
// line) and a flush, and not by the clock restarting.
func TestStateFollowsContents(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		t.Run(gpu, func(t *testing.T) {
			g := lookup(t, gpu)
			a, b := New(g), New(g)
			if a.State() != b.State() {
				t.Fatal("two fresh hierarchies differ")
			}
			load := func(h *Hierarchy, addr uint64, kind Kind) {
				h.Access(0, &Request{Core: 0, Space: ir.SpaceGlobal, Kind: kind, Bytes: 4, Lanes: 1, Addrs: []uint64{addr}})
			}
			fresh := a.State()
			load(a, bufBase, Load)
			read := a.State()
			if read == fresh {
				t.Fatal("a load left the state unchanged")
			}
			load(b, bufBase, Load)
			if a.State() != b.State() {
				t.Fatal("the same load on two hierarchies gave different states")
			}
			a.ResetCounters()
			if a.State() != read {
				t.Fatal("restarting the clock changed the state")
			}
			load(a, bufBase+64, Store)
			dirty := a.State()
			if dirty == read {
				t.Fatal("a store left the state unchanged")
			}
			a.Flush(0)
			if a.State() == dirty {
				t.Fatal("a flush of dirty lines left the state unchanged")
			}
			a.Reset()
			if a.State() != fresh {
				t.Fatal("a reset hierarchy differs from a fresh one")
			}
		})
	}
}
