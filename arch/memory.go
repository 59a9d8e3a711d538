package arch

// Memory-hierarchy figures computed from the parameters, shared by the
// derived figures and the timing model (timing/mem).

// NSToCycles converts a latency in ns (SLC, DRAM: other clock domains) to
// shader-clock cycles, so that doubling the clock doubles the cycle count.
func (g *GPU) NSToCycles(ns float64) float64 { return ns * g.ClockMHz / 1000 }

// GBsToBytesPerCycle converts a bandwidth in GB/s (10^9 B/s) to bytes per
// shader-clock cycle.
func (g *GPU) GBsToBytesPerCycle(gbs float64) float64 { return gbs * 1000 / g.ClockMHz }

// DRAMTheoreticalGBs is the DRAM interface's peak: bus_bits / 8 ×
// transfer_mts (seed 000 §L2 Cache and System Level: 32-bit DDR4-2640 gives
// 10.56 GB/s).
func (g *GPU) DRAMTheoreticalGBs() float64 {
	return float64(g.DRAM.BusBits) / 8 * g.DRAM.TransferMTs / 1000
}

// DRAMAchievedGBs is the bandwidth the GPU's requests get from DRAM:
// theoretical × dram.efficiency.
func (g *GPU) DRAMAchievedGBs() float64 { return g.DRAMTheoreticalGBs() * g.DRAM.Efficiency }

// CopyGBs is the host<->GPU copy bandwidth in one direction: a copy reads
// and writes DRAM (seed 000 §L2 Cache and System Level), so it moves bytes at
// half the achieved DRAM bandwidth, scaled by the direction's factor.
func (g *GPU) CopyGBs(toGPU bool) float64 {
	f := g.HostCopy.FromGPUFactor
	if toGPU {
		f = g.HostCopy.ToGPUFactor
	}
	return g.DRAMAchievedGBs() / 2 * f
}

// TLBReachKiB is the memory the TLB maps without a miss: entries × page.
func (g *GPU) TLBReachKiB() int { return g.TLB.Entries * g.TLB.PageKiB }
