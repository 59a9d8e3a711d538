package bench

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
)

// The FluidX3D-shaped test: seeds 000 and 001 compare GPUs on FluidX3D
// (§Compute Performance: FluidX3D) rather than give numbers, so the suite
// runs a lattice Boltzmann step of the same shape (kernels/lbm.cl) and the
// figures compare its cell updates per second across GPUs and variants.

// fluidLog2 is the box's side, log2: 256 × 256 cells, 2.25 MB a copy of the
// distributions in FP32 (past every L2; the 640's SLC holds one of the
// two). The short sweep uses 128 × 128.
func fluidLog2(o Options) int {
	if o.Quick {
		return 7
	}
	return 8
}

var fluidVariants = []struct{ entry, label, typ string }{
	{"lbm_fma", "FP32, fma()", "f32"},
	{"lbm_mad", "FP32, mad()", "f32"},
	{"lbm_fp16s", "FP16 storage, fma()", "f16"},
}

var fluid = &Test{
	Name:   "fluid",
	Title:  "Lattice Boltzmann step (FluidX3D-shaped)",
	Doc:    "A D2Q9 lattice Boltzmann step (BGK collision, pull streaming, 256 × 256 periodic box) as FluidX3D builds it: multiply-adds through fma() (its default), through mad(), and FP16 storage with FP32 arithmetic; a grid that fills every warp slot sweeps the box. Million cell updates per second.",
	Points: func(*arch.GPU, Options) int { return len(fluidVariants) },
}

func init() {
	fluid.run = func(c *ctx) (*Result, error) {
		r := &Result{Chart: Bars, YLabel: "cell updates", Unit: "MLUP/s"}
		nlog2 := fluidLog2(c.o)
		cells := 1 << (2 * nlog2)
		global, local := rateGrid(c.g)
		for _, v := range fluidVariants {
			k, err := c.kernel("lbm", v.entry)
			if err != nil {
				return nil, err
			}
			buf := fmt.Sprintf("buf:%s:%d", v.typ, 9*cells)
			l, err := c.bind(k, global, local, buf+"=fill:0.1", buf, fmt.Sprintf("u32:%d", nlog2), "u32:1", "f32:0.8")
			if err != nil {
				return nil, err
			}
			// Rounds enough to sweep the box once.
			n := max(1, cells/global)
			d, err := l.diff(3, "u32", n)
			l.free()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", v.entry, err)
			}
			perClk := float64(global) * float64(n) / d
			mlups := perClk * c.g.ClockMHz
			r.add(c.g.ID, Point{Label: v.label, Y: mlups, Note: fmt.Sprintf("%.3g cells/clk", perClk)})
			r.metric(v.entry+".mlups", mlups)
			r.metric(v.entry+".cells_per_clk", perClk)
			c.tick()
		}
		r.Notes = append(r.Notes, "the seeds publish no MLUP/s; their claims compare GPUs and variants (docs/validation.md)")
		return r, nil
	}
}
