package mem

// This file models the per-core L1: the Mali load/store cache and the Rogue
// mixed cache (write-back, write-allocate), with the coalesced Mali/Adreno
// path and the Rogue path that resolves a task's accesses one by one.

// coalesced is the Mali and Adreno path: a warp instruction's lanes are
// merged into unique cache lines, which go through the core's L1 (Mali) or
// straight to L2 (Adreno global memory, seed 000 §L2 Cache and System
// Level) in parallel; the data is back when the last line is.
func (h *Hierarchy) coalesced(now float64, core int, addrs []uint64, bytes int, write, noL1 bool) Result {
	p := &h.p
	if !p.hasL1 || noL1 {
		h.gather(addrs, bytes, p.l2Line, p.l2Shift)
		done, cause := now, L2Hit
		moved := 0 // bytes the lines bring over the path
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
			moved += s.bytes
		}
		if p.pathPerLane && !write && core != FixedFunction {
			// The path brings every active lane its own copy: lanes that
			// share bytes (a broadcast) take the path again for each.
			if extra := len(addrs)*bytes - moved; extra > 0 {
				occ := float64(extra) / p.pathBPC
				s := h.path[core].take(now, occ)
				h.c.L2PathBytes[core] += int64(extra)
				done = fmax(done, tail(s, occ)+p.l2Lat)
			}
		}
		return Result{Done: done, Cause: cause}
	}

	total := h.gather(addrs, bytes, p.l1Line, p.l1Shift)
	occ := fmax(fmax(float64(len(h.lines))*p.l1Slot, float64(len(addrs))*p.l1Lane), h.l1Rate.cycles(total))
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
// transaction at most l1.burst_bytes and within one cache line, each
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
