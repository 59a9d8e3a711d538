package bench

import (
	"fmt"
	"math/bits"

	"github.com/pocketgpu/pocketgpu/arch"
)

// Footprints of the bandwidth sweep: every measured run reads at least the
// whole footprint, so 16 MB (eight times the largest cache of the presets)
// is where the sweep stops.
var bandwidthFootprints = []int{
	4 * kib, 8 * kib, 16 * kib, 32 * kib, 64 * kib, 128 * kib, 256 * kib, 512 * kib,
	1 * mib, 2 * mib, 4 * mib, 8 * mib, 16 * mib,
}

// The short sweep keeps the footprints the published figures use (32 KB,
// 1 MB, 16 MB).
var quickBandwidthFootprints = []int{4 * kib, 32 * kib, 128 * kib, 512 * kib, 1 * mib, 4 * mib, 16 * mib}

// secondBandwidthFootprints are the points the figures read, where the
// second kernels are compared with the first.
var secondBandwidthFootprints = []int{4 * kib, 32 * kib, 64 * kib, 128 * kib, 512 * kib, 1 * mib, 4 * mib, 16 * mib}

func (c *ctx) bandwidthFootprints() []int {
	if c.o.Quick {
		return quickBandwidthFootprints
	}
	return bandwidthFootprints
}

// streamGrid is the grid of the streaming tests: every warp slot of the GPU
// (work-groups of 128, or the GPU's maximum).
func streamGrid(g *arch.GPU) (global, local int) { return rateGrid(g) }

// minBytes is the least a measured run reads, so that short footprints are
// timed over enough work.
const minBytes = 1 * mib

// largestCache is the biggest cache of g, in bytes.
func largestCache(g *arch.GPU) int {
	kb := max(g.L2.SizeKiB, g.TextureCache.SizeKiB)
	if g.L1 != nil {
		kb = max(kb, g.L1.SizeKiB)
	}
	if g.SLC != nil {
		kb = max(kb, g.SLC.SizeKiB)
	}
	return kb * kib
}

// itersFor is how many 4-load rounds a grid of `global` work-items makes to
// read elem-byte elements of a footprint: the whole footprint at least
// once, so that reuse reaches its steady state, but no more than four times
// the largest cache (past that every line comes from DRAM whichever part of
// the footprint is read), and at least minBytes.
func itersFor(g *arch.GPU, global, elem, footprint int) int {
	perRound := global * 4 * elem
	want := max(min(footprint, 4*largestCache(g)), minBytes)
	return max(1, (want+perRound-1)/perRound)
}

// stream measures the bytes per GPU cycle of a grid-stride read kernel over
// footprint bytes (a power of two) of elem-byte elements. Each run starts on
// cold caches and reads the footprint at least once; the difference between
// a run of n rounds and one of 2n is the steady state.
func (c *ctx) stream(l *launch, maskArg, itersArg, elem, footprint int) (float64, error) {
	if footprint&(footprint-1) != 0 {
		return 0, fmt.Errorf("footprint %d is not a power of two", footprint)
	}
	if err := l.set(maskArg, fmt.Sprintf("u32:%d", footprint/elem-1)); err != nil {
		return 0, err
	}
	n := itersFor(c.g, l.global, elem, footprint)
	run := func(iters int) (float64, error) {
		c.dev.ResetCaches()
		if err := l.set(itersArg, fmt.Sprintf("u32:%d", iters)); err != nil {
			return 0, err
		}
		return l.cycles()
	}
	a, err := run(n)
	if err != nil {
		return 0, err
	}
	b, err := run(2 * n)
	if err != nil {
		return 0, err
	}
	if b <= a {
		return 0, fmt.Errorf("%s: %d rounds took %.0f cycles, %d took %.0f", l.k.Name, n, a, 2*n, b)
	}
	bytes := float64(l.global) * float64(n) * 4 * float64(elem)
	return bytes / (b - a), nil
}

func gbs(g *arch.GPU, bytesPerCycle float64) float64 { return bytesPerCycle * g.ClockMHz / 1000 }

// curveMetrics records every point of a curve as metric NAME@LABEL.
func curveMetrics(r *Result, name string, pts []Point) {
	for _, p := range pts {
		r.metric(name+"@"+sizeKey(p.X), p.Y)
	}
}

// sizeKey is a footprint as a metric key: 64KB, 16MB.
func sizeKey(b float64) string {
	switch {
	case b >= mib:
		return trimFloat(b/mib) + "MB"
	case b >= kib:
		return trimFloat(b/kib) + "KB"
	}
	return trimFloat(b) + "B"
}

var bandwidthGlobal = &Test{
	Name:  "bandwidth-global",
	Title: "Global memory read bandwidth",
	Doc:   "A grid that fills every warp slot reads float4 (and, as the seeds' authors did, scalar float) elements of a buffer, footprint 4 KB to 16 MB, from cold caches, the grid's window moving 64 elements further at every load so that each core sweeps the whole footprint; every run reads the whole footprint, or four times the largest cache where that is less. GB/s at the GPU's clock. The full suite also runs a second kernel written as the seeds' author wrote his (sweep.*): each work-group walks the whole footprint in order from its own starting point.",
	Points: func(g *arch.GPU, o Options) int {
		if o.Quick {
			return 2 * len(quickBandwidthFootprints)
		}
		return 2*len(bandwidthFootprints) + 2*len(secondBandwidthFootprints)
	},
}

func init() {
	bandwidthGlobal.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Curve, XLabel: "footprint", XUnit: "B", YLabel: "bandwidth", Unit: "GB/s", LogX: true}
		global, local := streamGrid(c.g)
		for _, v := range []struct {
			entry, series, prefix, typ string
			elem                       int
			second                     bool
		}{
			// The grid strides through the footprint; the figures read these.
			{"bw_global", "float4", "", "f32x4", 16, false},
			{"bw_global_f32", "float", "f32.", "f32", 4, false},
			// The second kernels, closer in shape to the seeds' author's:
			// each work-group sweeps the footprint in order.
			{"bw_sweep", "float4, swept by work-group", "sweep.", "f32x4", 16, true},
			{"bw_sweep_f32", "float, swept by work-group", "sweep.f32.", "f32", 4, true},
		} {
			if v.second && c.o.Quick {
				continue
			}
			k, err := c.kernel("bandwidth", v.entry)
			if err != nil {
				return nil, err
			}
			var perClk, perCore, gb []Point
			peak := 0.0
			footprints := c.bandwidthFootprints()
			if v.second {
				// The second kernels check the figures' points: half the
				// simulation of the full sweep.
				footprints = secondBandwidthFootprints
			}
			for _, fp := range footprints {
				l, err := c.bind(k, global, local, fmt.Sprintf("buf:%s:%d", v.typ, fp/v.elem), fmt.Sprintf("buf:%s:%d", v.typ, global), "u32:0", "u32:1")
				if err != nil {
					return nil, err
				}
				bpc, err := c.stream(l, 2, 3, v.elem, fp)
				l.free()
				if err != nil {
					return nil, fmt.Errorf("%s, footprint %s: %w", v.series, sizeLabel(float64(fp)), err)
				}
				p := Point{X: float64(fp), Y: gbs(c.g, bpc), Note: fmt.Sprintf("%.1f B/clk", bpc)}
				if !v.second {
					r.add(c.g.ID+" "+v.series, p)
				}
				gb = append(gb, p)
				perClk = append(perClk, Point{X: float64(fp), Y: bpc})
				perCore = append(perCore, Point{X: float64(fp), Y: bpc / float64(c.g.Cores)})
				peak = max(peak, bpc/float64(c.g.Cores))
				c.tick()
			}
			curveMetrics(r, v.prefix+"gbs", gb)
			curveMetrics(r, v.prefix+"bytes_per_clk", perClk)
			curveMetrics(r, v.prefix+"bytes_per_core_clk", perCore)
			r.metric(v.prefix+"peak_bytes_per_core_clk", peak)
			r.metric(v.prefix+"peak_gbs", gbs(c.g, peak*float64(c.g.Cores)))
		}
		// For comparison, the DRAM's theoretical bandwidth from the
		// description (bus width × transfer rate); no kernel measures it.
		r.metric("dram_theoretical_gbs", c.g.DRAMTheoreticalGBs())
		r.Notes = append(r.Notes, fmt.Sprintf("DRAM theoretical bandwidth (bus × transfer rate): %.2f GB/s", c.g.DRAMTheoreticalGBs()))
		return r, nil
	}
}

// textureFootprint is the image the texture-throughput test samples: small
// enough for every preset's texture cache (Adreno's is 1 KB).
const textureFootprint = 512

var textureThroughput = &Test{
	Name:   "texture-throughput",
	Title:  "Texture sample throughput (read_imageui)",
	Doc:    "A grid that fills every warp slot samples a 512-byte image1d_buffer (32 RGBA32UI texels, resident in every texture cache) with read_imageui; bytes per core cycle and samples per core cycle.",
	Points: func(*arch.GPU, Options) int { return 1 },
}

func init() {
	textureThroughput.run = func(c *ctx) (*Result, error) {
		k, err := c.kernel("bandwidth", "bw_texture")
		if err != nil {
			return nil, err
		}
		global, local := streamGrid(c.g)
		l, err := c.bind(k, global, local, fmt.Sprintf("image1d_buffer:u32:%d=iota", textureFootprint/16), fmt.Sprintf("buf:u32x4:%d", global), "u32:0", "u32:1")
		if err != nil {
			return nil, err
		}
		defer l.free()
		bpc, err := c.stream(l, 2, 3, 16, textureFootprint)
		if err != nil {
			return nil, err
		}
		c.tick()
		r := &Result{Chart: Bars, YLabel: "texture bandwidth", Unit: "B/core-clk"}
		perCore := bpc / float64(c.g.Cores)
		r.add(c.g.ID, Point{Label: "read_imageui", Y: perCore, Note: fmt.Sprintf("%.2f samples/core-clk, %.1f GB/s", perCore/16, gbs(c.g, bpc))})
		r.metric("bytes_per_core_clk", perCore)
		r.metric("samples_per_core_clk", perCore/16)
		r.metric("gbs", gbs(c.g, bpc))
		if c.o.Quick {
			return r, nil
		}
		// The second kernel: float samples, the work-group side by side.
		k2, err := c.kernel("bandwidth", "bw_texture_f")
		if err != nil {
			return nil, err
		}
		l2, err := c.bind(k2, global, local, fmt.Sprintf("image1d_buffer:f32:%d=iota", textureFootprint/16), fmt.Sprintf("buf:f32x4:%d", global), "u32:0", "u32:1")
		if err != nil {
			return nil, err
		}
		defer l2.free()
		bpc2, err := c.stream(l2, 2, 3, 16, textureFootprint)
		if err != nil {
			return nil, fmt.Errorf("bw_texture_f: %w", err)
		}
		r.metric("second.bytes_per_core_clk", bpc2/float64(c.g.Cores))
		r.metric("second.samples_per_core_clk", bpc2/float64(c.g.Cores)/16)
		r.metric("second.gbs", gbs(c.g, bpc2))
		return r, nil
	}
}

// localFootprint is the local allocation of the local-bandwidth tests: the
// smallest per-work-group limit of the presets (Rogue's 4 KB).
func localFootprint(g *arch.GPU) int {
	fp := min(4*kib, g.LocalMemory.MaxPerWorkgroupKiB*kib)
	return 1 << (bits.Len(uint(fp)) - 1)
}

var bandwidthLocal = &Test{
	Name:   "bandwidth-local",
	Title:  "Local memory bandwidth by access width",
	Doc:    "Work-groups of 128 fill a 4 KB local array and read it back with 32-, 64- and 128-bit loads (consecutive work-items, consecutive elements); bytes per core cycle.",
	Points: func(*arch.GPU, Options) int { return 3 },
}

func init() {
	bandwidthLocal.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Bars, YLabel: "local bandwidth", Unit: "B/core-clk"}
		global, local := streamGrid(c.g)
		fp := localFootprint(c.g)
		for _, v := range []struct {
			entry, label, typ string
			elem              int
		}{
			{"bw_local_f32", "32-bit (float)", "f32", 4},
			{"bw_local_f32x2", "64-bit (float2)", "f32x2", 8},
			{"bw_local_f32x4", "128-bit (float4)", "f32x4", 16},
		} {
			k, err := c.kernel("bandwidth", v.entry)
			if err != nil {
				return nil, err
			}
			l, err := c.bind(k, global, local, fmt.Sprintf("buf:%s:%d", v.typ, global), fmt.Sprintf("local:%d", fp), "u32:0", "u32:1")
			if err != nil {
				return nil, err
			}
			if err := l.set(2, fmt.Sprintf("u32:%d", fp/v.elem-1)); err != nil {
				return nil, err
			}
			d, err := l.diff(3, "u32", 16)
			l.free()
			if err != nil {
				return nil, err
			}
			bytes := float64(global) * 16 * 4 * float64(v.elem)
			perCore := bytes / d / float64(c.g.Cores)
			r.add(c.g.ID, Point{Label: v.label, Y: perCore, Note: fmt.Sprintf("%.1f GB/s", gbs(c.g, bytes/d))})
			r.metric(v.typ+".bytes_per_core_clk", perCore)
			r.metric(v.typ+".gbs", gbs(c.g, bytes/d))
			r.metric(v.typ+".bytes_per_clk", bytes/d)
			c.tick()
		}
		if c.o.Quick {
			return r, nil
		}
		// The second kernel: three float4 loads feed a multiply-add a step.
		k, err := c.kernel("bandwidth", "bw_local_mad_f32x4")
		if err != nil {
			return nil, err
		}
		l, err := c.bind(k, global, local, fmt.Sprintf("buf:f32x4:%d", global), fmt.Sprintf("local:%d", fp), fmt.Sprintf("u32:%d", fp/16-1), "u32:1")
		if err != nil {
			return nil, err
		}
		defer l.free()
		d, err := l.diff(3, "u32", 64)
		if err != nil {
			return nil, fmt.Errorf("bw_local_mad_f32x4: %w", err)
		}
		bytes := float64(global) * 64 * 3 * 16
		r.metric("second.f32x4.bytes_per_core_clk", bytes/d/float64(c.g.Cores))
		r.metric("second.f32x4.gbs", gbs(c.g, bytes/d))
		return r, nil
	}
}
