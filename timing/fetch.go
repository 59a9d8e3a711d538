package timing

import (
	"math/bits"

	"github.com/pocketgpu/pocketgpu/arch"
)

// lru is a small fully-associative LRU set of lines with the time each
// line's data arrives: the instruction cache of a core and the instruction
// buffer of an engine. (assumed: full associativity; the seeds give no
// geometry, and a loop body either fits or does not either way.)
type lru struct {
	tags  []uint64 // line number + 1; 0 is empty
	stamp []uint64
	ready []float64
	clock uint64
	mru   int // the entry looked up or inserted last
	// hint remembers, by a line's low bits, the entry that last held a
	// line with those bits: code is contiguous, so a lookup seldom needs
	// to scan every entry (which the answer does not depend on).
	hint []int32
	mask uint64
}

func newLRU(bytes, line int) *lru {
	n := max(bytes/line, 1)
	h := 1
	for h < 2*n {
		h *= 2
	}
	return &lru{tags: make([]uint64, n), stamp: make([]uint64, n), ready: make([]float64, n), hint: make([]int32, h), mask: uint64(h - 1)}
}

// lookup finds a line; on a hit it returns when its data is there.
func (c *lru) lookup(line uint64) (float64, bool) {
	// A group usually sits in the line the one before it used: that line is
	// already the most recent, so the order needs no update.
	if c.tags[c.mru] == line+1 {
		return c.ready[c.mru], true
	}
	c.clock++
	if i := c.hint[line&c.mask]; c.tags[i] == line+1 {
		c.stamp[i], c.mru = c.clock, int(i)
		return c.ready[i], true
	}
	for i, t := range c.tags {
		if t == line+1 {
			c.stamp[i], c.mru = c.clock, i
			c.hint[line&c.mask] = int32(i)
			return c.ready[i], true
		}
	}
	return 0, false
}

// insert places a line that arrives at ready, evicting the least recent.
func (c *lru) insert(line uint64, ready float64) {
	victim := 0
	for i := range c.tags {
		if c.stamp[i] < c.stamp[victim] {
			victim = i
		}
	}
	c.clock++
	c.tags[victim], c.stamp[victim], c.ready[victim] = line+1, c.clock, ready
	c.mru = victim
	c.hint[line&c.mask] = int32(victim)
}

// fetcher models instruction fetch: an engine buffer (where the GPU has
// one) in front of the core's instruction cache, in front of L2. Refills
// take bandwidth: the core's cache delivers fetch_bytes_per_cycle shared by
// its engines, and a miss brings the line over the core's path to L2.
type fetcher struct {
	line        uint64
	lineShift   uint // log2 of line (arch keeps line_bytes a power of two)
	missLatency float64
	refill      float64
	cacheBW     float64 // bytes per cycle from the core's cache to its engines
	l2BW        float64 // bytes per cycle from L2 into the core's cache
	core        []*lru
	engine      []*lru // nil entries without buffers
	cacheFree   []float64
	l2Free      []float64
	counts      FetchCounts
}

// FetchCounts are the fetcher's code-line lookups (the icache_* counters).
type FetchCounts struct {
	Hits         float64 // in the engine's buffer, or the core's cache where there is none
	BufferMisses float64 // missed the engine's buffer, hit the core's cache
	Misses       float64 // missed the core's cache: refilled from L2
}

func newFetcher(g *arch.GPU, cores, engines int) *fetcher {
	ic := g.InstructionCache
	if ic.SizeKiB <= 0 || ic.LineBytes <= 0 {
		return nil
	}
	f := &fetcher{line: uint64(ic.LineBytes), lineShift: uint(bits.TrailingZeros(uint(ic.LineBytes))), missLatency: float64(ic.MissLatencyCycles), refill: float64(ic.BufferRefillCycles),
		cacheBW: float64(ic.FetchBytesPerCycle), l2BW: g.L2.CoreBytesPerCycle,
		cacheFree: make([]float64, cores), l2Free: make([]float64, cores)}
	for c := 0; c < cores; c++ {
		f.core = append(f.core, newLRU(ic.SizeKiB*1024, ic.LineBytes))
	}
	for e := 0; e < engines; e++ {
		var b *lru
		if ic.EngineBufferBytes > 0 {
			b = newLRU(ic.EngineBufferBytes, ic.LineBytes)
		}
		f.engine = append(f.engine, b)
	}
	return f
}

// fetch brings a group's code lines to the engine at time t and returns
// when they are all there.
func (f *fetcher) fetch(core, engine int, offset, bytes int32, t float64) float64 {
	if bytes <= 0 {
		return t
	}
	done := t
	first, last := uint64(offset)>>f.lineShift, (uint64(offset)+uint64(bytes)-1)>>f.lineShift
	for l := first; l <= last; l++ {
		buf := f.engine[engine]
		if buf != nil {
			if at, ok := buf.lookup(l); ok {
				f.counts.Hits++
				done = max(done, at)
				continue
			}
		}
		at, ok := f.core[core].lookup(l)
		if ok {
			if buf == nil {
				f.counts.Hits++
				done = max(done, at)
				continue
			}
			f.counts.BufferMisses++
		} else {
			// Refill the core's cache from L2 over the core's path.
			f.counts.Misses++
			start := max(t, f.l2Free[core])
			xfer := 0.0
			if f.l2BW > 0 {
				xfer = float64(f.line) / f.l2BW
			}
			f.l2Free[core] = start + xfer
			at = start + xfer + f.missLatency
			f.core[core].insert(l, at)
		}
		if buf != nil {
			// Refill the engine's buffer from the core's cache, sharing its
			// fetch bandwidth with the core's other engines.
			start := max(t, at, f.cacheFree[core])
			xfer := 0.0
			if f.cacheBW > 0 {
				xfer = float64(f.line) / f.cacheBW
			}
			f.cacheFree[core] = start + xfer
			at = start + xfer + f.refill
			buf.insert(l, at)
		}
		done = max(done, at)
	}
	return done
}
