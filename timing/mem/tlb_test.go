package mem

import "testing"

// The TLB of unitYAML holds 4 pages in 2 sets of 2 ways (pages 0, 2, 4 share
// set 0) with LRU replacement; a miss adds 50 cycles, a hit nothing, and a
// request looks each page up once however many lanes fall in it.
func TestTLBHitsMissesAndLRU(t *testing.T) {
	h := unitHierarchy(t)
	const page = 4096
	steps := []struct {
		page int
		want float64
	}{
		{0, 50}, // cold
		{0, 0},
		{2, 50},
		{0, 0},  // page 0 most recently used, page 2 least
		{4, 50}, // evicts page 2
		{0, 0},
		{2, 50}, // was evicted; evicts page 4
		{1, 50}, // set 1: leaves set 0 alone
		{0, 0},
		{4, 50},
	}
	for i, s := range steps {
		h.lastTLB = 0 // a new request
		if got := h.translate(uint64(s.page*page + 8)); got != s.want {
			t.Errorf("step %d (page %d): %.0f extra cycles, want %.0f", i, s.page, got, s.want)
		}
	}
	if h.c.TLBLookups != 10 || h.c.TLBMisses != 6 {
		t.Errorf("%d lookups, %d misses; want 10 and 6", h.c.TLBLookups, h.c.TLBMisses)
	}

	// Within one request the same page is looked up once.
	h.lastTLB = 0
	h.translate(7 * page)
	if got := h.translate(7*page + 100); got != 0 {
		t.Errorf("second lane in the page: %.0f extra cycles, want 0", got)
	}
	if h.c.TLBLookups != 11 {
		t.Errorf("%d lookups, want 11 (one for the request's page)", h.c.TLBLookups)
	}
}
