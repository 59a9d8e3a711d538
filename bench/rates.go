package bench

import (
	"fmt"
	"strings"

	"github.com/pocketgpu/pocketgpu/arch"
)

// rateOp is one instruction-rate measurement: rates.cl's kernels of that
// operation (a scalar one, and vector ones: where the hardware packs
// sub-word types, Bifrost FP16x2 and INT8x4, and where its lanes are
// vectors, Midgard's vec4 and Rogue's packed pairs); the best is the rate,
// as the seeds' authors (and clpeak) report the best they could reach.
// Each kernel's own rate is a metric too.
type rateOp struct {
	Name  string // "fp32_fma"
	Label string // "FP32 FMA (fma)"
	// Kernels are the entry points; Width the components each operation
	// covers (2 for half2); Type the value type of the b and c arguments.
	Kernels []rateKernel
	// Flops counts floating-point operations per operation (2 for a
	// multiply-add, for GFLOPS).
	Flops int
	// Second is the same operation in a kernel written another way
	// (clpeak's shape: two vector values feeding each other, so each
	// component is one dependent chain and only other warps hide latency).
	// The full suite reports it as second.NAME.*; a figure reads the best
	// of Kernels, and the second kernel must agree with it or the
	// difference is explained.
	Second rateKernel
}

type rateKernel struct {
	Entry string
	Width int
	Type  string // argument spec type of b and c: f32, f16x2, u32 ...
	B, C  string // their values
}

var rateOps = []rateOp{
	{"fp32_add", "FP32 add", []rateKernel{{"fp32_add", 1, "f32", "0.999", "0.5"}, {"fp32x4_add", 4, "f32x4", f4(0.999), f4(0.5)}}, 1, rateKernel{"pairs_fp32_add", 4, "f32x4", f4(0.999), f4(0.5)}},
	{"fp32_mul", "FP32 mul", []rateKernel{{"fp32_mul", 1, "f32", "0.999", "0.5"}}, 1, rateKernel{"pairs_fp32_mul", 4, "f32x4", f4(0.999), f4(0.5)}},
	{"fp32_mad", "FP32 mad", []rateKernel{{"fp32_mad", 1, "f32", "0.999", "0.5"}, {"fp32x4_mad", 4, "f32x4", f4(0.999), f4(0.5)}}, 2, rateKernel{"pairs_fp32_mad", 4, "f32x4", f4(0.999), f4(0.5)}},
	{"fp32_fma", "FP32 fma()", []rateKernel{{"fp32_fma", 1, "f32", "0.999", "0.5"}, {"fp32x4_fma", 4, "f32x4", f4(0.999), f4(0.5)}}, 2, rateKernel{"pairs_fp32_fma", 4, "f32x4", f4(0.999), f4(0.5)}},
	{"fp16_add", "FP16 add", []rateKernel{{"fp16_add", 1, "f16", "0.999", "0.5"}, {"fp16x2_add", 2, "f16x2", "0.999,0.999", "0.5,0.5"},
		{"fp16x4_add", 4, "f16x4", f4(0.999), f4(0.5)}, {"fp16x8_add", 8, "f16x8", f8(0.999), f8(0.5)}}, 1, rateKernel{"pairs_fp16_add", 4, "f16x4", f4(0.999), f4(0.5)}},
	{"fp16_fma", "FP16 fma()", []rateKernel{{"fp16_fma", 1, "f16", "0.999", "0.5"}, {"fp16x2_fma", 2, "f16x2", "0.999,0.999", "0.5,0.5"},
		{"fp16x4_fma", 4, "f16x4", f4(0.999), f4(0.5)}, {"fp16x8_fma", 8, "f16x8", f8(0.999), f8(0.5)}}, 2, rateKernel{"pairs_fp16_fma", 4, "f16x4", f4(0.999), f4(0.5)}},
	{"int32_add", "INT32 add", []rateKernel{{"int32_add", 1, "u32", "3", "5"}, {"int32x4_add", 4, "u32x4", "3,3,3,3", "5,5,5,5"}}, 0, rateKernel{"pairs_int32_add", 4, "u32x4", "3,3,3,3", "5,5,5,5"}},
	{"int32_mul", "INT32 mul", []rateKernel{{"int32_mul", 1, "u32", "3", "5"}}, 0, rateKernel{"pairs_int32_mul", 4, "u32x4", "3,3,3,3", "5,5,5,5"}},
	{"int64_add", "INT64 add", []rateKernel{{"int64_add", 1, "u64", "3", "5"}}, 0, rateKernel{"pairs_int64_add", 2, "u64x2", "3,3", "5,5"}},
	{"int16_add", "INT16 add", []rateKernel{{"int16_add", 1, "u16", "3", "5"}, {"int16x2_add", 2, "u16x2", "3,3", "5,5"}}, 0, rateKernel{"pairs_int16_add", 4, "u16x4", "3,3,3,3", "5,5,5,5"}},
	{"int8_add", "INT8 add", []rateKernel{{"int8_add", 1, "u8", "3", "5"}, {"int8x4_add", 4, "u8x4", "3,3,3,3", "5,5,5,5"}}, 0, rateKernel{"pairs_int8_add", 4, "u8x4", "3,3,3,3", "5,5,5,5"}},
	{"int8_mul", "INT8 mul", []rateKernel{{"int8_mul", 1, "u8", "3", "5"}, {"int8x4_mul", 4, "u8x4", "3,3,3,3", "5,5,5,5"}}, 0, rateKernel{"pairs_int8_mul", 4, "u8x4", "3,3,3,3", "5,5,5,5"}},
	{"fp32_recip", "FP32 reciprocal", []rateKernel{{"fp32_recip", 1, "f32", "0.999", "0.5"}}, 1, rateKernel{"pairs_fp32_recip", 4, "f32x4", f4(0.999), f4(0.5)}},
	{"fp32_rsqrt", "FP32 rsqrt", []rateKernel{{"fp32_rsqrt", 1, "f32", "0.999", "0.5"}}, 1, rateKernel{"pairs_fp32_rsqrt", 4, "f32x4", f4(0.999), f4(0.5)}},
	{"fp16_rsqrt", "FP16 rsqrt", []rateKernel{{"fp16_rsqrt", 1, "f16", "0.999", "0.5"}, {"fp16x2_rsqrt", 2, "f16x2", "0.999,0.999", "0.5,0.5"}}, 1, rateKernel{"pairs_fp16_rsqrt", 4, "f16x4", f4(0.999), f4(0.5)}},
}

// f4 and f8 are vector arguments of four and eight equal components.
func f4(v float64) string { return vec(v, 4) }
func f8(v float64) string { return vec(v, 8) }

func vec(v float64, n int) string {
	return strings.TrimSuffix(strings.Repeat(fmt.Sprintf("%g,", v), n), ",")
}

// rateIters is the loop count of a rate measurement (it also runs twice
// that, and the difference is the rate): the loop is steady from its
// first iteration, so 2 gives the rate 4 did (within 0.2%) for half the
// simulation, in the short sweep and the full suite alike.
func rateIters(Options) int { return 2 }

// opsPerIter is rates.cl's operations per accumulator set per iteration.
const opsPerIter = 128

// residentThreads is how many work-items fill g when nothing but the warp
// slots limits residency: a grid of this size keeps every engine busy.
func residentThreads(g *arch.GPU) int {
	return g.Cores * g.EnginesPerCore * g.MaxWarpsPerEngine * g.WidestWarp()
}

// rateGrid is the grid and work-group size of the ALU tests.
func rateGrid(g *arch.GPU) (global, local int) {
	local = min(128, g.MaxWorkgroupSize)
	global = (residentThreads(g) + local - 1) / local * local
	return global, local
}

// rate measures one kernel's operations per GPU clock (components counted
// one by one), and the warp width it ran with.
func (c *ctx) rate(file string, k rateKernel, iters int) (opsPerClk float64, warp int, err error) {
	kern, err := c.kernel(file, k.Entry)
	if err != nil {
		return 0, 0, err
	}
	global, local := rateGrid(c.g)
	// A kernel whose registers leave fewer warp slots than the GPU has
	// gets one full round of what it can keep resident: a grid past that
	// runs a partial last round on some engines, whose share of the time
	// depends on where the grid happens to end (the Adreno 640's 64-bit
	// add read 11% low at one grid size and right at every other).
	if occ, err := kern.Occupancy(c.g, local, kern.LocalBytes()); err == nil && occ.ResidentThreads >= local && occ.ResidentThreads < global {
		global = occ.ResidentThreads / local * local
	}
	elem := k.Type
	l, err := c.bind(kern, global, local, fmt.Sprintf("buf:%s:%d", elem, global), "u32:1",
		fmt.Sprintf("%s:%s", elem, k.B), fmt.Sprintf("%s:%s", elem, k.C))
	if err != nil {
		return 0, 0, err
	}
	defer l.free()
	d, err := l.diff(1, "u32", iters)
	if err != nil {
		return 0, 0, err
	}
	ops := float64(global) * float64(iters) * opsPerIter * float64(k.Width)
	return ops / d, l.warpW, nil
}

// rateMetrics records an operation's rate (ops per GPU clock, measured at
// warp width warp) as NAME.ops_per_clk, .ops_per_core_clk, .gops,
// .cycles_per_warp and, for floating point, .gflops.
func rateMetrics(r *Result, name string, g *arch.GPU, opsPerClk float64, warp, flops int) {
	ghz := g.ClockMHz / 1000
	r.metric(name+".ops_per_clk", opsPerClk)
	r.metric(name+".ops_per_core_clk", opsPerClk/float64(g.Cores))
	r.metric(name+".gops", opsPerClk*ghz)
	// Cycles one warp instruction of this operation occupies its engine:
	// the warp's lanes over the engine's share of the rate.
	r.metric(name+".cycles_per_warp", float64(warp)*float64(g.Cores*g.EnginesPerCore)/opsPerClk)
	if flops > 0 {
		r.metric(name+".gflops", opsPerClk*ghz*float64(flops))
	}
}

var ratesTest = &Test{
	Name:  "rates",
	Title: "Instruction rates",
	Doc:   "Eight independent accumulators per work-item, 128 operations per loop iteration, a grid that fills every engine (one full round of the warp slots the kernel's registers leave); operations per GPU clock (vector components counted one by one; the main operations also as float4, half2/4/8, uint4 or uchar4 vectors, the best kept).",
	Points: func(g *arch.GPU, o Options) int {
		return len(rateOps)
	},
}

func init() {
	ratesTest.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Bars, YLabel: "throughput", Unit: "Gops/s"}
		g := c.g
		ghz := g.ClockMHz / 1000
		units := float64(g.Cores * g.EnginesPerCore)
		for _, op := range rateOps {
			best, bestWarp, bestEntry := 0.0, 0, ""
			for _, k := range op.Kernels {
				v, w, err := c.rate("rates", k, rateIters(c.o))
				if err != nil {
					return nil, fmt.Errorf("%s: %w", k.Entry, err)
				}
				// Each kernel's own rate, beside the operation's best:
				// Rogue's and Midgard's float4 kernels fill lanes the
				// scalar kernel cannot, and some figures are about the
				// scalar instruction.
				r.metric("kernel."+k.Entry+".ops_per_clk", v)
				r.metric("kernel."+k.Entry+".ops_per_core_clk", v/float64(g.Cores))
				r.metric("kernel."+k.Entry+".cycles_per_warp", float64(w)*units/v)
				if v > best {
					best, bestWarp, bestEntry = v, w, k.Entry
				}
			}
			c.tick()
			note := fmt.Sprintf("%.1f/clk, %s, warp %d", best, bestEntry, bestWarp)
			r.add(g.ID, Point{Label: op.Label, Y: best * ghz, Note: note})
			rateMetrics(r, op.Name, g, best, bestWarp, op.Flops)
			if c.o.Quick || op.Second.Entry == "" {
				continue
			}
			v, w, err := c.rate("rates", op.Second, rateIters(c.o))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", op.Second.Entry, err)
			}
			rateMetrics(r, "second."+op.Name, g, v, w, op.Flops)
		}
		// The clock the rates were timed at, for claims about the clock
		// itself (seed 001: the 640's 585 MHz against the 530's 653).
		r.metric("clock_mhz", g.ClockMHz)
		r.Notes = append(r.Notes, "y: billions of operations per second at the GPU's clock; the per-clock rate and the kernel that reached it are in the note")
		return r, nil
	}
}
