package timing

import "github.com/pocketgpu/pocketgpu/arch"

// lru is a small fully-associative LRU set of lines: the instruction
// cache of a core and the instruction buffer of an engine. (assumed: full
// associativity; the seeds give no geometry, and a loop body either fits
// or does not either way.)
type lru struct {
	tags  []uint64 // line number + 1; 0 is empty
	stamp []uint64
	clock uint64
}

func newLRU(bytes, line int) *lru {
	n := max(bytes/line, 1)
	return &lru{tags: make([]uint64, n), stamp: make([]uint64, n)}
}

// access looks a line up and inserts it on a miss; it reports a hit.
func (c *lru) access(line uint64) bool {
	c.clock++
	victim := 0
	for i, t := range c.tags {
		if t == line+1 {
			c.stamp[i] = c.clock
			return true
		}
		if c.stamp[i] < c.stamp[victim] {
			victim = i
		}
	}
	c.tags[victim], c.stamp[victim] = line+1, c.clock
	return false
}

// fetcher models instruction fetch: an engine buffer (where the GPU has
// one) in front of the core's instruction cache, in front of L2.
type fetcher struct {
	line                    uint64
	missLatency             float64
	refill                  float64
	core                    []*lru // per core
	engine                  []*lru // per engine; nil entries without buffers
	hits, bufMisses, misses uint64
}

func newFetcher(g *arch.GPU, cores, engines int, enginesPerCore int) *fetcher {
	ic := g.InstructionCache
	if ic.SizeKiB <= 0 || ic.LineBytes <= 0 {
		return nil
	}
	f := &fetcher{line: uint64(ic.LineBytes), missLatency: float64(ic.MissLatencyCycles), refill: float64(ic.BufferRefillCycles)}
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

// fetch brings a group's code lines to the engine and returns the delay.
func (f *fetcher) fetch(core, engine int, offset, bytes int32) float64 {
	if bytes <= 0 {
		return 0
	}
	delay := 0.0
	first, last := uint64(offset)/f.line, (uint64(offset)+uint64(bytes)-1)/f.line
	for l := first; l <= last; l++ {
		if b := f.engine[engine]; b != nil && b.access(l) {
			f.hits++
			continue
		}
		if f.core[core].access(l) {
			if f.engine[engine] != nil {
				f.bufMisses++
				delay += f.refill
			} else {
				f.hits++
			}
			continue
		}
		f.misses++
		delay += f.missLatency
	}
	return delay
}
