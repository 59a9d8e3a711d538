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
package mem

import (
	"fmt"
	"math"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// Kind is what a request does.
type Kind uint8

// Request kinds.
const (
	Load    Kind = iota // read data
	Store               // write data
	Atomic              // read-modify-write at L2 (global) or in local memory
	Texture             // texel fetches through a texture unit
)

func (k Kind) String() string {
	switch k {
	case Load:
		return "load"
	case Store:
		return "store"
	case Atomic:
		return "atomic"
	case Texture:
		return "texture"
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// Request is one warp instruction's memory access.
type Request struct {
	Core  int      // the issuing core (Mali shader core, Adreno uSPTP, Rogue USC)
	Space ir.Space // ir.SpaceGlobal or ir.SpaceLocal
	Kind  Kind
	Addrs []uint64 // one address per active lane, lane order (texture: the texel addresses, up to 4 per lane)
	Bytes int      // bytes per lane (texture: bytes per texel)
	Lanes int      // active lanes (texture: samples)
	Group int      // work-group slot on the core (local memory instances / per-core local regions)
	// Stream says what the data is for (0, StreamData, for kernels; the
	// renderer tags geometry, binning, texture and framebuffer traffic) so
	// that DRAM bytes can be split by stream.
	Stream Stream
	// NoL1 sends the request straight to L2: traffic of fixed-function
	// units (a tiler, a tile write-back, vertex fetch), not of shader cores.
	NoL1 bool
	// Burst marks a bulk transfer (async_work_group_copy on a path that
	// moves it in bursts): its addresses are merged into lines even where a
	// task's accesses are otherwise resolved one by one (seed 003 §System
	// Memory Access: the common-store burst path of up to 4096 bytes).
	Burst bool
}

// Stream is what a request's data is for; DRAM traffic is counted per
// stream.
type Stream uint8

// Streams.
const (
	StreamData        Stream = iota // kernel data (compute)
	StreamGeometry                  // vertex attributes, indices, post-transform vertices
	StreamBinning                   // polygon lists, visibility streams, tile headers
	StreamTexture                   // texels
	StreamFramebuffer               // colour and depth, resolves, CRCs
	NumStreams
)

var streamNames = [NumStreams]string{"data", "geometry", "binning", "texture", "framebuffer"}

func (s Stream) String() string {
	if s < NumStreams {
		return streamNames[s]
	}
	return fmt.Sprintf("stream(%d)", uint8(s))
}

// Cause is what dominated a request's time.
type Cause uint8

// Causes, from the nearest level out. TextureUnit is the texture path when
// its cache held every texel (the unit's samples per clock and the texture
// cache latency); a texture request that missed reports the level it went to.
const (
	L1Hit Cause = iota
	L2Hit
	SLCHit
	DRAM
	LocalMemory
	BankConflict
	TLBMiss
	TextureUnit
)

var causeNames = [...]string{"l1_hit", "l2_hit", "slc_hit", "dram", "local_memory", "bank_conflict", "tlb_miss", "texture"}

func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return fmt.Sprintf("cause(%d)", uint8(c))
}

// depth orders the causes of the cache levels: a request that touched
// several levels reports the deepest.
func depth(c Cause) int {
	switch c {
	case L1Hit, TextureUnit:
		return 0
	case L2Hit:
		return 1
	case SLCHit:
		return 2
	case DRAM:
		return 3
	case TLBMiss:
		return 4
	}
	return 0
}

func deeper(a, b Cause) Cause {
	if depth(b) > depth(a) {
		return b
	}
	return a
}

// Result is when a request completes and why.
type Result struct {
	Done      float64 // cycle the last byte returns (loads, atomics) or the access is accepted (stores)
	Cause     Cause   // what dominated
	Conflicts int     // extra cycles from bank conflicts (local memory)
}

// Private address regions for local memory that lives in ordinary memory
// (Mali) and for private memory: far above the executor's device virtual
// addresses (which start at 64 GiB), one 4 GiB window per (core, group).
const (
	localRegion   = uint64(1) << 60
	privateRegion = uint64(2) << 60
	coreShift     = 40
	groupShift    = 32
	offsetMask    = uint64(1)<<groupShift - 1
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
	lines   []span   // scratch: the unique lines of one request
	set     lineSet  // index of lines
	remap   []uint64 // scratch: addresses moved into a private region
	lastTLB uint64   // last page translated (+1), to skip repeat lookups within a request
}

// span is one cache line a request touches and how many of its bytes.
type span struct {
	line  uint64
	bytes int
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

	texLine    int
	texShift   uint
	texLat     float64
	texExtra   float64 // what the texture path adds to a hit further out
	texPerUnit int     // cores per texture unit
	texSPC     float64 // samples per clock per unit

	l2Line  int
	l2Shift uint
	slices  int
	slice   divider // by slices: a line's slice
	l2Lat   float64
	l2BPC   float64 // per slice
	pathBPC float64 // per core

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

	if g.Family == arch.Rogue && g.Rogue != nil {
		p.sequential = true
		p.burst = g.Rogue.BurstBytes
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
	clear(h.l1Srv)
	clear(h.path)
	clear(h.texSrv)
	clear(h.l2Srv)
	clear(h.local)
	h.slcSrv, h.dram, h.atom = server{}, server{}, server{}
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
	if r.Core < 0 || r.Core >= h.p.cores {
		panic(fmt.Sprintf("mem: request from core %d, but the GPU has cores 0-%d", r.Core, h.p.cores-1))
	}
	if len(r.Addrs) == 0 {
		return Result{Done: now, Cause: L1Hit}
	}
	bytes := max(r.Bytes, 1)
	c := &h.c
	*h.stream = r.Stream
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

// private moves work-group offsets into the (core, group) window of a region
// of ordinary memory: Mali local memory is plain memory behind the
// load/store cache (seed 000 §Memory Pipeline). Groups beyond 255 share
// windows.
func (h *Hierarchy) private(region uint64, r *Request) []uint64 {
	base := region | uint64(r.Core)<<coreShift | uint64(r.Group&0xff)<<groupShift
	h.remap = h.remap[:0]
	for _, a := range r.Addrs {
		h.remap = append(h.remap, base|a&offsetMask)
	}
	return h.remap
}

// gather fills h.lines with the unique lines (of lineBytes) the addresses
// touch, in order of first touch, with the bytes touched in each (lanes
// reading the same address as the lane before count once). It returns the
// total bytes touched. shift is log2 of lineBytes.
func (h *Hierarchy) gather(addrs []uint64, bytes, lineBytes int, shift uint) int {
	h.lines = h.lines[:0]
	lb := uint64(lineBytes)
	if contiguous(addrs, bytes) {
		// The usual coalesced access: lanes reading consecutive elements.
		a, end := addrs[0], addrs[0]+uint64(len(addrs)*bytes)
		for a < end {
			next := min((a>>shift+1)<<shift, end)
			h.lines = append(h.lines, span{a >> shift, int(next - a)})
			a = next
		}
		return len(addrs) * bytes
	}
	h.set.reset(len(addrs) * (bytes/lineBytes + 2)) // the most lines they can touch
	total := 0
	prev := ^uint64(0)
	ub := uint64(bytes)
	for _, a := range addrs {
		if a == prev {
			continue
		}
		prev = a
		total += bytes
		first := a >> shift
		if (a+ub-1)>>shift == first {
			if n := len(h.lines); n > 0 && h.lines[n-1].line == first {
				h.lines[n-1].bytes += bytes
			} else {
				h.addSpan(first, bytes)
			}
			continue
		}
		for off, n := a, bytes; n > 0; {
			chunk := int(min(uint64(n), lb-off&(lb-1)))
			h.addSpan(off>>shift, chunk)
			off += uint64(chunk)
			n -= chunk
		}
	}
	for i := range h.lines {
		h.lines[i].bytes = min(h.lines[i].bytes, lineBytes)
	}
	return total
}

// contiguous reports whether lane i reads addrs[0] + i × bytes.
func contiguous(addrs []uint64, bytes int) bool {
	a, b := addrs[0], uint64(bytes)
	for _, x := range addrs[1:] {
		a += b
		if x != a {
			return false
		}
	}
	return true
}

func (h *Hierarchy) addSpan(line uint64, n int) {
	if i, ok := h.set.find(line, h.lines); ok {
		h.lines[i].bytes += n
		return
	}
	h.set.add(line, h.lines)
	h.lines = append(h.lines, span{line, n})
}

// coalesced is the Mali and Adreno path: a warp instruction's lanes are
// merged into unique cache lines, which go through the core's L1 (Mali) or
// straight to L2 (Adreno global memory, seed 000 §L2 Cache and System
// Level) in parallel; the data is back when the last line is.
func (h *Hierarchy) coalesced(now float64, core int, addrs []uint64, bytes int, write, noL1 bool) Result {
	p := &h.p
	if !p.hasL1 || noL1 {
		h.gather(addrs, bytes, p.l2Line, p.l2Shift)
		done, cause := now, L2Hit
		for _, s := range h.lines {
			addr := s.line * uint64(p.l2Line)
			var d float64
			var c Cause
			if write {
				d, c = h.l2Write(core, addr, s.bytes, now, true)
			} else {
				d, c = h.l2Read(core, addr, s.bytes, now, true)
			}
			done, cause = fmax(done, d), deeper(cause, c)
		}
		return Result{Done: done, Cause: cause}
	}

	total := h.gather(addrs, bytes, p.l1Line, p.l1Shift)
	occ := fmax(float64(len(h.lines))*p.l1Slot, h.l1Rate.cycles(total))
	start := h.l1Srv[core].take(now, occ)
	end := tail(start, occ)
	cc := &h.c.L1[core]
	if write {
		cc.WriteBytes += int64(total)
	} else {
		cc.ReadBytes += int64(total)
	}
	done, cause := end, L1Hit
	if !write {
		done = end + p.l1Lat
	}
	for _, s := range h.lines {
		d, c := h.l1Line(core, s.line, write, start, end)
		done, cause = fmax(done, d), deeper(cause, c)
	}
	return Result{Done: done, Cause: cause}
}

// l1Line looks one line up in a core's L1 whose service for the request
// started at start and ended at end, and returns when the line's data is
// back (loads) or accepted (stores). The L1 is write-back and
// write-allocate; a store miss allocates the line without reading it from
// below (per-byte dirty masks, assumed).
func (h *Hierarchy) l1Line(core int, line uint64, write bool, start, end float64) (float64, Cause) {
	p := &h.p
	c := h.l1[core]
	cc := &h.c.L1[core]
	cc.Accesses++
	hit, ready, victim, dirty := c.access(line, write, end)
	if dirty {
		cc.Writebacks++
		cur := *h.stream
		*h.stream = c.victimStream
		h.l2Write(core, victim*uint64(p.l1Line), p.l1Line, start, false)
		*h.stream = cur
	}
	if hit {
		cc.Hits++
		if write {
			return end, L1Hit
		}
		return fmax(end+p.l1Lat, ready), L1Hit
	}
	cc.Misses++
	if write {
		return end, L1Hit
	}
	d, cause := h.l2Read(core, line*uint64(p.l1Line), p.l1Line, start, true)
	c.setReady(line, d)
	return d, cause
}

// sequential is the Rogue path (seed 003 §System Memory Access): the
// hardware resolves a task's accesses one by one in row (lane) order, each
// transaction at most rogue.burst_bytes and within one cache line, each
// holding the L1 for a lookup; a transaction completes no sooner than one
// service after the one before it. Sixteen threads reading one 128-byte
// line thus cost one miss plus fifteen hits.
func (h *Hierarchy) sequential(now float64, core int, addrs []uint64, bytes int, write bool) Result {
	p := &h.p
	lb := uint64(p.l1Line)
	shift := p.l1Shift
	srv := &h.l1Srv[core]
	done, chain, cause := now, now, L1Hit
	prevLine, prevReady := ^uint64(0), 0.0
	// A task's transactions are mostly the same size: the service time of
	// the last size is kept rather than divided out again.
	lastChunk, lastOcc := -1, 0.0
	var moved, repeats int64 // bytes; lookups of the line looked up just before
	for _, a := range addrs {
		for off, n := a, bytes; n > 0; {
			chunk := min(n, p.burst, int(lb-off&(lb-1)))
			if chunk != lastChunk {
				lastChunk, lastOcc = chunk, fmax(p.l1Slot, float64(chunk)/p.l1BPC)
			}
			occ := lastOcc
			start := srv.take(now, occ)
			end := tail(start, occ)
			moved += int64(chunk)
			line := off >> shift
			var d float64
			c := L1Hit
			if line == prevLine {
				// The transaction before looked this line up: it is
				// present, most recently used and (for a store) dirty.
				repeats++
				d = end
				if !write {
					d = fmax(end+p.l1Lat, prevReady)
				}
			} else {
				d, c = h.l1Line(core, line, write, start, end)
				prevLine, prevReady = line, d
			}
			d = fmax(d, chain+occ)
			chain = d
			done, cause = fmax(done, d), deeper(cause, c)
			off += uint64(chunk)
			n -= chunk
		}
	}
	cc := &h.c.L1[core]
	cc.Accesses += repeats
	cc.Hits += repeats
	if write {
		cc.WriteBytes += moved
	} else {
		cc.ReadBytes += moved
	}
	return Result{Done: done, Cause: cause}
}

// translate looks a page up in the GPU TLB and returns the latency a miss
// adds (tlb.miss_latency_cycles; seed 001 §L2 Cache and Beyond: latency
// skyrockets at large footprints, likely TLB misses).
func (h *Hierarchy) translate(addr uint64) float64 {
	page := addr >> h.p.pageShift
	if page+1 == h.lastTLB {
		return 0
	}
	h.lastTLB = page + 1
	h.c.TLBLookups++
	if hit, _, _, _ := h.tlb.access(page, false, 0); hit {
		return 0
	}
	h.c.TLBMisses++
	return h.p.tlbMiss
}

// toL2 sends n bytes at addr over a core's path to L2 at t: the TLB's extra
// latency (when tlb is set), and when the transfer starts and ends.
func (h *Hierarchy) toL2(core int, addr uint64, n int, t float64, tlb bool) (extra, start, end float64) {
	if tlb {
		extra = h.translate(addr)
	}
	occ := h.pathRate.cycles(n)
	start = h.path[core].take(t, occ)
	h.c.L2PathBytes[core] += int64(n)
	return extra, start, tail(start, occ)
}

// l2Read reads n bytes at addr (within one line of the level above) from
// L2 for a core, arriving at t; it returns when the data is at the core.
// Requests leaving a core are translated by the TLB when tlb is set.
func (h *Hierarchy) l2Read(core int, addr uint64, n int, t float64, tlb bool) (float64, Cause) {
	p := &h.p
	extra, ps, end := h.toL2(core, addr, n, t, tlb)
	done, cause := end, L2Hit
	for first, last := addr>>p.l2Shift, (addr+uint64(n)-1)>>p.l2Shift; first <= last; first++ {
		d, c := h.l2ReadLine(first, min(n, p.l2Line), ps, end)
		done, cause = fmax(done, d), deeper(cause, c)
	}
	if extra > 0 {
		done += extra
		cause = TLBMiss
	}
	return done, cause
}

// l2ReadLine reads n bytes of one L2 line through its slice.
func (h *Hierarchy) l2ReadLine(line uint64, n int, t, upstream float64) (float64, Cause) {
	p := &h.p
	sl := int(p.slice.mod(line))
	occ := h.l2Rate.cycles(n)
	ss := h.l2Srv[sl].take(t, occ)
	end := fmax(upstream, tail(ss, occ))
	cc := &h.c.L2[sl]
	cc.Accesses++
	cc.ReadBytes += int64(n)
	hit, ready, victim, dirty := h.l2[sl].access(line, false, end)
	if dirty {
		cc.Writebacks++
		h.writeBelow(victim*uint64(p.l2Line), p.l2Line, ss, h.l2[sl].victimStream)
	}
	if hit {
		cc.Hits++
		return fmax(end+p.l2Lat, ready), L2Hit
	}
	cc.Misses++
	d, c := h.readBelow(line*uint64(p.l2Line), p.l2Line, ss, end)
	h.l2[sl].setReady(line, d)
	return d, c
}

// l2Write writes n bytes at addr into L2 (write-back, write-allocate
// without a fill) and returns when the write is accepted.
func (h *Hierarchy) l2Write(core int, addr uint64, n int, t float64, tlb bool) (float64, Cause) {
	p := &h.p
	extra, ps, done := h.toL2(core, addr, n, t, tlb)
	for first, last := addr>>p.l2Shift, (addr+uint64(n)-1)>>p.l2Shift; first <= last; first++ {
		done = fmax(done, h.l2WriteLine(first, min(n, p.l2Line), ps))
	}
	if extra > 0 {
		return done + extra, TLBMiss
	}
	return done, L2Hit
}

func (h *Hierarchy) l2WriteLine(line uint64, n int, t float64) float64 {
	p := &h.p
	sl := int(p.slice.mod(line))
	occ := h.l2Rate.cycles(n)
	ss := h.l2Srv[sl].take(t, occ)
	end := tail(ss, occ)
	cc := &h.c.L2[sl]
	cc.Accesses++
	cc.WriteBytes += int64(n)
	hit, _, victim, dirty := h.l2[sl].access(line, true, end)
	if hit {
		cc.Hits++
	} else {
		cc.Misses++
	}
	if dirty {
		cc.Writebacks++
		h.writeBelow(victim*uint64(p.l2Line), p.l2Line, ss, h.l2[sl].victimStream)
	}
	return end
}

// readBelow fetches n bytes (an L2 line) from the SLC or DRAM, arriving at
// t; upstream is when the levels above have passed the data on.
func (h *Hierarchy) readBelow(addr uint64, n int, t, upstream float64) (float64, Cause) {
	p := &h.p
	if h.slc == nil {
		return h.readDRAM(n, t, upstream), DRAM
	}
	done, cause := upstream, SLCHit
	for first, last := addr>>p.slcShift, (addr+uint64(n)-1)>>p.slcShift; first <= last; first++ {
		m := min(n, p.slcLine)
		occ := h.slcRate.cycles(m)
		s := h.slcSrv.take(t, occ)
		end := fmax(upstream, tail(s, occ))
		cc := h.c.SLC
		cc.Accesses++
		cc.ReadBytes += int64(m)
		hit, ready, _, _ := h.slc.access(first, false, end)
		if hit {
			cc.Hits++
			done = fmax(done, fmax(end+p.slcLat, ready))
			continue
		}
		cc.Misses++
		d := h.readDRAM(p.slcLine, s, end)
		h.slc.setReady(first, d)
		done, cause = fmax(done, d), DRAM
	}
	return done, cause
}

func (h *Hierarchy) readDRAM(n int, t, upstream float64) float64 {
	p := &h.p
	occ := h.dramRate.cycles(n)
	s := h.dram.take(t, occ)
	h.c.DRAMReadBytes += int64(n)
	h.c.DRAMReadByStream[*h.stream] += int64(n)
	return fmax(upstream, tail(s, occ)) + p.dramLat
}

// writeBelow writes a dirty L2 line back: through the SLC (write-through:
// it keeps a clean copy) to DRAM. It returns when DRAM has taken it.
func (h *Hierarchy) writeBelow(addr uint64, n int, t float64, st Stream) float64 {
	p := &h.p
	if h.slc != nil {
		for first, last := addr>>p.slcShift, (addr+uint64(n)-1)>>p.slcShift; first <= last; first++ {
			m := min(n, p.slcLine)
			h.slcSrv.take(t, float64(m)/p.slcBPC)
			h.c.SLC.Accesses++
			h.c.SLC.WriteBytes += int64(m)
			if hit, _, _, _ := h.slc.access(first, false, t); hit {
				h.c.SLC.Hits++
			} else {
				h.c.SLC.Misses++
			}
		}
	}
	occ := h.dramRate.cycles(n)
	s := h.dram.take(t, occ)
	h.c.DRAMWriteBytes += int64(n)
	h.c.DRAMWriteByStream[st] += int64(n)
	return s + occ
}

// atomicL2 executes global atomics at L2 (seed 000 §L2 Cache and System
// Level: dedicated ALUs close to L2): the lanes travel the core's path, a
// GPU-wide atomic unit does atomics.ops_per_clock of them per cycle, and the
// line must be in L2 (fetched on a miss, then dirty). Atomics bypass the L1.
func (h *Hierarchy) atomicL2(now float64, core int, addrs []uint64, bytes int, lat float64) Result {
	p := &h.p
	h.gather(addrs, bytes, p.l2Line, p.l2Shift)
	n := len(addrs) * bytes
	h.c.AtomicOps += int64(len(addrs))
	occ := float64(n) / p.pathBPC
	ps := h.path[core].take(now, occ)
	h.c.L2PathBytes[core] += int64(n)
	upstream := tail(ps, occ)
	aocc := float64(len(addrs)) / p.atomOPC
	as := h.atom.take(ps, aocc)
	upstream = fmax(upstream, tail(as, aocc))
	done, cause := upstream+lat, L2Hit
	beyond := fmax(lat-p.l2Lat, 0) // the ALU's share of the round trip
	for _, s := range h.lines {
		extra := h.translate(s.line * uint64(p.l2Line))
		sl := int(p.slice.mod(s.line))
		socc := float64(s.bytes) / p.l2BPC
		ss := h.l2Srv[sl].take(ps, socc)
		end := fmax(upstream, tail(ss, socc))
		cc := &h.c.L2[sl]
		cc.Accesses++
		cc.ReadBytes += int64(s.bytes)
		cc.WriteBytes += int64(s.bytes)
		hit, ready, victim, dirty := h.l2[sl].access(s.line, true, end)
		if dirty {
			cc.Writebacks++
			h.writeBelow(victim*uint64(p.l2Line), p.l2Line, ss, h.l2[sl].victimStream)
		}
		var d float64
		c := L2Hit
		if hit {
			cc.Hits++
			d = fmax(end+lat, ready+beyond)
		} else {
			cc.Misses++
			var at float64
			at, c = h.readBelow(s.line*uint64(p.l2Line), p.l2Line, ss, end)
			h.l2[sl].setReady(s.line, at)
			d = fmax(end+lat, at+beyond)
		}
		if extra > 0 {
			d += extra
			c = TLBMiss
		}
		done, cause = fmax(done, d), deeper(cause, c)
	}
	return Result{Done: done, Cause: cause}
}

// texture runs texel fetches through the core's texture unit (shared by
// texture.cores_per_unit cores): the unit takes samples /
// texture.samples_per_clock cycles, its cache serves the texels' lines, and
// misses go to L2 (on Rogue through the core's mixed L1, which every
// transfer passes, seed 003 §L1 Mixed Cache). A level beyond the texture
// cache is seen with the texture path's extra latency (texture_cache
// latency minus the L1's).
func (h *Hierarchy) texture(now float64, r *Request, bytes int) Result {
	p := &h.p
	unit := r.Core / p.texPerUnit
	samples := r.Lanes
	if samples <= 0 {
		samples = len(r.Addrs)
	}
	h.c.TextureSamples[unit] += int64(samples)
	occ := float64(samples) / p.texSPC
	start := h.texSrv[unit].take(now, occ)
	end := tail(start, occ)
	total := h.gather(r.Addrs, bytes, p.texLine, p.texShift)
	cc := &h.c.TextureCache[unit]
	cc.ReadBytes += int64(total)
	done, cause := end+p.texLat, TextureUnit
	for _, s := range h.lines {
		cc.Accesses++
		hit, ready, _, _ := h.tex[unit].access(s.line, false, end)
		if hit {
			cc.Hits++
			done = fmax(done, ready)
			continue
		}
		cc.Misses++
		addr := s.line * uint64(p.texLine)
		var d float64
		var c Cause
		if p.l1Mixed {
			occ1 := fmax(p.l1Slot, float64(p.texLine)/p.l1BPC)
			s1 := h.l1Srv[r.Core].take(start, occ1)
			h.c.L1[r.Core].ReadBytes += int64(p.texLine)
			d, c = h.l1Line(r.Core, addr>>p.l1Shift, false, s1, tail(s1, occ1))
		} else {
			d, c = h.l2Read(r.Core, addr, p.texLine, start, true)
		}
		d += p.texExtra
		h.tex[unit].setReady(s.line, d)
		done, cause = fmax(done, d), deeper(cause, c)
	}
	return Result{Done: done, Cause: cause}
}

// localOnChip times an access to on-chip local memory: an instance shared
// by local_memory.cores_per_instance cores (Adreno 640: the three uSPTPs of
// an SP, seed 001 §Local Memory), with its bandwidth and latency, and on
// banked memory (the Rogue common store, seed 003 §Common Store) the cycles
// the bank rules give. An atomic reads then writes.
func (h *Hierarchy) localOnChip(now float64, r *Request, bytes int) Result {
	p := &h.p
	inst := r.Core / p.localPer
	n := len(r.Addrs) * bytes
	cycles := float64(n) / p.localBPC
	ideal := cycles
	if h.banks.n > 0 {
		var bc, bi int
		switch r.Kind {
		case Load:
			bc, bi = h.banks.cycles(r.Addrs, bytes, false)
		case Store:
			bc, bi = h.banks.cycles(r.Addrs, bytes, true)
		default:
			rc, ri := h.banks.cycles(r.Addrs, bytes, false)
			wc, wi := h.banks.cycles(r.Addrs, bytes, true)
			bc, bi = rc+wc, ri+wi
		}
		cycles, ideal = fmax(cycles, float64(bc)), fmax(ideal, float64(bi))
	} else if r.Kind == Atomic {
		cycles, ideal = 2*cycles, 2*ideal
	}
	start := h.local[inst].take(now, cycles)
	end := tail(start, cycles)
	lc := &h.c.Local[inst]
	lc.Accesses++
	lc.Bytes += int64(n)
	lc.BusyCycles += cycles
	conflicts := int(math.Round(cycles - ideal))
	lc.ConflictCycles += int64(conflicts)
	res := Result{Done: end, Cause: LocalMemory, Conflicts: conflicts}
	switch r.Kind {
	case Load:
		res.Done = end + p.localLat
	case Atomic:
		lc.Atomics += int64(len(r.Addrs))
		res.Done = end + p.atomLocalLat
	}
	if conflicts > 0 {
		res.Cause = BankConflict
	}
	return res
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

// CopyTime is how many GPU cycles a host<->GPU buffer copy of bytes takes:
// a DMA copy reads and writes DRAM (seed 000 §L2 Cache and System Level), so
// it runs at half the achieved DRAM bandwidth times the direction's factor
// (host_copy.to_gpu_factor, from_gpu_factor). It books no GPU resources:
// copies happen between kernels. With host_copy.zero_copy the caller may
// skip map/unmap copies altogether.
func (h *Hierarchy) CopyTime(bytes int64, toGPU bool) float64 {
	if bytes <= 0 {
		return 0
	}
	return float64(bytes) / h.g.GBsToBytesPerCycle(h.g.CopyGBs(toGPU))
}
