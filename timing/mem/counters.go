package mem

import "slices"

// CacheCounters are one cache's (or one slice's) counts. Accesses are line
// lookups; reads and writes are the bytes the level above asked for.
type CacheCounters struct {
	Accesses   int64
	Hits       int64
	Misses     int64
	ReadBytes  int64
	WriteBytes int64
	Writebacks int64 // dirty lines written to the level below (evictions and flushes)
}

// HitRate is hits / accesses (0 without accesses).
func (c CacheCounters) HitRate() float64 {
	if c.Accesses == 0 {
		return 0
	}
	return float64(c.Hits) / float64(c.Accesses)
}

func (c *CacheCounters) add(o CacheCounters) {
	c.Accesses += o.Accesses
	c.Hits += o.Hits
	c.Misses += o.Misses
	c.ReadBytes += o.ReadBytes
	c.WriteBytes += o.WriteBytes
	c.Writebacks += o.Writebacks
}

// LocalCounters are one on-chip local memory instance's counts.
type LocalCounters struct {
	Accesses       int64
	Bytes          int64
	BusyCycles     float64
	ConflictCycles int64 // extra cycles from bank conflicts
	Atomics        int64 // lane atomics executed in the instance
}

// Counters is everything the hierarchy counted since New or Reset, per
// level and per core (or per slice, texture unit, local memory instance).
type Counters struct {
	ClockMHz float64
	Cores    int

	Loads, Stores, Atomics, TextureRequests int64 // requests (warp instructions) by kind
	CoreRequests                            []int64
	LocalRequests                           int64 // requests to local memory, any kind
	LocalBytes                              int64

	L1             []CacheCounters // per core; nil without an L1
	TextureCache   []CacheCounters // per texture unit
	TextureSamples []int64         // per texture unit
	L2PathBytes    []int64         // per core: bytes over its path to L2, both ways
	L2             []CacheCounters // per slice
	SLC            *CacheCounters  // nil without a system-level cache

	DRAMReadBytes  int64
	DRAMWriteBytes int64
	// DRAM bytes split by what they were for (Request.Stream).
	DRAMReadByStream  [NumStreams]int64
	DRAMWriteByStream [NumStreams]int64
	DRAMBusyCycles    float64

	TLBLookups int64
	TLBMisses  int64

	AtomicOps int64           // lane atomics executed at L2
	Local     []LocalCounters // per on-chip instance; nil when local memory is ordinary memory
}

// Counters returns a copy of the counts so far.
func (h *Hierarchy) Counters() Counters {
	c := h.c
	c.DRAMBusyCycles = h.dram.busy
	c.CoreRequests = slices.Clone(c.CoreRequests)
	c.L1 = slices.Clone(c.L1)
	c.TextureCache = slices.Clone(c.TextureCache)
	c.TextureSamples = slices.Clone(c.TextureSamples)
	c.L2PathBytes = slices.Clone(c.L2PathBytes)
	c.L2 = slices.Clone(c.L2)
	c.Local = slices.Clone(c.Local)
	if c.SLC != nil {
		s := *c.SLC
		c.SLC = &s
	}
	return c
}

func sum(cs []CacheCounters) CacheCounters {
	var t CacheCounters
	for _, c := range cs {
		t.add(c)
	}
	return t
}

// L1Total, TextureTotal and L2Total add up the per-core, per-unit and
// per-slice counts.
func (c Counters) L1Total() CacheCounters      { return sum(c.L1) }
func (c Counters) TextureTotal() CacheCounters { return sum(c.TextureCache) }
func (c Counters) L2Total() CacheCounters      { return sum(c.L2) }

// DRAMGBs is the achieved DRAM bandwidth (reads and writes) over a run of
// cycles.
func (c Counters) DRAMGBs(cycles float64) float64 {
	if cycles <= 0 || c.ClockMHz <= 0 {
		return 0
	}
	return float64(c.DRAMReadBytes+c.DRAMWriteBytes) / (cycles / c.ClockMHz * 1000)
}

// Item is one named counter value for reports (documented in
// docs/counters.md, ## Memory).
type Item struct {
	Name  string
	Value float64
	Unit  string
	Doc   string
}

// cacheItems names one level's counts. Read-only caches (texture) have no
// writes, and a write-through cache (the SLC) no write-backs: those are
// left out.
func cacheItems(prefix, what string, c CacheCounters, writes, writebacks bool) []Item {
	items := []Item{
		{prefix + "_accesses", float64(c.Accesses), "lines", what + ": line lookups"},
		{prefix + "_hits", float64(c.Hits), "lines", what + ": lookups that found the line"},
		{prefix + "_misses", float64(c.Misses), "lines", what + ": lookups that allocated the line"},
		{prefix + "_hit_rate_pct", 100 * c.HitRate(), "%", what + ": hits / accesses"},
		{prefix + "_read_bytes", float64(c.ReadBytes), "B", what + ": bytes read from it by the level above (or the core)"},
	}
	if writes {
		items = append(items, Item{prefix + "_write_bytes", float64(c.WriteBytes), "B", what + ": bytes written into it"})
	}
	if writebacks {
		items = append(items, Item{prefix + "_writebacks", float64(c.Writebacks), "lines", what + ": dirty lines written to the level below (evictions and the end-of-kernel flush)"})
	}
	return items
}

// Items lists the GPU-wide memory counters of a run that took cycles, in a
// stable order. Levels the GPU lacks are left out.
func (c Counters) Items(cycles float64) []Item {
	items := []Item{
		{"mem_loads", float64(c.Loads), "requests", "load warp instructions sent to the memory hierarchy"},
		{"mem_stores", float64(c.Stores), "requests", "store warp instructions"},
		{"mem_atomics", float64(c.Atomics), "requests", "atomic warp instructions"},
		{"texture_requests", float64(c.TextureRequests), "requests", "texture warp instructions"},
		{"local_requests", float64(c.LocalRequests), "requests", "requests to local (shared) memory, any kind"},
		{"local_bytes", float64(c.LocalBytes), "B", "bytes lanes read or wrote in local memory"},
	}
	if c.L1 != nil {
		items = append(items, cacheItems("l1", "L1 (all cores)", c.L1Total(), true, true)...)
	}
	var samples int64
	for _, s := range c.TextureSamples {
		samples += s
	}
	items = append(items, Item{"texture_samples", float64(samples), "samples", "samples the texture units served"})
	items = append(items, cacheItems("texture_cache", "texture caches (all units)", c.TextureTotal(), false, false)...)
	var path int64
	for _, b := range c.L2PathBytes {
		path += b
	}
	items = append(items, Item{"l2_path_bytes", float64(path), "B", "bytes over the cores' paths to L2, both ways"})
	items = append(items, cacheItems("l2", "L2 (all slices)", c.L2Total(), true, true)...)
	if c.SLC != nil {
		items = append(items, cacheItems("slc", "system-level cache (write-through: L2 write-backs pass on to DRAM)", *c.SLC, true, false)...)
	}
	items = append(items,
		Item{"dram_read_bytes", float64(c.DRAMReadBytes), "B", "bytes read from DRAM (line fills)"},
		Item{"dram_write_bytes", float64(c.DRAMWriteBytes), "B", "bytes written to DRAM (dirty L2 lines)"},
		Item{"dram_bandwidth_gbs", c.DRAMGBs(cycles), "GB/s", "(dram_read_bytes + dram_write_bytes) / kernel time"},
		Item{"dram_utilization_pct", pct(c.DRAMBusyCycles, cycles), "%", "cycles DRAM was transferring / kernel cycles"},
		Item{"tlb_lookups", float64(c.TLBLookups), "lookups", "GPU TLB lookups (requests leaving a core's first-level cache)"},
		Item{"tlb_misses", float64(c.TLBMisses), "lookups", "lookups that paid tlb.miss_latency_cycles"},
		Item{"atomic_ops_l2", float64(c.AtomicOps), "ops", "lane atomics executed at L2"},
	)
	if c.Local != nil {
		var t LocalCounters
		busy := 0.0
		for _, l := range c.Local {
			t.Accesses += l.Accesses
			t.Bytes += l.Bytes
			t.ConflictCycles += l.ConflictCycles
			t.Atomics += l.Atomics
			busy = max(busy, l.BusyCycles)
		}
		items = append(items,
			Item{"local_bank_conflict_cycles", float64(t.ConflictCycles), "cycles", "extra cycles local memory spent on bank conflicts"},
			Item{"local_atomic_ops", float64(t.Atomics), "ops", "lane atomics executed in on-chip local memory"},
			Item{"local_utilization_pct", pct(busy, cycles), "%", "busiest on-chip local memory instance's busy cycles / kernel cycles"},
		)
	}
	return items
}

// CoreItems lists one core's memory counters.
func (c Counters) CoreItems(core int) []Item {
	items := []Item{{"mem_requests", float64(c.CoreRequests[core]), "requests", "memory warp instructions from this core"}}
	if c.L1 != nil {
		items = append(items, cacheItems("l1", "this core's L1", c.L1[core], true, true)...)
	}
	items = append(items, Item{"l2_path_bytes", float64(c.L2PathBytes[core]), "B", "bytes over this core's path to L2"})
	return items
}

func pct(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * part / whole
}
