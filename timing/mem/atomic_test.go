package mem

import "testing"

// Global atomics in unitYAML: 30 cycles, 0.5 per clock at the GPU's atomic
// unit, 8 B/cycle over the core's path, on a line that must be in L2.
func TestAtomicsAtL2(t *testing.T) {
	h := unitHierarchy(t)
	r := &Request{Core: 0, Kind: Atomic, Bytes: 4, Lanes: 4, Addrs: lanes(4, func(i int) uint64 { return bufBase + uint64(4*i) })}
	// Cold: path 0..1, atomic unit 0..7 (4 lanes at 0.5), so 37 at the
	// earliest; the line misses: slice 0..7, DRAM 0..15 + 100 = 115, plus
	// the unit's 10 cycles beyond L2 and a 50-cycle TLB miss: 175.
	if got := h.Access(0, r); got.Done != 175 || got.Cause != TLBMiss {
		t.Errorf("cold atomic: %+v, want done at 175, tlb_miss", got)
	}
	if got := h.Access(10000, r); got.Done != 10037 || got.Cause != L2Hit {
		t.Errorf("warm atomic: %+v, want done at 10037 (unit 8 cycles + 30)", got)
	}
	// Issued together: the atomic unit is busy until 10008.
	if got := h.Access(10000, r); got.Done != 10045 {
		t.Errorf("queued atomic: %+v, want done at 10045", got)
	}
	if h.c.AtomicOps != 12 || h.c.L1[0].Accesses != 0 {
		t.Errorf("%d atomic ops and %d L1 accesses; want 12 and 0 (atomics bypass L1)", h.c.AtomicOps, h.c.L1[0].Accesses)
	}
	if c := h.c.L2[0]; c.Hits != 2 || c.Misses != 1 {
		t.Errorf("L2 counters %+v, want 2 hits and 1 miss", c)
	}
	h.Flush(20000)
	if h.c.DRAMWriteBytes != 64 {
		t.Errorf("flush wrote %d bytes, want the atomics' dirty line (64)", h.c.DRAMWriteBytes)
	}
}
