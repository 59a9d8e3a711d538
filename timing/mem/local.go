package mem

// This file models work-group local memory: in private windows of ordinary
// memory behind the load/store cache (Mali), or on-chip instances shared by
// cores (Adreno) with the common store's bank rules (Rogue, banks.go).

import "math"

// Address regions for local memory that lives in ordinary memory (Mali) and
// for private (spill) memory: far above the executor's device virtual
// addresses (which start at 64 GiB). The engine lays each slot's area out in
// its region (Request.Window).
const (
	localRegion   = uint64(1) << 60
	privateRegion = uint64(2) << 60
)

// private moves a work-group slot's offsets into its area of a region of
// ordinary memory: Mali local memory is plain memory behind the load/store
// cache (seed 000 §Memory Pipeline).
func (h *Hierarchy) private(region uint64, r *Request) []uint64 {
	base := region + r.Window
	h.remap = h.remap[:0]
	for _, a := range r.Addrs {
		h.remap = append(h.remap, base+a)
	}
	return h.remap
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
