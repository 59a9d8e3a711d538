package mem

// This file models DRAM: one bandwidth server at the achieved bandwidth plus
// a fixed latency, and host<->GPU copies at the copy bandwidth.

func (h *Hierarchy) readDRAM(n int, t, upstream float64) float64 {
	p := &h.p
	occ := h.dramRate.cycles(n)
	s := h.dram.take(t, occ)
	h.c.DRAMReadBytes += int64(n)
	h.c.DRAMReadByStream[*h.stream] += int64(n)
	return fmax(upstream, tail(s, occ)) + p.dramLat
}

// CopyTime is how many GPU cycles a host<->GPU buffer copy of bytes takes:
// a DMA copy reads and writes DRAM (seed 000 §L2 Cache and System Level), so
// it runs at half the achieved DRAM bandwidth times the direction's factor
// (host_copy.to_gpu_factor, from_gpu_factor). It books no GPU resources:
// copies happen between kernels. With host_copy.zero_copy the caller may
// skip map/unmap copies altogether.
func (h *Hierarchy) CopyTime(bytes int64, toGPU bool) float64 {
	if bytes <= 0 {
		return 0
	}
	return float64(bytes) / h.g.GBsToBytesPerCycle(h.g.CopyGBs(toGPU))
}
