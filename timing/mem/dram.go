package mem

import "github.com/pocketgpu/pocketgpu/counters"

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

// The copy model's counters (docs/counters.md, "Copies").
var copyCounters = counters.Register(&counters.Part{
	Key: "copies", Title: "Copies", Rank: 40, Scope: counters.Copy,
	Defs: []counters.Def{
		counters.New("copy_bytes", "B", "bytes the copy moved between host memory and a device buffer (a copy within device memory reads and writes each byte: twice its size)"),
		counters.New("copy_to_gpu", "", "1 for a copy into a device buffer, 0 for one out of it"),
		counters.New("copy_cycles", "cycles", "the copy's time at the GPU clock: bytes over half the achieved DRAM bandwidth times host_copy.to_gpu_factor or from_gpu_factor"),
		counters.New("copy_time_ns", "ns", "`copy_cycles` at `clock_mhz`"),
		counters.New("copy_bandwidth_gbs", "GB/s", "`copy_bytes / copy_time_ns`"),
	},
})

// CopyCounters are the counters of a host<->GPU copy of bytes (CopyTime).
func (h *Hierarchy) CopyCounters(bytes int64, toGPU bool) counters.Set {
	p := copyCounters
	cyc := h.CopyTime(bytes, toGPU)
	ns := cyc / h.g.ClockMHz * 1000
	dir := 0.0
	if toGPU {
		dir = 1
	}
	s := counters.Set{p.Of("copy_bytes", float64(bytes)), p.Of("copy_to_gpu", dir), p.Of("copy_cycles", cyc), p.Of("copy_time_ns", ns)}
	if ns > 0 {
		s = append(s, p.Of("copy_bandwidth_gbs", float64(bytes)/ns))
	}
	return s
}
