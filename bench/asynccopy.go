package bench

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
)

// asyncCopyGlobal is the grid of the async-copy test: 64 work-groups of 32
// (128 of 16), enough to keep both USCs' memory paths busy.
const asyncCopyGlobal = 2048

var asyncCopy = &Test{
	Name:    "async-copy",
	Title:   "async_work_group_copy into local memory by work-group size (Rogue)",
	Doc:     "Work-groups copy 4 KB into local memory with async_work_group_copy, wait, read it and meet at a barrier, round after round; built with a compile-time size of 32, of 16 (under seed 003's 17) and with none. Cycles per KB copied while the grid keeps the GPU busy, and with one work-group alone (each copy's own time).",
	Applies: func(g *arch.GPU) bool { return g.AsyncCopy != nil }, // a burst path to compare with
	Points:  func(*arch.GPU, Options) int { return 3 },
}

func init() {
	asyncCopy.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Bars, YLabel: "cycles per KB copied", Unit: "cycles/KB"}
		for _, v := range []struct {
			entry, name, label string
			local              int
		}{
			{"copy_fixed32", "fixed32", "32, fixed at compile time", 32},
			{"copy_fixed16", "fixed16", "16, fixed at compile time", 16},
			{"copy_unfixed", "unfixed32", "32, not fixed", 32},
		} {
			k, err := c.kernel("asynccopy", v.entry)
			if err != nil {
				return nil, err
			}
			l, err := c.bind(k, asyncCopyGlobal, v.local, "buf:f32x4:2048=iota", fmt.Sprintf("buf:f32:%d", asyncCopyGlobal), "u32:1")
			if err != nil {
				return nil, err
			}
			const rounds = 8
			d, err := l.diff(2, "u32", rounds)
			l.free()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", v.entry, err)
			}
			perKiB := d / float64(rounds*asyncCopyGlobal/v.local*4)
			r.add(c.g.ID, Point{Label: v.label, Y: perKiB})
			r.metric(v.name+".cycles_per_kib", perKiB)
			// One work-group alone on the GPU: each copy's own time, which
			// the full grid hides behind the common store's row writes.
			l, err = c.bind(k, v.local, v.local, "buf:f32x4:2048=iota", fmt.Sprintf("buf:f32:%d", v.local), "u32:1")
			if err != nil {
				return nil, err
			}
			d, err = l.diff(2, "u32", rounds)
			l.free()
			if err != nil {
				return nil, fmt.Errorf("%s, one work-group: %w", v.entry, err)
			}
			r.metric(v.name+".alone.cycles_per_kib", d/float64(rounds*4))
			c.tick()
		}
		r.Notes = append(r.Notes, "the bars are the full grid; one work-group alone (metrics NAME.alone.cycles_per_kib) shows each copy's own time")
		return r, nil
	}
}
