package probe

import (
	"fmt"
	"strings"
)

// Rate is one instruction type's measured throughput.
type Rate struct {
	Name     string  `json:"name"`
	PerClock float64 `json:"per_clock"` // operations per clock, GPU-wide (a vector op counts per component)
	Note     string  `json:"note,omitempty"`
}

// rateKernel describes a throughput kernel of probe.cl: 64 vector
// operations of width components per loop iteration.
type rateKernel struct {
	name, what string
	width      int
	half       bool // its b and c arguments are half
}

// Each type has a vector kernel and a narrow one; the rate is the better
// of the two, as a GPU may need vector work to fill its lanes (Midgard's
// vec4 ALUs, Rogue's second FMA) or lose occupancy to the vector kernel's
// registers (Adreno).
var rateKernels = []rateKernel{
	{"fp32_mad", "FP32 multiply-add (mad)", 4, false},
	{"fp32_mad_1", "", 1, false},
	{"fp32_fma", "FP32 fused multiply-add (fma())", 4, false},
	{"fp32_fma_1", "", 1, false},
	{"fp32_add", "FP32 add", 4, false},
	{"fp32_add_1", "", 1, false},
	{"fp16_mad", "FP16 multiply-add (mad)", 4, true},
	{"fp16_mad_2", "", 2, true},
	{"fp16_mad_8", "", 8, true},
	{"fp16_add", "FP16 add", 4, true},
	{"fp16_add_2", "", 2, true},
	{"fp16_add_8", "", 8, true},
	{"int32_add", "INT32 add", 4, false},
	{"int32_add_1", "", 1, false},
}

const opsPerIteration = 64

// gridSteps are the grids the throughput search tries, in work-groups per
// reported compute unit: products of 2 and 3, because a grid that is not a
// whole number of rounds of resident work-groups leaves cores idle in its
// last round (and a compute unit may hold 3 cores, as an Adreno SP does).
var gridSteps = []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128}

// rates measures each kernel over a grid that fills the device. The grid
// is found as ArchProbe would, by growing it while the FP32 multiply-add
// rate grows: the search stops when two steps running gain less than 3%,
// and keeps the best grid.
func (p *prober) rates() ([]Rate, []Point, error) {
	in := p.t.info
	local := min(in.MaxWorkGroup, 128)
	var grid []Point
	best, bestGrid, flat := 0.0, 0, 0
	for _, k := range gridSteps[:min(p.o.MaxGridSteps, len(gridSteps))] {
		global := max(in.ComputeUnits, 1) * local * k
		r, err := p.rate(rateKernels[0], global, local)
		if err != nil {
			return nil, nil, err
		}
		grid = append(grid, Point{float64(global), r})
		gain := r >= best*1.03
		if r > best {
			best, bestGrid = r, global
		}
		if gain {
			flat = 0
		} else if flat++; flat == 2 {
			break
		}
	}
	p.fillGrid = bestGrid
	var out []Rate
	for _, rk := range rateKernels {
		if rk.half && !in.FP16 {
			if rk.what != "" {
				out = append(out, Rate{Name: rk.name, Note: rk.what + ": the device has no cl_khr_fp16"})
			}
			continue
		}
		r, err := p.rate(rk, bestGrid, local)
		if err != nil {
			return nil, nil, err
		}
		if rk.what != "" {
			out = append(out, Rate{Name: rk.name, PerClock: r, Note: fmt.Sprintf("%s, %d-wide vectors", rk.what, rk.width)})
			continue
		}
		if last := &out[len(out)-1]; r > last.PerClock {
			last.PerClock = r
			last.Note = fmt.Sprintf("%s, %s", strings.Split(last.Note, ",")[0], widthWord(rk.width))
		}
	}
	return out, grid, nil
}

// rate is one kernel's operations per clock over a grid (in work-groups
// of local, or smaller ones where the kernel's registers allow fewer).
func (p *prober) rate(rk rateKernel, global, local int) (float64, error) {
	local, err := p.t.fit(rk.name, local)
	if err != nil {
		return 0, err
	}
	with := func(n int) []Arg {
		b, c := F32(1.0001), F32(0.5)
		if rk.half {
			b, c = F16(1), F16(0.5)
		}
		if strings.HasPrefix(rk.name, "int") {
			b, c = U32(1), U32(3)
		}
		return []Arg{{Buf: p.scratch}, U32(uint32(n)), b, c}
	}
	cyc, err := p.t.diffCycles(rk.name, with, p.o.RateIters, global, local)
	if err != nil {
		return 0, fmt.Errorf("%s over %d work-items: %w", rk.what, global, err)
	}
	p.tick()
	ops := float64(global) * float64(p.o.RateIters) * opsPerIteration * float64(rk.width)
	return ops / cyc, nil
}

// warpWidth runs diverge over one work-group with the work-items split
// into runs of g = 1, 2, 4, ... that take different loops: where a run is
// narrower than a warp, the warp executes both loops. The warp width is the
// smallest run that costs no more than the widest one (plus 20%).
func (p *prober) warpWidth() (int, []Point, error) {
	wg, err := p.t.fit("diverge", min(p.t.info.MaxWorkGroup, 512))
	if err != nil {
		return 0, nil, err
	}
	var pts []Point
	for g := 1; g <= wg/2; g *= 2 {
		gg := g
		with := func(n int) []Arg {
			return []Arg{{Buf: p.scratch}, U32(uint32(n)), U32(uint32(gg)), F32(1.0001), F32(0.5)}
		}
		cyc, err := p.t.diffCycles("diverge", with, p.o.WarpIters, wg, wg)
		if err != nil {
			return 0, nil, fmt.Errorf("divergence test with runs of %d: %w", g, err)
		}
		p.tick()
		pts = append(pts, Point{float64(g), cyc})
	}
	uniform := pts[len(pts)-1].Y
	for _, pt := range pts {
		if pt.Y <= uniform*1.2 {
			return int(pt.X), pts, nil
		}
	}
	return wg / 2, pts, nil
}

func widthWord(w int) string {
	if w == 1 {
		return "scalar"
	}
	return fmt.Sprintf("%d-wide vectors", w)
}
