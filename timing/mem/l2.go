package mem

// This file models the L2: address-interleaved slices, each a write-back,
// write-allocate cache behind a bandwidth server, reached over each core's
// path to L2.

// toL2 sends n bytes at addr over a core's path to L2 at t: the TLB's extra
// latency (when tlb is set), and when the transfer starts and ends.
func (h *Hierarchy) toL2(core int, addr uint64, n int, t float64, tlb bool) (extra, start, end float64) {
	if tlb {
		extra = h.translate(addr)
	}
	if core == FixedFunction {
		// The units' own port: the slices are what limits them.
		return extra, t, t
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
