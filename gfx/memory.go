package gfx

import "github.com/pocketgpu/pocketgpu/arch"

// Stream is what a piece of DRAM traffic is for.
type Stream uint8

const (
	StreamGeometry    Stream = iota // vertex attributes, indices, post-transform vertices
	StreamBinning                   // polygon lists (Mali), visibility streams (Adreno), tile headers
	StreamTexture                   // texels
	StreamFramebuffer               // colour and depth: tile write-back, resolves, immediate-mode ROP traffic, CRCs
	numStreams
)

var streamNames = [numStreams]string{"geometry", "binning", "texture", "framebuffer"}

func (s Stream) String() string { return streamNames[s] }

// cache is a set-associative, LRU, write-back cache of lines. Writes that
// miss allocate the line without fetching it (the written bytes are
// tracked by the line being dirty; a GPU's byte-masked L2 behaves so for
// streaming writes); reads that miss fetch it.
type cache struct {
	sets, ways int
	lineShift  uint
	tags       []uint64 // line address + 1; 0 is empty
	stamp      []uint64
	dirty      []bool
	stream     []Stream
	clock      uint64
	hits       uint64
	misses     uint64
}

func newCache(sizeBytes, lineBytes, ways int) *cache {
	lineBytes = max(lineBytes, 4)
	ways = max(ways, 1)
	sets := max(sizeBytes/(lineBytes*ways), 1)
	shift := uint(0)
	for 1<<shift < lineBytes {
		shift++
	}
	n := sets * ways
	return &cache{sets: sets, ways: ways, lineShift: shift, tags: make([]uint64, n), stamp: make([]uint64, n),
		dirty: make([]bool, n), stream: make([]Stream, n)}
}

func (c *cache) lineBytes() int { return 1 << c.lineShift }

// access looks line up; on a miss it evicts the least recently used way
// and reports whether that way held a dirty line (and which).
func (c *cache) access(line uint64, write bool, s Stream) (hit bool, victim uint64, victimDirty bool, victimStream Stream) {
	c.clock++
	set := int(line % uint64(c.sets))
	base := set * c.ways
	lru := base
	for i := base; i < base+c.ways; i++ {
		if c.tags[i] == line+1 {
			c.stamp[i] = c.clock
			if write {
				c.dirty[i] = true
				c.stream[i] = s
			}
			c.hits++
			return true, 0, false, 0
		}
		if c.stamp[i] < c.stamp[lru] {
			lru = i
		}
	}
	c.misses++
	if c.tags[lru] != 0 && c.dirty[lru] {
		victim, victimDirty, victimStream = c.tags[lru]-1, true, c.stream[lru]
	}
	c.tags[lru] = line + 1
	c.stamp[lru] = c.clock
	c.dirty[lru] = write
	c.stream[lru] = s
	return false, victim, victimDirty, victimStream
}

func (c *cache) reset() {
	clear(c.tags)
	clear(c.stamp)
	clear(c.dirty)
	c.clock, c.hits, c.misses = 0, 0, 0
}

// memSystem is the GPU-wide L2 in front of DRAM, counting DRAM bytes by
// stream. Its geometry comes from arch.L2 (capacity, line, ways; slices
// are address-interleaved parts of the same capacity).
type memSystem struct {
	l2    *cache
	read  [numStreams]uint64
	write [numStreams]uint64
}

func newMemSystem(g *arch.GPU) *memSystem {
	return &memSystem{l2: newCache(g.L2.SizeKiB*1024, g.L2.LineBytes, g.L2.Ways)}
}

func (m *memSystem) reset() {
	m.l2.reset()
	m.read = [numStreams]uint64{}
	m.write = [numStreams]uint64{}
}

func (m *memSystem) lines(addr uint64, n int, write bool, s Stream) {
	if n <= 0 {
		return
	}
	lb := uint64(m.l2.lineBytes())
	first := addr >> m.l2.lineShift
	last := (addr + uint64(n) - 1) >> m.l2.lineShift
	for line := first; line <= last; line++ {
		hit, _, dirty, vs := m.l2.access(line, write, s)
		if dirty {
			m.write[vs] += lb
		}
		if !hit && !write {
			m.read[s] += lb
		}
	}
}

// Read reads n bytes at addr through L2.
func (m *memSystem) Read(addr uint64, n int, s Stream) { m.lines(addr, n, false, s) }

// Write writes n bytes at addr through L2.
func (m *memSystem) Write(addr uint64, n int, s Stream) { m.lines(addr, n, true, s) }

// Flush writes every dirty line back to DRAM (the end of a frame).
func (m *memSystem) Flush() {
	lb := uint64(m.l2.lineBytes())
	for i, t := range m.l2.tags {
		if t != 0 && m.l2.dirty[i] {
			m.write[m.l2.stream[i]] += lb
			m.l2.dirty[i] = false
		}
	}
}

// texCache is one texture unit's read-only cache (arch.TextureCache),
// filling its misses from L2.
type texCache struct {
	c    *cache
	last [4]uint64 // lines already looked up by the current lane
}

func newTexCache(g *arch.GPU) *texCache {
	t := g.TextureCache
	return &texCache{c: newCache(t.SizeKiB*1024, t.LineBytes, t.Ways)}
}

// virtual hands out GPU virtual address ranges for data the simulator does
// not store byte by byte (vertex streams, polygon lists), apart from the
// executor's buffers.
type virtual struct{ next uint64 }

const virtualBase = 0x40_0000_0000

func (v *virtual) alloc(n int) uint64 {
	if v.next == 0 {
		v.next = virtualBase
	}
	a := v.next
	v.next += (uint64(n) + 4095) &^ 4095
	v.next += 64 << 10
	return a
}
