package arch

import (
	"fmt"
	"math"
	"strings"
)

// OccupancyQuery describes a kernel for an occupancy question.
type OccupancyQuery struct {
	Regs               int  // 32-bit registers per thread (a Rogue 128-bit register counts 4)
	LocalBytes         int  // local memory per work-group, in bytes
	WorkgroupSize      int  // threads per work-group; 0 when not known
	Barrier            bool // the kernel has a work-group barrier
	SizeFixedAtCompile bool // the work-group size is known when compiling
}

// Occupancy is how much of a kernel stays resident. Per-core figures are for
// a core that has work; GPU-wide figures sum over all cores.
type Occupancy struct {
	GPU                    string `json:"gpu"`
	Regs                   int    `json:"regs"`
	AllocatedRegs          int    `json:"allocated_regs"`
	WarpWidth              int    `json:"warp_width"`
	ResidentWarpsPerEngine int    `json:"resident_warps_per_engine"`
	ResidentWarpsPerCore   int    `json:"resident_warps_per_core"`
	ResidentThreadsPerCore int    `json:"resident_threads_per_core"`
	WorkgroupsPerCore      int    `json:"workgroups_per_core"`
	ResidentWarps          int    `json:"resident_warps"`
	ResidentThreads        int    `json:"resident_threads"`
	ResidentWorkgroups     int    `json:"resident_workgroups"`
	MaxThreadsPerCore      int    `json:"max_threads_per_core"`
	// CoresPerWorkgroup is how many cores of a cluster one work-group's
	// warps spread over (workgroup_spans_cluster): 1 unless a core cannot
	// hold the work-group. Per-core figures are then those of the core
	// that holds the most of its warps.
	CoresPerWorkgroup int      `json:"cores_per_workgroup,omitempty"`
	Occupancy         float64  `json:"occupancy"`
	LimitedBy         string   `json:"limited_by"`
	Explanation       []string `json:"explanation"`
}

// What can limit occupancy (Occupancy.LimitedBy).
const (
	LimitWarpSlots        = "warp slots"
	LimitRegisters        = "registers"
	LimitLocalMemory      = "local memory"
	LimitWorkgroupSize    = "workgroup size"
	LimitWorkgroupPacking = "workgroup packing"
)

// QueryError is a question the GPU cannot answer as asked: a register count,
// local memory size or work-group size out of range, or a work-group that
// cannot be resident at all.
type QueryError struct {
	Field string // regs, local_bytes, workgroup_size
	Msg   string
}

func (e *QueryError) Error() string { return e.Field + ": " + e.Msg }

// allocRegs is the register allocation of a thread using r registers.
func (g *GPU) allocRegs(r int) int {
	gr := max(g.RegisterGranule, 1)
	n := (max(r, 1) + gr - 1) / gr
	if g.RegisterAllocPow2 {
		p := 1
		for p < n {
			p *= 2
		}
		n = p
	}
	return n * gr
}

type occCandidate struct {
	occ    Occupancy
	useful float64 // busy lanes / lanes of resident warps
	err    error
}

// Occupancy works out how many warps and threads of a kernel stay resident,
// per core and GPU-wide, and what limits them. It is the single source of
// truth for residency; the rules per family:
//
//   - registers: a thread's registers round up to register_granule (doubling
//     when register_alloc_pow2); an engine holds
//     floor(register file per engine / (warp width × allocation × 4 B)) warps,
//     at most max_warps_per_engine.
//   - warp width: when the GPU has several (Adreno wave64/wave128), the one
//     keeping the most threads resident, then the one wasting fewer lanes on a
//     small work-group, then the wider.
//   - work-groups: all warps of a work-group sit on one core. Rogue packs
//     work-groups smaller than a task (4, 8, 16 → 8, 4, 2 per task) unless the
//     kernel has a barrier and the size was not fixed at compile time.
//   - local memory: global (Mali) allows workgroups_with_local_per_core
//     work-groups using local memory per core; on_chip instances are shared by
//     cores_per_instance cores, so a GPU holds
//     instances × floor(instance / allocation) such work-groups.
func (g *GPU) Occupancy(q OccupancyQuery) (Occupancy, error) {
	if err := g.checkQuery(q); err != nil {
		return Occupancy{}, err
	}
	var best *occCandidate
	var firstErr error
	for _, w := range g.WarpSizes {
		c := g.occupancyFor(q, w)
		if c.err != nil {
			if firstErr == nil {
				firstErr = c.err
			}
			continue
		}
		if best == nil || better(c, best) {
			best = c
		}
	}
	if best == nil {
		return Occupancy{}, firstErr
	}
	if len(g.WarpSizes) > 1 {
		best.occ.Explanation = append([]string{fmt.Sprintf("warp width %d chosen from %v: it keeps the most threads resident (ties: fewer idle lanes, then the wider)", best.occ.WarpWidth, g.WarpSizes)}, best.occ.Explanation...)
	}
	return best.occ, nil
}

func better(a, b *occCandidate) bool {
	if a.occ.ResidentThreads != b.occ.ResidentThreads {
		return a.occ.ResidentThreads > b.occ.ResidentThreads
	}
	if math.Abs(a.useful-b.useful) > 1e-9 {
		return a.useful > b.useful
	}
	return a.occ.WarpWidth > b.occ.WarpWidth
}

func (g *GPU) checkQuery(q OccupancyQuery) error {
	if q.Regs < 1 || q.Regs > g.MaxRegistersPerThread {
		return &QueryError{"regs", fmt.Sprintf("%d is out of range; %s threads use 1 to %d 32-bit registers (beyond that the compiler spills)", q.Regs, g.ID, g.MaxRegistersPerThread)}
	}
	if q.WorkgroupSize < 0 || q.WorkgroupSize > g.MaxWorkgroupSize {
		return &QueryError{"workgroup_size", fmt.Sprintf("%d is out of range; %s accepts work-groups of 1 to %d threads", q.WorkgroupSize, g.ID, g.MaxWorkgroupSize)}
	}
	maxLocal := g.LocalMemory.MaxPerWorkgroupKiB * 1024
	if q.LocalBytes < 0 || q.LocalBytes > maxLocal {
		return &QueryError{"local_bytes", fmt.Sprintf("%d is out of range; a work-group on %s may allocate 0 to %d bytes of local memory", q.LocalBytes, g.ID, maxLocal)}
	}
	if q.LocalBytes > 0 && q.WorkgroupSize == 0 {
		return &QueryError{"workgroup_size", "local memory is allocated per work-group, so the work-group size is needed too"}
	}
	return nil
}

// occupancyFor computes occupancy with warps of width w.
func (g *GPU) occupancyFor(q OccupancyQuery, w int) *occCandidate {
	c := &occCandidate{}
	o := &c.occ
	o.GPU, o.Regs, o.WarpWidth = g.ID, q.Regs, w
	engines := g.EnginesPerCore
	alloc := g.allocRegs(q.Regs)
	o.AllocatedRegs = alloc
	slots := g.MaxWarpsPerEngine
	rfEngine := g.RegisterFileBytesPerCore() / engines
	warpBytes := w * alloc * 4
	regWarps := rfEngine / warpBytes
	perEngine := min(slots, regWarps)
	o.MaxThreadsPerCore = slots * engines * g.WidestWarp()
	var ex []string
	step := ""
	if g.RegisterAllocPow2 {
		step = ", doubling"
	}
	ex = append(ex, fmt.Sprintf("%d registers allocate as %d (granule %d%s)", q.Regs, alloc, g.RegisterGranule, step))
	if perEngine == 0 {
		c.err = &QueryError{"regs", fmt.Sprintf("a warp of %d threads × %d registers × 4 B = %d B does not fit one engine's %d B register file", w, alloc, warpBytes, rfEngine)}
		return c
	}
	ex = append(ex, fmt.Sprintf("%d B of registers per engine hold %d warps of %d threads (%d B each); %d warp slots per engine", rfEngine, regWarps, w, warpBytes, slots))
	warpsCore := perEngine * engines

	// Threads per core after each limit, to name the one that costs most.
	ideal := slots * engines * w
	afterRegs := warpsCore * w

	s := q.WorkgroupSize
	if s == 0 {
		o.ResidentWarpsPerEngine = perEngine
		o.ResidentWarpsPerCore = warpsCore
		o.ResidentThreadsPerCore = warpsCore * w
		o.ResidentWarps = warpsCore * g.Cores
		o.ResidentThreads = o.ResidentThreadsPerCore * g.Cores
		c.useful = 1
		o.LimitedBy = LimitWarpSlots
		if regWarps < slots {
			o.LimitedBy = LimitRegisters
		}
		g.finish(o, ex)
		return c
	}

	// Work-groups: warps per work-group, or work-groups per warp when Rogue
	// packs small ones into a task.
	wgsPerWarp, warpsPerWG := g.WorkgroupsPerWarp(q, w), (s+w-1)/w
	packing := g.Rules().PacksWorkgroups && s < w
	if wgsPerWarp > 1 {
		warpsPerWG = 1
	}
	var wgByWarps int
	if wgsPerWarp > 1 {
		wgByWarps = warpsCore * wgsPerWarp
		ex = append(ex, fmt.Sprintf("work-groups of %d pack %d to a %d-thread task", s, wgsPerWarp, w))
	} else {
		wgByWarps = warpsCore / warpsPerWG
		if packing {
			ex = append(ex, fmt.Sprintf("work-groups of %d run one per task (barrier and size not fixed at compile time), leaving %d of %d threads idle", s, w-s, w))
		} else {
			ex = append(ex, fmt.Sprintf("a work-group of %d threads takes %d warps of %d", s, warpsPerWG, w))
		}
	}
	if wgByWarps == 0 {
		if span, ok := g.spanCores(warpsPerWG, warpsCore); ok {
			g.spanOccupancy(c, q, w, span, warpsPerWG, warpsCore, ideal, ex)
			return c
		}
		where := "one core"
		if g.WorkgroupSpansCluster && g.CoresPerCluster > 1 {
			where = fmt.Sprintf("the %d cores of a cluster (%d each)", g.CoresPerCluster, warpsCore)
		}
		c.err = &QueryError{"workgroup_size", fmt.Sprintf("a work-group of %d threads needs %d warps of %d resident on %s, but only %d fit with %d registers per thread", s, warpsPerWG, w, where, warpsCore*max(1, g.spanLimit()), q.Regs)}
		return c
	}
	afterShape := wgByWarps * s

	// Local memory.
	lm := g.LocalMemory
	wgByLocal := math.MaxInt
	perInstance := 0
	allocLocal := 0
	if q.LocalBytes > 0 {
		switch lm.Kind {
		case LocalGlobal:
			if lm.WorkgroupsWithLocalPerCore > 0 {
				wgByLocal = lm.WorkgroupsWithLocalPerCore
				ex = append(ex, fmt.Sprintf("local memory lives in system RAM; only %d work-group(s) with local memory per core", wgByLocal))
			}
		case LocalOnChip:
			gran := max(lm.AllocGranuleBytes, 1)
			allocLocal = (q.LocalBytes + gran - 1) / gran * gran
			perInstance = lm.InstanceKiB * 1024 / allocLocal
			wgByLocal = perInstance
			share := ""
			if lm.CoresPerInstance > 1 {
				share = fmt.Sprintf(", shared by %d cores", lm.CoresPerInstance)
			}
			ex = append(ex, fmt.Sprintf("%d B of local memory allocate as %d B; a %d KiB instance%s holds %d work-group(s)", q.LocalBytes, allocLocal, lm.InstanceKiB, share, perInstance))
		}
	}
	wgCore := min(wgByWarps, wgByLocal)
	warpsOf := func(wgs int) int {
		if wgsPerWarp > 1 {
			return (wgs + wgsPerWarp - 1) / wgsPerWarp
		}
		return wgs * warpsPerWG
	}
	o.WorkgroupsPerCore = wgCore
	o.ResidentWarpsPerCore = warpsOf(wgCore)
	o.ResidentWarpsPerEngine = min(perEngine, (o.ResidentWarpsPerCore+engines-1)/engines)
	o.ResidentThreadsPerCore = wgCore * s
	c.useful = float64(o.ResidentThreadsPerCore) / float64(o.ResidentWarpsPerCore*w)

	if lm.Kind == LocalOnChip && q.LocalBytes > 0 {
		// Fill each instance's cores in turn until its capacity is used.
		cpi := lm.CoresPerInstance
		for inst := 0; inst < g.Cores/cpi; inst++ {
			left := perInstance
			for k := 0; k < cpi; k++ {
				n := min(wgCore, left)
				left -= n
				o.ResidentWorkgroups += n
				o.ResidentWarps += warpsOf(n)
			}
		}
	} else {
		o.ResidentWorkgroups = wgCore * g.Cores
		o.ResidentWarps = o.ResidentWarpsPerCore * g.Cores
	}
	o.ResidentThreads = o.ResidentWorkgroups * s
	final := o.ResidentThreadsPerCore
	if lm.Kind == LocalOnChip && q.LocalBytes > 0 {
		final = o.ResidentThreads / g.Cores // average: instances are shared
	}

	// Name the limit that costs the most threads.
	shape := LimitWorkgroupSize
	if packing {
		shape = LimitWorkgroupPacking
	}
	type loss struct {
		name   string
		factor float64
	}
	losses := []loss{
		{LimitLocalMemory, ratio(afterShape, final)},
		{LimitRegisters, ratio(ideal, afterRegs)},
		{shape, ratio(afterRegs, afterShape)},
	}
	o.LimitedBy = LimitWarpSlots
	bestF := 1.0 + 1e-9
	for _, l := range losses {
		if l.factor > bestF {
			o.LimitedBy, bestF = l.name, l.factor
		}
	}
	g.finish(o, ex)
	return c
}

// spanLimit is the most cores one work-group may spread over: its
// cluster's when workgroup_spans_cluster, else 1.
func (g *GPU) spanLimit() int {
	if g.WorkgroupSpansCluster && g.CoresPerCluster > 1 {
		return g.CoresPerCluster
	}
	return 1
}

// spanCores is how many cores a work-group of warpsPerWG warps spreads
// over when one core holds warpsCore of them: all the cores of its
// cluster, each taking an equal share of its warps (the cluster's
// register files are one pool, as Mesa ir3 sizes them), and whether they
// can hold it at all.
func (g *GPU) spanCores(warpsPerWG, warpsCore int) (int, bool) {
	cpc := g.spanLimit()
	if cpc < 2 || warpsCore < 1 {
		return 0, false
	}
	return cpc, (warpsPerWG+cpc-1)/cpc <= warpsCore
}

// spanOccupancy fills in the residency of work-groups that spread over
// the span cores of a cluster: a core takes ceil(warps / span) of each
// one's warps, so a cluster holds as many as its cores' warp room
// allows, within what its local memory allows.
func (g *GPU) spanOccupancy(c *occCandidate, q OccupancyQuery, w, span, warpsPerWG, warpsCore int, ideal int, ex []string) {
	o := &c.occ
	s := q.WorkgroupSize
	share := (warpsPerWG + span - 1) / span // warps of one work-group on a core
	perCluster := warpsCore / share
	ex = append(ex, fmt.Sprintf("one core holds %d of its %d warps: the work-group spreads over the %d cores of its cluster, %d warps a core, and a cluster holds %d such work-group(s)", warpsCore, warpsPerWG, span, share, perCluster))
	lm := g.LocalMemory
	if q.LocalBytes > 0 {
		switch lm.Kind {
		case LocalOnChip:
			gran := max(lm.AllocGranuleBytes, 1)
			alloc := (q.LocalBytes + gran - 1) / gran * gran
			// The instances a cluster's cores share.
			inst := max(span/max(lm.CoresPerInstance, 1), 1)
			perCluster = min(perCluster, inst*(lm.InstanceKiB*1024/alloc))
		case LocalGlobal:
			if lm.WorkgroupsWithLocalPerCore > 0 {
				perCluster = min(perCluster, lm.WorkgroupsWithLocalPerCore)
			}
		}
	}
	o.CoresPerWorkgroup = span
	o.WorkgroupsPerCore = perCluster
	o.ResidentWarpsPerCore = perCluster * share
	o.ResidentWarpsPerEngine = min(g.MaxWarpsPerEngine, (o.ResidentWarpsPerCore+g.EnginesPerCore-1)/g.EnginesPerCore)
	o.ResidentThreadsPerCore = min(perCluster*s, o.ResidentWarpsPerCore*w)
	o.ResidentWorkgroups = perCluster * (g.Cores / span)
	o.ResidentWarps = o.ResidentWorkgroups * warpsPerWG
	o.ResidentThreads = o.ResidentWorkgroups * s
	c.useful = float64(s) / float64(warpsPerWG*w)
	o.LimitedBy = LimitRegisters
	if ideal > 0 && o.ResidentThreads >= ideal*g.Cores {
		o.LimitedBy = LimitWarpSlots
	}
	g.finish(o, ex)
}

// WorkgroupsPerWarp is how many work-groups of the query's size share one
// warp of width w: 1 unless the family packs work-groups smaller than a
// warp (FamilyRules.PacksWorkgroups), which it does unless the kernel has
// a barrier and its size was not fixed at compile time. Each takes the
// next power of two of its size in lanes: a Rogue task of 32 holds eight
// work-groups of 4, four of 8 or two of 16 (seed 003 §Unified Shading
// Cluster). The dispatch forms its warps this way (device), and the
// occupancy rules count residency by it.
func (g *GPU) WorkgroupsPerWarp(q OccupancyQuery, w int) int {
	s := q.WorkgroupSize
	if s <= 0 || s >= w || !g.Rules().PacksWorkgroups || (q.Barrier && !q.SizeFixedAtCompile) {
		return 1
	}
	return max(w/nextPow2(s), 1)
}

func ratio(a, b int) float64 {
	if b <= 0 {
		return math.Inf(1)
	}
	return float64(a) / float64(b)
}

func nextPow2(x int) int {
	p := 1
	for p < x {
		p *= 2
	}
	return p
}

func (g *GPU) finish(o *Occupancy, ex []string) {
	if o.MaxThreadsPerCore > 0 {
		o.Occupancy = round6(float64(o.ResidentThreadsPerCore) / float64(o.MaxThreadsPerCore))
	}
	ex = append(ex, fmt.Sprintf("per core: %d warps, %d threads (%.1f%% of %d); GPU-wide over %d cores: %d warps, %d threads; limited by %s",
		o.ResidentWarpsPerCore, o.ResidentThreadsPerCore, o.Occupancy*100, o.MaxThreadsPerCore, g.Cores, o.ResidentWarps, o.ResidentThreads, o.LimitedBy))
	o.Explanation = ex
}

// String is the explanation as one paragraph.
func (o Occupancy) String() string { return strings.Join(o.Explanation, "; ") }
