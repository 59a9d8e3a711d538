package gfx

import (
	"math"

	"github.com/pocketgpu/pocketgpu/arch"
)

// Work is what a stretch of rendering did: shader warps and their
// instructions, texture samples, fragments through the blender, and the
// DRAM bytes it moved.
type Work struct {
	Warps       float64
	WarpInsts   float64
	ThreadInsts float64
	// EngineCycles is what the warps' executed blocks cost the engines,
	// from the instruction lowering (isa): issue slots or the busiest pipe.
	EngineCycles float64
	WarpWidth    int
	TexSamples   float64
	Fragments    float64 // fragments that reached the blender / tile memory
	DRAMBytes    float64
	GMEMBytes    float64 // bytes moved between GMEM and system memory (Adreno resolves)
}

// sub takes o's counts away from w's (the width stays).
func (w *Work) sub(o Work) {
	w.Warps -= o.Warps
	w.WarpInsts -= o.WarpInsts
	w.ThreadInsts -= o.ThreadInsts
	w.EngineCycles -= o.EngineCycles
	w.TexSamples -= o.TexSamples
	w.Fragments -= o.Fragments
	w.DRAMBytes -= o.DRAMBytes
	w.GMEMBytes -= o.GMEMBytes
}

func (w *Work) add(o Work) {
	w.Warps += o.Warps
	w.WarpInsts += o.WarpInsts
	w.ThreadInsts += o.ThreadInsts
	w.EngineCycles += o.EngineCycles
	w.TexSamples += o.TexSamples
	w.Fragments += o.Fragments
	w.DRAMBytes += o.DRAMBytes
	w.GMEMBytes += o.GMEMBytes
	if w.WarpWidth == 0 {
		w.WarpWidth = o.WarpWidth
	}
}

// CostModel turns counts into cycles. The renderer composes the frame from
// these pieces (which passes run one after another, which tiles go to which
// core); a model only prices them. Estimate is the built-in model; the
// timing model of issue 4 can replace it behind this interface.
type CostModel interface {
	// Shader is the cycles cores shader cores need for w's shading
	// (spread evenly over them).
	Shader(w Work, cores int) float64
	// Memory is the cycles the DRAM interface needs for w's bytes, and
	// the GMEM/tile-buffer path for its GMEM bytes.
	Memory(w Work) float64
	// Tiler is the cycles of the fixed-function tiler or binning
	// hardware for prims primitives producing refs bin entries.
	Tiler(prims, refs uint64) float64
	// Commands is the command processor's cycles to walk draws draws
	// once (one pass over the command stream).
	Commands(draws int) float64
}

// Estimate is the built-in cost model: throughput bounds from the GPU's
// parameters, no latencies.
//
//	shader   = max(ALU, texture, blend)
//	ALU      = the engine cycles of the blocks the shaders' warps ran (the
//	           family's instruction lowering, isa: issue slots or the
//	           busiest pipe per block) / (engines per core × cores)
//	texture  = samples / (texture samples per clock × texture units)
//	blend    = fragments / (raster.blend_pixels_per_cycle × cores)
//	memory   = max(DRAM bytes / DRAM bytes per cycle,
//	               GMEM bytes / tiling.gmem_bytes_per_cycle)
//	tiler    = max(primitives / tiling.tiler_primitives_per_cycle,
//	               bin entries / tiling.tiler_entries_per_cycle)
//	commands = draws × command_processor.cycles_per_draw
type Estimate struct {
	GPU *arch.GPU
}

func (e Estimate) Shader(w Work, cores int) float64 {
	g := e.GPU
	cores = max(cores, 1)
	width := w.WarpWidth
	if width == 0 {
		width = g.WidestWarp()
	}
	alu := w.EngineCycles / float64(max(g.EnginesPerCore, 1)*cores)
	units := float64(cores) / float64(max(g.Texture.CoresPerUnit, 1))
	tex := w.TexSamples / (math.Max(g.Texture.SamplesPerClock, 1e-9) * math.Max(units, 1))
	blend := w.Fragments / (g.Raster.BlendPixelsPerCycle * float64(cores))
	return math.Max(alu, math.Max(tex, blend))
}

// DRAMBytesPerCycle is the DRAM bandwidth in bytes per shader clock: the
// achieved bandwidth the memory model also uses (theoretical × efficiency).
func DRAMBytesPerCycle(g *arch.GPU) float64 {
	return g.GBsToBytesPerCycle(g.DRAMAchievedGBs())
}

func (e Estimate) Memory(w Work) float64 {
	c := w.DRAMBytes / DRAMBytesPerCycle(e.GPU)
	if w.GMEMBytes > 0 {
		c = math.Max(c, w.GMEMBytes/e.GPU.Tiling.GMEMBytesPerCycle)
	}
	return c
}

func (e Estimate) Tiler(prims, refs uint64) float64 {
	t := &e.GPU.Tiling
	return math.Max(float64(prims)/t.TilerPrimitivesPerCycle, float64(refs)/t.TilerEntriesPerCycle)
}

func (e Estimate) Commands(draws int) float64 {
	return float64(draws) * e.GPU.CommandProcessor.CyclesPerDraw
}
