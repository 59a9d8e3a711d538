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

// unitYAML is a small Mali-G52 with round figures, so that the unit tests
// can work their expected times out by hand: a 1000 MHz clock; an L1 of
// 1 KiB, 64-byte lines, 2 ways (8 sets), 10 cycles, 32 B/cycle, a warp's
// 8 lanes a cycle; a texture
// cache of 1 KiB, 4 ways, 70 cycles, 2 samples per clock after a cycle
// per message; an L2 of 4 KiB
// in 2 slices of 2 ways (16 sets each), 20 cycles, 16 B/cycle per slice
// and 8 B/cycle per core path; no SLC; DRAM of 32 bits × 2000 MT/s at 50%
// efficiency (4 GB/s achieved: 4 B/cycle) and 100 ns (100 cycles); a TLB
// of 4 entries in 2 ways (2 sets) of 4 KiB pages, misses 50 cycles;
// atomics 30 cycles at 0.5 per clock; copies to the GPU at full and from it
// at half the copy bandwidth.
const unitYAML = `base: mali-g52
clock_mhz: 1000
l1: {size_kib: 1, line_bytes: 64, ways: 2, latency_cycles: 10, bytes_per_cycle: 32, lookups_per_cycle: 1, lanes_per_cycle: 8}
texture_cache: {size_kib: 1, line_bytes: 64, ways: 4, latency_cycles: 70}
texture: {samples_per_clock: 2, cores_per_unit: 1, cycles_per_message: 1}
l2: {size_kib: 4, line_bytes: 64, ways: 2, slices: 2, latency_cycles: 20, bytes_per_cycle: 16, core_bytes_per_cycle: 8}
dram: {bus_bits: 32, transfer_mts: 2000, efficiency: 0.5, latency_ns: 100}
tlb: {entries: 4, ways: 2, page_kib: 4, miss_latency_cycles: 50}
atomics: {latency_cycles: 30, ops_per_clock: 0.5}
host_copy: {to_gpu_factor: 1, from_gpu_factor: 0.5}
`

// unitHierarchy is a cold hierarchy of unitYAML.
func unitHierarchy(t testing.TB) *Hierarchy {
	t.Helper()
	return New(userGPU(t, unitYAML))
}
