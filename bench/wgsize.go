package bench

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
)

// wgSizes are the work-group sizes of the test, the largest the reference.
var wgSizes = []int{4, 8, 16, 32}

var workgroupSize = &Test{
	Name:   "workgroup-size",
	Title:  "ALU throughput by work-group size, with and without a barrier",
	Doc:    "An ALU loop (eight FP32 add chains, 64 adds an iteration) over a grid that fills every warp slot, in work-groups of 4 to 32, once without and once with a barrier each iteration; throughput relative to work-groups of 32. Seed 003: small work-groups share a Rogue task unless the kernel has a barrier and no compile-time size.",
	Points: func(*arch.GPU, Options) int { return 2 * len(wgSizes) },
}

func init() {
	workgroupSize.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Curve, XLabel: "work-group size", YLabel: "throughput relative to 32", Unit: "x", LogX: true}
		global, _ := rateGrid(c.g)
		global = (global + 31) / 32 * 32
		for _, v := range []struct{ entry, name string }{{"wg_alu", "alu"}, {"wg_alu_barrier", "barrier"}} {
			k, err := c.kernel("wgsize", v.entry)
			if err != nil {
				return nil, err
			}
			rate := map[int]float64{}
			for _, local := range wgSizes {
				l, err := c.bind(k, global, local, fmt.Sprintf("buf:f32:%d", global), "u32:1", "f32:0.999")
				if err != nil {
					return nil, err
				}
				d, err := l.diff(1, "u32", 4)
				l.free()
				if err != nil {
					return nil, fmt.Errorf("%s, work-groups of %d: %w", v.entry, local, err)
				}
				rate[local] = float64(global) * 4 * 64 / d
				c.tick()
			}
			ref := rate[wgSizes[len(wgSizes)-1]]
			for _, local := range wgSizes {
				r.add(c.g.ID+" "+v.name, Point{X: float64(local), Y: rate[local] / ref, Note: fmt.Sprintf("%.1f adds/clk", rate[local])})
				r.metric(fmt.Sprintf("%s.rel@%d", v.name, local), rate[local]/ref)
			}
		}
		return r, nil
	}
}
