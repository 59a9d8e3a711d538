package mem

// cache is a set-associative cache with true LRU replacement, tracking whole
// lines by their line number (address >> lineShift). Each way remembers
// whether the line is dirty and when its data arrives (a line allocated by a
// miss is present at once but ready only when the fill returns, so a second
// request for it waits for the same fill instead of hitting early). LRU is
// kept with use stamps: the victim is the way used longest ago.
type cache struct {
	lineShift uint
	lineBytes int
	sets      uint64
	setMask   uint64 // sets-1 when sets is a power of two, else 0
	ways      int
	stride    uint64 // lines of other slices between two lines of this cache (1 unless sliced)

	tags  []uint64 // line+1, 0 = invalid; a set's ways are adjacent
	used  []uint64 // LRU stamps
	ready []float64
	dirty []bool
	clock uint64

	// Streams (what the data is for: see Stream) are remembered per line so
	// that a write-back is charged to the stream that dirtied the line.
	stream       []Stream
	cur          *Stream // the stream of the request being served
	victimStream Stream  // the stream of the line the last miss evicted
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
		ways:      ways,
		stride:    uint64(max(stride, 1)),
		tags:      make([]uint64, n),
		used:      make([]uint64, n),
		ready:     make([]float64, n),
		dirty:     make([]bool, n),
		stream:    make([]Stream, n),
		cur:       new(Stream),
	}
	if sets&(sets-1) == 0 {
		c.setMask = uint64(sets - 1)
	}
	return c
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
	if c.stride > 1 {
		line /= c.stride
	}
	if c.setMask != 0 || c.sets == 1 {
		return int(line&c.setMask) * c.ways
	}
	return int(line%c.sets) * c.ways
}

// access looks a line up and marks it most recently used. On a miss the
// line is allocated (ready at readyAt) in place of the least recently used
// way; victim is the line evicted and victimDirty whether it must be
// written back. write marks the line dirty. It returns whether the line was
// present and, if so, when its data is (or was) ready.
func (c *cache) access(line uint64, write bool, readyAt float64) (hit bool, ready float64, victim uint64, victimDirty bool) {
	b := c.base(line)
	key := line + 1
	c.clock++
	for i, t := range c.tags[b : b+c.ways] {
		if t == key {
			k := b + i
			c.used[k] = c.clock
			if write {
				c.dirty[k] = true
				c.stream[k] = *c.cur
			}
			return true, c.ready[k], 0, false
		}
	}
	k := b
	for i, u := range c.used[b : b+c.ways] {
		if u < c.used[k] {
			k = b + i
		}
	}
	if t := c.tags[k]; t != 0 {
		victim, victimDirty, c.victimStream = t-1, c.dirty[k], c.stream[k]
	}
	c.tags[k], c.used[k], c.ready[k], c.dirty[k], c.stream[k] = key, c.clock, readyAt, write, *c.cur
	return false, readyAt, victim, victimDirty
}

// setReady records when a present line's data arrives (after access
// allocated it and the fill time became known).
func (c *cache) setReady(line uint64, at float64) {
	b := c.base(line)
	key := line + 1
	for i, t := range c.tags[b : b+c.ways] {
		if t == key {
			c.ready[b+i] = at
			return
		}
	}
}

// dirtyLines calls f for every dirty line, in set and way order, and marks
// it clean.
func (c *cache) dirtyLines(f func(line uint64, s Stream)) {
	for i, d := range c.dirty {
		if d && c.tags[i] != 0 {
			c.dirty[i] = false
			f(c.tags[i]-1, c.stream[i])
		}
	}
}

// settle makes every present line ready at cycle 0: the clock restarts for
// a new kernel while the contents stay.
func (c *cache) settle() { clear(c.ready) }

// reset empties the cache.
func (c *cache) reset() {
	clear(c.tags)
	clear(c.used)
	clear(c.ready)
	clear(c.dirty)
	c.clock = 0
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
