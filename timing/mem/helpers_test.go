package mem

import (
	"math/rand/v2"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

const bufBase = 0x10_0000_0000 // where the executor maps the first buffer

func lookup(t testing.TB, name string) *arch.GPU {
	t.Helper()
	g, err := arch.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// chaseOrder is a random single-cycle permutation of the footprint's
// elements at the given stride (Sattolo's algorithm), as the seeds' latency
// tests walk memory; fixed seed, so deterministic.
func chaseOrder(footprint, stride int) []uint64 {
	n := max(footprint/stride, 1)
	perm := make([]int, n)
	for i := range perm {
		perm[i] = i
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := n - 1; i > 0; i-- {
		j := r.IntN(i)
		perm[i], perm[j] = perm[j], perm[i]
	}
	// perm is one cycle; walk it from element 0.
	next := make([]int, n)
	for i := range n {
		next[perm[i]] = perm[(i+1)%n]
	}
	order := make([]uint64, n)
	at := 0
	for i := range order {
		order[i] = uint64(at * stride)
		at = next[at]
	}
	return order
}

// chase runs a dependent single-lane load chain over the footprint at the
// given stride (each load issued when the one before returns) and returns
// the average latency of the last of passes walks.
func chase(h *Hierarchy, kind Kind, space ir.Space, footprint, stride, passes int) float64 {
	order := chaseOrder(footprint, stride)
	r := &Request{Core: 0, Space: space, Kind: kind, Bytes: 4, Lanes: 1, Addrs: make([]uint64, 1)}
	if kind == Texture {
		r.Bytes = 16
	}
	base := uint64(bufBase)
	if space == ir.SpaceLocal {
		base = 0
	}
	t := 0.0
	var start float64
	for p := range passes {
		if p == passes-1 {
			start = t
		}
		for _, off := range order {
			r.Addrs[0] = base + off
			t = h.Access(t, r).Done
		}
	}
	return (t - start) / float64(len(order))
}

// stream has cores 0..cores-1 each sweep their share of a footprint with
// full-warp coalesced accesses of bytesPerLane (kind Load, Store or
// Texture), one request per cycle at most and up to inflight outstanding,
// and returns the bytes per cycle all of them moved over the passes after
// the first (which warms the caches).
func stream(h *Hierarchy, g *arch.GPU, kind Kind, cores, footprint, bytesPerLane, passes, inflight int) float64 {
	warp := g.WidestWarp()
	chunk := warp * bytesPerLane
	per := max(footprint/cores/chunk, 1) * chunk
	type coreState struct {
		q []float64 // completion times of the outstanding requests (ring)
		k int
		t float64
	}
	cs := make([]coreState, cores)
	for i := range cs {
		cs[i].q = make([]float64, inflight)
	}
	r := &Request{Space: ir.SpaceGlobal, Kind: kind, Bytes: bytesPerLane, Lanes: warp, Addrs: make([]uint64, warp)}
	var start, end float64
	for p := range passes {
		if p == 1 {
			start = end
			for i := range cs {
				cs[i].t = end
				clear(cs[i].q)
			}
		}
		for off := 0; off < per; off += chunk {
			for c := range cs {
				s := &cs[c]
				s.t = max(s.t+1, s.q[s.k])
				r.Core = c
				for l := range warp {
					r.Addrs[l] = uint64(bufBase + c*per + off + l*bytesPerLane)
				}
				d := h.Access(s.t, r).Done
				s.q[s.k] = d
				s.k = (s.k + 1) % inflight
				end = max(end, d)
			}
		}
	}
	return float64(per*cores*(passes-1)) / (end - start)
}
