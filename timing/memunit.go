package timing

import (
	"math"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// memUnit sends a warp's memory work through the memory hierarchy as the
// engine issues it: the loads, stores, atomics and samples the executor
// recorded for a memory instruction (op), the spill messages the lowering
// added (spill), and async copies the work-items do themselves (op, then
// storeCopy). It records in the warp when each result can be read and
// when its stores are complete; the hierarchy decides how long each takes.
type memUnit struct {
	h    *mem.Hierarchy
	prof *profiler // nil unless profiling (Engine.EnableProfile)
	tr   *tracer   // nil unless tracing (Engine.EnableTrace)
	req  mem.Request
	// Scratch of item copies and spills.
	copyLoads, copyStores []emu.Access
	copyAddrs, spillAddrs []uint64
	counts                SpillCounts
}

// SpillCounts are the spill messages the memory unit sent
// (docs/counters.md).
type SpillCounts struct {
	Loads, Stores float64 // warp messages
	LoadBytes     float64 // bytes moved, over the active lanes
	StoreBytes    float64
}

// op sends the accesses memory instruction pc of w's current block
// recorded, issued at t. For an async copy the work-items do (itemCopy)
// it sends the loads and returns the copy, whose stores wait for them
// (storeCopy); otherwise nil.
func (m *memUnit) op(w *warpState, pc int32, t float64) *itemCopy {
	tr := &w.trace
	for w.acc < len(tr.Accesses) && tr.Accesses[w.acc].PC != pc {
		w.acc++
	}
	if w.k.itemCopy && w.acc < len(tr.Accesses) && tr.Accesses[w.acc].Bulk {
		return m.loadCopy(w, pc, t)
	}
	done := t
	cause := StallMemory
	for w.acc < len(tr.Accesses) && tr.Accesses[w.acc].PC == pc {
		a := tr.Accesses[w.acc]
		w.acc++
		if a.Space == ir.SpacePrivate {
			continue // registers: the lowering costs these as moves
		}
		r := &m.req
		w.k.request(r, tr, a, w.coreID(), w.wg.core.id, w.wg.slot)
		if r.Kind == mem.Texture {
			cause = StallTexture
		}
		var res mem.Result
		if m.prof == nil {
			res = m.h.Access(t, r)
		} else {
			res = m.prof.access(m.h, w.k, pc, t, r)
		}
		if m.tr != nil {
			m.tr.request(t, res.Done)
		}
		if res.Conflicts > 0 {
			cause = StallBankConflict
		}
		if a.Bulk {
			// A kernel waits for its async copies (wait_group_events) before
			// it uses them; the copying warp stalls until the copy is done.
			if res.Done > w.readyAt {
				w.readyAt, w.why = res.Done, StallMemory
			}
			continue
		}
		if r.Kind == mem.Store {
			w.outstanding = max(w.outstanding, res.Done)
			continue
		}
		done = max(done, res.Done)
	}
	ip := w.k.prog.IR
	in := &ip.Code[pc]
	dst, n := in.Dst, int(in.N)
	switch in.Op {
	case ir.OpAtomic:
		dst, n = ip.Atomics[in.Aux].Dst, 1
		w.outstanding = max(w.outstanding, done)
	case ir.OpImage:
		n = max(ip.Images[in.Aux].N, 1)
	}
	for k := 0; k < n && dst >= 0; k++ {
		if s := int(dst) + k; s < len(w.slots) {
			w.slots[s] = slotReady{done, cause}
		}
	}
	return nil
}

// request fills r with access a of trace tr, made by a warp of k's
// work-group in slot slot of core core.
// core is the core the warp sits on (its caches, its local-memory
// instance); home and slot place its work-group's windows (a work-group
// spread over several cores keeps its first core's).
func (k *Kernel) request(r *mem.Request, tr *emu.Trace, a emu.Access, core, home, slot int) {
	r.Core, r.Space, r.Group = core, a.Space, slot
	r.Window = k.window(a.Space, home, slot)
	r.Addrs = tr.Addrs[a.Start : a.Start+a.N]
	r.Bytes, r.Lanes = a.Bytes, a.N
	r.Burst = a.Bulk && k.burstCopy
	r.Stream = mem.StreamData
	r.NoL1 = false
	switch a.Kind {
	case emu.AccessLoad:
		r.Kind = mem.Load
	case emu.AccessStore:
		r.Kind = mem.Store
	case emu.AccessAtomic:
		r.Kind = mem.Atomic
	case emu.AccessTexture:
		r.Kind = mem.Texture
		r.Stream = mem.StreamTexture
		r.Lanes = tr.Active.Count()
	}
}

// spill sends a spill store or reload (isa.SpillMsg) of the group w is
// issuing at t as a private-memory access: its addresses are the active
// lanes' places in the warp's scratch area, which sits in its work-group
// slot's private area (windows.go) after the areas of the work-group's
// earlier warps, so that a warp's accesses to one run are contiguous. A
// reload's slots are ready when its data is back; a store only has to
// complete before the warp ends.
func (m *memUnit) spill(w *warpState, msg *isa.SpillMsg, t float64) {
	k := w.k
	width := max(k.prog.WarpWidth, 1)
	base := uint64(w.scratch) * uint64(k.prog.SpillBytes) * uint64(width)
	act := w.trace.Active
	m.spillAddrs = m.spillAddrs[:0]
	for lane := 0; lane < width && lane < 128; lane++ {
		if act.Has(lane) {
			m.spillAddrs = append(m.spillAddrs, base+msg.Addr(width, lane))
		}
	}
	lanes := len(m.spillAddrs)
	if lanes == 0 {
		return
	}
	r := &m.req
	*r = mem.Request{Core: w.coreID(), Space: ir.SpacePrivate, Kind: mem.Load, Addrs: m.spillAddrs,
		Bytes: int(msg.Bytes), Lanes: lanes, Group: w.wg.slot, Stream: mem.StreamData,
		Window: k.window(ir.SpacePrivate, w.wg.core.id, w.wg.slot)}
	bytes := float64(lanes) * float64(msg.Bytes)
	if msg.Store {
		r.Kind = mem.Store
		m.counts.Stores++
		m.counts.StoreBytes += bytes
	} else {
		m.counts.Loads++
		m.counts.LoadBytes += bytes
	}
	var res mem.Result
	if m.prof == nil {
		res = m.h.Access(t, r)
	} else {
		res = m.prof.spillAccess(m.h, w, t, r)
	}
	if m.tr != nil {
		m.tr.request(t, res.Done)
	}
	if msg.Store {
		w.outstanding = max(w.outstanding, res.Done)
		return
	}
	for _, s := range msg.Slots {
		if s >= 0 && int(s) < len(w.slots) {
			w.slots[s] = slotReady{res.Done, StallMemory}
		}
	}
}

// itemCopy is an async_work_group_copy with no burst path (Rogue without a
// compile-time work-group size of async_copy.min_workgroup or more, seed
// 003 §System Memory Access): the work-items copy the elements themselves,
// as a library's portable async_work_group_copy does (work-item i copies
// elements i, i + size, ...). Round after round each of the warp's
// work-items loads one element from global memory into its registers (an
// instruction a round, its lanes' addresses resolved as any load's), and
// once the data is there stores it into local memory (another instruction
// a round, through the common store's bank rules). The warp waits for the
// last store (wait_group_events). The bulk transfers the executor recorded
// (a load and a store for each work-group with lanes in the warp) give the
// elements; a work-group larger than the warp has its copy charged to its
// first warp, which recorded it.
type itemCopy struct {
	w      *warpState
	en     *engine // the engine w issued the copy on
	rounds int
	chunk  int     // elements a round: one per work-item
	inst   float64 // issue cycles of one round's instruction
	stores []emu.Access
	loaded float64 // when the last round's data is in the registers
}

// loadCopy issues an item copy's load rounds, recorded at pc, from t: the
// copy's own group issued the first round's instruction, the engine's
// port takes the others. The warp waits until the stores are done.
func (m *memUnit) loadCopy(w *warpState, pc int32, t float64) *itemCopy {
	tr := &w.trace
	k := w.k
	m.copyLoads, m.copyStores = m.copyLoads[:0], m.copyStores[:0]
	for ; w.acc < len(tr.Accesses) && tr.Accesses[w.acc].PC == pc; w.acc++ {
		if a := tr.Accesses[w.acc]; a.Kind == emu.AccessLoad {
			m.copyLoads = append(m.copyLoads, a)
		} else {
			m.copyStores = append(m.copyStores, a)
		}
	}
	if len(m.copyLoads) == 0 || len(m.copyLoads) != len(m.copyStores) {
		return nil
	}
	chunk := k.copyChunk
	rounds := 0
	for _, a := range m.copyLoads {
		rounds = max(rounds, (a.N+chunk-1)/chunk)
	}
	// One instruction per burst of each work-item's element.
	bursts := 1
	if b := k.copyBurst; b > 0 && m.copyLoads[0].Bytes > b {
		bursts = (m.copyLoads[0].Bytes + b - 1) / b
	}
	c := &itemCopy{w: w, en: w.eng, rounds: rounds, chunk: chunk, inst: k.instIssue * float64(bursts), loaded: t}
	c.en.issuer.occupy(c.en.issuer.portFree, float64(rounds-1)*c.inst)
	for r := 0; r < rounds; r++ {
		c.loaded = max(c.loaded, m.copyRound(w, c.chunk, r, m.copyLoads, mem.Load, t+float64(r)*c.inst))
	}
	c.stores = append([]emu.Access(nil), m.copyStores...)
	w.readyAt, w.why, w.copying = math.Inf(1), StallMemory, true
	return c
}

// storeCopy issues an item copy's store rounds once its data is in the
// registers (now) and returns when the last is done.
func (m *memUnit) storeCopy(c *itemCopy, now float64) float64 {
	start := c.en.issuer.occupy(now, float64(c.rounds)*c.inst)
	done := c.en.issuer.portFree
	for r := 0; r < c.rounds; r++ {
		done = max(done, m.copyRound(c.w, c.chunk, r, c.stores, mem.Store, start+float64(r)*c.inst))
	}
	c.w.outstanding = max(c.w.outstanding, done)
	return done
}

// copyRound sends round r of an item copy's transfers acc, of kind, at
// at: each work-group's elements r×chunk to (r+1)×chunk, one per
// work-item. It returns when they are done.
func (m *memUnit) copyRound(w *warpState, chunk, r int, acc []emu.Access, kind mem.Kind, at float64) float64 {
	lo := r * chunk
	tr := &w.trace
	m.copyAddrs = m.copyAddrs[:0]
	for _, a := range acc {
		if hi := min(lo+chunk, a.N); lo < hi {
			m.copyAddrs = append(m.copyAddrs, tr.Addrs[a.Start+lo:a.Start+hi]...)
		}
	}
	if len(m.copyAddrs) == 0 {
		return at
	}
	q := &m.req
	*q = mem.Request{Core: w.coreID(), Space: acc[0].Space, Kind: kind, Addrs: m.copyAddrs,
		Bytes: acc[0].Bytes, Lanes: len(m.copyAddrs), Group: w.wg.slot, Stream: mem.StreamData,
		Window: w.k.window(acc[0].Space, w.wg.core.id, w.wg.slot)}
	res := m.h.Access(at, q)
	if m.tr != nil {
		m.tr.request(at, res.Done)
	}
	return res.Done
}
