package mem

// This file models global atomics: a GPU-wide atomic unit at L2
// (atomics.ops_per_clock) operating on lines that must be present in L2.

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
