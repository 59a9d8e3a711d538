package gfx

import (
	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// Stream is what a piece of DRAM traffic is for: the memory model's
// streams, so that its DRAM counters split rendering traffic.
type Stream = mem.Stream

// The rendering streams.
const (
	StreamGeometry    = mem.StreamGeometry    // vertex attributes, indices, post-transform vertices
	StreamBinning     = mem.StreamBinning     // polygon lists (Mali), visibility streams (Adreno), tile headers
	StreamTexture     = mem.StreamTexture     // texels
	StreamFramebuffer = mem.StreamFramebuffer // colour and depth: tile write-back, resolves, immediate-mode ROP traffic, CRCs
)

// memSystem sends the renderer's traffic through the GPU's memory model
// (timing/mem): the same texture caches, L1, L2, system-level cache and
// DRAM that kernels use. Fixed-function traffic (vertex fetch, the tiler,
// tile write-back, resolves) goes to L2 directly; fragment shading's
// colour and depth accesses in immediate mode come from a core, as do
// texture fetches through that core's texture unit. The model's clock is
// not used here: the renderer prices passes from the counts (cost.go).
type memSystem struct {
	h    *mem.Hierarchy
	req  mem.Request
	addr [1]uint64
	// rec, when set, records the traffic for the timing engine instead
	// (texture fetches are in the recorded warps' traces).
	rec *recorder
}

func newMemSystem(g *arch.GPU) *memSystem { return &memSystem{h: mem.New(g)} }

func (m *memSystem) reset() { m.h.Reset() }

// access moves n bytes at addr for a core (fixed-function traffic when
// core < 0).
func (m *memSystem) access(kind mem.Kind, core int, addr uint64, n int, s Stream) {
	if n <= 0 {
		return
	}
	if m.rec != nil {
		m.rec.op(kind, core, addr, n, s)
		return
	}
	r := &m.req
	m.addr[0] = addr
	if core < 0 {
		core = mem.FixedFunction
	}
	*r = mem.Request{Core: core, Space: ir.SpaceGlobal, Kind: kind, Addrs: m.addr[:], Bytes: n, Lanes: 1, Stream: s, NoL1: core < 0}
	m.h.Access(0, r)
}

// Read reads n bytes at addr (fixed-function traffic, through L2).
func (m *memSystem) Read(addr uint64, n int, s Stream) { m.access(mem.Load, -1, addr, n, s) }

// Write writes n bytes at addr (fixed-function traffic, through L2).
func (m *memSystem) Write(addr uint64, n int, s Stream) { m.access(mem.Store, -1, addr, n, s) }

// texture fetches the texels a warp's texture instruction touched through
// the core's texture unit.
func (m *memSystem) texture(core int, addrs []uint64, texelBytes, samples int) {
	if m.rec != nil {
		return
	}
	r := &m.req
	*r = mem.Request{Core: core, Space: ir.SpaceGlobal, Kind: mem.Texture, Addrs: addrs, Bytes: texelBytes, Lanes: samples, Stream: StreamTexture}
	m.h.Access(0, r)
}

// Flush writes every dirty line back to DRAM (the end of a frame); the
// timing engine's run does it when the frame is recorded.
func (m *memSystem) Flush() {
	if m.rec == nil {
		m.h.Flush(0)
	}
}

// dram returns the DRAM bytes read and written so far, by stream.
func (m *memSystem) dram() (read, write StreamBytes) {
	c := m.h.Counters()
	split := func(v [mem.NumStreams]int64) StreamBytes {
		return StreamBytes{Geometry: uint64(v[StreamGeometry]), Binning: uint64(v[StreamBinning]),
			Texture: uint64(v[StreamTexture]), Framebuffer: uint64(v[StreamFramebuffer])}
	}
	return split(c.DRAMReadByStream), split(c.DRAMWriteByStream)
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
