package mem

import (
	"slices"

	"github.com/pocketgpu/pocketgpu/counters"
)

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

// cacheDefs names one level's counts. Read-only caches (texture) have no
// writes, and a write-through cache (the SLC) no write-backs: those are
// left out.
func cacheDefs(prefix, what string, writes, writebacks bool) []counters.Def {
	defs := []counters.Def{
		counters.New(prefix+"_accesses", "lines", what+": line lookups"),
		counters.New(prefix+"_hits", "lines", what+": lookups that found the line"),
		counters.New(prefix+"_misses", "lines", what+": lookups that allocated the line"),
		counters.New(prefix+"_hit_rate_pct", "%", what+": hits / accesses"),
		counters.New(prefix+"_read_bytes", "B", what+": bytes read from it by the level above (or the core)"),
	}
	if writes {
		defs = append(defs, counters.New(prefix+"_write_bytes", "B", what+": bytes written into it"))
	}
	if writebacks {
		defs = append(defs, counters.New(prefix+"_writebacks", "lines", what+": dirty lines written to the level below (evictions and the end-of-kernel flush)"))
	}
	return defs
}

// cacheItems is one level's counts as counters of part p.
func cacheItems(p *counters.Part, prefix string, c CacheCounters, writes, writebacks bool) counters.Set {
	items := counters.Set{
		p.Of(prefix+"_accesses", float64(c.Accesses)),
		p.Of(prefix+"_hits", float64(c.Hits)),
		p.Of(prefix+"_misses", float64(c.Misses)),
		p.Of(prefix+"_hit_rate_pct", 100*c.HitRate()),
		p.Of(prefix+"_read_bytes", float64(c.ReadBytes)),
	}
	if writes {
		items = append(items, p.Of(prefix+"_write_bytes", float64(c.WriteBytes)))
	}
	if writebacks {
		items = append(items, p.Of(prefix+"_writebacks", float64(c.Writebacks)))
	}
	return items
}

const (
	l1What      = "L1 (all cores)"
	textureWhat = "texture caches (all units)"
	l2What      = "L2 (all slices)"
	slcWhat     = "system-level cache (write-through: L2 write-backs pass on to DRAM)"
)

// The memory hierarchy's counters (docs/counters.md, "Memory"); levels a
// GPU lacks are left out of a run's.
var memoryCounters = counters.Register(&counters.Part{
	Key: "memory", Title: "Memory", Rank: 20, Scope: counters.Kernel,
	Defs: concat(
		[]counters.Def{
			counters.New("mem_loads", "requests", "load warp instructions sent to the memory hierarchy"),
			counters.New("mem_stores", "requests", "store warp instructions"),
			counters.New("mem_atomics", "requests", "atomic warp instructions"),
			counters.New("texture_requests", "requests", "texture warp instructions"),
			counters.New("local_requests", "requests", "requests to local (shared) memory, any kind"),
			counters.New("local_bytes", "B", "bytes lanes read or wrote in local memory"),
		},
		cacheDefs("l1", l1What, true, true),
		[]counters.Def{counters.New("texture_samples", "samples", "samples the texture units served")},
		cacheDefs("texture_cache", textureWhat, false, false),
		[]counters.Def{counters.New("l2_path_bytes", "B", "bytes over the cores' paths to L2, both ways")},
		cacheDefs("l2", l2What, true, true),
		cacheDefs("slc", slcWhat, true, false),
		[]counters.Def{
			counters.New("dram_read_bytes", "B", "bytes read from DRAM (line fills)"),
			counters.New("dram_write_bytes", "B", "bytes written to DRAM (dirty L2 lines)"),
			counters.New("dram_bandwidth_gbs", "GB/s", "(dram_read_bytes + dram_write_bytes) / kernel time"),
			counters.New("dram_utilization_pct", "%", "cycles DRAM was transferring / kernel cycles"),
			counters.New("tlb_lookups", "lookups", "GPU TLB lookups (requests leaving a core's first-level cache)"),
			counters.New("tlb_misses", "lookups", "lookups that paid tlb.miss_latency_cycles"),
			counters.New("atomic_ops_l2", "ops", "lane atomics executed at L2"),
			counters.New("local_bank_conflict_cycles", "cycles", "extra cycles local memory spent on bank conflicts"),
			counters.New("local_atomic_ops", "ops", "lane atomics executed in on-chip local memory"),
			counters.New("local_utilization_pct", "%", "busiest on-chip local memory instance's busy cycles / kernel cycles"),
		},
	),
})

// The memory hierarchy's counters per core.
var memoryCoreCounters = counters.Register(&counters.Part{
	Key: "memory_core", Title: "Memory, per core", Rank: 21, Scope: counters.Core,
	Defs: concat(
		[]counters.Def{counters.New("mem_requests", "requests", "memory warp instructions from this core")},
		cacheDefs("l1", "this core's L1", true, true),
		[]counters.Def{counters.New("l2_path_bytes", "B", "bytes over this core's path to L2")},
	),
})

func concat(lists ...[]counters.Def) []counters.Def {
	var out []counters.Def
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

// Items lists the GPU-wide counters of a run of cycles.
func (c Counters) Items(cycles float64) counters.Set {
	p := memoryCounters
	items := counters.Set{
		p.Of("mem_loads", float64(c.Loads)),
		p.Of("mem_stores", float64(c.Stores)),
		p.Of("mem_atomics", float64(c.Atomics)),
		p.Of("texture_requests", float64(c.TextureRequests)),
		p.Of("local_requests", float64(c.LocalRequests)),
		p.Of("local_bytes", float64(c.LocalBytes)),
	}
	if c.L1 != nil {
		items = append(items, cacheItems(p, "l1", c.L1Total(), true, true)...)
	}
	var samples int64
	for _, s := range c.TextureSamples {
		samples += s
	}
	items = append(items, p.Of("texture_samples", float64(samples)))
	items = append(items, cacheItems(p, "texture_cache", c.TextureTotal(), false, false)...)
	var path int64
	for _, b := range c.L2PathBytes {
		path += b
	}
	items = append(items, p.Of("l2_path_bytes", float64(path)))
	items = append(items, cacheItems(p, "l2", c.L2Total(), true, true)...)
	if c.SLC != nil {
		items = append(items, cacheItems(p, "slc", *c.SLC, true, false)...)
	}
	items = append(items,
		p.Of("dram_read_bytes", float64(c.DRAMReadBytes)),
		p.Of("dram_write_bytes", float64(c.DRAMWriteBytes)),
		p.Of("dram_bandwidth_gbs", c.DRAMGBs(cycles)),
		p.Of("dram_utilization_pct", pct(c.DRAMBusyCycles, cycles)),
		p.Of("tlb_lookups", float64(c.TLBLookups)),
		p.Of("tlb_misses", float64(c.TLBMisses)),
		p.Of("atomic_ops_l2", float64(c.AtomicOps)),
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
			p.Of("local_bank_conflict_cycles", float64(t.ConflictCycles)),
			p.Of("local_atomic_ops", float64(t.Atomics)),
			p.Of("local_utilization_pct", pct(busy, cycles)),
		)
	}
	return items
}

// CoreItems lists one core's memory counters.
func (c Counters) CoreItems(core int) counters.Set {
	p := memoryCoreCounters
	items := counters.Set{p.Of("mem_requests", float64(c.CoreRequests[core]))}
	if c.L1 != nil {
		items = append(items, cacheItems(p, "l1", c.L1[core], true, true)...)
	}
	return append(items, p.Of("l2_path_bytes", float64(c.L2PathBytes[core])))
}

func pct(part, whole float64) float64 {
	if whole <= 0 {
		return 0
	}
	return 100 * part / whole
}
