// Package mem is the timing model of a GPU's memory hierarchy: per-core L1
// (Mali load/store cache, Rogue mixed cache), texture caches and texture
// units, the L2 in address-interleaved slices, the SoC's system-level cache,
// DRAM, the GPU TLB, work-group local memory (through the load/store cache on
// Mali, on-chip instances on Adreno, the banked common store on Rogue),
// atomics and host copies.
//
// Every shared resource is a server with a next-free time: a request
// occupies it for bytes / bandwidth cycles (or lookups / lookups_per_cycle)
// starting when it arrives and the server is free. Caches are
// set-associative with LRU replacement and hold real tags, so hit rates come
// from the addresses the kernel computes. Nothing ticks: the engine hands in
// each warp instruction's addresses with the cycle it issues, and Access says
// when the data is back. The model is documented in docs/timing.md
// (## Memory hierarchy) and its counters in docs/counters.md (## Memory).
//
// The files follow the hardware units: mem.go builds the hierarchy and
// routes each request (New, Access, Flush); request.go holds the request
// and result types; coalesce.go merges lanes into lines; cache.go is the
// set-associative LRU cache and the bandwidth server every level is built
// from; l1.go the per-core L1 (load/store or mixed cache); texture.go the
// texture units and caches; l2.go the L2 slices; slc.go the system-level
// cache; dram.go DRAM and host copies; tlb.go the TLB; local.go and
// banks.go work-group local memory and the common store's banks;
// atomic.go global atomics; counters.go what all of them count.
package mem

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// Hierarchy is the memory system of one GPU. It is not safe for concurrent
// use; one kernel run drives it from one goroutine.
type Hierarchy struct {
	g *arch.GPU
	p params

	// stream is the stream of the request being served, shared with the
	// caches so that the lines they allocate or dirty remember it.
	stream *Stream

	l1     []*cache // per core; nil without an L1
	l1Srv  []server
	path   []server // each core's path to L2
	tex    []*cache // per texture unit
	texSrv []server
	l2     []*cache // per slice
	l2Srv  []server
	slc    *cache
	slcSrv server
	dram   server
	tlb    *cache
	atom   server
	local  []server // per on-chip local memory instance
	banks  bankModel

	// Service times of the last transfer size at each level's bandwidth
	// (most transfers are whole lines, so the division is seldom redone).
	l1Rate, pathRate, l2Rate, slcRate, dramRate rate

	c       Counters
	lines   []span     // scratch: the unique lines of one request
	set     lineSet    // index of lines
	remap   []uint64   // scratch: addresses moved into a private region
	lastTLB uint64     // last page translated (+1), to skip repeat lookups within a request
	warm    *warmState // while functional warming (warm.go), what to give back
	// stateWords is State's scratch.
	stateWords []uint64
}

// params are the figures of the arch description in the units the model
// uses: cycles and bytes per cycle at the shader clock.
type params struct {
	cores int

	hasL1   bool
	l1Mixed bool // Rogue: textures also go through the L1
	l1Line  int  // bytes
	l1Shift uint
	l1Lat   float64 // cycles
	l1BPC   float64 // bytes per cycle per core
	l1Slot  float64 // cycles per tag lookup
	l1Lane  float64 // cycles per active lane (0: a warp's lanes at once)

	texLine    int
	texShift   uint
	texLat     float64
	texExtra   float64 // what the texture path adds to a hit further out
	texPerUnit int     // cores per texture unit
	texSPC     float64 // samples per clock per unit
	texMsg     float64 // texture.cycles_per_message

	l2Line  int
	l2Shift uint
	slices  int
	slice   divider // by slices: a line's slice
	l2Lat   float64
	l2BPC   float64 // per slice
	pathBPC float64 // per core
	// pathPerLane: a core's path carries each active lane's bytes (loads
	// without an L1), however few distinct bytes they share.
	pathPerLane bool

	slcLine  int
	slcShift uint
	slcLat   float64
	slcBPC   float64

	dramLat float64
	dramBPC float64

	pageShift uint
	tlbMiss   float64

	atomLat      float64
	atomLocalLat float64
	atomOPC      float64

	localOnChip bool
	localPer    int // cores per instance
	localBPC    float64
	localLat    float64

	sequential bool // Rogue: a task's accesses resolved one by one in row order
	burst      int  // largest transfer per thread per transaction
}

// New builds the hierarchy of a valid GPU description (arch.Lookup and
// Parse validate), with cold caches.
func New(g *arch.GPU) *Hierarchy {
	h := &Hierarchy{g: g}
	p := &h.p
	p.cores = g.Cores

	if l1 := g.L1; l1 != nil {
		p.hasL1 = true
		p.l1Mixed = l1.Kind == "mixed"
		p.l1Line = l1.LineBytes
		p.l1Shift = shiftOf(l1.LineBytes)
		p.l1Lat = float64(l1.LatencyCycles)
		p.l1BPC = l1.BytesPerCycle
		p.l1Slot = 1 / l1.LookupsPerCycle
		if l1.LanesPerCycle > 0 {
			p.l1Lane = 1 / l1.LanesPerCycle
		}
		for range g.Cores {
			h.l1 = append(h.l1, newCache(l1.SizeKiB*1024, l1.LineBytes, l1.Ways, 1))
		}
		h.l1Srv = make([]server, g.Cores)
	}

	tc := g.TextureCache
	p.texLine = tc.LineBytes
	p.texShift = shiftOf(tc.LineBytes)
	p.texLat = float64(tc.LatencyCycles)
	base := 0.0
	if p.hasL1 {
		base = p.l1Lat
	}
	p.texExtra = fmax(p.texLat-base, 0)
	p.texPerUnit = max(g.Texture.CoresPerUnit, 1)
	p.texSPC = g.Texture.SamplesPerClock
	p.texMsg = g.Texture.CyclesPerMessage
	units := max(g.Cores/p.texPerUnit, 1)
	for range units {
		h.tex = append(h.tex, newCache(tc.SizeKiB*1024, tc.LineBytes, tc.Ways, 1))
	}
	h.texSrv = make([]server, units)

	p.l2Line = g.L2.LineBytes
	p.l2Shift = shiftOf(g.L2.LineBytes)
	p.slices = g.L2.Slices
	p.slice = newDivider(uint64(g.L2.Slices))
	p.l2Lat = float64(g.L2.LatencyCycles)
	p.l2BPC = g.L2.BytesPerCycle
	p.pathBPC = g.L2.CoreBytesPerCycle
	p.pathPerLane = g.L2.CorePathPerLane
	for range g.L2.Slices {
		h.l2 = append(h.l2, newCache(g.L2.SizeKiB*1024/g.L2.Slices, g.L2.LineBytes, g.L2.Ways, g.L2.Slices))
	}
	h.l2Srv = make([]server, g.L2.Slices)
	h.path = make([]server, g.Cores)

	if s := g.SLC; s != nil {
		p.slcLine = s.LineBytes
		p.slcShift = shiftOf(s.LineBytes)
		p.slcLat = g.NSToCycles(s.LatencyNS)
		p.slcBPC = g.GBsToBytesPerCycle(s.BandwidthGBs)
		h.slc = newCache(s.SizeKiB*1024, s.LineBytes, s.Ways, 1)
	}
	p.dramLat = g.NSToCycles(g.DRAM.LatencyNS)
	p.dramBPC = g.GBsToBytesPerCycle(g.DRAMAchievedGBs())

	p.pageShift = shiftOf(g.TLB.PageKiB * 1024)
	p.tlbMiss = float64(g.TLB.MissLatencyCycles)
	// The TLB is a cache of page numbers: one "line" per page.
	h.tlb = newCache(g.TLB.Entries, 1, g.TLB.Ways, 1)

	p.atomLat = float64(g.Atomics.LatencyCycles)
	p.atomLocalLat = p.atomLat
	if g.Atomics.LocalLatencyCycles > 0 {
		p.atomLocalLat = float64(g.Atomics.LocalLatencyCycles)
	}
	p.atomOPC = g.Atomics.OpsPerClock

	lm := g.LocalMemory
	if lm.Kind == arch.LocalOnChip {
		p.localOnChip = true
		p.localPer = max(lm.CoresPerInstance, 1)
		p.localBPC = lm.BytesPerCycle
		p.localLat = float64(lm.LatencyCycles)
		h.local = make([]server, max(g.Cores/p.localPer, 1))
		if lm.Banks > 0 {
			h.banks = newBankModel(lm.Banks, lm.BankBytes, max(lm.RowWriteCycles, 1), g.LanesPerEngine)
		}
	}

	if g.L1 != nil && g.L1.BurstBytes > 0 {
		p.sequential = true
		p.burst = g.L1.BurstBytes
	}
	h.l1Rate, h.pathRate, h.l2Rate = newRate(p.l1BPC), newRate(p.pathBPC), newRate(p.l2BPC)
	h.slcRate, h.dramRate = newRate(p.slcBPC), newRate(p.dramBPC)
	h.Reset()
	h.stream = new(Stream)
	for _, group := range [][]*cache{h.l1, h.tex, h.l2, {h.slc, h.tlb}} {
		for _, c := range group {
			if c != nil {
				c.cur = h.stream
			}
		}
	}
	return h
}

// Reset empties every cache, frees every server and zeroes the counters: a
// new kernel run on a cold GPU.
func (h *Hierarchy) Reset() {
	h.eachCache((*cache).reset)
	h.ResetCounters()
}

// ResetCounters starts a new kernel run on a warm GPU: the caches (and TLB)
// keep their contents, as they do on hardware from one dispatch to the
// next, but the clock restarts at cycle 0: every server is free, every
// present line ready, and the counters are zero. Call Flush at the end of
// the previous kernel first, or its dirty lines stay dirty.
func (h *Hierarchy) ResetCounters() {
	h.eachCache((*cache).settle)
	h.zeroServers()
	h.lastTLB = 0

	g, c := h.g, &h.c
	*c = Counters{
		ClockMHz:       g.ClockMHz,
		Cores:          g.Cores,
		CoreRequests:   make([]int64, g.Cores),
		L2PathBytes:    make([]int64, g.Cores),
		TextureCache:   make([]CacheCounters, len(h.tex)),
		TextureSamples: make([]int64, len(h.tex)),
		L2:             make([]CacheCounters, len(h.l2)),
	}
	if h.l1 != nil {
		c.L1 = make([]CacheCounters, len(h.l1))
	}
	if h.slc != nil {
		c.SLC = &CacheCounters{}
	}
	if h.local != nil {
		c.Local = make([]LocalCounters, len(h.local))
	}
}

func (h *Hierarchy) eachCache(f func(*cache)) {
	for _, c := range h.l1 {
		f(c)
	}
	for _, c := range h.tex {
		f(c)
	}
	for _, c := range h.l2 {
		f(c)
	}
	if h.slc != nil {
		f(h.slc)
	}
	f(h.tlb)
}

// Access times one warp instruction's memory access issued at cycle now.
// Requests should arrive in (nearly) non-decreasing time: servers queue a
// request behind whatever was booked before it.
func (h *Hierarchy) Access(now float64, r *Request) Result {
	ff := r.Core == FixedFunction && r.NoL1
	if (r.Core < 0 || r.Core >= h.p.cores) && !ff {
		panic(fmt.Sprintf("mem: request from core %d, but the GPU has cores 0-%d", r.Core, h.p.cores-1))
	}
	if len(r.Addrs) == 0 {
		return Result{Done: now, Cause: L1Hit}
	}
	bytes := max(r.Bytes, 1)
	c := &h.c
	*h.stream = r.Stream
	if ff {
		return h.coalesced(now, FixedFunction, r.Addrs, bytes, r.Kind == Store, true)
	}
	c.CoreRequests[r.Core]++
	switch r.Kind {
	case Load:
		c.Loads++
	case Store:
		c.Stores++
	case Atomic:
		c.Atomics++
	case Texture:
		c.TextureRequests++
	}
	h.lastTLB = 0
	if r.Kind == Texture {
		return h.texture(now, r, bytes)
	}
	addrs := r.Addrs
	local := false
	switch r.Space {
	case ir.SpaceLocal:
		c.LocalRequests++
		c.LocalBytes += int64(len(addrs) * bytes)
		if h.p.localOnChip {
			return h.localOnChip(now, r, bytes)
		}
		addrs, local = h.private(localRegion, r), true
	case ir.SpacePrivate:
		addrs = h.private(privateRegion, r)
	}
	if r.Kind == Atomic {
		lat := h.p.atomLat
		if local {
			lat = h.p.atomLocalLat
		}
		return h.atomicL2(now, r.Core, addrs, bytes, lat)
	}
	if h.p.sequential && !r.Burst && !r.NoL1 {
		return h.sequential(now, r.Core, addrs, bytes, r.Kind == Store)
	}
	return h.coalesced(now, r.Core, addrs, bytes, r.Kind == Store, r.NoL1)
}

// rate is a level's bandwidth in bytes per cycle, remembering the service
// time of the last transfer size asked for.
type rate struct {
	bpc float64
	n   int
	occ float64
}

func newRate(bpc float64) rate { return rate{bpc: bpc, n: -1} }

// cycles is the service time of n bytes: n / bpc, exactly as computed
// afresh.
func (r *rate) cycles(n int) float64 {
	if n != r.n {
		r.n, r.occ = n, float64(n)/r.bpc
	}
	return r.occ
}

// fmax is math.Max for the finite times the model deals in (inlined).
func fmax(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

// Flush writes every dirty line back at the end of a kernel: the L1s into
// L2, then L2 to DRAM (through the SLC). It returns when the last write has
// been taken by DRAM (now if nothing was dirty). Lines stay valid and clean.
func (h *Hierarchy) Flush(now float64) float64 {
	p := &h.p
	done := now
	for core, c := range h.l1 {
		cc := &h.c.L1[core]
		c.dirtyLines(func(line uint64, st Stream) {
			cc.Writebacks++
			*h.stream = st
			d, _ := h.l2Write(core, line*uint64(p.l1Line), p.l1Line, now, false)
			done = fmax(done, d)
		})
	}
	for sl, c := range h.l2 {
		cc := &h.c.L2[sl]
		c.dirtyLines(func(line uint64, st Stream) {
			cc.Writebacks++
			done = fmax(done, h.writeBelow(line*uint64(p.l2Line), p.l2Line, now, st))
		})
	}
	return done
}
