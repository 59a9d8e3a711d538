package bench

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
)

// Held-out tests: the methods of ArchProbe (microsoft/ArchProbe) and clpeak
// (krrishnarraj/clpeak), whose results on real devices are published
// (docs/references.md, "Measurements on real devices"). Their figures are
// predicted: no preset value was written from them (docs/validation.md,
// "Held-out figures").

// apWorkgroup is ArchProbe's work-group size: the device's largest
// (LogicThreadCount, CL_DEVICE_MAX_WORK_GROUP_SIZE; 1024 on the Adreno 640).
// bind halves it where a kernel's registers allow less.
func apWorkgroup(g *arch.GPU) int { return g.MaxWorkgroupSize }

// apGroups is how many work-groups a bandwidth run has: ArchProbe's grids
// hold hundreds, which a steady state does not need; twelve fill every
// core of the presets (a multiple of two, three and six) with a few
// work-groups each.
const apGroups = 12

// apIters is ArchProbe's NITER: four iterations of sixteen reads.
const apIters = 4

// apBufferFootprints are ArchProbe's footprints, 16 B to 64 MB (its RANGE
// is 128 MB, read while the footprint is below it).
func apFootprints(from, to int) []int {
	var out []int
	for fp := from; fp <= to; fp *= 2 {
		out = append(out, fp)
	}
	return out
}

var (
	apBufferFootprints   = apFootprints(16, 64*mib)
	apConstantFootprints = apFootprints(16, 32*kib)
	apLocalFootprints    = apFootprints(16, 16*kib)
	quickApFootprints    = []int{16, 64 * kib}
)

// apImageWidth is the width of ArchProbe's image: the smallest of its
// range in texels and the device's largest image width, 16384 on the
// Adreno 640 (its report's MaxImageWidth) and in OpenCL 1.2's minimum for
// a 2D image; so every preset's image holds 256 KB and a larger footprint
// reads border texels for the rest.
const apImageWidth = 16384

var apBandwidth = &Test{
	Name:  "archprobe-bandwidth",
	Title: "Read bandwidth by footprint, ArchProbe's method",
	Doc:   "ArchProbe's buffer, constant, local and image bandwidth aspects: work-groups of the device's largest size read float4s (RGBA32F texels from a 16384-texel image through a clamping sampler) at a stride of the work-group size from a footprint of 16 B up (buffer and image to 64 MB, constant to 32 KB, local to 16 KB), each work-item's reads multiplied into one value, sixteen reads an iteration; the extra time of eight iterations over four on warm caches gives GB/s at the GPU's clock.",
	Points: func(g *arch.GPU, o Options) int {
		n := 0
		for _, v := range apSeries {
			n += len(apSweep(g, o, v.entry, v.fps))
		}
		return n
	},
}

// apSeries are the bandwidth aspects: entry point, series name, footprints.
var apSeries = []struct {
	entry, series string
	fps           []int
}{
	{"ap_buffer", "buffer", apBufferFootprints},
	{"ap_constant", "constant", apConstantFootprints},
	{"ap_local", "local", apLocalFootprints},
	{"ap_image", "image", apBufferFootprints},
}

// apSweep is the footprints an aspect measures on g. A local footprint
// past what g allows a work-group is left out: ArchProbe sweeps up to the
// device's limit. The short sweep keeps quickApFootprints.
func apSweep(g *arch.GPU, o Options, entry string, all []int) []int {
	limit := all[len(all)-1]
	if entry == "ap_local" {
		limit = min(limit, g.LocalMemory.MaxPerWorkgroupKiB*kib)
	}
	keep := all
	if o.Quick {
		keep = quickApFootprints
	}
	var fps []int
	for _, fp := range keep {
		if fp <= limit {
			fps = append(fps, fp)
		}
	}
	return fps
}

func init() {
	apBandwidth.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Curve, XLabel: "footprint", XUnit: "B", YLabel: "bandwidth", Unit: "GB/s", LogX: true}
		local := apWorkgroup(c.g)
		global := apGroups * local
		for _, v := range apSeries {
			k, err := c.kernel("archprobe", v.entry)
			if err != nil {
				return nil, err
			}
			fps := apSweep(c.g, c.o, v.entry, v.fps)
			var pts []Point
			for _, fp := range fps {
				n := fp / 16
				var specs []string
				switch v.entry {
				case "ap_local":
					specs = []string{fmt.Sprintf("buf:f32x4:%d", local), fmt.Sprintf("local:%d", fp), "i32:0", fmt.Sprintf("i32:%d", n-1)}
				case "ap_image":
					specs = []string{fmt.Sprintf("image2d:f32:%dx1", apImageWidth), fmt.Sprintf("buf:f32x4:%d", local), "i32:0", fmt.Sprintf("i32:%d", n-1)}
				default:
					specs = []string{fmt.Sprintf("buf:f32x4:%d", n), fmt.Sprintf("buf:f32x4:%d", local), "i32:0", fmt.Sprintf("i32:%d", n-1)}
				}
				l, err := c.bind(k, global, local, specs...)
				if err != nil {
					return nil, fmt.Errorf("%s, footprint %s: %w", v.entry, sizeLabel(float64(fp)), err)
				}
				d, err := l.diff(2, "i32", apIters)
				l.free()
				if err != nil {
					return nil, fmt.Errorf("%s, footprint %s: %w", v.entry, sizeLabel(float64(fp)), err)
				}
				bytes := float64(global) * apIters * 16 * 16
				p := Point{X: float64(fp), Y: gbs(c.g, bytes/d), Note: fmt.Sprintf("%.1f B/clk", bytes/d)}
				r.add(c.g.ID+" "+v.series, p)
				pts = append(pts, p)
				c.tick()
			}
			curveMetrics(r, v.series+".gbs", pts)
		}
		return r, nil
	}
}

// apFlopsKernels are ArchProbe's gflops kernels: FP32 and FP16, 1 to 16
// components.
var apFlopsKernels = []struct{ entry, key string }{
	{"ap_flops_f32x1", "f32x1"}, {"ap_flops_f32x2", "f32x2"}, {"ap_flops_f32x4", "f32x4"}, {"ap_flops_f32x8", "f32x8"}, {"ap_flops_f32x16", "f32x16"},
	{"ap_flops_f16x1", "f16x1"}, {"ap_flops_f16x2", "f16x2"}, {"ap_flops_f16x4", "f16x4"}, {"ap_flops_f16x8", "f16x8"}, {"ap_flops_f16x16", "f16x16"},
}

var apFlops = &Test{
	Name:  "archprobe-gflops",
	Title: "Peak FLOPS, ArchProbe's method",
	Doc:   "ArchProbe's gflops aspect: two values of 1 to 16 components feed each other through mad (x = mad(y, y, x); y = mad(x, x, y)), 1024 flops per work-item an iteration, in work-groups of the device's largest size; the extra time of two iterations over one gives GFLOPS at the GPU's clock, FP32 and FP16.",
	Points: func(g *arch.GPU, o Options) int {
		if o.Quick {
			return 2
		}
		return len(apFlopsKernels)
	},
}

func init() {
	apFlops.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Bars, YLabel: "throughput", Unit: "GFLOPS"}
		local := apWorkgroup(c.g)
		global := apGroups * local
		for _, v := range apFlopsKernels {
			if c.o.Quick && v.key != "f32x1" && v.key != "f16x1" {
				continue
			}
			k, err := c.kernel("archprobe", v.entry)
			if err != nil {
				return nil, err
			}
			elem := "f32"
			if v.key[:3] == "f16" {
				elem = "f16"
			}
			l, err := c.bind(k, global, local, fmt.Sprintf("buf:%s:1", elem), "i32:1")
			if err != nil {
				return nil, fmt.Errorf("%s: %w", v.entry, err)
			}
			d, err := l.diff(1, "i32", 1)
			l.free()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", v.entry, err)
			}
			flops := float64(global) * 1024
			gf := flops / d * c.g.ClockMHz / 1000
			r.add(c.g.ID, Point{Label: v.key, Y: gf, Note: fmt.Sprintf("%.0f flops/clk", flops/d)})
			r.metric(v.key+".gflops", gf)
			c.tick()
		}
		return r, nil
	}
}

// cpWidths are clpeak's vector widths.
var cpWidths = []int{1, 2, 4, 8, 16}

// cpFootprint is the buffer clpeak's bandwidth test reads in the shorter
// of the two runs whose difference is timed (the longer reads twice as
// much): large against every cache of the presets (clpeak's own buffer is
// up to hundreds of MB, read once).
const cpFootprint = 4 * mib

var clpeakTest = &Test{
	Name:  "clpeak",
	Title: "Global bandwidth and peak compute, clpeak's method",
	Doc:   "clpeak's global memory bandwidth (each work-item sums 16 elements of 1 to 16 floats, its work-group's block L apart or the grid's G apart, the faster of the two; the extra time of reading 8 MB over 4 MB from cold caches) and its single-precision, half-precision and integer compute (two values of 1 to 16 components feed each other through mad, sixteen a step; the extra time of 2n steps over n), in work-groups of the device's largest size. GB/s, GFLOPS and GIOPS (a multiply-add counts two) at the GPU's clock.",
	Points: func(g *arch.GPU, o Options) int {
		if o.Quick {
			return 4
		}
		return 4 * len(cpWidths)
	},
}

func init() {
	clpeakTest.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Bars, YLabel: "throughput", Unit: "GB/s, GFLOPS, GIOPS"}
		local := c.g.MaxWorkgroupSize
		for _, vw := range cpWidths {
			if c.o.Quick && vw != 4 {
				continue
			}
			best := 0.0
			for _, form := range []string{"lo", "go"} {
				k, err := c.kernel("archprobe", fmt.Sprintf("cp_bw_f32x%d_%s", vw, form))
				if err != nil {
					return nil, err
				}
				// As clpeak, the grid is a whole number of work-groups
				// (its buffer is rounded to one): the bytes read are the
				// grid's.
				run := func(fp int) (cycles, bytes float64, err error) {
					global := fp / (4 * vw * 16) / local * local
					l, err := c.bind(k, global, local, fmt.Sprintf("buf:f32:%d", fp/4), fmt.Sprintf("buf:f32:%d", global))
					if err != nil {
						return 0, 0, err
					}
					defer l.free()
					c.dev.ResetCaches()
					cycles, err = l.cycles()
					return cycles, float64(global) * 16 * 4 * float64(vw), err
				}
				a, abytes, err := run(cpFootprint)
				if err != nil {
					return nil, fmt.Errorf("clpeak bandwidth float%d (%s): %w", vw, form, err)
				}
				b, bbytes, err := run(2 * cpFootprint)
				if err != nil {
					return nil, fmt.Errorf("clpeak bandwidth float%d (%s): %w", vw, form, err)
				}
				if b <= a || bbytes <= abytes {
					return nil, fmt.Errorf("clpeak bandwidth float%d (%s): 8 MB took %.0f cycles, 4 MB %.0f", vw, form, b, a)
				}
				best = max(best, gbs(c.g, (bbytes-abytes)/(b-a)))
			}
			label := fmt.Sprintf("float%d", vw)
			if vw == 1 {
				label = "float"
			}
			r.add("global bandwidth (GB/s)", Point{Label: label, Y: best})
			r.metric(fmt.Sprintf("bw_f32x%d.gbs", vw), best)
			c.tick()
		}
		global, _ := rateGrid(c.g)
		global = max((global+local-1)/local*local, 2*c.g.Cores*local)
		for _, v := range []struct{ prefix, typ, unit, a string }{
			{"sp", "f32", "gflops", "f32:1.3"},
			{"hp", "f16", "gflops", "f16:1.3"},
			{"int", "i32", "giops", "i32:3"},
		} {
			for _, vw := range cpWidths {
				if c.o.Quick && vw != 4 {
					continue
				}
				k, err := c.kernel("archprobe", fmt.Sprintf("cp_%s_x%d", v.prefix, vw))
				if err != nil {
					return nil, err
				}
				l, err := c.bind(k, global, local, fmt.Sprintf("buf:%s:%d", v.typ, global), v.a, "i32:1")
				if err != nil {
					return nil, fmt.Errorf("clpeak %s x%d: %w", v.prefix, vw, err)
				}
				n := max(1, 32/vw)
				d, err := l.diff(2, "i32", n)
				l.free()
				if err != nil {
					return nil, fmt.Errorf("clpeak %s x%d: %w", v.prefix, vw, err)
				}
				ops := float64(global) * float64(n) * 16 * 2 * float64(vw)
				rate := ops / d * c.g.ClockMHz / 1000
				r.add(v.prefix+" ("+v.unit+")", Point{Label: fmt.Sprintf("x%d", vw), Y: rate})
				r.metric(fmt.Sprintf("%s_x%d.%s", v.prefix, vw, v.unit), rate)
				c.tick()
			}
		}
		return r, nil
	}
}
