package mem

// This file warms the caches functionally: accesses made between
// StartWarming and StopWarming change what the caches and the TLB hold —
// lines allocated, recency, dirty lines and the write-backs of dirty
// victims into the level below — and nothing else: no time passes, no
// server is booked and nothing is counted. Sampled simulation runs the
// work-groups it skips this way (SMARTS's functional warming), so that
// the caches a kernel leaves, and the end-of-kernel write-back of its
// dirty lines, are those of the whole kernel and not of its detailed part.

// warmState is what warming must give back: the counters, the servers,
// and the ready times of the lines warming did not replace.
type warmState struct {
	c       Counters
	l1Srv   []server
	path    []server
	texSrv  []server
	l2Srv   []server
	local   []server
	slcSrv  server
	dram    server
	atom    server
	lastTLB uint64
	lines   []warmLines // per cache, in eachCache's order
}

// warmLines is one cache's tags and ready times before warming.
type warmLines struct {
	tags  []uint64
	ready []float64
}

// StartWarming begins functional warming: until StopWarming, Access only
// updates the caches' contents (its results are meaningless). Calls
// must pair; warming does not nest.
func (h *Hierarchy) StartWarming() {
	if h.warm != nil {
		panic("mem: StartWarming while warming") // a programming error
	}
	w := &warmState{c: h.Counters(), slcSrv: h.slcSrv, dram: h.dram, atom: h.atom, lastTLB: h.lastTLB}
	w.c.DRAMBusyCycles = h.c.DRAMBusyCycles
	for _, s := range []struct {
		dst *[]server
		src []server
	}{{&w.l1Srv, h.l1Srv}, {&w.path, h.path}, {&w.texSrv, h.texSrv}, {&w.l2Srv, h.l2Srv}, {&w.local, h.local}} {
		*s.dst = append([]server(nil), s.src...)
	}
	h.eachCache(func(c *cache) {
		wl := warmLines{tags: append([]uint64(nil), c.tags...), ready: make([]float64, len(c.meta))}
		for i := range c.meta {
			wl.ready[i] = c.meta[i].ready
		}
		w.lines = append(w.lines, wl)
	})
	h.warm = w
	h.zeroServers()
}

// StopWarming ends functional warming: the counters and servers are as
// StartWarming found them; a line warming brought in is ready at once, a
// line it left in place keeps its ready time.
func (h *Hierarchy) StopWarming() {
	w := h.warm
	if w == nil {
		panic("mem: StopWarming without StartWarming") // a programming error
	}
	h.warm = nil
	h.c = w.c
	copy(h.l1Srv, w.l1Srv)
	copy(h.path, w.path)
	copy(h.texSrv, w.texSrv)
	copy(h.l2Srv, w.l2Srv)
	copy(h.local, w.local)
	h.slcSrv, h.dram, h.atom, h.lastTLB = w.slcSrv, w.dram, w.atom, w.lastTLB
	i := 0
	h.eachCache(func(c *cache) {
		wl := w.lines[i]
		i++
		for k := range c.meta {
			if c.tags[k] == wl.tags[k] {
				c.meta[k].ready = wl.ready[k]
			} else {
				c.meta[k].ready = 0
			}
		}
	})
}

// Warming reports whether the hierarchy is warming.
func (h *Hierarchy) Warming() bool { return h.warm != nil }

// zeroServers frees every server at cycle 0: warming's accesses run at
// time 0 and their fills' ready times are set right by StopWarming.
func (h *Hierarchy) zeroServers() {
	clear(h.l1Srv)
	clear(h.path)
	clear(h.texSrv)
	clear(h.l2Srv)
	clear(h.local)
	h.slcSrv, h.dram, h.atom = server{}, server{}, server{}
}

// CacheBytes is what every cache of the hierarchy holds together (the
// TLB aside): the most recent data a run's end can still find in them.
func (h *Hierarchy) CacheBytes() int {
	n := 0
	h.eachCache(func(c *cache) {
		if c != h.tlb {
			n += len(c.tags) * c.lineBytes
		}
	})
	return n
}

// Fill is how many lines each cache holds, how many of them are dirty and
// how many it can hold (the TLB aside), in a fixed order. Sampled
// simulation waits until every cache is full or holds no more dirty lines
// than before before it trusts a steady rate: a kernel whose dirty lines
// have not yet filled the L2 writes nothing back yet, and looks cheaper
// than it will be.
func (h *Hierarchy) Fill() (valid, dirty, capacity []int) {
	h.eachCache(func(c *cache) {
		if c == h.tlb {
			return
		}
		n, d := 0, 0
		for i, t := range c.tags {
			if t != 0 {
				n++
				if c.meta[i].dirty {
					d++
				}
			}
		}
		valid = append(valid, n)
		dirty = append(dirty, d)
		capacity = append(capacity, len(c.tags))
	})
	return valid, dirty, capacity
}
