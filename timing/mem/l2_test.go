package mem

import "testing"

// unitYAML's L2: 2 slices (line mod 2), 16 B/cycle each (a 64-byte line
// occupies a slice 4 cycles), 20 cycles; a miss goes to DRAM (no SLC):
// 16 cycles of DRAM service and 100 of latency.
func TestL2SlicesHitsAndMisses(t *testing.T) {
	h := unitHierarchy(t)
	steps := []struct {
		line      uint64
		t         float64
		want      float64
		wantCause Cause
	}{
		{0, 0, 115, DRAM},      // slice 0 ends at 3; DRAM 0..15 + 100
		{1, 0, 131, DRAM},      // slice 1 free, DRAM queued: 16..31 + 100
		{0, 1000, 1023, L2Hit}, // slice 0 1000..1003 + 20
		{2, 2000, 2115, DRAM},
		{2, 2001, 2115, L2Hit}, // present but waits for the fill
	}
	for i, s := range steps {
		got, cause := h.l2ReadLine(s.line, 64, s.t, 0)
		if got != s.want || cause != s.wantCause {
			t.Errorf("step %d (line %d at %.0f): %.0f %v, want %.0f %v", i, s.line, s.t, got, cause, s.want, s.wantCause)
		}
	}
	if c := h.c.L2[0]; c.Accesses != 4 || c.Hits != 2 || c.Misses != 2 || c.ReadBytes != 256 {
		t.Errorf("slice 0 counters %+v, want 4 accesses, 2 hits, 2 misses, 256 bytes", c)
	}
	if c := h.c.L2[1]; c.Accesses != 1 || c.Misses != 1 {
		t.Errorf("slice 1 counters %+v, want 1 access, 1 miss", c)
	}
}

// Each core's path to L2 carries 8 B/cycle: a 64-byte write holds it 8
// cycles, so a second write from the same core is accepted 8 cycles later
// and one from another core to another slice is not delayed.
func TestL2CorePathBandwidth(t *testing.T) {
	h := unitHierarchy(t)
	for i, s := range []struct {
		core int
		addr uint64
		want float64
	}{
		{0, 0, 7},    // path 0..7
		{0, 128, 15}, // path 8..15
		{1, 64, 7},   // line 1: slice 1, idle
	} {
		got, cause := h.l2Write(s.core, s.addr, 64, 0, false)
		if got != s.want || cause != L2Hit {
			t.Errorf("write %d: accepted at %.0f (%v), want %.0f", i, got, cause, s.want)
		}
	}
	if h.c.L2PathBytes[0] != 128 || h.c.L2PathBytes[1] != 64 {
		t.Errorf("path bytes %v, want [128 64]", h.c.L2PathBytes)
	}
}

// Write-back and write-allocate: a written line is dirty in L2 and goes to
// DRAM when evicted. Slice 0 has 16 sets of 2 ways and holds the even
// lines, so lines 0, 32 and 64 share its set 0.
func TestL2WriteBackOnEviction(t *testing.T) {
	h := unitHierarchy(t)
	h.l2WriteLine(0, 64, 0)
	if h.c.L2[0].Misses != 1 || h.c.DRAMReadBytes != 0 {
		t.Fatalf("a write miss read %d DRAM bytes (want 0: no fill), counters %+v", h.c.DRAMReadBytes, h.c.L2[0])
	}
	h.l2ReadLine(2, 64, 0, 0) // set 1: no eviction
	h.l2ReadLine(32, 64, 0, 0)
	if h.c.L2[0].Writebacks != 0 {
		t.Fatal("written back before the set was full")
	}
	h.l2ReadLine(64, 64, 0, 0) // evicts line 0, least recently used
	if h.c.L2[0].Writebacks != 1 || h.c.DRAMWriteBytes != 64 {
		t.Errorf("after eviction: %d write-backs, %d DRAM write bytes; want 1 and 64", h.c.L2[0].Writebacks, h.c.DRAMWriteBytes)
	}
	h.l2ReadLine(96, 64, 0, 0) // evicts clean line 32
	if h.c.L2[0].Writebacks != 1 {
		t.Errorf("a clean eviction was written back")
	}
}
