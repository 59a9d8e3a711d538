package bench

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
)

// The FluidX3D-shaped test: seeds 000 and 001 compare GPUs on FluidX3D
// (§Compute Performance: FluidX3D) rather than give numbers, so the suite
// runs lattice Boltzmann steps of the same shape and the figures compare
// their cell updates per second across GPUs and variants. Three kernels:
// D2Q9 (kernels/lbm.cl, nine distributions a cell); a lean D3Q19 step
// (kernels/lbm3d.cl, nineteen and a flag byte, FluidX3D's default velocity
// set, pull streaming between two copies on a power-of-two box); and a
// D3Q19 step laid out as FluidX3D's stream_collide is published
// (kernels/fx3d.cl: esoteric-pull streaming in one copy, coordinates by
// division by the box's dimensions, 64-bit neighbour indices, flags),
// which the FluidX3D figures read.

// fluidLattice is one lattice's kernels and box: a box of 2^xyLog2 ×
// 2^xyLog2 (× 2^zLog2 in 3-D) cells, or with side set a cube of side
// cells whose dimensions the kernel takes as values (kernels/fx3d.cl).
type fluidLattice struct {
	module, prefix, name string
	q                    int  // distributions a cell
	flags                bool // the kernel reads a flag byte a cell (kernels/lbm3d.cl, fx3d.cl)
	xyLog2, zLog2        func(Options) int
	// side is the cube's side for the in-place kernel (kernels/fx3d.cl),
	// which takes one buffer of distributions, the flags, the dimensions
	// and the step's parity.
	side func(Options) int
}

var fluidLattices = []fluidLattice{
	// 256 × 256 cells, 2.25 MB a copy of the distributions in FP32 (past
	// every L2; the 640's SLC holds one of the two). The short sweep uses
	// 128 × 128.
	{module: "lbm", prefix: "lbm", name: "D2Q9", q: 9,
		xyLog2: func(o Options) int { return quickOr(o, 7, 8) }},
	// 32 × 32 × 32 cells, 2.4 MB a copy in FP32 and 1.2 MB in FP16, past
	// every L2 as the D2Q9 box is, at about the same simulated time. The
	// short sweep uses 16 × 16 × 16 (a quarter of the short D2Q9 box's
	// cells, at about twice the work a cell), so that it adds little to
	// the tests that run the suite on every preset.
	{module: "lbm3d", prefix: "lbm3d", name: "D3Q19", q: 19, flags: true,
		xyLog2: func(o Options) int { return quickOr(o, 4, 5) },
		zLog2:  func(o Options) int { return quickOr(o, 4, 5) }},
	// 30 × 30 × 30 cells, 2.05 MB of distributions in FP32 (one copy, in
	// place) and 1.03 MB in FP16; no dimension a power of two, so the
	// kernel's divisions are real ones. The short sweep uses 15 × 15 × 15.
	{module: "fx3d", prefix: "fx", name: "D3Q19 FluidX3D-style", q: 19, flags: true,
		side: func(o Options) int { return quickOr(o, 15, 30) }},
}

// fluidWorkgroup is FluidX3D's work-group size (WORKGROUP_SIZE, src/opencl.hpp).
const fluidWorkgroup = 64

func quickOr(o Options, quick, full int) int {
	if o.Quick {
		return quick
	}
	return full
}

var fluidVariants = []struct{ suffix, label, typ string }{
	{"_fma", "FP32, fma()", "f32"},
	{"_mad", "FP32, mad()", "f32"},
	{"_fp16s", "FP16 storage, fma()", "f16"},
}

var fluid = &Test{
	Name:   "fluid",
	Title:  "Lattice Boltzmann step (FluidX3D-shaped)",
	Doc:    "Lattice Boltzmann steps (BGK collision, periodic boxes) as FluidX3D builds them: multiply-adds through fma() (its default), through mad(), and FP16 storage with FP32 arithmetic; on D2Q9 (256 × 256 cells); on D3Q19 with pull streaming between two copies (32 × 32 × 32 cells, FluidX3D's default velocity set, 19 distributions and a flag byte a cell); and on D3Q19 laid out as FluidX3D's own kernel (30 × 30 × 30 cells, esoteric-pull streaming in place, coordinates by division, 64-bit neighbour indices), which the FluidX3D figures read; work-groups of 64, as FluidX3D launches them, and a grid that fills every warp slot sweep the box. Million cell updates per second.",
	Points: func(_ *arch.GPU, o Options) int { return len(fluidLatticesFor(o)) * len(fluidVariants) },
}

// fluidLatticesFor is the lattices a run times: the short sweep keeps the
// one the figures read, FluidX3D's layout (the last); the full suite adds
// the two leaner steps beside it, whose difference shows how much of the
// result is the kernel's shape.
func fluidLatticesFor(o Options) []fluidLattice {
	if o.Quick {
		return fluidLattices[len(fluidLattices)-1:]
	}
	return fluidLattices
}

func init() {
	fluid.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Bars, YLabel: "cell updates", Unit: "MLUP/s"}
		// FluidX3D launches work-groups of 64 (WORKGROUP_SIZE in its
		// src/opencl.hpp); bind halves that where a kernel's registers
		// leave a core too few warps for it.
		global, _ := rateGrid(c.g)
		local := min(fluidWorkgroup, c.g.MaxWorkgroupSize)
		global = (global + local - 1) / local * local
		for _, lat := range fluidLatticesFor(c.o) {
			var cells, xy, z, side int
			if lat.side != nil {
				side = lat.side(c.o)
				cells = side * side * side
			} else {
				xy = lat.xyLog2(c.o)
				if lat.zLog2 != nil {
					z = lat.zLog2(c.o)
				}
				cells = 1 << (2*xy + z)
			}
			for _, v := range fluidVariants {
				entry := lat.prefix + v.suffix
				k, err := c.kernel(lat.module, entry)
				if err != nil {
					return nil, err
				}
				buf := fmt.Sprintf("buf:%s:%d", v.typ, lat.q*cells)
				var specs []string
				switch {
				case lat.side != nil:
					// One copy, updated in place; an even step.
					specs = []string{buf + "=fill:0.1", fmt.Sprintf("buf:u8:%d", cells),
						fmt.Sprintf("u32:%d", side), fmt.Sprintf("u32:%d", side), fmt.Sprintf("u32:%d", side), "u32:0"}
				case lat.flags:
					specs = []string{buf + "=fill:0.1", buf, fmt.Sprintf("buf:u8:%d", cells), fmt.Sprintf("u32:%d", xy), fmt.Sprintf("u32:%d", z)}
				default:
					specs = []string{buf + "=fill:0.1", buf, fmt.Sprintf("u32:%d", xy)}
				}
				iters := len(specs)
				specs = append(specs, "u32:1", "f32:0.8")
				l, err := c.bind(k, global, local, specs...)
				if err != nil {
					return nil, err
				}
				// Rounds enough to sweep the box once.
				n := max(1, cells/global)
				d, err := l.diff(iters, "u32", n)
				l.free()
				if err != nil {
					return nil, fmt.Errorf("%s: %w", entry, err)
				}
				perClk := float64(global) * float64(n) / d
				mlups := perClk * c.g.ClockMHz
				r.add(c.g.ID, Point{Label: lat.name + ", " + v.label, Y: mlups, Note: fmt.Sprintf("%.3g cells/clk", perClk)})
				r.metric(entry+".mlups", mlups)
				r.metric(entry+".cells_per_clk", perClk)
				c.tick()
			}
		}
		r.Notes = append(r.Notes, "the seeds publish no MLUP/s; their claims compare GPUs and variants (docs/validation.md)")
		return r, nil
	}
}
