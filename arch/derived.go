package arch

import "math"

// IssueCycles is the cost of one warp instruction of an op class: the pipes
// that can take it (the instruction occupies one of them) and the cycles it
// keeps that pipe busy. warpWidth is the warp's width in threads (0 means the
// widest the GPU schedules); components is how many values per thread the
// instruction computes (a float4 add has 4; 0 means 1).
//
//	cycles = ceil(components / pack) × max(1, ceil(warpWidth / (lanes_per_engine × rate)))
//
// or ceil(components / pack) × cycles_per_warp when the op has a fixed
// slow-path cost. An unknown or unsupported class returns (nil, 0).
func (g *GPU) IssueCycles(class string, warpWidth, components int) (pipes []string, cycles float64) {
	op, ok := g.Op(class)
	if !ok || op.Unsupported || len(op.Pipes) == 0 {
		return nil, 0
	}
	if warpWidth <= 0 {
		warpWidth = g.WidestWarp()
	}
	if components <= 0 {
		components = 1
	}
	pack := op.Pack
	if pack <= 0 {
		pack = 1
	}
	groups := float64((components + pack - 1) / pack)
	if op.CyclesPerWarp > 0 {
		return op.Pipes, groups * op.CyclesPerWarp
	}
	if op.Rate <= 0 || g.LanesPerEngine <= 0 {
		return nil, 0
	}
	perCycle := float64(g.LanesPerEngine) * op.Rate
	return op.Pipes, groups * math.Max(1, ceilTol(float64(warpWidth)/perCycle))
}

// PassLanes is the width of the passes a warp of warpWidth lanes runs its
// ALU instructions in, where the GPU skips a pass whose lanes are all
// inactive (execution.skips_idle_passes); 0 where none can be skipped
// (no such GPU, or a warp no wider than an engine).
func (g *GPU) PassLanes(warpWidth int) int {
	if l := g.LanesPerEngine; g.Execution.SkipsIdlePasses && l > 0 && warpWidth > l {
		return l
	}
	return 0
}

// ceilTol rounds up, ignoring floating-point noise just above an integer.
func ceilTol(x float64) float64 {
	r := math.Round(x)
	if math.Abs(x-r) < 1e-9 {
		return r
	}
	return math.Ceil(x)
}

// OpsPerClock is the best-case GPU-wide throughput of an op class in
// thread-operations per clock: every engine of every core issuing full-width
// warps (the widest warp size) with as many components per instruction as one
// instruction covers, on all the listed pipes at once.
func (g *GPU) OpsPerClock(class string) float64 {
	op, ok := g.Op(class)
	if !ok || op.Unsupported {
		return 0
	}
	w := g.WidestWarp()
	pack := max(op.Pack, 1)
	pipes, cycles := g.IssueCycles(class, w, pack)
	if cycles == 0 {
		return 0
	}
	perEngine := float64(len(pipes)) * float64(w*pack) / cycles
	return perEngine * float64(g.EnginesPerCore*g.Cores)
}

// fastOpsPerClock is OpsPerClock for classes executed natively; emulated
// classes count 0.
func (g *GPU) fastOpsPerClock(class string) float64 {
	if op, ok := g.Op(class); !ok || op.Emulated {
		return 0
	}
	return g.OpsPerClock(class)
}

// Derived holds the figures computed from a GPU's parameters. Per-clock
// figures are GPU-wide at the shader clock.
type Derived struct {
	Cores                     int     `json:"cores"`
	Clusters                  int     `json:"clusters"`
	Engines                   int     `json:"engines"`
	FP32Lanes                 int     `json:"fp32_lanes"`
	MaxResidentThreadsPerCore int     `json:"max_resident_threads_per_core"`
	MaxResidentThreads        int     `json:"max_resident_threads"`
	MaxResidentWarps          int     `json:"max_resident_warps"`
	FullOccupancyMaxRegs      int     `json:"full_occupancy_max_regs"`
	RegisterFileKiBPerCore    float64 `json:"register_file_kib_per_core"`
	RegisterFileKiBTotal      float64 `json:"register_file_kib_total"`
	FP32FMAPerClock           float64 `json:"fp32_fma_per_clock"`
	FP32TrueFMAPerClock       float64 `json:"fp32_true_fma_per_clock"`
	FP32OpsPerClock           float64 `json:"fp32_ops_per_clock"`
	FP32SFUPerClock           float64 `json:"fp32_sfu_per_clock"`
	FP16OpsPerClock           float64 `json:"fp16_ops_per_clock"`
	FP16FMAPerClock           float64 `json:"fp16_fma_per_clock"`
	INT32OpsPerClock          float64 `json:"int32_ops_per_clock"`
	INT8OpsPerClock           float64 `json:"int8_ops_per_clock"`
	PeakFP32GFLOPS            float64 `json:"peak_fp32_gflops"`
	PeakFP16GFLOPS            float64 `json:"peak_fp16_gflops"`
	FP32GOPS                  float64 `json:"fp32_gops"`
	FP16GOPS                  float64 `json:"fp16_gops"`
	INT32GOPS                 float64 `json:"int32_gops"`
	DRAMBandwidthGBs          float64 `json:"dram_bandwidth_gbs"`
	DRAMAchievedGBs           float64 `json:"dram_achieved_gbs"`
	DRAMBytesPerClock         float64 `json:"dram_bytes_per_clock"`
	CopyToGPUGBs              float64 `json:"copy_to_gpu_gbs"`
	CopyFromGPUGBs            float64 `json:"copy_from_gpu_gbs"`
	TLBReachKiB               int     `json:"tlb_reach_kib"`
	L1BytesPerClock           float64 `json:"l1_bytes_per_clock"`
	L1LookupsPerClock         float64 `json:"l1_lookups_per_clock"`
	L2PathBytesPerClock       float64 `json:"l2_path_bytes_per_clock"`
	L2BytesPerClock           float64 `json:"l2_bytes_per_clock"`
	SLCBytesPerClock          float64 `json:"slc_bytes_per_clock"`
	L2BandwidthGBs            float64 `json:"l2_bandwidth_gbs"`
	TextureUnits              int     `json:"texture_units"`
	TextureBytesPerClock      float64 `json:"texture_bytes_per_clock"`
	LocalMemoryInstances      int     `json:"local_memory_instances"`
	LocalMemoryTotalKiB       int     `json:"local_memory_total_kib"`
	LocalBytesPerClock        float64 `json:"local_bytes_per_clock"`
	TileBufferBytesPerTile    int     `json:"tile_buffer_bytes_per_tile"`

	// Family names for the core and cluster counts, present only for the
	// family they belong to.
	ShaderCores *int `json:"shader_cores,omitempty"` // Mali
	USPTPs      *int `json:"usptps,omitempty"`       // Adreno
	SPs         *int `json:"sps,omitempty"`          // Adreno
	USCs        *int `json:"uscs,omitempty"`         // Rogue
	USCPairs    *int `json:"usc_pairs,omitempty"`    // Rogue
}

// DerivedItem is one derived figure with its unit and meaning.
type DerivedItem struct {
	Name  string
	Value float64
	Unit  string
	Doc   string
}

// Items lists the derived figures in a stable order (family-specific counts
// only when present).
func (d Derived) Items() []DerivedItem {
	items := []DerivedItem{
		{"cores", float64(d.Cores), "cores", "cores (Mali shader cores, Adreno uSPTPs, Rogue USCs)"},
		{"clusters", float64(d.Clusters), "clusters", "cores / cores_per_cluster"},
		{"engines", float64(d.Engines), "engines", "cores × engines_per_core"},
		{"fp32_lanes", float64(d.FP32Lanes), "lanes", "engines × lanes_per_engine"},
		{"max_resident_threads_per_core", float64(d.MaxResidentThreadsPerCore), "threads", "occupancy of one core with the fewest registers"},
		{"max_resident_threads", float64(d.MaxResidentThreads), "threads", "max_resident_threads_per_core × cores"},
		{"max_resident_warps", float64(d.MaxResidentWarps), "warps", "resident warps GPU-wide at full occupancy"},
		{"full_occupancy_max_regs", float64(d.FullOccupancyMaxRegs), "32-bit regs", "most registers per thread that keep full occupancy"},
		{"register_file_kib_per_core", d.RegisterFileKiBPerCore, "KiB", "register file of one core"},
		{"register_file_kib_total", d.RegisterFileKiBTotal, "KiB", "register file GPU-wide"},
		{"fp32_fma_per_clock", d.FP32FMAPerClock, "ops/clk", "FP32 multiply-adds (fused or not) per clock on lanes that do them natively"},
		{"fp32_true_fma_per_clock", d.FP32TrueFMAPerClock, "ops/clk", "FP32 fused multiply-adds (single rounding) per clock"},
		{"fp32_ops_per_clock", d.FP32OpsPerClock, "ops/clk", "best FP32 add/mul/mad instructions per clock, dual issue included"},
		{"fp32_sfu_per_clock", d.FP32SFUPerClock, "ops/clk", "FP32 special functions (rsqrt, exp ...) per clock"},
		{"fp16_ops_per_clock", d.FP16OpsPerClock, "ops/clk", "best FP16 add/mul/mad operations per clock"},
		{"fp16_fma_per_clock", d.FP16FMAPerClock, "ops/clk", "FP16 multiply-adds per clock"},
		{"int32_ops_per_clock", d.INT32OpsPerClock, "ops/clk", "INT32 adds per clock"},
		{"int8_ops_per_clock", d.INT8OpsPerClock, "ops/clk", "INT8 adds per clock (0 when emulated)"},
		{"peak_fp32_gflops", d.PeakFP32GFLOPS, "GFLOPS", "fp32_fma_per_clock × 2 FLOPs × clock"},
		{"peak_fp16_gflops", d.PeakFP16GFLOPS, "GFLOPS", "fp16_fma_per_clock × 2 FLOPs × clock"},
		{"fp32_gops", d.FP32GOPS, "Gops/s", "fp32_ops_per_clock × clock"},
		{"fp16_gops", d.FP16GOPS, "Gops/s", "fp16_ops_per_clock × clock"},
		{"int32_gops", d.INT32GOPS, "Gops/s", "int32_ops_per_clock × clock"},
		{"dram_bandwidth_gbs", d.DRAMBandwidthGBs, "GB/s", "dram.bus_bits / 8 × dram.transfer_mts (theoretical)"},
		{"dram_achieved_gbs", d.DRAMAchievedGBs, "GB/s", "dram_bandwidth_gbs × dram.efficiency (what the timing model uses)"},
		{"dram_bytes_per_clock", d.DRAMBytesPerClock, "B/clk", "dram_achieved_gbs at the shader clock"},
		{"copy_to_gpu_gbs", d.CopyToGPUGBs, "GB/s", "dram_achieved_gbs / 2 (a copy reads and writes DRAM) × host_copy.to_gpu_factor"},
		{"copy_from_gpu_gbs", d.CopyFromGPUGBs, "GB/s", "dram_achieved_gbs / 2 × host_copy.from_gpu_factor"},
		{"tlb_reach_kib", float64(d.TLBReachKiB), "KiB", "tlb.entries × tlb.page_kib: footprints beyond it miss the TLB"},
		{"l1_bytes_per_clock", d.L1BytesPerClock, "B/clk", "cores × l1.bytes_per_cycle (0 without an L1)"},
		{"l1_lookups_per_clock", d.L1LookupsPerClock, "lines/clk", "cores × l1.lookups_per_cycle: with Rogue's one transaction per lookup, L1 bandwidth is this times the bytes a lane moves"},
		{"l2_path_bytes_per_clock", d.L2PathBytesPerClock, "B/clk", "cores × l2.core_bytes_per_cycle: the cores' paths to L2 together"},
		{"l2_bytes_per_clock", d.L2BytesPerClock, "B/clk", "l2.slices × l2.bytes_per_cycle"},
		{"l2_bandwidth_gbs", d.L2BandwidthGBs, "GB/s", "l2_bytes_per_clock × clock"},
		{"slc_bytes_per_clock", d.SLCBytesPerClock, "B/clk", "slc.bandwidth_gbs at the shader clock (0 without a system-level cache)"},
		{"texture_units", float64(d.TextureUnits), "units", "cores / texture.cores_per_unit"},
		{"texture_bytes_per_clock", d.TextureBytesPerClock, "B/clk", "texture_units × samples_per_clock × bytes_per_sample"},
		{"local_memory_instances", float64(d.LocalMemoryInstances), "instances", "on-chip local memory instances (0: local memory is global)"},
		{"local_memory_total_kib", float64(d.LocalMemoryTotalKiB), "KiB", "local memory that can be active GPU-wide (on-chip)"},
		{"local_bytes_per_clock", d.LocalBytesPerClock, "B/clk", "local_memory_instances × local_memory.bytes_per_cycle (on-chip local memory)"},
		{"tile_buffer_bytes_per_tile", float64(d.TileBufferBytesPerTile), "B", "tile_width × tile_height × tile_buffer_bits_per_pixel / 8"},
	}
	opt := func(name string, p *int, doc string) {
		if p != nil {
			items = append(items, DerivedItem{name, float64(*p), "count", doc})
		}
	}
	opt("shader_cores", d.ShaderCores, "Mali shader cores (= cores)")
	opt("usptps", d.USPTPs, "Adreno uSPTPs (= cores)")
	opt("sps", d.SPs, "Adreno SPs (= clusters)")
	opt("uscs", d.USCs, "Rogue USCs (= cores)")
	opt("usc_pairs", d.USCPairs, "Rogue USC pairs (= clusters)")
	return items
}

// Derived computes the derived figures. The GPU must be valid.
func (g *GPU) Derived() Derived {
	d := Derived{
		Cores:    g.Cores,
		Clusters: g.Clusters(),
		Engines:  g.Cores * g.EnginesPerCore,
	}
	d.FP32Lanes = d.Engines * g.LanesPerEngine
	if occ, err := g.Occupancy(OccupancyQuery{Regs: 1}); err == nil {
		d.MaxResidentThreadsPerCore = occ.ResidentThreadsPerCore
		d.MaxResidentThreads = occ.ResidentThreads
		d.MaxResidentWarps = occ.ResidentWarps
		d.FullOccupancyMaxRegs = 1
		for r := 2; r <= g.MaxRegistersPerThread; r++ {
			o, err := g.Occupancy(OccupancyQuery{Regs: r})
			if err != nil || o.ResidentThreads < occ.ResidentThreads {
				break
			}
			d.FullOccupancyMaxRegs = r
		}
	}
	d.RegisterFileKiBPerCore = float64(g.RegisterFileBytesPerCore()) / 1024
	d.RegisterFileKiBTotal = d.RegisterFileKiBPerCore * float64(g.Cores)

	d.FP32FMAPerClock = max(g.fastOpsPerClock("fp32_mad"), g.fastOpsPerClock("fp32_fma"))
	d.FP32TrueFMAPerClock = g.OpsPerClock("fp32_fma")
	d.FP32OpsPerClock = max(g.fastOpsPerClock("fp32_add"), g.fastOpsPerClock("fp32_mul"), g.fastOpsPerClock("fp32_mad"))
	d.FP32SFUPerClock = g.OpsPerClock("fp32_sfu")
	d.FP16OpsPerClock = max(g.fastOpsPerClock("fp16_add"), g.fastOpsPerClock("fp16_mul"), g.fastOpsPerClock("fp16_mad"))
	d.FP16FMAPerClock = max(g.fastOpsPerClock("fp16_mad"), g.fastOpsPerClock("fp16_fma"))
	d.INT32OpsPerClock = g.fastOpsPerClock("int32_add")
	d.INT8OpsPerClock = g.fastOpsPerClock("int8_add")
	ghz := g.ClockMHz / 1000
	d.PeakFP32GFLOPS = round6(d.FP32FMAPerClock * 2 * ghz)
	d.PeakFP16GFLOPS = round6(d.FP16FMAPerClock * 2 * ghz)
	d.FP32GOPS = round6(d.FP32OpsPerClock * ghz)
	d.FP16GOPS = round6(d.FP16OpsPerClock * ghz)
	d.INT32GOPS = round6(d.INT32OpsPerClock * ghz)

	d.DRAMBandwidthGBs = round6(g.DRAMTheoreticalGBs())
	d.DRAMAchievedGBs = round6(g.DRAMAchievedGBs())
	d.DRAMBytesPerClock = round6(g.GBsToBytesPerCycle(g.DRAMAchievedGBs()))
	d.CopyToGPUGBs = round6(g.CopyGBs(true))
	d.CopyFromGPUGBs = round6(g.CopyGBs(false))
	d.TLBReachKiB = g.TLBReachKiB()
	if g.L1 != nil {
		d.L1BytesPerClock = float64(g.Cores) * g.L1.BytesPerCycle
		d.L1LookupsPerClock = float64(g.Cores) * g.L1.LookupsPerCycle
	}
	d.L2PathBytesPerClock = float64(g.Cores) * g.L2.CoreBytesPerCycle
	d.L2BytesPerClock = float64(g.L2.Slices) * g.L2.BytesPerCycle
	if g.SLC != nil {
		d.SLCBytesPerClock = round6(g.GBsToBytesPerCycle(g.SLC.BandwidthGBs))
	}
	d.L2BandwidthGBs = round6(d.L2BytesPerClock * ghz)
	if g.Texture.CoresPerUnit > 0 {
		d.TextureUnits = g.Cores / g.Texture.CoresPerUnit
	}
	d.TextureBytesPerClock = round6(float64(d.TextureUnits) * g.Texture.SamplesPerClock * float64(g.Texture.BytesPerSample))
	if g.LocalMemory.Kind == LocalOnChip && g.LocalMemory.CoresPerInstance > 0 {
		d.LocalMemoryInstances = g.Cores / g.LocalMemory.CoresPerInstance
		d.LocalMemoryTotalKiB = d.LocalMemoryInstances * g.LocalMemory.InstanceKiB
		d.LocalBytesPerClock = float64(d.LocalMemoryInstances) * g.LocalMemory.BytesPerCycle
	}
	d.TileBufferBytesPerTile = g.Tiling.TileWidth * g.Tiling.TileHeight * g.Tiling.TileBufferBitsPerPixel / 8

	cores, clusters := d.Cores, d.Clusters
	rules := g.Rules()
	if p := d.familyCount(rules.CoreCount); p != nil {
		*p = &cores
	}
	if p := d.familyCount(rules.ClusterCount); p != nil {
		*p = &clusters
	}
	return d
}

// familyCount is the field of a family's core or cluster count, by its
// JSON name (FamilyRules.CoreCount); nil for "" or an unknown name.
func (d *Derived) familyCount(name string) **int {
	switch name {
	case "shader_cores":
		return &d.ShaderCores
	case "usptps":
		return &d.USPTPs
	case "sps":
		return &d.SPs
	case "uscs":
		return &d.USCs
	case "usc_pairs":
		return &d.USCPairs
	}
	return nil
}

// round6 trims floating-point noise (0.1 × 3 = 0.30000000000000004).
func round6(x float64) float64 { return math.Round(x*1e6) / 1e6 }
