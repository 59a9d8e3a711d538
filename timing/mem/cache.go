package mem

import "math"

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
	assoc     int
	stride    uint64 // lines of other slices between two lines of this cache (1 unless sliced)

	ways  []way // a set's ways are adjacent
	clock uint64

	cur          *Stream // the stream of the request being served
	victimStream Stream  // the stream of the line the last miss evicted
}

// way is one line frame. Its fields sit together so that a lookup touches
// one place per way.
type way struct {
	tag   uint64  // line+1, 0 = invalid
	used  uint64  // LRU stamp
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
	c := &cache{
		lineShift: shiftOf(lineBytes),
		lineBytes: lineBytes,
		sets:      uint64(sets),
		assoc:     ways,
		stride:    uint64(max(stride, 1)),
		ways:      make([]way, sets*ways),
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

// set is a line's set.
func (c *cache) set(line uint64) []way {
	if c.stride > 1 {
		line /= c.stride
	}
	var b int
	if c.setMask != 0 || c.sets == 1 {
		b = int(line&c.setMask) * c.assoc
	} else {
		b = int(line%c.sets) * c.assoc
	}
	return c.ways[b : b+c.assoc]
}

// access looks a line up and marks it most recently used. On a miss the
// line is allocated (ready at readyAt) in place of the least recently used
// way; victim is the line evicted and victimDirty whether it must be
// written back. write marks the line dirty. It returns whether the line was
// present and, if so, when its data is (or was) ready.
func (c *cache) access(line uint64, write bool, readyAt float64) (hit bool, ready float64, victim uint64, victimDirty bool) {
	set := c.set(line)
	key := line + 1
	c.clock++
	// One pass: the line's way if present, else the way used longest ago
	// (the first of equals; empty ways have stamp 0).
	lru, oldest := 0, uint64(math.MaxUint64)
	for i := range set {
		w := &set[i]
		if w.tag == key {
			w.used = c.clock
			if write {
				w.dirty = true
				w.stream = *c.cur
			}
			return true, w.ready, 0, false
		}
		if w.used < oldest {
			lru, oldest = i, w.used
		}
	}
	w := &set[lru]
	if w.tag != 0 {
		victim, victimDirty, c.victimStream = w.tag-1, w.dirty, w.stream
	}
	*w = way{tag: key, used: c.clock, ready: readyAt, dirty: write, stream: *c.cur}
	return false, readyAt, victim, victimDirty
}

// setReady records when a present line's data arrives (after access
// allocated it and the fill time became known).
func (c *cache) setReady(line uint64, at float64) {
	key := line + 1
	set := c.set(line)
	for i := range set {
		if set[i].tag == key {
			set[i].ready = at
			return
		}
	}
}

// dirtyLines calls f for every dirty line, in set and way order, and marks
// it clean.
func (c *cache) dirtyLines(f func(line uint64, s Stream)) {
	for i := range c.ways {
		if w := &c.ways[i]; w.dirty && w.tag != 0 {
			w.dirty = false
			f(w.tag-1, w.stream)
		}
	}
}

// settle makes every present line ready at cycle 0: the clock restarts for
// a new kernel while the contents stay.
func (c *cache) settle() {
	for i := range c.ways {
		c.ways[i].ready = 0
	}
}

// reset empties the cache.
func (c *cache) reset() {
	clear(c.ways)
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
