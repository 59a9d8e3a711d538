package mem

import (
	"strings"
	"testing"
)

// unitYAML's L1: 8 sets of 2 ways of 64-byte lines, 10 cycles. A store
// miss allocates without reading L2; a load miss reads the line through
// the TLB (50 cycles on a miss), the core's path (8 cycles), the L2 slice
// and DRAM; evicting a dirty line writes it to L2.
func TestL1HitMissAndWriteBack(t *testing.T) {
	h := unitHierarchy(t)
	if d, c := h.l1Line(0, 0, true, 0, 0); d != 0 || c != L1Hit {
		t.Errorf("store miss: %.0f %v, want accepted at once", d, c)
	}
	if h.c.L2[0].Accesses+h.c.L2[1].Accesses != 0 {
		t.Fatal("a store miss read L2")
	}
	if d, c := h.l1Line(0, 0, false, 10, 10); d != 20 || c != L1Hit {
		t.Errorf("load hit: %.0f %v, want 20 L1 hit", d, c)
	}
	// Line 8 (set 0): TLB miss 50; path 0..7; slice 0 0..3, then DRAM
	// 0..15 + 100 = 115; +50 = 165.
	if d, c := h.l1Line(0, 8, false, 0, 0); d != 165 || c != TLBMiss {
		t.Errorf("load miss: %.0f %v, want 165 tlb_miss", d, c)
	}
	if d, _ := h.l1Line(0, 8, false, 20, 20); d != 165 {
		t.Errorf("load of the pending line: %.0f, want the fill (165)", d)
	}
	h.l1Line(0, 16, false, 200, 200) // evicts dirty line 0
	cc := h.c.L1[0]
	if cc.Accesses != 5 || cc.Hits != 2 || cc.Misses != 3 || cc.Writebacks != 1 {
		t.Errorf("L1 counters %+v, want 5 accesses, 2 hits, 3 misses, 1 write-back", cc)
	}
	if h.c.L2[0].WriteBytes != 64 {
		t.Errorf("L2 write bytes %d, want the evicted line's 64", h.c.L2[0].WriteBytes)
	}
}

// The L1 serves a request in max(lines × lookup, lanes / lanes_per_cycle,
// bytes / 32) cycles: eight lanes reading one 32-byte run take 1 cycle,
// eight lanes 64 bytes apart (eight lines) take 8.
func TestL1LookupAndBandwidth(t *testing.T) {
	h := unitHierarchy(t)
	gathered := lanes(8, func(i int) uint64 { return bufBase + uint64(64*i) })
	run := lanes(8, func(i int) uint64 { return bufBase + uint64(4*i) })
	r := &Request{Core: 0, Kind: Load, Bytes: 4, Lanes: 8}
	r.Addrs = gathered
	h.Access(0, r) // warm
	if got := h.Access(10000, r); got.Done != 10000+7+10 || got.Cause != L1Hit {
		t.Errorf("8-line gather: %+v, want done at 10017 (8 lookups + 10)", got)
	}
	r.Addrs = run
	if got := h.Access(20000, r); got.Done != 20000+10 {
		t.Errorf("one-line run: %+v, want done at 20010 (1 cycle + 10)", got)
	}
	if got := h.c.L1[0].ReadBytes; got != 3*32 {
		t.Errorf("L1 read bytes %d, want 96", got)
	}

	// Two lanes' addresses a cycle: the same one-line run takes 4.
	slow := New(userGPU(t, strings.Replace(unitYAML, "lanes_per_cycle: 8", "lanes_per_cycle: 2", 1)))
	slow.Access(0, r)
	if got := slow.Access(20000, r); got.Done != 20000+3+10 {
		t.Errorf("one-line run at 2 lanes a cycle: %+v, want done at 20013 (4 cycles + 10)", got)
	}
}
