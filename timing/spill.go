package timing

import (
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// spillCounts are the spill messages the engine sent (docs/counters.md).
type spillCounts struct {
	loads, stores float64 // warp messages
	loadBytes     float64 // bytes moved, over the active lanes
	storeBytes    float64
}

// spillOp sends a spill store or reload (isa.SpillMsg) through the memory
// hierarchy as a private-memory access: its addresses are the active lanes'
// places in the warp's scratch area, which sits in its work-group slot's
// private area (windows.go) after the areas of the work-group's earlier
// warps, so that a warp's accesses to one run are contiguous. A reload's
// slots are ready when its data is back; a store only has to complete
// before the warp ends.
func (e *Engine) spillOp(w *warpState, m *isa.SpillMsg, t float64) {
	k := w.k
	width := max(k.prog.WarpWidth, 1)
	base := uint64(w.scratch) * uint64(k.prog.SpillBytes) * uint64(width)
	act := w.trace.Active
	e.spillAddrs = e.spillAddrs[:0]
	for lane := 0; lane < width && lane < 128; lane++ {
		if act.Has(lane) {
			e.spillAddrs = append(e.spillAddrs, base+m.Addr(width, lane))
		}
	}
	lanes := len(e.spillAddrs)
	if lanes == 0 {
		return
	}
	r := &e.req
	*r = mem.Request{Core: w.wg.core.id, Space: ir.SpacePrivate, Kind: mem.Load, Addrs: e.spillAddrs,
		Bytes: int(m.Bytes), Lanes: lanes, Group: w.wg.slot, Stream: mem.StreamData,
		Window: k.window(ir.SpacePrivate, w.wg.core.id, w.wg.slot)}
	bytes := float64(lanes) * float64(m.Bytes)
	if m.Store {
		r.Kind = mem.Store
		e.spills.stores++
		e.spills.storeBytes += bytes
	} else {
		e.spills.loads++
		e.spills.loadBytes += bytes
	}
	var res mem.Result
	if e.prof == nil {
		res = e.mem.Access(t, r)
	} else {
		res = e.prof.spillAccess(e.mem, w, t, r)
	}
	if e.tr != nil {
		e.tr.request(t, res.Done)
	}
	if m.Store {
		w.outstanding = max(w.outstanding, res.Done)
		return
	}
	for _, s := range m.Slots {
		if s >= 0 && int(s) < len(w.slots) {
			w.slots[s] = slotReady{res.Done, StallMemory}
		}
	}
}
