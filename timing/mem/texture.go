package mem

// This file models the texture path: texture units shared by
// texture.cores_per_unit cores, each with its own texture cache.

// texture runs texel fetches through the core's texture unit (shared by
// texture.cores_per_unit cores): the unit takes samples /
// texture.samples_per_clock cycles, after texture.cycles_per_message for
// taking the message, its cache serves the texels' lines, and
// misses go to L2 (on Rogue through the core's mixed L1, which every
// transfer passes, seed 003 §L1 Mixed Cache). A level beyond the texture
// cache is seen with the texture path's extra latency (texture_cache
// latency minus the L1's).
func (h *Hierarchy) texture(now float64, r *Request, bytes int) Result {
	p := &h.p
	unit := r.Core / p.texPerUnit
	samples := r.Lanes
	if samples <= 0 {
		samples = len(r.Addrs)
	}
	h.c.TextureSamples[unit] += int64(samples)
	occ := p.texMsg + float64(samples)/p.texSPC
	start := h.texSrv[unit].take(now, occ)
	end := tail(start, occ)
	total := h.gather(r.Addrs, bytes, p.texLine, p.texShift)
	cc := &h.c.TextureCache[unit]
	cc.ReadBytes += int64(total)
	done, cause := end+p.texLat, TextureUnit
	for _, s := range h.lines {
		cc.Accesses++
		hit, ready, _, _ := h.tex[unit].access(s.line, false, end)
		if hit {
			cc.Hits++
			done = fmax(done, ready)
			continue
		}
		cc.Misses++
		addr := s.line * uint64(p.texLine)
		var d float64
		var c Cause
		if p.l1Mixed {
			occ1 := fmax(p.l1Slot, float64(p.texLine)/p.l1BPC)
			s1 := h.l1Srv[r.Core].take(start, occ1)
			h.c.L1[r.Core].ReadBytes += int64(p.texLine)
			d, c = h.l1Line(r.Core, addr>>p.l1Shift, false, s1, tail(s1, occ1))
		} else {
			d, c = h.l2Read(r.Core, addr, p.texLine, start, true)
		}
		d += p.texExtra
		h.tex[unit].setReady(s.line, d)
		done, cause = fmax(done, d), deeper(cause, c)
	}
	return Result{Done: done, Cause: cause}
}
