package mem

// cache is a set-associative cache with true LRU replacement, tracking whole
// lines by their line number (address >> lineShift). Each way remembers
// whether the line is dirty and when its data arrives (a line allocated by a
// miss is present at once but ready only when the fill returns, so a second
// request for it waits for the same fill instead of hitting early). Each set
// keeps its ways in recency order, so the victim of a miss is known without
// a search; ways never used since a reset are taken first, lowest first.
type cache struct {
	lineShift uint
	lineBytes int
	sets      uint64
	setMask   uint64 // sets-1 when sets is a power of two, else 0
	assoc     int
	stride    divider // lines of other slices between two lines of this cache (1 unless sliced)

	tags  []uint64 // per way: line+1, 0 = invalid; a set's ways are adjacent
	meta  []way    // per way
	order []uint32 // per set: its ways (0..assoc-1), most recently used first
	last  int      // the way the last access found or filled

	cur          *Stream // the stream of the request being served
	victimStream Stream  // the stream of the line the last miss evicted
}

// way is what a line frame knows besides its tag.
type way struct {
	ready float64 // when the data is (or was) there
	dirty bool
	// stream (what the data is for: see Stream) is remembered per line so
	// that a write-back is charged to the stream that dirtied the line.
	stream Stream
}

// newCache builds a cache of sizeBytes with the given line size (a power of
// two) and ways; stride is the slice count when the cache is one slice of an
// address-interleaved level. The arch package has checked that the size is a
// multiple of line × ways (× slices).
func newCache(sizeBytes, lineBytes, ways, stride int) *cache {
	sets := max(sizeBytes/(lineBytes*ways), 1)
	n := sets * ways
	c := &cache{
		lineShift: shiftOf(lineBytes),
		lineBytes: lineBytes,
		sets:      uint64(sets),
		assoc:     ways,
		stride:    newDivider(uint64(max(stride, 1))),
		tags:      make([]uint64, n),
		meta:      make([]way, n),
		order:     make([]uint32, n),
		cur:       new(Stream),
	}
	if sets&(sets-1) == 0 {
		c.setMask = uint64(sets - 1)
	}
	c.reset()
	return c
}

// divider divides by a fixed number, with a shift when it is a power of
// two: a 64-bit division costs tens of cycles, and every L2 access divides
// by the slice count.
type divider struct {
	n     uint64
	shift uint
	pow2  bool
}

func newDivider(n uint64) divider {
	return divider{n: n, shift: shiftOf(int(n)), pow2: n&(n-1) == 0}
}

func (d divider) div(x uint64) uint64 {
	if d.pow2 {
		return x >> d.shift
	}
	return x / d.n
}

func (d divider) mod(x uint64) uint64 {
	if d.pow2 {
		return x & (d.n - 1)
	}
	return x % d.n
}

// shiftOf is log2 of a power of two.
func shiftOf(n int) uint {
	s := uint(0)
	for 1<<s < n {
		s++
	}
	return s
}

// base is the index of a line's set's first way.
func (c *cache) base(line uint64) int {
	line = c.stride.div(line)
	if c.setMask != 0 || c.sets == 1 {
		return int(line&c.setMask) * c.assoc
	}
	return int(line%c.sets) * c.assoc
}

// access looks a line up and marks it most recently used. On a miss the
// line is allocated (ready at readyAt) in place of the least recently used
// way; victim is the line evicted and victimDirty whether it must be
// written back. write marks the line dirty. It returns whether the line was
// present and, if so, when its data is (or was) ready.
func (c *cache) access(line uint64, write bool, readyAt float64) (hit bool, ready float64, victim uint64, victimDirty bool) {
	b := c.base(line)
	key := line + 1
	order := c.order[b : b+c.assoc]
	if i := find(c.tags[b:b+c.assoc], key); i >= 0 {
		// Move way i to the front of the recency order.
		j := 0
		for order[j] != uint32(i) {
			j++
		}
		toFront(order, j)
		k := b + i
		c.last = k
		m := &c.meta[k]
		if write {
			m.dirty = true
			m.stream = *c.cur
		}
		return true, m.ready, 0, false
	}
	i := order[len(order)-1]
	toFront(order, len(order)-1)
	k := b + int(i)
	c.last = k
	m := &c.meta[k]
	if t := c.tags[k]; t != 0 {
		victim, victimDirty, c.victimStream = t-1, m.dirty, m.stream
	}
	c.tags[k] = key
	*m = way{ready: readyAt, dirty: write, stream: *c.cur}
	return false, readyAt, victim, victimDirty
}

// toFront moves order[j] to the front, shifting the ways before it back.
// Sets are small, so a plain loop beats a call to memmove.
func toFront(order []uint32, j int) {
	x := order[j]
	for ; j > 0; j-- {
		order[j] = order[j-1]
	}
	order[0] = x
}

// find returns the index of key in tags, or -1. Misses scan every way, so
// the scan goes four ways a step.
func find(tags []uint64, key uint64) int {
	i := 0
	for ; i+4 <= len(tags); i += 4 {
		t := tags[i : i+4 : i+4]
		if t[0] == key || t[1] == key || t[2] == key || t[3] == key {
			break
		}
	}
	for ; i < len(tags); i++ {
		if tags[i] == key {
			return i
		}
	}
	return -1
}

// setReady records when a present line's data arrives (after access
// allocated it and the fill time became known).
func (c *cache) setReady(line uint64, at float64) {
	key := line + 1
	if c.tags[c.last] == key {
		c.meta[c.last].ready = at
		return
	}
	b := c.base(line)
	if i := find(c.tags[b:b+c.assoc], key); i >= 0 {
		c.meta[b+i].ready = at
	}
}

// dirtyLines calls f for every dirty line, in set and way order, and marks
// it clean.
func (c *cache) dirtyLines(f func(line uint64, s Stream)) {
	for i := range c.meta {
		if m := &c.meta[i]; m.dirty && c.tags[i] != 0 {
			m.dirty = false
			f(c.tags[i]-1, m.stream)
		}
	}
}

// settle makes every present line ready at cycle 0: the clock restarts for
// a new kernel while the contents stay.
func (c *cache) settle() {
	for i := range c.meta {
		c.meta[i].ready = 0
	}
}

// reset empties the cache. Every set's recency order starts with its
// highest way, so misses fill the ways lowest first.
func (c *cache) reset() {
	clear(c.tags)
	clear(c.meta)
	for b := 0; b < len(c.order); b += c.assoc {
		for j := 0; j < c.assoc; j++ {
			c.order[b+j] = uint32(c.assoc - 1 - j)
		}
	}
	c.last = 0
}

// server is a shared resource with a bandwidth: a request occupies it for
// its service time, starting when both it arrives and the server is free.
type server struct {
	free float64 // when the server can start the next request
	busy float64 // total service time given, for utilisation counters
}

// take books occ cycles of service for a request arriving at t and returns
// when the service starts.
func (s *server) take(t, occ float64) float64 {
	start := t
	if s.free > start {
		start = s.free
	}
	s.free = start + occ
	s.busy += occ
	return start
}

// tail is when the last part of a service of occ cycles starting at start
// leaves the server, counting the first cycle as part of the level's
// configured latency: a request that fits in one cycle of service sees
// exactly the latency, a longer one that much more.
func tail(start, occ float64) float64 {
	if occ > 1 {
		return start + occ - 1
	}
	return start
}
