package device

import (
	"slices"
	"sync"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
)

// kernelCache keeps what every launch of a kernel would work out again
// the same way: its lowering and its occupancy, per GPU. A program such as
// clpeak's kernel-latency test launches one small kernel 20,000 times.
// It relies on a GPU description not changing once a device runs on it.
type kernelCache struct {
	mu        sync.Mutex
	lowerings map[lowering]*isa.Program
	occs      map[occQuery]arch.Occupancy
}

// lowering names a kernel's lowering: the GPU's description and the warp
// width.
type lowering struct {
	gpu   *arch.GPU
	width int
}

// occQuery names an occupancy question about a kernel.
type occQuery struct {
	gpu *arch.GPU
	q   arch.OccupancyQuery
}

// lowered is the kernel lowered for g at a warp width, lowered once:
// families.Lower gives the same program every launch (it was a third of a
// small timed launch's time) and the engine only reads it.
func (k *Kernel) lowered(g *arch.GPU, width int) (*isa.Program, error) {
	c := &k.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	key := lowering{g, width}
	if ip := c.lowerings[key]; ip != nil {
		return ip, nil
	}
	ip, err := families.Lower(k.program(), g, width)
	if err != nil {
		return nil, err
	}
	if c.lowerings == nil {
		c.lowerings = map[lowering]*isa.Program{}
	}
	c.lowerings[key] = ip
	return ip, nil
}

// occupancy is g's answer to q, asked once (arch writes out its
// explanation each time). The explanation is clipped, so that a caller
// appending to it copies it.
func (k *Kernel) occupancy(g *arch.GPU, q arch.OccupancyQuery) (arch.Occupancy, error) {
	c := &k.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	key := occQuery{g, q}
	if occ, ok := c.occs[key]; ok {
		return occ, nil
	}
	occ, err := g.Occupancy(q)
	if err != nil {
		return occ, err
	}
	occ.Explanation = slices.Clip(occ.Explanation)
	if c.occs == nil {
		c.occs = map[occQuery]arch.Occupancy{}
	}
	c.occs[key] = occ
	return occ, nil
}
