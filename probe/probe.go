// Package probe characterises an OpenCL device from timings alone, in the
// manner of ArchProbe: pointer chases for the cache levels (size, line,
// ways, latency), a divergence test for the warp width, and throughput
// kernels for the ALU rates per clock, a register-pressure sweep for the
// occupancy steps, and a chase through the texture path. It reads only the device queries
// ArchProbe reads (clock, compute units, work-group and local-memory
// limits); the rest is measured. The same code drives the simulated GPUs
// in process (Sim) and any device behind the ICD loader (ICD).
package probe

import (
	"fmt"
)

// Options bound the sweeps: the simulated GPUs are probed with short ones.
type Options struct {
	MinFootprint, MaxFootprint int     // bytes of the chase sweep
	ChaseSteps                 int     // measured steps per chase point (n; 2n also run)
	ChaseRepeats               int     // chases per footprint, the fastest kept
	PlateauTol, KneeTol        float64 // levels: a plateau's spread, a knee's rise
	KneeFrac                   float64 // a knee's refinement: the share of the rise that marks it
	MaxWays                    int
	MaxDetailBytes             int // line and ways are measured on levels up to this size
	RateIters                  int // throughput kernels' loop count
	MaxGridSteps               int // throughput kernels' grid search (gridSteps)
	WarpIters                  int
	LocalIters                 int // local-memory test's loop count
	MaxBandwidthFootprint      int // bytes: the memory point of the bandwidth test
	TextureMinFootprint        int // bytes of the texture-path chase sweep
	TextureMaxFootprint        int
	Repeats                    int  // runs per measurement, the fastest kept (real devices)
	Skip                       Skip // parts left out
	Tick                       func()
}

// Skip names parts of the probe to leave out.
type Skip struct{ Caches, Rates, Warp, Bandwidth, Local, Registers, Texture bool }

// SimOptions are the defaults for a simulated GPU: deterministic, so one
// run of each measurement.
func SimOptions() Options {
	return Options{MinFootprint: 1 << 10, MaxFootprint: 8 << 20, ChaseSteps: 2048, ChaseRepeats: 1, PlateauTol: 0.05, KneeTol: 0.2, KneeFrac: 0.1,
		MaxWays: 16, MaxDetailBytes: 3 << 19, RateIters: 1, MaxGridSteps: 14, WarpIters: 16, LocalIters: 4, MaxBandwidthFootprint: 4 << 20, Repeats: 1,
		TextureMinFootprint: 256, TextureMaxFootprint: 64 << 10}
}

// DeviceOptions are the defaults for a real device: longer chases, so that
// a step's latency stands above launch noise, and the fastest of five runs.
func DeviceOptions() Options {
	return Options{MinFootprint: 4 << 10, MaxFootprint: 4 << 20, ChaseSteps: 1 << 18, ChaseRepeats: 3, PlateauTol: 0.15, KneeTol: 0.5, KneeFrac: 0.35,
		MaxWays: 24, MaxDetailBytes: 16 << 20, RateIters: 64, MaxGridSteps: 14, WarpIters: 4096, LocalIters: 4096, MaxBandwidthFootprint: 64 << 20, Repeats: 7,
		TextureMinFootprint: 1 << 10, TextureMaxFootprint: 1 << 20}
}

// Result is everything the probe measured.
type Result struct {
	Device    Info         `json:"device"`
	WarpWidth int          `json:"warp_width"`
	Warp      []Point      `json:"warp_sweep,omitempty"` // run width -> cycles
	Caches    *CacheSweep  `json:"caches,omitempty"`
	Rates     []Rate       `json:"rates,omitempty"`
	RateGrid  []Point      `json:"rate_grid,omitempty"` // work-items -> FP32 mad per clock
	Bandwidth []Bandwidth  `json:"bandwidth,omitempty"`
	Local     *LocalMemory `json:"local_memory,omitempty"`
	// Registers is the register-pressure sweep: resident work-items
	// against the registers a kernel keeps live.
	Registers *RegisterSweep `json:"registers,omitempty"`
	// Texture is the cache sweep through the texture path
	// (read_imageui on an image1d_buffer).
	Texture *CacheSweep `json:"texture,omitempty"`
}

type prober struct {
	t       *timer
	o       Options
	scratch Buffer
	// fillGrid is the grid the rate search found to fill the device.
	fillGrid int
}

func (p *prober) tick() {
	if p.o.Tick != nil {
		p.o.Tick()
	}
}

// Steps is how many ticks a Run makes, for a progress bar (an estimate:
// the refinements vary).
func Steps(o Options) int {
	n := 0
	if !o.Skip.Caches {
		// The sweep and the bisections' steps, each chased ChaseRepeats
		// times; the line and ways sweeps of three levels.
		n += (len(footprints(o.MinFootprint, o.MaxFootprint))+40)*max(o.ChaseRepeats, 1) + 3*(6+8)
	}
	if !o.Skip.Rates {
		n += len(rateKernels) + 4
	}
	if !o.Skip.Bandwidth {
		n += 3
	}
	if !o.Skip.Local {
		n += 6
	}
	if !o.Skip.Warp {
		n += 9
	}
	if !o.Skip.Registers {
		n += len(regSweep)
	}
	if !o.Skip.Texture {
		n += (len(footprints(max(o.TextureMinFootprint, chaseStride), max(o.TextureMaxFootprint, chaseStride)))+20)*max(o.ChaseRepeats, 1) + 6 + 8
	}
	return n
}

// Run probes the device behind b.
func Run(b Backend, o Options) (*Result, error) {
	p := &prober{t: newTimer(b, o.Repeats), o: o}
	if o.MinFootprint < chaseStride || o.MaxFootprint < 4*o.MinFootprint {
		return nil, fmt.Errorf("footprint sweep %d to %d bytes: it needs at least two octaves from %d bytes", o.MinFootprint, o.MaxFootprint, chaseStride)
	}
	if !o.Skip.Texture && (o.TextureMinFootprint < chaseStride || o.TextureMaxFootprint < 4*o.TextureMinFootprint) {
		return nil, fmt.Errorf("texture footprint sweep %d to %d bytes: it needs at least two octaves from %d bytes", o.TextureMinFootprint, o.TextureMaxFootprint, chaseStride)
	}
	info := b.Info()
	res := &Result{Device: info}
	var err error
	// The throughput kernels write one element (up to 16 bytes) per
	// work-item, over grids up to 128 work-groups of up to 128 per compute
	// unit.
	n := max(info.ComputeUnits, 1) * 128 * gridSteps[len(gridSteps)-1] * 16
	if p.scratch, err = b.Buffer(make([]byte, n)); err != nil {
		return nil, err
	}
	if !o.Skip.Warp {
		if res.WarpWidth, res.Warp, err = p.warpWidth(); err != nil {
			return nil, err
		}
	}
	if !o.Skip.Caches {
		if res.Caches, err = p.caches(); err != nil {
			return nil, err
		}
	}
	if !o.Skip.Rates {
		if res.Rates, res.RateGrid, err = p.rates(); err != nil {
			return nil, err
		}
	}
	if !o.Skip.Bandwidth && res.Caches != nil {
		if res.Bandwidth, err = p.bandwidths(res.Caches.Levels); err != nil {
			return nil, err
		}
	}
	if !o.Skip.Local {
		if res.Local, err = p.localMemory(); err != nil {
			return nil, err
		}
	}
	if !o.Skip.Registers {
		if res.Registers, err = p.registers(res.WarpWidth); err != nil {
			return nil, fmt.Errorf("register sweep: %w", err)
		}
	}
	if !o.Skip.Texture {
		if res.Texture, err = p.texture(); err != nil {
			return nil, err
		}
	}
	return res, nil
}
