package timing

import (
	"math"

	"github.com/pocketgpu/pocketgpu/arch"
)

// dispatcher is the GPU's work distribution: it hands the kernels' work to
// the cores while the occupancy rules allow — a compute dispatch's
// work-groups (or packed tasks) in order, a shader's warps as its Source
// gives them — places each unit's warps on the core's engines, and when a
// unit retires frees its place and hands out more. A core's room is
// measured in shares: a unit of a kernel takes 1/(units per core) of it,
// so kernels of different residencies can sit side by side; a kernel may
// also be limited GPU-wide (Adreno's active local memory).
type dispatcher struct {
	cores   []*core
	kernels []*Kernel    // in the order added; the first with work that fits launches
	pool    []*warpState // retired warps, for reuse
	places  int          // resident-warp places on a core (a shader warp's scratch)
	// The engine's side: at schedules f at time t (Engine.At); start has
	// a placed unit's warps look for work from t (Engine.start); fail
	// stops the run (Engine.fail).
	at    func(t float64, f func(t float64))
	start func(ws *wgState, t float64)
	fail  func(err error)
}

// core is one core's residency.
type core struct {
	id      int
	engines []*engine
	// cluster is the cores of this core's cluster in order (itself among
	// them) and rank its place there: a work-group that spreads over span
	// cores (workgroup_spans_cluster) starts at a rank that is a multiple
	// of span and takes the span cores from there.
	cluster []*core
	rank    int
	wgs     []*wgState
	// load is the share of the core resident work takes: a kernel's
	// work-group takes 1/WorkgroupsPerCore of it (a shader warp
	// 1/ResidentWarpsPerCore), so kernels sharing a core split it.
	load     float64
	warpSlot int // warps placed so far (a shader warp's scratch place)
	resident int // warps resident now
	// lastChange is when resident last changed (counts.ResidentArea runs
	// to it); firstActive and lastActive bound the core's activity.
	lastChange              float64
	active                  bool
	firstActive, lastActive float64
	counts                  CoreCounts
}

// CoreCounts are what the dispatcher counts of a core.
type CoreCounts struct {
	WarpsLaunched float64
	// ResidentArea is the resident warps integrated over time
	// (warp-cycles), ActiveCycles the time from the first launch to the
	// last warp's end.
	ResidentArea, ActiveCycles float64
	PeakResident               float64 // the most warps resident at once (a level, not a sum)
}

// newCores makes g's cores and their engines.
func newCores(g *arch.GPU) []*core {
	var cores []*core
	index := 0
	for c := 0; c < g.Cores; c++ {
		co := &core{id: c, firstActive: math.Inf(1)}
		for k := 0; k < g.EnginesPerCore; k++ {
			en := &engine{core: co, index: index, heapIdx: -1}
			en.sched.ready.flat = true
			co.engines = append(co.engines, en)
			index++
		}
		cores = append(cores, co)
	}
	cpc := max(g.CoresPerCluster, 1)
	for _, co := range cores {
		first := co.id / cpc * cpc
		co.cluster = cores[first:min(first+cpc, len(cores))]
		co.rank = co.id - first
	}
	return cores
}

// spanOf is the cores a work-group of k placed at core c spreads over,
// c first: c alone, or for a kernel whose work-groups span several cores
// (Occupancy.CoresPerWorkgroup) the span cores of c's cluster from c.
// ok is false when c cannot start such a group (its rank is not a
// multiple of the span, or the cluster has too few cores after it).
func (k *Kernel) spanOf(c *core) (cores []*core, ok bool) {
	if k.span <= 1 {
		return c.cluster[c.rank : c.rank+1], true
	}
	if c.rank%k.span != 0 || c.rank+k.span > len(c.cluster) {
		return nil, false
	}
	return c.cluster[c.rank : c.rank+k.span], true
}

// residentChange adds delta resident warps at t.
func (c *core) residentChange(t float64, delta int) {
	c.counts.ResidentArea += float64(c.resident) * (t - c.lastChange)
	c.lastChange = t
	c.resident += delta
	c.counts.PeakResident = max(c.counts.PeakResident, float64(c.resident))
	if c.resident > 0 && !c.active {
		c.active = true
		c.firstActive = math.Min(c.firstActive, t)
	}
}

// snapshot is the core's counts up to t (no earlier than its last change).
func (c *core) snapshot(t float64) CoreCounts {
	s := c.counts
	if t > c.lastChange {
		// (A snapshot taken mid-run may find a core whose warps already
		// booked a later departure.)
		s.ResidentArea += float64(c.resident) * (t - c.lastChange)
	}
	if c.lastActive > c.firstActive {
		s.ActiveCycles = c.lastActive - c.firstActive
	}
	return s
}

// admitCompute sets a compute dispatch's room: perCore units (work-groups,
// or warps of pack of them) share a core, at most occ.ResidentWorkgroups
// work-groups GPU-wide, each unit in a work-group slot of its core.
func (d *dispatcher) admitCompute(k *Kernel, occ arch.Occupancy, pack int) (perCore int) {
	perCore = max(occ.WorkgroupsPerCore/pack, 1)
	k.share = 1 / float64(perCore)
	// A work-group spread over several cores takes each of them whole.
	k.span = max(occ.CoresPerWorkgroup, 1)
	k.maxGPU = occ.ResidentWorkgroups / pack
	if k.maxGPU <= 0 {
		k.maxGPU = perCore * len(d.cores)
	}
	for range d.cores {
		slots := make([]bool, perCore)
		for i := range slots {
			slots[i] = true
		}
		k.freeSlot = append(k.freeSlot, slots)
	}
	return perCore
}

// resident is the most of compute dispatch k's units the GPU holds at
// once (a wave).
func (d *dispatcher) resident(k *Kernel) int {
	return max(min(k.maxGPU, int(math.Round(1/k.share))*len(d.cores)), 1)
}

// admitShader sets a shader's room: occ.ResidentWarpsPerCore of its warps
// share a core.
func (d *dispatcher) admitShader(k *Kernel, occ arch.Occupancy) {
	k.share = 1 / float64(max(occ.ResidentWarpsPerCore, 1))
	k.maxGPU = math.MaxInt
	k.pending = make([]bool, len(d.cores))
}

// fits reports whether one more of k's units fits core c (and, for a
// work-group that spans cores, every core it would take).
func (k *Kernel) fits(c *core) bool {
	if k.resident >= k.maxGPU {
		return false
	}
	span, ok := k.spanOf(c)
	if !ok {
		return false
	}
	for _, o := range span {
		if o.load+k.share > 1+1e-9 {
			return false
		}
	}
	return true
}

// distribute fills the GPU at t: units go to the cores round-robin, one
// per core per turn, while they fit.
func (d *dispatcher) distribute(t float64) {
	for progress := true; progress; {
		progress = false
		for _, c := range d.cores {
			if d.launchOne(c, t) {
				progress = true
			}
		}
	}
}

// fill launches work on core c at t while it fits.
func (d *dispatcher) fill(c *core, t float64) {
	for d.launchOne(c, t) {
	}
}

// launchOne launches one unit on core c at time t, from the first kernel
// with work that fits; it reports whether it did.
func (d *dispatcher) launchOne(c *core, t float64) bool {
	for _, k := range d.kernels {
		if k.gated || !k.fits(c) {
			continue
		}
		if k.d != nil {
			if k.sampling != nil && k.next < k.total {
				k.sampling.beforeLaunch()
			}
			if k.next < k.total {
				return d.launchCompute(k, c, t)
			}
			continue
		}
		if k.pending[c.id] {
			continue
		}
		rw, retry := k.src.Next(c.id, t)
		if rw == nil {
			// Not asked again for this core until a wake or the retry.
			k.pending[c.id] = true
			if !math.IsInf(retry, 1) {
				d.at(max(retry, t), func(t float64) {
					k.pending[c.id] = false
					d.fill(c, t)
				})
			}
			continue
		}
		start := max(t, rw.Start)
		if rw.Launch != nil {
			start = max(start, rw.Launch(start))
		}
		d.launchShader(k, c, rw, start)
		return true
	}
	return false
}

// launchCompute places the dispatch's next unit on core c at time t, in
// the core's first free work-group slot; it reports whether it did.
func (d *dispatcher) launchCompute(k *Kernel, c *core, t float64) bool {
	slot := 0
	free := k.freeSlot[c.id]
	for i, f := range free {
		if f {
			slot = i
			break
		}
	}
	var r *taskRecord
	if k.ahead != nil {
		var err error
		if r, err = k.ahead.take(k.next); err != nil {
			d.fail(err)
			return false
		}
	}
	free[slot] = false
	if r != nil {
		d.launchRecorded(k, c, slot, r, t)
		return true
	}
	wg := k.d.NewTask(k.next)
	k.next++
	ws := &wgState{wg: wg, k: k, core: c, slot: slot, groups: wg.Groups}
	d.place(ws, t, len(wg.Warps), func(i int, st *warpState) { st.w = wg.Warps[i] })
	return true
}

// launchRecorded places the dispatch's next unit, as its producer
// recorded it (r), on core c at time t in work-group slot slot: its
// warps replay the recorded blocks (and a task handed over live goes on
// live).
func (d *dispatcher) launchRecorded(k *Kernel, c *core, slot int, r *taskRecord, t float64) {
	k.next++
	k.d.ReplayTask(&r.run)
	live := r.run.Live
	ws := &wgState{wg: live, rec: r, k: k, core: c, slot: slot, groups: int(r.run.Stats.WorkGroups)}
	d.place(ws, t, int(r.run.Stats.Warps), func(i int, st *warpState) {
		st.blocks = noBlocks // (a recorded warp runs at least one block)
		if i < len(r.warps) && r.warps[i] != nil {
			st.blocks = r.warps[i]
		}
		if live != nil {
			st.w = live.Warps[i]
		}
	})
}

// launchShader places a shader warp on core c at time t.
func (d *dispatcher) launchShader(k *Kernel, c *core, rw *ReplayWarp, t float64) {
	if len(rw.Blocks) == 0 {
		// A warp that ran nothing (cannot happen for a real batch).
		if rw.Done != nil {
			rw.Done(t)
		}
		return
	}
	k.warps++
	ws := &wgState{k: k, core: c}
	d.place(ws, t, 1, func(_ int, st *warpState) { st.rp, st.rpAt = rw, 0 })
}

// place makes a unit's n warps resident on its core from time t, each on
// the core's least loaded engine; bind attaches warp i's functional side.
func (d *dispatcher) place(ws *wgState, t float64, n int, bind func(i int, st *warpState)) {
	k, c := ws.k, ws.core
	if !k.started {
		k.started, k.Start = true, t
	}
	k.resident++
	c.wgs = append(c.wgs, ws)
	// A work-group takes its share of every core of its span (c alone,
	// or the cores it spreads over), and deals its warps to them in turn.
	ws.span, _ = k.spanOf(c)
	for _, o := range ws.span {
		o.load += k.share
	}
	regs := k.prog.IR.Regs
	for i := 0; i < n; i++ {
		wc := ws.span[i%len(ws.span)]
		st := d.newWarp()
		bind(i, st)
		st.k, st.wg = k, ws
		if cap(st.slots) < regs {
			st.slots = make([]slotReady, regs)
		}
		st.slots = st.slots[:regs]
		for j := range st.slots {
			st.slots[j] = slotReady{t, StallNone}
		}
		st.readyAt, st.why = t, StallNone
		// The least loaded engine (ties: the lowest index).
		en := wc.engines[0]
		for _, x := range wc.engines {
			if len(x.sched.warps) < len(en.sched.warps) {
				en = x
			}
		}
		st.eng = en
		st.scratch = i
		if k.d == nil {
			// A shader warp is a work-group of its own: its scratch
			// is the resident-warp place it takes on the core.
			st.scratch = c.warpSlot % d.places
		}
		c.warpSlot++
		en.sched.add(st)
		ws.warps = append(ws.warps, st)
		wc.counts.WarpsLaunched++
	}
	// Warp i went to span core i mod len(span).
	for j, o := range ws.span {
		o.residentChange(t, n/len(ws.span)+min(max(n%len(ws.span)-j, 0), 1))
	}
	d.start(ws, t)
}

// newWarp is a cleared warp, reusing a retired one's slices.
func (d *dispatcher) newWarp() *warpState {
	if n := len(d.pool); n > 0 {
		w := d.pool[n-1]
		d.pool = d.pool[:n-1]
		tr := w.trace
		if w.view {
			tr.Accesses, tr.Addrs = nil, nil // a record's
		}
		*w = warpState{slots: w.slots[:0], trace: tr}
		return w
	}
	return &warpState{}
}

// leave books a warp of core c leaving at end.
func (c *core) leave(end float64) {
	c.residentChange(end, -1)
	c.lastActive = max(c.lastActive, end)
}

// retire frees a finished unit's place at end and hands out more work:
// this core first, then any core a GPU-wide limit was holding back.
func (d *dispatcher) retire(wg *wgState, end float64) {
	k, c := wg.k, wg.core
	if k.d != nil {
		if wg.wg != nil {
			k.d.Release(wg.wg)
		}
		if wg.rec != nil {
			k.ahead.recycle(wg.rec)
		}
		k.freeSlot[c.id][wg.slot] = true
	} else if rw := wg.warps[0].rp; rw.Done != nil {
		rw.Done(end)
	}
	for i, x := range c.wgs {
		if x == wg {
			c.wgs = append(c.wgs[:i], c.wgs[i+1:]...)
			break
		}
	}
	k.resident--
	for _, o := range wg.span {
		if o.load -= k.share; o.load < 1e-9 {
			o.load = 0
		}
	}
	k.done++
	k.groupsDone += wg.groups
	k.End = max(k.End, end)
	d.pool = append(d.pool, wg.warps...)
	if k.sampling != nil {
		k.sampling.retired(end)
	}
	if k.d != nil && k.done == k.total && k.OnDone != nil {
		d.at(end, k.OnDone)
	}
	d.launchOne(c, end)
	for _, o := range d.cores {
		d.fill(o, end)
	}
}
