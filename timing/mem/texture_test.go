package mem

import "testing"

// unitYAML's texture unit: 2 samples per clock, a 70-cycle cache; a miss
// goes to L2 and the path adds 60 cycles (70 minus the L1's 10).
func TestTextureUnitAndCache(t *testing.T) {
	h := unitHierarchy(t)
	r := &Request{Core: 0, Kind: Texture, Bytes: 16, Lanes: 8, Addrs: lanes(8, func(int) uint64 { return bufBase })}
	// Unit 0..3; the line misses: TLB 50, path 0..7, slice, DRAM 0..15
	// + 100 = 115, +50 = 165, +60 = 225.
	if got := h.Access(0, r); got.Done != 225 || got.Cause != TLBMiss {
		t.Errorf("cold: %+v, want done at 225, tlb_miss", got)
	}
	// A hit: a cycle to take the message (texture.cycles_per_message),
	// 4 for the 8 samples, then the cache's 70.
	if got := h.Access(1000, r); got.Done != 1074 || got.Cause != TextureUnit {
		t.Errorf("hit: %+v, want done at 1074 (1 + 4 cycles + 70)", got)
	}
	if got := h.Access(1000, r); got.Done != 1079 {
		t.Errorf("queued: %+v, want done at 1079 (unit busy to 1005)", got)
	}
	if c := h.c.TextureCache[0]; c.Hits != 2 || c.Misses != 1 || h.c.TextureSamples[0] != 24 {
		t.Errorf("texture counters %+v, samples %d; want 2 hits, 1 miss, 24 samples", c, h.c.TextureSamples[0])
	}
}
