package mem

// Tally is a running total of what the hierarchy's caches and DRAM did, for
// a profiler that charges misses to the instruction that caused them: the
// difference of the tallies taken before and after one Access is that
// request's share (the write-backs its fills evicted included).
type Tally struct {
	L1Accesses, L1Misses           int64 // line lookups in the cores' L1s
	TextureAccesses, TextureMisses int64 // in the texture caches
	L2Accesses, L2Misses           int64 // in the L2 slices
	DRAMBytes                      int64 // read and written
}

// Tally returns the totals so far. It sums the per-core, per-unit and
// per-slice counts, so it is for profiling runs, not for every request.
func (h *Hierarchy) Tally() Tally {
	var t Tally
	c := &h.c
	for i := range c.L1 {
		t.L1Accesses += c.L1[i].Accesses
		t.L1Misses += c.L1[i].Misses
	}
	for i := range c.TextureCache {
		t.TextureAccesses += c.TextureCache[i].Accesses
		t.TextureMisses += c.TextureCache[i].Misses
	}
	for i := range c.L2 {
		t.L2Accesses += c.L2[i].Accesses
		t.L2Misses += c.L2[i].Misses
	}
	t.DRAMBytes = c.DRAMReadBytes + c.DRAMWriteBytes
	return t
}

// Sub is t - u, field by field.
func (t Tally) Sub(u Tally) Tally {
	return Tally{
		L1Accesses: t.L1Accesses - u.L1Accesses, L1Misses: t.L1Misses - u.L1Misses,
		TextureAccesses: t.TextureAccesses - u.TextureAccesses, TextureMisses: t.TextureMisses - u.TextureMisses,
		L2Accesses: t.L2Accesses - u.L2Accesses, L2Misses: t.L2Misses - u.L2Misses,
		DRAMBytes: t.DRAMBytes - u.DRAMBytes,
	}
}
