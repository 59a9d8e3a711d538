package bench

import (
	"fmt"
	"math"
	"sort"

	"github.com/pocketgpu/pocketgpu/arch"
)

const (
	kib = 1024
	mib = 1024 * kib

	// chaseStride is the seeds' authors' stride: one slot per 64-byte line.
	chaseStride = 64
	// maxSlots bounds a ring's slots: past 4 MB the stride grows with the
	// footprint (every cache is long exceeded there; only the TLB's reach
	// matters, and every page is still visited).
	maxSlots = 64 * 1024
	// chaseSteps is the measured walk: n and 2n steps after a warm-up lap.
	chaseSteps = 1024
)

// Footprints of the global-memory sweep: 1 KB to 256 MB, with points
// between the powers of two around the cache sizes.
var globalFootprints = []int{
	1 * kib, 2 * kib, 4 * kib, 8 * kib, 12 * kib, 16 * kib, 24 * kib, 32 * kib, 48 * kib, 64 * kib, 96 * kib,
	128 * kib, 192 * kib, 256 * kib, 384 * kib, 512 * kib, 768 * kib, 1 * mib, 1536 * kib, 2 * mib, 3 * mib,
	4 * mib, 8 * mib, 16 * mib, 32 * mib, 64 * mib, 128 * mib, 256 * mib,
}

var quickFootprints = []int{
	1 * kib, 2 * kib, 4 * kib, 8 * kib, 16 * kib, 32 * kib, 64 * kib, 128 * kib, 256 * kib, 512 * kib,
	1 * mib, 2 * mib, 4 * mib, 16 * mib, 64 * mib,
}

func upTo(fps []int, max int) []int {
	var out []int
	for _, f := range fps {
		if f <= max {
			out = append(out, f)
		}
	}
	return out
}

func (c *ctx) footprints(max int) []int {
	if c.o.Quick {
		return upTo(quickFootprints, max)
	}
	return upTo(globalFootprints, max)
}

// smallFootprints start the texture sweep: Adreno's texture caches are
// 1 KB (seeds 000 and 001), and a plateau needs two points, so a cache of
// 1 KB shows only with points below it.
var smallFootprints = []int{256, 512}

// chaseStrideFor is the ring's stride for a footprint.
func chaseStrideFor(footprint, elem int) int {
	s := chaseStride
	if footprint/s > maxSlots {
		s = footprint / maxSlots
	}
	return max(s, elem)
}

// chase measures the average latency of one step of a ring over footprint
// bytes, for one of latency.cl's kernels.
func (c *ctx) chase(entry string, footprint int) (float64, error) {
	var l *launch
	var err error
	switch entry {
	case "chase_global", "chase_constant":
		n := footprint / 4
		k, err2 := c.kernel("latency", entry)
		if err2 != nil {
			return 0, err2
		}
		l, err = c.bind(k, 1, 1, fmt.Sprintf("buf:u32:%d=chase:%d", n, chaseStrideFor(footprint, 4)), "buf:u32:1", "u32:8")
	case "chase_image":
		n := footprint / 16
		k, err2 := c.kernel("latency", entry)
		if err2 != nil {
			return 0, err2
		}
		l, err = c.bind(k, 1, 1, fmt.Sprintf("image1d_buffer:u32:%d=chase:%d", n, chaseStrideFor(footprint, 16)), "buf:u32:1", "u32:8")
	case "chase_local":
		n := footprint / 4
		k, err2 := c.kernel("latency", entry)
		if err2 != nil {
			return 0, err2
		}
		wg := min(64, c.g.MaxWorkgroupSize)
		l, err = c.bind(k, wg, wg, fmt.Sprintf("buf:u32:%d=chase:%d", n, chaseStride), "buf:u32:1",
			fmt.Sprintf("local:%d", footprint), fmt.Sprintf("u32:%d", n), "u32:8")
	default:
		return 0, fmt.Errorf("unknown chase kernel %s", entry)
	}
	if err != nil {
		return 0, err
	}
	defer l.free()
	stepsArg := len(l.specs) - 1
	slots := footprint / chaseStrideFor(footprint, 4)
	if entry == "chase_image" {
		slots = footprint / chaseStrideFor(footprint, 16)
	}
	if entry == "chase_local" {
		slots = footprint / chaseStride
	}
	// Each run starts on cold caches and walks a warm-up lap (every slot
	// once, rounded up to the unrolling) before the measured steps; the
	// difference between a run of n and one of 2n measured steps is n steps
	// in the steady state, as a long walk on hardware sees them.
	lap := (slots + 7) / 8 * 8
	run := func(steps int) (float64, error) {
		c.dev.ResetCaches()
		if err := l.set(stepsArg, fmt.Sprintf("u32:%d", lap+steps)); err != nil {
			return 0, err
		}
		return l.cycles()
	}
	a, err := run(chaseSteps)
	if err != nil {
		return 0, err
	}
	b, err := run(2 * chaseSteps)
	if err != nil {
		return 0, err
	}
	return (b - a) / chaseSteps, nil
}

// level is a plateau of a latency curve: footprints from From to To whose
// latency stays within levelTolerance of the first one's.
type level struct {
	From, To float64
	Cycles   float64 // median latency over the plateau
	N        int
}

const levelTolerance = 0.15

// levels finds the plateaus of a latency curve (points sorted by X). A
// plateau needs two points; the single points of a transition between two
// cache levels belong to none.
func levels(pts []Point) []level {
	var out []level
	for i := 0; i < len(pts); {
		j := i
		for j+1 < len(pts) && pts[j+1].Y <= pts[i].Y*(1+levelTolerance) {
			j++
		}
		if j > i || (i == len(pts)-1 && len(out) == 0) {
			ys := make([]float64, 0, j-i+1)
			for k := i; k <= j; k++ {
				ys = append(ys, pts[k].Y)
			}
			sort.Float64s(ys)
			out = append(out, level{From: pts[i].X, To: pts[j].X, Cycles: ys[len(ys)/2], N: j - i + 1})
		}
		i = j + 1
	}
	return out
}

// latencyMetrics records each plateau's end footprint (KiB) and latency,
// and every point's latency (cycles@64KB); in nanoseconds too, at the GPU's
// clock, so that claims comparing GPUs of different clocks compare time.
func latencyMetrics(r *Result, pts []Point, clockMHz float64) {
	ns := func(cycles float64) float64 { return cycles * 1000 / clockMHz }
	for i, lv := range levels(pts) {
		r.metric(fmt.Sprintf("level%d_end_kib", i+1), lv.To/kib)
		r.metric(fmt.Sprintf("level%d_cycles", i+1), lv.Cycles)
		r.metric(fmt.Sprintf("level%d_ns", i+1), ns(lv.Cycles))
	}
	for _, p := range pts {
		r.metric("cycles@"+sizeKey(p.X), p.Y)
		r.metric("ns@"+sizeKey(p.X), ns(p.Y))
	}
}

func latencyTest(name, title, entry, doc string, maxFootprint func(g *arch.GPU) int, small bool) *Test {
	t := &Test{Name: name, Title: title, Doc: doc}
	fps := func(c *ctx) []int {
		out := c.footprints(maxFootprint(c.g))
		if small {
			out = append(append([]int{}, smallFootprints...), out...)
		}
		return out
	}
	t.Points = func(g *arch.GPU, o Options) int {
		return len(fps(&ctx{g: g, o: o}))
	}
	t.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Curve, XLabel: "footprint", XUnit: "B", YLabel: "latency", Unit: "cycles", LogX: true, PlotNS: true}
		var pts []Point
		for _, fp := range fps(c) {
			lat, err := c.chase(entry, fp)
			if err != nil {
				return nil, fmt.Errorf("footprint %s: %w", sizeLabel(float64(fp)), err)
			}
			p := Point{X: float64(fp), Y: lat}
			pts = append(pts, p)
			r.add(c.g.ID, p)
			c.tick()
		}
		latencyMetrics(r, pts, c.g.ClockMHz)
		r.metric("max_cycles", pts[len(pts)-1].Y)
		return r, nil
	}
	return t
}

var (
	latencyGlobal = latencyTest("latency-global", "Global memory latency (pointer chase)", "chase_global",
		"One work-item follows a random single-cycle ring of 64-byte slots through global memory, 1 KB to 256 MB; cycles per dependent load.",
		func(*arch.GPU) int { return 256 * mib }, false)
	latencyTexture = latencyTest("latency-texture", "Texture path latency (read_imageui chase)", "chase_image",
		"The same ring in channel x of an image1d_buffer, followed with read_imageui, 256 B to 16 MB: the texture cache, then L2 and beyond.",
		func(*arch.GPU) int { return 16 * mib }, true)
	latencyLocal = latencyTest("latency-local", "Local memory latency (pointer chase)", "chase_local",
		"The ring copied into a work-group's local memory (up to the GPU's per-work-group limit), then followed by one work-item.",
		func(g *arch.GPU) int { return g.LocalMemory.MaxPerWorkgroupKiB * kib }, false)
	latencyConstant = latencyTest("latency-constant", "Constant memory latency (pointer chase)", "chase_constant",
		"The ring read through a __constant pointer, 1 KB to 64 KB.",
		func(*arch.GPU) int { return 64 * kib }, false)
)

// sizeLabel prints a byte count as 64 KB, 1.5 MB.
func sizeLabel(b float64) string {
	switch {
	case b >= mib:
		return trimFloat(b/mib) + " MB"
	case b >= kib:
		return trimFloat(b/kib) + " KB"
	}
	return trimFloat(b) + " B"
}

func trimFloat(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3g", v)
}
