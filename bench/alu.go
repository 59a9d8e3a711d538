package bench

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
)

// Latency of dependent ALU chains, divergence, and the Bifrost
// instruction-cache sweep.

// depOpsPerIter is chains.cl's dependent operations per loop iteration.
const depOpsPerIter = 16

var chains = &Test{
	Name:   "alu-latency",
	Title:  "Dependent-chain latency",
	Doc:    "One work-item runs a chain of FP32 or INT32 adds, each needing the one before (16 per loop iteration); cycles per operation.",
	Points: func(*arch.GPU, Options) int { return 2 },
}

func init() {
	chains.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Bars, YLabel: "latency", Unit: "cycles"}
		for _, v := range []struct{ entry, label, typ, x string }{
			{"dep_fp32", "FP32 add", "f32", "f32:1.5"},
			{"dep_int32", "INT32 add", "u32", "u32:7"},
		} {
			k, err := c.kernel("chains", v.entry)
			if err != nil {
				return nil, err
			}
			l, err := c.bind(k, 1, 1, fmt.Sprintf("buf:%s:1", v.typ), "u32:1", v.x)
			if err != nil {
				return nil, err
			}
			const n = 64
			d, err := l.diff(1, "u32", n)
			l.free()
			if err != nil {
				return nil, err
			}
			lat := d / (n * depOpsPerIter)
			r.add(c.g.ID, Point{Label: v.label, Y: lat})
			r.metric(v.entry+".cycles", lat)
			c.tick()
		}
		return r, nil
	}
}

// divergenceGroups are the run lengths of work-items that take the same path.
var divergenceGroups = []int{1, 2, 4, 8, 16, 32, 64, 128}

var divergence = &Test{
	Name:   "divergence",
	Title:  "Divergence cost",
	Doc:    "Work-items in runs of 1 to 128 take one of two equally long multiply-add paths; time relative to runs of 128 (no warp of any preset diverges). A warp narrower than the run is uniform; a wider one runs both paths.",
	Points: func(*arch.GPU, Options) int { return len(divergenceGroups) },
}

func init() {
	divergence.run = func(c *ctx) (*Result, error) {
		k, err := c.kernel("divergence", "divergence")
		if err != nil {
			return nil, err
		}
		global, local := rateGrid(c.g)
		// Four times the warp slots, in whole runs of 128 of both kinds: a
		// kernel whose registers leave fewer slots than the GPU has runs in
		// rounds, and a last round that fills only some engines would
		// weigh on the uniform and the divergent runs differently.
		global = (4*global + 255) / 256 * 256
		l, err := c.bind(k, global, local, fmt.Sprintf("buf:f32:%d", global), "u32:1", "u32:1", "f32:0.999", "f32:0.5")
		if err != nil {
			return nil, err
		}
		defer l.free()
		cost := map[int]float64{}
		for _, grp := range divergenceGroups {
			if err := l.set(2, fmt.Sprintf("u32:%d", grp)); err != nil {
				return nil, err
			}
			d, err := l.diff(1, "u32", 4)
			if err != nil {
				return nil, err
			}
			cost[grp] = d
			c.tick()
		}
		base := cost[divergenceGroups[len(divergenceGroups)-1]]
		r := &Result{Chart: Curve, XLabel: "work-items per path run", YLabel: "time relative to no divergence", Unit: "x", LogX: true}
		for _, grp := range divergenceGroups {
			rel := cost[grp] / base
			r.add(c.g.ID, Point{X: float64(grp), Y: rel, Note: fmt.Sprintf("warp %d", l.warpW)})
			r.metric(fmt.Sprintf("cost@%d", grp), rel)
		}
		// The widest run that still diverges: the warp width as a program
		// sees it.
		widest := 0
		for _, grp := range divergenceGroups {
			if cost[grp]/base > 1.5 {
				widest = grp
			}
		}
		r.metric("diverges_below", float64(widest*2))
		return r, nil
	}
}

func isBifrost(g *arch.GPU) bool { return g.Bifrost != nil }

var icache = &Test{
	Name:    "icache",
	Title:   "Instruction throughput by loop size (Bifrost instruction cache)",
	Doc:     "A loop of N FP32 adds (8 accumulators), N from 128 to 2048 in steps of 128 (64 past 512 and 1280), on a grid that fills every engine; adds per clock. Throughput dips where the loop body outgrows the per-engine buffer and then the core's instruction cache (seed 000 §Shader Frontend).",
	Applies: isBifrost,
	Points:  func(*arch.GPU, Options) int { return len(ILoopSizes) },
}

func init() {
	icache.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Curve, XLabel: "FP adds in the loop", XUnit: "", YLabel: "throughput", Unit: "adds/clk"}
		global, local := rateGrid(c.g)
		var pts []Point
		for _, n := range ILoopSizes {
			k, err := c.kernel(fmt.Sprintf("iloop_%d", n), "iloop")
			if err != nil {
				return nil, err
			}
			l, err := c.bind(k, global, local, fmt.Sprintf("buf:f32:%d", global), "u32:1", "f32:0.999")
			if err != nil {
				return nil, err
			}
			iters := max(1, 4096/n)
			d, err := l.diff(1, "u32", iters)
			l.free()
			if err != nil {
				return nil, err
			}
			v := float64(global) * float64(iters) * float64(n) / d
			p := Point{X: float64(n), Y: v}
			pts = append(pts, p)
			r.add(c.g.ID, p)
			c.tick()
		}
		for _, p := range pts {
			r.metric(fmt.Sprintf("adds_per_clk@%d", int(p.X)), p.Y)
		}
		// The dips: the last loop size of each throughput plateau.
		for i, lv := range plateaus(pts, 0.03) {
			r.metric(fmt.Sprintf("plateau%d_end", i+1), lv.To)
		}
		return r, nil
	}
}

// plateaus splits a throughput curve into runs whose points stay within tol
// below the best point of the run so far; a run ends where throughput dips.
func plateaus(pts []Point, tol float64) []level {
	var out []level
	for i := 0; i < len(pts); {
		j, best := i, pts[i].Y
		for j+1 < len(pts) && pts[j+1].Y >= best*(1-tol) {
			j++
			best = max(best, pts[j].Y)
		}
		out = append(out, level{From: pts[i].X, To: pts[j].X, Cycles: pts[i].Y, N: j - i + 1})
		i = j + 1
	}
	return out
}
