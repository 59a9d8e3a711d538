package probe

import "fmt"

// Bandwidth is the read bandwidth at one footprint.
type Bandwidth struct {
	Level         string  `json:"level"` // the level the footprint fits in
	Footprint     int     `json:"footprint_bytes"`
	BytesPerClock float64 `json:"bytes_per_clock"` // GPU-wide, at the reported clock
}

// LocalMemory is what the local-memory test measured.
type LocalMemory struct {
	BytesPerClock float64 `json:"bytes_per_clock"` // conflict-free (stride 1), GPU-wide
	// Strides: a warp's words this many apart -> cycles relative to
	// stride 1 (bank conflicts slow the larger strides).
	Strides []Point `json:"strides"`
}

// grid is the throughput kernels' grid: the one the rate search found to
// fill the device, or a default when rates were skipped.
func (p *prober) grid() (global, local int) {
	local = min(p.t.info.MaxWorkGroup, 128)
	if p.fillGrid > 0 {
		return p.fillGrid, local
	}
	return max(p.t.info.ComputeUnits, 1) * local * 8, local
}

func pow2Floor(n int) int {
	p := 1
	for p*2 <= n {
		p *= 2
	}
	return p
}

// bandwidths streams float4 reads over half of each cache level and over
// four times the last one, from a grid that fills the device.
func (p *prober) bandwidths(lv []Level) ([]Bandwidth, error) {
	global, local := p.grid()
	local, err := p.t.fit("stream", local)
	if err != nil {
		return nil, err
	}
	var out []Bandwidth
	for i, l := range lv {
		f, name := l.SizeBytes/2, fmt.Sprintf("level %d", i+1)
		if i == len(lv)-1 {
			// Beyond the last level the sweep found: memory, or a level
			// past the sweep's reach.
			f, name = min(4*lv[max(i-1, 0)].SizeBytes, p.o.MaxBandwidthFootprint), fmt.Sprintf("beyond level %d", i)
		}
		elems := pow2Floor(max(f/16, 256))
		buf, err := p.t.b.Buffer(make([]byte, elems*16))
		if err != nil {
			return nil, err
		}
		// Each measured run reads the footprint at least once.
		iters := max(p.o.RateIters, (elems+4*global-1)/(4*global))
		with := func(n int) []Arg {
			return []Arg{{Buf: buf}, {Buf: p.scratch}, U32(uint32(n)), U32(uint32(elems - 1))}
		}
		cyc, err := p.t.diffCycles("stream", with, iters, global, local)
		if err != nil {
			return nil, fmt.Errorf("read bandwidth over %d bytes: %w", elems*16, err)
		}
		p.tick()
		out = append(out, Bandwidth{Level: name, Footprint: elems * 16, BytesPerClock: float64(global) * float64(iters) * 4 * 16 / cyc})
	}
	return out, nil
}

// localMemory reads 4 KiB of local memory at strides 1 to 32 words.
func (p *prober) localMemory() (*LocalMemory, error) {
	global, local := p.grid()
	local, err := p.t.fit("local_read", local)
	if err != nil {
		return nil, err
	}
	lm := &LocalMemory{}
	base := 0.0
	for s := 1; s <= 32; s *= 2 {
		ss := s
		with := func(n int) []Arg {
			return []Arg{{Buf: p.scratch}, {Local: 4096}, U32(uint32(n)), U32(uint32(ss))}
		}
		cyc, err := p.t.diffCycles("local_read", with, p.o.LocalIters, global, local)
		if err != nil {
			return nil, fmt.Errorf("local memory at stride %d: %w", s, err)
		}
		p.tick()
		if s == 1 {
			base = cyc
			lm.BytesPerClock = float64(global) * float64(p.o.LocalIters) * 4 * 4 / cyc
		}
		lm.Strides = append(lm.Strides, Point{float64(s), cyc / base})
	}
	return lm, nil
}
