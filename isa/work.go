package isa

import (
	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// Work is what one work-item does along the kernel's longest path, each
// loop once (as the report's longest-path cycles): its operation
// components by arch op class and the bytes its memory instructions move,
// for a static roofline (pocketgpu analyze). Each figure is the largest
// over the paths, taken on its own.
type Work struct {
	Ops          map[string]float64 `json:"ops"`
	GlobalBytes  float64            `json:"global_bytes"`
	TextureBytes float64            `json:"texture_bytes"`
	LocalBytes   float64            `json:"local_bytes"`
	// PipeCycles are the busiest ALU pipe's cycles per warp along the
	// longest path, as the report's pipe rows give them (core cycles:
	// busy cycles over the engines of a core).
	PipeCycles float64 `json:"busiest_pipe_cycles"`
}

// staticWork sums the lowered blocks' operations and message bytes per
// work-item along the longest path.
func staticWork(p *ir.Program, lp *Program, pipeLongest []float64) *Work {
	nc := len(arch.OpClasses)
	rows := nc + 3 // classes, then global, texture and local bytes
	cost := make([][]float64, len(lp.Blocks))
	for b := range lp.Blocks {
		c := make([]float64, rows)
		for gi := range lp.Blocks[b].Groups {
			gr := &lp.Blocks[b].Groups[gi]
			for _, cc := range gr.Class {
				if int(cc.Class) < nc {
					c[cc.Class] += float64(cc.Comps)
				}
			}
			for _, m := range gr.Mem {
				space, bytes, tex := messageBytes(p, m)
				switch {
				case tex:
					c[nc+1] += bytes
				case space == ir.SpaceGlobal:
					c[nc] += bytes
				case space == ir.SpaceLocal:
					c[nc+2] += bytes
				}
			}
		}
		cost[b] = c
	}
	_, long, _ := paths(p, cost, rows)
	w := &Work{Ops: map[string]float64{}, GlobalBytes: long[nc], TextureBytes: long[nc+1], LocalBytes: long[nc+2]}
	for c := 0; c < nc; c++ {
		if long[c] > 0 {
			w.Ops[arch.OpClasses[c]] = long[c]
		}
	}
	for _, v := range pipeLongest {
		w.PipeCycles = max(w.PipeCycles, v)
	}
	return w
}

// messageBytes is what one lane's message moves: its space and bytes, and
// whether it is a texture sample (16 bytes: four 32-bit components, as the
// texture units' bytes per sample count them).
func messageBytes(p *ir.Program, pc int32) (ir.Space, float64, bool) {
	in := &p.Code[pc]
	switch in.Op {
	case ir.OpAtomic:
		a := &p.Atomics[in.Aux]
		return a.Space, float64(a.Bytes), false
	case ir.OpImage:
		io := &p.Images[in.Aux]
		if io.Kind != ir.ImageWrite {
			return ir.SpaceGlobal, 4 * float64(max(io.N, 1)), true
		}
		return ir.SpaceGlobal, 4 * float64(max(io.N, 1)), false
	case ir.OpCopyMemory:
		c := &p.Copies[in.Aux]
		return c.SrcSpace, 2 * float64(max(c.Bytes, 4)), false
	}
	if sp, b, _, ok := in.Op.MemInfo(); ok {
		return sp, float64(b * int(in.N)), false
	}
	return ir.SpaceGlobal, 0, false
}
