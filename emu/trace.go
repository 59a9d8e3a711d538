package emu

import (
	"slices"

	"github.com/pocketgpu/pocketgpu/ir"
)

// AccessKind is what a memory instruction did.
type AccessKind uint8

const (
	AccessLoad AccessKind = iota
	AccessStore
	AccessAtomic
	AccessTexture // an image read or sample: texel addresses
)

func (k AccessKind) String() string {
	return [...]string{"load", "store", "atomic", "texture"}[k]
}

// Access is one memory instruction of one warp: the address each active
// lane touched, in lane order.
type Access struct {
	PC    int32 // index into Program.Code
	Space ir.Space
	Kind  AccessKind
	Bytes int // bytes per lane (per texel for textures)
	Start int // Addrs[Start:Start+N]
	N     int
	// Bulk marks a work-group's bulk copy (async_work_group_copy): one
	// transfer for the whole work-group, recorded by its first warp.
	Bulk bool
}

// Trace is what one Step of a warp did, for the timing model: the block,
// the active lanes and every memory access.
//
// In a packed warp (Dispatch.Pack) each work-group's local memory is a
// window of the warp's: lane l's local addresses are recorded in its
// work-group's window, l/seg × span bytes on, as the hardware lays the
// work-groups of a task out side by side.
type Trace struct {
	Block    int32
	Active   Mask
	Accesses []Access
	Addrs    []uint64

	seg  int    // packed warp: lanes per work-group (0: not packed)
	span uint64 // packed warp: bytes between work-groups' local memories
	// keep: the trace gathers the accesses of every block its warps run
	// (RunTasksWarming), not only the last block's.
	keep bool
}

func (t *Trace) begin(block int32, m Mask) {
	t.Block, t.Active = block, m
	if !t.keep {
		t.Accesses = t.Accesses[:0]
		t.Addrs = t.Addrs[:0]
	}
	t.seg, t.span = 0, 0
}

func (t *Trace) record(pc int32, space ir.Space, kind AccessKind, bytes int, addr []uint64, off uint64, lanes []int32) {
	start := len(t.Addrs)
	t.Addrs = slices.Grow(t.Addrs, len(lanes))[:start+len(lanes)]
	dst := t.Addrs[start:]
	for i, l := range lanes {
		dst[i] = addr[l] + off
	}
	if t.seg > 0 && space == ir.SpaceLocal {
		for i, l := range lanes {
			dst[i] += uint64(int(l)/t.seg) * t.span
		}
	}
	t.Accesses = append(t.Accesses, Access{PC: pc, Space: space, Kind: kind, Bytes: bytes, Start: start, N: len(lanes)})
}

// recordAddrs appends an access with explicit addresses.
func (t *Trace) recordAddrs(pc int32, space ir.Space, kind AccessKind, bytes int, addrs []uint64) {
	start := len(t.Addrs)
	t.Addrs = append(t.Addrs, addrs...)
	t.Accesses = append(t.Accesses, Access{PC: pc, Space: space, Kind: kind, Bytes: bytes, Start: start, N: len(addrs)})
}

// recordBulk appends a strided bulk transfer of n elements.
func (t *Trace) recordBulk(pc int32, space ir.Space, kind AccessKind, bytes int, base, stride uint64, n int) {
	start := len(t.Addrs)
	for i := 0; i < n; i++ {
		t.Addrs = append(t.Addrs, base+uint64(i)*stride)
	}
	t.Accesses = append(t.Accesses, Access{PC: pc, Space: space, Kind: kind, Bytes: bytes, Start: start, N: n, Bulk: true})
}
