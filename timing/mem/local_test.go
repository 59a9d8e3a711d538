package mem

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
)

// Mali local memory and spill scratch are ordinary memory: a slot's offsets
// land at its area (Request.Window) in the space's region, and the two
// regions are apart.
func TestLocalPrivateWindows(t *testing.T) {
	h := unitHierarchy(t)
	got := h.private(localRegion, &Request{Core: 1, Group: 3, Window: 0x3000, Addrs: []uint64{0x10, 0x120}})
	want := []uint64{1<<60 + 0x3010, 1<<60 + 0x3120}
	if got[0] != want[0] || got[1] != want[1] {
		t.Errorf("window 0x3000: %#x, want %#x", got, want)
	}
	if a := h.private(privateRegion, &Request{Core: 1, Group: 3, Window: 0x3000, Addrs: []uint64{0x10}})[0]; a == want[0] {
		t.Error("private memory shares local memory's region")
	}
}

// On-chip local memory (Adreno 640): an instance shared by 3 cores at
// 32 B/cycle, 12 cycles; atomics read and write (twice the cycles) and take
// the local atomic latency (20 here).
func TestLocalOnChipSharingAndBandwidth(t *testing.T) {
	h := New(userGPU(t, "base: adreno-640\nlocal_memory: {cores_per_instance: 3, bytes_per_cycle: 32, latency_cycles: 12}\natomics: {local_latency_cycles: 20}\n"))
	if h.banks.n != 0 || h.p.cores < 4 {
		t.Fatalf("want an unbanked GPU with 4 or more cores (banks %d, cores %d)", h.banks.n, h.p.cores)
	}
	req := func(core int, k Kind) *Request {
		return &Request{Core: core, Space: ir.SpaceLocal, Kind: k, Bytes: 4, Lanes: 32, Addrs: lanes(32, func(i int) uint64 { return uint64(4 * i) })}
	}
	for i, s := range []struct {
		core int
		kind Kind
		t    float64
		want float64
	}{
		{0, Load, 0, 15},      // 128 bytes: 0..3 + 12
		{2, Load, 0, 19},      // same instance: 4..7 + 12
		{3, Load, 0, 15},      // the next instance
		{3, Store, 0, 7},      // accepted when written: 4..7
		{3, Atomic, 100, 127}, // 8 cycles: 100..107 + 20
	} {
		got := h.Access(s.t, req(s.core, s.kind))
		if got.Done != s.want || got.Cause != LocalMemory || got.Conflicts != 0 {
			t.Errorf("access %d (core %d %v): %+v, want done at %.0f, local_memory", i, s.core, s.kind, got, s.want)
		}
	}
	if l := h.c.Local[1]; l.Accesses != 3 || l.Atomics != 32 || l.BusyCycles != 16 {
		t.Errorf("instance 1 counters %+v, want 3 accesses, 32 atomics, 16 busy cycles", l)
	}
}
