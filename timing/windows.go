package timing

import "github.com/pocketgpu/pocketgpu/ir"

// Where a work-group's local memory (on GPUs that keep it in ordinary
// memory: Mali) and its warps' spill areas sit. A driver allocates one
// buffer per kind for a job, sized for every slot of every core, and gives
// slot s of core c the area at (c × slots + s) × size (Panfrost sizes its
// thread and work-group storage that way: per-slot size × slots × cores).
// The areas are thus back to back, and the caches see them spread over
// their sets as a real buffer is, not stacked on the same sets.

// windowAlign is the alignment of each slot's area. assumed: 256 B, a
// multiple of every preset's cache line, so no two slots share a line.
const windowAlign = 256

// windows is one kernel's layout of its local and private areas.
type windows struct {
	slots          int    // slots per core (work-groups, or a shader's one)
	local, private uint64 // bytes of one slot's area
	// localBase and privateBase place this kernel's buffers after those
	// of the kernels added before it.
	localBase, privateBase uint64
}

func alignWindow(n int) uint64 {
	return uint64(n+windowAlign-1) &^ (windowAlign - 1)
}

// layWindows sizes kernel k's areas: slots per core, warps per slot and
// local bytes per slot, after the kernels already added.
func (e *Engine) layWindows(k *Kernel, slots, warpsPerSlot, localBytes int) {
	width := max(k.prog.WarpWidth, 1)
	w := &k.win
	w.slots = max(slots, 1)
	w.private = alignWindow(warpsPerSlot * k.prog.SpillBytes * width)
	w.local = alignWindow(localBytes)
	for _, o := range e.disp.kernels {
		if o == k {
			continue
		}
		n := uint64(len(e.cores) * o.win.slots)
		w.localBase = max(w.localBase, o.win.localBase+n*o.win.local)
		w.privateBase = max(w.privateBase, o.win.privateBase+n*o.win.private)
	}
}

// window is the offset, in its space's region, of the area of slot on
// core: what mem.Request.Window carries.
func (k *Kernel) window(space ir.Space, core, slot int) uint64 {
	i := uint64(core*k.win.slots + slot)
	if space == ir.SpacePrivate {
		return k.win.privateBase + i*k.win.private
	}
	return k.win.localBase + i*k.win.local
}
