package mem

// This file models the SoC's system-level cache below L2: read through it to
// DRAM, and write-through on the way to DRAM (it keeps a clean copy).

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
