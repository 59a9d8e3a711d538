// Package roofline places a kernel against its GPU's roofs (Williams,
// Waterman and Patterson's roofline model, with a roof per memory level as
// hierarchical rooflines draw them): compute roofs per data type and
// memory roofs per level, all derived from the GPU's description
// (arch.GPU.Derived and the ops table), and a kernel's point from what a
// timed run counted (operations by class, bytes per level: Measure) or
// from its lowering alone (Predict, for pocketgpu analyze). Chart draws it
// (PNG or SVG).
//
// Units are GPU-wide per GPU clock (ops/clk, B/clk), converted to G/s at
// the GPU's clock for the chart and reports. An operation is one lane's
// component of a machine operation (a packed FP16x2 operation is two); a
// multiply-add counts two floating-point operations, as the GPU's peak
// FLOPS figures do.
package roofline

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/counters"
)

// Arithmetic types: what a compute roof and a kernel's point count.
const (
	FP32 = "fp32" // FLOPs on 32-bit floats
	FP16 = "fp16" // FLOPs on halves
	INT  = "int"  // integer operations of any width
)

// Types lists the arithmetic types in report order.
var Types = []string{FP32, FP16, INT}

// classWeights says which type each op class counts for, and how many
// operations one component of it is (a multiply-add two). Conversions,
// moves, selects and FP64 are not counted.
var classWeights = map[string]struct {
	typ string
	w   float64
}{
	"fp32_add": {FP32, 1}, "fp32_mul": {FP32, 1}, "fp32_mad": {FP32, 2}, "fp32_fma": {FP32, 2}, "fp32_sfu": {FP32, 1}, "fp32_div": {FP32, 1},
	"fp16_add": {FP16, 1}, "fp16_mul": {FP16, 1}, "fp16_mad": {FP16, 2}, "fp16_fma": {FP16, 2}, "fp16_sfu": {FP16, 1},
	"int32_add": {INT, 1}, "int32_mul": {INT, 1}, "int32_logic": {INT, 1}, "int32_shift": {INT, 1}, "int32_cmp": {INT, 1},
	"int64_add": {INT, 1}, "int64_mul": {INT, 1}, "int16_add": {INT, 1}, "int16_mul": {INT, 1}, "int8_add": {INT, 1}, "int8_mul": {INT, 1},
}

// Memory levels, nearest first.
const (
	L1      = "l1"      // the core's L1 (Mali load/store cache, Rogue mixed cache)
	Texture = "texture" // the texture caches
	L2      = "l2"      // L2 (Adreno's loads and stores come here directly)
	SLC     = "slc"     // the SoC's system-level cache
	DRAM    = "dram"
	// Local is on-chip local memory (Adreno's instances, Rogue's common
	// store); Mali's local memory is ordinary memory behind L1.
	Local = "local"
)

// Levels lists the memory levels in order.
var Levels = []string{Local, L1, Texture, L2, SLC, DRAM}

// Roof is one ceiling of the chart.
type Roof struct {
	Name  string `json:"name"`  // fp32_fma, fp32, fp16_fma, fp16, int32 | l1, texture, l2, slc, dram
	Label string `json:"label"` // as the chart writes it
	Kind  string `json:"kind"`  // compute or memory
	// Type is the arithmetic a compute roof counts (fp32, fp16, int).
	Type string `json:"type,omitempty"`
	// PerClock is GPU-wide ops (compute) or bytes (memory) per clock;
	// Giga the same per second at the GPU's clock (GOP/s, GB/s).
	PerClock float64 `json:"per_clock"`
	Giga     float64 `json:"giga_per_second"`
	// From is the derived figure it comes from (pocketgpu spec lists them).
	From string `json:"from"`
}

// Roofs are a GPU's ceilings.
type Roofs struct {
	GPU      string  `json:"gpu"`
	ClockMHz float64 `json:"clock_mhz"`
	Compute  []Roof  `json:"compute"`
	Memory   []Roof  `json:"memory"`
	g        *arch.GPU
	d        arch.Derived
}

// For derives g's roofs.
func For(g *arch.GPU) *Roofs {
	d := g.Derived()
	r := &Roofs{GPU: g.ID, ClockMHz: g.ClockMHz, g: g, d: d}
	ghz := g.ClockMHz / 1000
	compute := func(name, label, typ string, v float64, from string) {
		if v > 0 {
			r.Compute = append(r.Compute, Roof{Name: name, Label: label, Kind: "compute", Type: typ, PerClock: v, Giga: v * ghz, From: from})
		}
	}
	compute("fp32_fma", "FP32 FMA", FP32, 2*d.FP32FMAPerClock, "2 × fp32_fma_per_clock")
	compute("fp32", "FP32 add/mul", FP32, nativeRate(g, "fp32_add", "fp32_mul"), "ops table: the faster of fp32_add and fp32_mul")
	compute("fp16_fma", "FP16 FMA", FP16, 2*d.FP16FMAPerClock, "2 × fp16_fma_per_clock")
	compute("fp16", "FP16 add/mul", FP16, nativeRate(g, "fp16_add", "fp16_mul"), "ops table: the faster of fp16_add and fp16_mul")
	compute("int32", "INT32 add", INT, d.INT32OpsPerClock, "int32_ops_per_clock")
	memory := func(name, label string, v float64, from string) {
		if v > 0 {
			r.Memory = append(r.Memory, Roof{Name: name, Label: label, Kind: "memory", PerClock: v, Giga: v * ghz, From: from})
		}
	}
	memory(Local, "local memory", d.LocalBytesPerClock, "local_bytes_per_clock")
	memory(L1, "L1 / load-store", d.L1BytesPerClock, "l1_bytes_per_clock")
	memory(Texture, "texture", d.TextureBytesPerClock, "texture_bytes_per_clock")
	l2, from := d.L2BytesPerClock, "l2_bytes_per_clock"
	if d.L2PathBytesPerClock > 0 && d.L2PathBytesPerClock < l2 {
		l2, from = d.L2PathBytesPerClock, "l2_path_bytes_per_clock (below l2_bytes_per_clock)"
	}
	memory(L2, "L2", l2, from)
	memory(SLC, "system-level cache", d.SLCBytesPerClock, "slc_bytes_per_clock")
	memory(DRAM, "DRAM", d.DRAMBytesPerClock, "dram_bytes_per_clock (achieved: theoretical × dram.efficiency)")
	return r
}

// nativeRate is the best per-clock rate of classes the GPU runs natively
// (arch.GPU.OpsPerClock: components per clock, all engines, every pipe
// that takes the class); an emulated or unsupported class counts 0.
func nativeRate(g *arch.GPU, classes ...string) float64 {
	best := 0.0
	for _, c := range classes {
		if op, ok := g.Op(c); ok && !op.Emulated && !op.Unsupported {
			best = math.Max(best, g.OpsPerClock(c))
		}
	}
	return best
}

// compute returns the compute roof of that name, if the GPU has it.
func (r *Roofs) compute(name string) (Roof, bool) {
	for _, c := range r.Compute {
		if c.Name == name {
			return c, true
		}
	}
	return Roof{}, false
}

// memory returns the roof of a level, if the GPU has it.
func (r *Roofs) memory(level string) (Roof, bool) {
	for _, m := range r.Memory {
		if m.Name == level {
			return m, true
		}
	}
	return Roof{}, false
}

// Work is what a kernel does: operations by op class and bytes per memory
// level, over a run (Measure) or per work-item along a path (Predict).
type Work struct {
	// Ops are operation components by op class (thread_ops_<class>).
	Ops map[string]float64
	// Bytes are the bytes each level served or took (reads and writes).
	Bytes map[string]float64
	// L1Lookups are the L1's line lookups (transactions on Rogue), 0 when
	// unknown: with them the L1 ceiling follows the bytes each lookup moved.
	L1Lookups float64
	// PipeTime is the time, in GPU clocks, the work keeps the busiest ALU
	// pipe busy with every engine running it flat out (measured: that
	// pipe's busy cycles over the engines; predicted: its cycles along
	// the path per warp, over the warp width and the cores). 0: unknown.
	PipeTime float64
}

// FromCounters is the work a timed run on r's GPU counted
// (docs/counters.md).
func (r *Roofs) FromCounters(c counters.Set) Work {
	w := Work{Ops: map[string]float64{}, Bytes: map[string]float64{}}
	for _, it := range c {
		if c, ok := strings.CutPrefix(it.Name, "thread_ops_"); ok && c != "" {
			w.Ops[c] += it.Value
		}
	}
	if r.d.LocalBytesPerClock > 0 {
		w.Bytes[Local] = c.Value("local_bytes")
	}
	w.Bytes[L1] = c.Value("l1_read_bytes") + c.Value("l1_write_bytes")
	w.Bytes[Texture] = c.Value("texture_cache_read_bytes")
	w.Bytes[L2] = c.Value("l2_read_bytes") + c.Value("l2_write_bytes")
	w.Bytes[SLC] = c.Value("slc_read_bytes") + c.Value("slc_write_bytes")
	w.Bytes[DRAM] = c.Value("dram_read_bytes") + c.Value("dram_write_bytes")
	w.L1Lookups = c.Value("l1_accesses")
	var busy float64
	for _, it := range c {
		if strings.HasPrefix(it.Name, "pipe_") && strings.HasSuffix(it.Name, "_busy_cycles") {
			busy = math.Max(busy, it.Value)
		}
	}
	if r.d.Engines > 0 {
		w.PipeTime = busy / float64(r.d.Engines)
	}
	return w
}

// StaticWork is the work of a kernel per work-item from its instructions
// alone (no cache model): ops by class, and the bytes its global, texture
// and local instructions request, placed at every level they would pass
// through if each missed the level before: global bytes at L1 (where the
// GPU has one; Adreno's go to L2), L2, the SLC and DRAM; texture bytes at
// the texture caches, then the same; local bytes at L1 on a GPU whose
// local memory is ordinary memory behind it (Mali), at the local level
// where it is on chip.
func StaticWork(g *arch.GPU, ops map[string]float64, global, texture, local float64) Work {
	w := Work{Ops: ops, Bytes: map[string]float64{}}
	if g.LocalMemory.Kind == arch.LocalOnChip {
		w.Bytes[Local] = local
	}
	if g.L1 != nil {
		w.Bytes[L1] = global
		if g.LocalMemory.Kind != arch.LocalOnChip {
			w.Bytes[L1] += local
		}
	}
	w.Bytes[Texture] = texture
	for _, l := range []string{L2, SLC, DRAM} {
		w.Bytes[l] = global + texture
	}
	return w
}

// TypeOps are the work's operations of each arithmetic type (FLOPs, INTOPs).
func (w Work) TypeOps() map[string]float64 {
	out := map[string]float64{}
	for c, n := range w.Ops {
		if cw, ok := classWeights[c]; ok {
			out[cw.typ] += n * cw.w
		}
	}
	return out
}

// Point is a kernel placed on the chart.
type Point struct {
	Kernel string `json:"kernel"`
	GPU    string `json:"gpu"`
	// Measured: from a timed run; otherwise predicted from the lowering.
	Measured bool `json:"measured"`
	// Type is the arithmetic the point counts: floating point (FP32 or
	// FP16, whichever has more FLOPs) when the kernel does any, integer
	// operations otherwise. Ops are its operations (per work-item when predicted),
	// OpsByType every type's.
	Type      string             `json:"type"`
	Ops       float64            `json:"ops"`
	OpsByType map[string]float64 `json:"ops_by_type"`
	// Cycles of the run (measured only).
	Cycles float64 `json:"cycles,omitempty"`
	// PerClock is the achieved (measured) or attainable (predicted)
	// throughput of Type in ops per clock, Giga per second.
	PerClock float64 `json:"per_clock"`
	Giga     float64 `json:"giga_per_second"`
	// Ceiling is the kernel's own compute ceiling (ops/clk of Type): its
	// operations over the time its busiest ALU pipe needs for them, as
	// the ops table costs them (packing, dual issue and emulation
	// included). ComputeUse is PerClock / Ceiling (measured): the
	// busiest pipe's utilisation.
	Ceiling    float64 `json:"compute_ceiling_per_clock"`
	ComputeUse float64 `json:"compute_use,omitempty"`
	// Roof names the chart's compute roof for the kernel (Roofs.Compute):
	// the FMA roof of its type when multiply-adds give most of its
	// operations, the add/mul roof otherwise. RoofUse is PerClock over it:
	// how near the drawn roof the kernel comes (scalar code on a GPU whose
	// roof counts packed vectors stays below it by the packing).
	Roof    string  `json:"roof"`
	RoofUse float64 `json:"roof_use,omitempty"`
	// Levels place the point at each memory level's intensity.
	Levels []LevelPoint `json:"levels"`
	// Bound is what limits the kernel: "compute" or a level, the ceiling
	// it comes nearest (measured) or the lowest attainable (predicted).
	Bound string `json:"bound"`
	// Use is the bound's use: achieved / ceiling (measured).
	Use float64 `json:"use,omitempty"`
}

// LevelPoint is the kernel at one memory level.
type LevelPoint struct {
	Level string  `json:"level"`
	Bytes float64 `json:"bytes"`
	// Intensity is Ops per byte of this level.
	Intensity float64 `json:"intensity"`
	// BytesPerClock achieved (measured).
	BytesPerClock float64 `json:"bytes_per_clock,omitempty"`
	// Roof is the level's roof (B/clk); Ceiling the kernel's own at its
	// access granularity (Rogue's L1 moves one transaction per lookup, so
	// its ceiling is l1_lookups_per_clock × the bytes per lookup the kernel
	// made, when that is below the roof).
	Roof    float64 `json:"roof_per_clock"`
	Ceiling float64 `json:"ceiling_per_clock"`
	// Use is BytesPerClock / Ceiling (measured).
	Use float64 `json:"use,omitempty"`
	// Attainable is min(compute ceiling, Intensity × Ceiling): the ops per
	// clock this level allows.
	Attainable float64 `json:"attainable_per_clock"`
}

// Measure places a timed run of kernel (its counters' work w, over cycles)
// against the roofs.
func (r *Roofs) Measure(kernel string, w Work, cycles float64) Point {
	p := r.place(kernel, w)
	p.Measured, p.Cycles = true, cycles
	if cycles <= 0 {
		return p
	}
	p.PerClock = p.Ops / cycles
	p.Giga = p.PerClock * r.ClockMHz / 1000
	best := 0.0
	if p.Ceiling > 0 && p.Ops > 0 {
		p.ComputeUse = p.PerClock / p.Ceiling
		p.Bound, best = "compute", p.ComputeUse
	}
	if roof, ok := r.compute(p.Roof); ok && roof.PerClock > 0 {
		p.RoofUse = p.PerClock / roof.PerClock
	}
	for i := range p.Levels {
		l := &p.Levels[i]
		l.BytesPerClock = l.Bytes / cycles
		if l.Ceiling > 0 {
			l.Use = l.BytesPerClock / l.Ceiling
		}
		if l.Use > best {
			p.Bound, best = l.Level, l.Use
		}
	}
	p.Use = best
	return p
}

// Predict places a kernel from its work per work-item along its longest
// path (each loop once), as StaticWork lays its bytes out: every level
// sees the bytes it would if no cache hit. Each level's Attainable is the
// throughput its roof allows; the prediction is the least of them and the
// compute ceiling, and the bound the one that sets it (with caches that
// hit, the levels beyond them allow more: their figures say how much).
func (r *Roofs) Predict(kernel string, w Work) Point {
	p := r.place(kernel, w)
	p.PerClock = p.Ceiling
	p.Bound = "compute"
	if p.Ops > 0 {
		for _, l := range p.Levels {
			if l.Attainable < p.PerClock {
				p.PerClock, p.Bound = l.Attainable, l.Level
			}
		}
	}
	p.Giga = p.PerClock * r.ClockMHz / 1000
	return p
}

// place fills what Measure and Predict share: the type, the ceiling and
// the intensities.
func (r *Roofs) place(kernel string, w Work) Point {
	p := Point{Kernel: kernel, GPU: r.GPU, OpsByType: w.TypeOps()}
	// Floating point when the kernel does any (FLOPs, as rooflines are
	// usually drawn), the type with the most of it; integers otherwise.
	for _, t := range []string{FP32, FP16} {
		if v := p.OpsByType[t]; v > p.Ops {
			p.Type, p.Ops = t, v
		}
	}
	if p.Type == "" {
		p.Type, p.Ops = INT, p.OpsByType[INT]
	}
	p.Ceiling = r.ceiling(w, p.Type)
	p.Roof = r.matchingRoof(w, p.Type)
	for _, level := range Levels {
		roof, ok := r.memory(level)
		b := w.Bytes[level]
		if !ok || b <= 0 {
			continue
		}
		lp := LevelPoint{Level: level, Bytes: b, Roof: roof.PerClock, Ceiling: roof.PerClock}
		if level == L1 && w.L1Lookups > 0 && r.d.L1LookupsPerClock > 0 {
			lp.Ceiling = math.Min(lp.Ceiling, r.d.L1LookupsPerClock*b/w.L1Lookups)
		}
		if p.Ops > 0 {
			lp.Intensity = p.Ops / b
			lp.Attainable = math.Min(p.Ceiling, lp.Intensity*lp.Ceiling)
		}
		p.Levels = append(p.Levels, lp)
	}
	return p
}

// ceiling is the compute ceiling of the work in ops of type typ per clock:
// its operations over the time its busiest pipe needs (the ops table's
// costs as the lowering charged them, packing and emulation included), or
// without that time, mixCeiling.
func (r *Roofs) ceiling(w Work, typ string) float64 {
	if w.PipeTime > 0 {
		return w.TypeOps()[typ] / w.PipeTime
	}
	return r.mixCeiling(w, typ)
}

// matchingRoof is the chart's compute roof for the work's type: the FMA
// roof when multiply-adds give most of its floating-point operations, the
// add/mul roof otherwise; INT32 for integers.
func (r *Roofs) matchingRoof(w Work, typ string) string {
	if typ == INT {
		return "int32"
	}
	var fused, all float64
	for c, n := range w.Ops {
		cw, ok := classWeights[c]
		if !ok || cw.typ != typ {
			continue
		}
		all += n * cw.w
		if strings.HasSuffix(c, "_mad") || strings.HasSuffix(c, "_fma") {
			fused += n * cw.w
		}
	}
	if all > 0 && 2*fused >= all {
		return typ + "_fma"
	}
	return typ
}

// mixCeiling is the compute ceiling of the work's classes of type typ, in
// ops of that type per clock: the operations over the time they take with
// each class at its own peak (arch OpsPerClock), one after another. 0 when
// the work has none.
func (r *Roofs) mixCeiling(w Work, typ string) float64 {
	var ops, t float64
	classes := make([]string, 0, len(w.Ops))
	for c := range w.Ops {
		classes = append(classes, c)
	}
	sort.Strings(classes)
	for _, c := range classes {
		cw, ok := classWeights[c]
		n := w.Ops[c]
		if !ok || cw.typ != typ || n <= 0 {
			continue
		}
		rate := r.g.OpsPerClock(c)
		if rate <= 0 {
			continue
		}
		ops += n * cw.w
		t += n / rate
	}
	if t == 0 {
		return 0
	}
	return ops / t
}

// Unit is how a type's operations are written.
func Unit(typ string) string {
	if typ == INT {
		return "INTOP"
	}
	return "FLOP"
}

// String is the point in one line.
func (p Point) String() string {
	what := "measured"
	if !p.Measured {
		what = "predicted"
	}
	return fmt.Sprintf("%s on %s (%s): %.4g G%s/s, bound by %s", p.Kernel, p.GPU, what, p.Giga, Unit(p.Type), p.Bound)
}
