package mem

// This file models the GPU TLB: a set-associative cache of page numbers whose
// misses add tlb.miss_latency_cycles.

// translate looks a page up in the GPU TLB and returns the latency a miss
// adds (tlb.miss_latency_cycles; seed 001 §L2 Cache and Beyond: latency
// skyrockets at large footprints, likely TLB misses).
func (h *Hierarchy) translate(addr uint64) float64 {
	page := addr >> h.p.pageShift
	if page+1 == h.lastTLB {
		return 0
	}
	h.lastTLB = page + 1
	h.c.TLBLookups++
	if hit, _, _, _ := h.tlb.access(page, false, 0); hit {
		return 0
	}
	h.c.TLBMisses++
	return h.p.tlbMiss
}
