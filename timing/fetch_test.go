package timing

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// fetchGPU has 64-byte lines, a 1 KiB cache per core (16 lines) refilled
// from L2 at 16 B a cycle plus 100 cycles, and, with buffer, a two-line
// buffer per engine refilled from the cache at 32 B a cycle plus 2.
func fetchGPU(buffer bool) *arch.GPU {
	g := &arch.GPU{
		InstructionCache: arch.InstructionCache{SizeKiB: 1, LineBytes: 64, MissLatencyCycles: 100},
		L2:               arch.L2{CoreBytesPerCycle: 16},
	}
	if buffer {
		g.InstructionCache.EngineBufferBytes = 128
		g.InstructionCache.BufferRefillCycles = 2
		g.InstructionCache.FetchBytesPerCycle = 32
	}
	return g
}

// A line's first fetch misses both levels and pays both refills in turn;
// later fetches hit the buffer and wait only for a line still arriving; a
// second engine of the core refills its buffer from the cache, behind the
// first refill on the core's fetch bandwidth.
func TestFetcherRefills(t *testing.T) {
	f := newFetcher(fetchGPU(true), 2, 4)
	// L2 to cache: 10 + 64/16 + 100 = 114; cache to buffer: 114 + 64/32 + 2.
	if got := f.fetch(0, 0, 0, 16, 10); got != 118 {
		t.Errorf("first fetch ready at %v, want 118", got)
	}
	if got := f.fetch(0, 0, 8, 8, 50); got != 118 {
		t.Errorf("fetch while the line arrives: %v, want 118", got)
	}
	if got := f.fetch(0, 0, 0, 16, 200); got != 200 {
		t.Errorf("buffer hit at 200: %v, want 200", got)
	}
	// Engine 1: the core's cache has the line from 114, its fetch port is
	// busy until 116: 116 + 2 + 2.
	if got := f.fetch(0, 1, 0, 16, 20); got != 120 {
		t.Errorf("other engine's fetch: %v, want 120", got)
	}
	want := FetchCounts{Hits: 2, BufferMisses: 1, Misses: 1}
	if f.counts != want {
		t.Errorf("counts %+v, want %+v", f.counts, want)
	}
}

// A group whose code spans two lines waits for both; misses to L2 queue
// on the core's path, one line's transfer after the other.
func TestFetcherSpansLines(t *testing.T) {
	f := newFetcher(fetchGPU(false), 1, 1)
	// Line 0: 0 + 4 + 100; line 1 starts its transfer at 4: 4 + 4 + 100.
	if got := f.fetch(0, 0, 60, 8, 0); got != 108 {
		t.Errorf("two-line group ready at %v, want 108", got)
	}
	if f.counts.Misses != 2 {
		t.Errorf("%v misses, want 2", f.counts.Misses)
	}
	// Without engine buffers a cache hit is a hit.
	if got := f.fetch(0, 0, 64, 4, 300); got != 300 || f.counts.Hits != 1 {
		t.Errorf("cache hit at 300: %v with %+v", got, f.counts)
	}
	if got := f.fetch(0, 0, 0, 0, 7); got != 7 {
		t.Errorf("an empty group is ready at once, got %v", got)
	}
}

// The buffer keeps the two most recent lines: a third evicts the least
// recently used, which then comes back from the core's cache.
func TestFetcherEvicts(t *testing.T) {
	f := newFetcher(fetchGPU(true), 1, 1)
	for _, line := range []int32{0, 1, 0, 2} { // 2 evicts 1, the least recent
		f.fetch(0, 0, line*64, 4, 1000)
	}
	before := f.counts
	f.fetch(0, 0, 0, 4, 2000) // still buffered
	f.fetch(0, 0, 64, 4, 2000)
	if d := f.counts.Hits - before.Hits; d != 1 {
		t.Errorf("%v buffer hits, want 1 (line 0)", d)
	}
	if d := f.counts.BufferMisses - before.BufferMisses; d != 1 {
		t.Errorf("%v buffer misses, want 1 (line 1, evicted)", d)
	}
	if f.counts.Misses != 3 {
		t.Errorf("%v cache misses, want 3 (each line once)", f.counts.Misses)
	}
}

// A GPU without an instruction cache has no fetcher: code is always there.
func TestFetcherNone(t *testing.T) {
	if f := newFetcher(&arch.GPU{}, 1, 1); f != nil {
		t.Errorf("a fetcher without a cache: %+v", f)
	}
}
