package mem

import "math"

// Project returns c plus k times the counts from a to b (b − a being what
// a stretch of a run counted): the counts of a run in which that stretch
// went on k times longer. Sampled simulation measures a steady stretch in
// detail and projects the work-groups it ran only functionally this way;
// counts round to whole numbers. c, a and b must come from the same
// hierarchy (the same levels and sizes).
func (c Counters) Project(a, b Counters, k float64) Counters {
	p := func(x *int64, from, to int64) {
		*x += int64(math.Round(k * float64(to-from)))
	}
	cache := func(x *CacheCounters, from, to CacheCounters) {
		p(&x.Accesses, from.Accesses, to.Accesses)
		p(&x.Hits, from.Hits, to.Hits)
		p(&x.Misses, from.Misses, to.Misses)
		p(&x.ReadBytes, from.ReadBytes, to.ReadBytes)
		p(&x.WriteBytes, from.WriteBytes, to.WriteBytes)
		p(&x.Writebacks, from.Writebacks, to.Writebacks)
	}
	caches := func(x, from, to []CacheCounters) []CacheCounters {
		out := append([]CacheCounters(nil), x...)
		for i := range out {
			cache(&out[i], from[i], to[i])
		}
		return out
	}
	ints := func(x, from, to []int64) []int64 {
		out := append([]int64(nil), x...)
		for i := range out {
			p(&out[i], from[i], to[i])
		}
		return out
	}
	r := c
	p(&r.Loads, a.Loads, b.Loads)
	p(&r.Stores, a.Stores, b.Stores)
	p(&r.Atomics, a.Atomics, b.Atomics)
	p(&r.TextureRequests, a.TextureRequests, b.TextureRequests)
	r.CoreRequests = ints(c.CoreRequests, a.CoreRequests, b.CoreRequests)
	p(&r.LocalRequests, a.LocalRequests, b.LocalRequests)
	p(&r.LocalBytes, a.LocalBytes, b.LocalBytes)
	r.L1 = caches(c.L1, a.L1, b.L1)
	r.TextureCache = caches(c.TextureCache, a.TextureCache, b.TextureCache)
	r.TextureSamples = ints(c.TextureSamples, a.TextureSamples, b.TextureSamples)
	r.L2PathBytes = ints(c.L2PathBytes, a.L2PathBytes, b.L2PathBytes)
	r.L2 = caches(c.L2, a.L2, b.L2)
	if c.SLC != nil {
		s := *c.SLC
		cache(&s, *a.SLC, *b.SLC)
		r.SLC = &s
	}
	p(&r.DRAMReadBytes, a.DRAMReadBytes, b.DRAMReadBytes)
	p(&r.DRAMWriteBytes, a.DRAMWriteBytes, b.DRAMWriteBytes)
	for i := range r.DRAMReadByStream {
		p(&r.DRAMReadByStream[i], a.DRAMReadByStream[i], b.DRAMReadByStream[i])
		p(&r.DRAMWriteByStream[i], a.DRAMWriteByStream[i], b.DRAMWriteByStream[i])
	}
	r.DRAMBusyCycles += k * (b.DRAMBusyCycles - a.DRAMBusyCycles)
	p(&r.TLBLookups, a.TLBLookups, b.TLBLookups)
	p(&r.TLBMisses, a.TLBMisses, b.TLBMisses)
	p(&r.AtomicOps, a.AtomicOps, b.AtomicOps)
	if c.Local != nil {
		r.Local = append([]LocalCounters(nil), c.Local...)
		for i := range r.Local {
			x, from, to := &r.Local[i], a.Local[i], b.Local[i]
			p(&x.Accesses, from.Accesses, to.Accesses)
			p(&x.Bytes, from.Bytes, to.Bytes)
			x.BusyCycles += k * (to.BusyCycles - from.BusyCycles)
			p(&x.ConflictCycles, from.ConflictCycles, to.ConflictCycles)
			p(&x.Atomics, from.Atomics, to.Atomics)
		}
	}
	return r
}
