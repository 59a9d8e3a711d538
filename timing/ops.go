package timing

import (
	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
)

// Operations by class (the thread_ops_<class> counters): every group of a
// block issues once each time a warp runs the block, so a kernel's work is
// its blocks' runs, weighted by their active lanes, times the components
// each block's operations cover. Counting lanes per block run keeps this
// off the per-group path.

// countBlock records a run of block b with the active lanes m.
func (k *Kernel) countBlock(b int32, m emu.Mask) {
	if k.blockLanes == nil {
		k.blockLanes = make([]uint64, len(k.plans))
	}
	k.blockLanes[b] += uint64(m.Count())
}

// threadOps are k's operation components by arch op class, summed over
// every lane that ran them (pseudo-classes — messages, branches — are not
// operations of a pipe and are left out).
func (k *Kernel) threadOps() []float64 {
	out := make([]float64, len(arch.OpClasses))
	for b, lanes := range k.blockLanes {
		if lanes == 0 {
			continue
		}
		for gi := range k.prog.Blocks[b].Groups {
			for _, c := range k.prog.Blocks[b].Groups[gi].Class {
				if int(c.Class) < len(out) {
					out[c.Class] += float64(lanes) * float64(c.Comps)
				}
			}
		}
	}
	return out
}
