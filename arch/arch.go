// Package arch describes the GPUs pocketgpu simulates: typed hardware
// parameters loaded from YAML (embedded presets and user files that inherit
// from them), each parameter with its source, plus the figures derived from
// them (peak rates, occupancy, issue costs).
//
// Hardware is data: code above this package branches on a GPU's Family and
// reads parameters; it never branches on a GPU's id. Every derived figure is
// computed from parameters, so changing one parameter changes every
// consequence.
//
// Vocabulary (see docs/config.md for the full schema):
//
//   - core: the unit with its own L1 that holds resident warps and runs
//     work-groups: a Mali shader core, an Adreno uSPTP, a Rogue USC.
//   - cluster: cores that share something above them: an Adreno SP (shared
//     render backend, and local memory on the 640), a Rogue USC pair
//     (shared TPU); 1 core per cluster on Mali.
//   - engine: Bifrost execution engine, Midgard arithmetic pipe, Adreno ALU
//     partition, Rogue USC (one engine of 16 pipes).
//   - warp: the SIMT group the family schedules: a Bifrost warp, an Adreno
//     wave, a Rogue task, and on Midgard a group of 4 independent threads
//     (the executor's grouping).
package arch

// Family is a GPU architecture family. Code branches on the family, never on a
// GPU's id.
type Family string

// The families pocketgpu models.
const (
	Midgard Family = "midgard"
	Bifrost Family = "bifrost"
	Adreno  Family = "adreno"
	Rogue   Family = "rogue"
)

// OpClasses lists the operation classes every GPU's ops table covers, in
// schema order. The timing model maps each machine operation to one class.
var OpClasses = []string{
	"fp32_add", "fp32_mul", "fp32_mad", "fp32_fma", "fp32_sfu", "fp32_div", "fp32_cvt",
	"fp16_add", "fp16_mul", "fp16_mad", "fp16_fma", "fp16_sfu",
	"fp64_add", "fp64_mul", "fp64_fma",
	"int32_add", "int32_mul", "int32_logic", "int32_shift", "int32_cmp",
	"int64_add", "int64_mul",
	"int16_add", "int16_mul",
	"int8_add", "int8_mul",
	"select", "move",
}

// GPU is one GPU's hardware description. Field tags give the YAML key, unit,
// documentation and the checks applied on load; fields without `opt` are
// required (a zero value means "missing").
type GPU struct {
	ID     string `yaml:"id" doc:"short name used on the command line"`
	Name   string `yaml:"name" doc:"marketing name and configuration"`
	Vendor string `yaml:"vendor" enum:"arm,qualcomm,imagination" doc:"designer of the GPU"`
	Family Family `yaml:"family" doc:"architecture family: midgard, bifrost, adreno, rogue, or one a package registers (docs/architecture.md); selects the occupancy and lowering rules"`
	SoC    string `yaml:"soc" opt:"" doc:"the system-on-chip (and device) these numbers describe"`
	GPUID  int    `yaml:"gpu_id" opt:"" hex:"" min:"1" max:"65535" doc:"Panfrost GPU ID (PAN_GPU_ID for drm-shim); Mali only"`

	Cores           int     `yaml:"cores" min:"1" max:"1024" unit:"cores" doc:"cores: Mali shader cores, Adreno uSPTPs, Rogue USCs"`
	CoresPerCluster int     `yaml:"cores_per_cluster" min:"1" max:"64" unit:"cores" doc:"cores per cluster: uSPTPs per Adreno SP, USCs per Rogue USC pair, 1 on Mali"`
	ClockMHz        float64 `yaml:"clock_mhz" min:"1" max:"10000" unit:"MHz" doc:"shader clock"`

	EnginesPerCore        int   `yaml:"engines_per_core" min:"1" max:"64" unit:"engines" doc:"Bifrost execution engines, Midgard arithmetic pipes, Adreno ALU partitions, Rogue 1"`
	LanesPerEngine        int   `yaml:"lanes_per_engine" min:"1" max:"1024" unit:"lanes" doc:"FP32 lanes of one engine"`
	WarpSizes             []int `yaml:"warp_sizes" min:"1" max:"1024" pow2:"" unit:"threads" doc:"SIMT widths the family schedules, ascending (warp, wave, task)"`
	MaxWarpsPerEngine     int   `yaml:"max_warps_per_engine" min:"1" max:"4096" unit:"warps" doc:"resident warp slots per engine, whatever the warp width"`
	RegisterFileKiB       int   `yaml:"register_file_kib" opt:"" min:"1" max:"65536" unit:"KiB" doc:"register file per core (with unified_store: derived from it, not set)"`
	MaxRegistersPerThread int   `yaml:"max_registers_per_thread" min:"1" max:"4096" unit:"32-bit regs" doc:"most 32-bit registers one thread can allocate before the compiler spills"`
	RegisterGranule       int   `yaml:"register_granule" min:"1" max:"1024" unit:"32-bit regs" doc:"allocation granule: a thread's registers round up to a multiple of this"`
	RegisterAllocPow2     bool  `yaml:"register_alloc_pow2" opt:"" doc:"allocations double (1, 2, 4 ... granules) instead of growing linearly"`
	// HalfRegisters: scalar 8- and 16-bit values live in half registers,
	// two to a 32-bit one (Adreno's half registers alias the full ones).
	HalfRegisters    bool `yaml:"half_registers" opt:"" doc:"a scalar 8- or 16-bit value takes half a 32-bit register (half registers alias the full ones two to one), not a whole one; vectors of them pack either way; absent: false"`
	MaxWorkgroupSize int  `yaml:"max_workgroup_size" min:"1" max:"65536" unit:"threads" doc:"largest work-group the driver accepts"`
	// WorkgroupSpansCluster: a work-group whose warps one core cannot hold
	// (its registers or warp slots) spreads over the cores of its cluster,
	// each taking an equal share of its warps (Adreno: the uSPTPs of an
	// SP, which share its local memory). Without it a work-group lives on
	// one core, and CL_KERNEL_WORK_GROUP_SIZE is what one core holds.
	WorkgroupSpansCluster bool `yaml:"workgroup_spans_cluster" opt:"" doc:"a work-group too large for one core's registers or warp slots deals its warps over all the cores of its cluster, so the largest work-group is what a cluster holds; absent: false, what one core holds"`

	Pipes []Pipe             `yaml:"pipes" doc:"execution pipes of one engine"`
	Ops   map[string]*OpCost `yaml:"ops" doc:"cost of each operation class"`

	L1           *L1           `yaml:"l1" opt:"" doc:"first-level data cache per core (absent: global loads go straight to L2)"`
	TextureCache TextureCache  `yaml:"texture_cache" doc:"texture cache, one per texture unit"`
	L2           L2            `yaml:"l2" doc:"GPU-wide last-level cache"`
	SLC          *SLC          `yaml:"slc" opt:"" doc:"system-level cache of the SoC, between L2 and DRAM"`
	DRAM         DRAM          `yaml:"dram" doc:"main memory"`
	TLB          TLB           `yaml:"tlb" doc:"GPU address translation"`
	LocalMemory  LocalMemory   `yaml:"local_memory" doc:"work-group local (shared) memory"`
	Atomics      Atomics       `yaml:"atomics" doc:"atomic operations"`
	UnifiedStore *UnifiedStore `yaml:"unified_store" opt:"" doc:"a register file of stores shared by groups of pipes (Rogue), instead of register_file_kib"`
	AsyncCopy    *AsyncCopy    `yaml:"async_copy" opt:"" doc:"a burst path for async_work_group_copy (absent: one bulk transfer)"`
	HostCopy     HostCopy      `yaml:"host_copy" doc:"copies between host and GPU buffers"`
	Texture      Texture       `yaml:"texture" doc:"texture units"`
	Geometry     Geometry      `yaml:"geometry" doc:"fixed-function geometry front end"`
	Tiling       Tiling        `yaml:"tiling" doc:"tile-based rendering"`
	Raster       Raster        `yaml:"raster" doc:"fixed-function pixel back end"`

	Execution        Execution        `yaml:"execution" doc:"ALU result and barrier latencies (the ops table gives throughput)"`
	InstructionCache InstructionCache `yaml:"instruction_cache" doc:"instruction cache per core"`

	CommandProcessor CommandProcessor `yaml:"command_processor" doc:"front end that reads command streams"`
	PowerDomains     []string         `yaml:"power_domains" opt:"" doc:"independently powered blocks"`

	Midgard *MidgardParams `yaml:"midgard" opt:"" doc:"Midgard-only parameters"`
	Bifrost *BifrostParams `yaml:"bifrost" opt:"" doc:"Bifrost-only parameters"`
	Adreno  *AdrenoParams  `yaml:"adreno" opt:"" doc:"Adreno-only parameters"`
	Rogue   *RogueParams   `yaml:"rogue" opt:"" doc:"Rogue-only parameters"`

	// Base is the preset a user file (or a derived preset) starts from; File
	// is where this description was read ("preset mali-g52" or a path).
	Base string `yaml:"-"`
	File string `yaml:"-"`

	sources map[string]string // parameter path -> source
	// fitted: parameter (or section) path -> the validate figures its
	// value was taken from or backed out of (fitted: [ID, ...]).
	fitted  map[string][]string
	origins map[string]origin // parameter path -> where it was set
}

type origin struct {
	file string
	line int
}

// Pipe is one execution pipe of an engine.
type Pipe struct {
	Name string `yaml:"name" doc:"pipe name, referenced by ops.*.pipes"`
}

// OpCost is the cost of one operation class. A warp instruction of the class
// with width W covering C components per thread costs
// ceil(C/pack) × max(1, ceil(W / (lanes_per_engine × rate))) cycles on one of
// the listed pipes, or ceil(C/pack) × cycles_per_warp when that is set.
type OpCost struct {
	Pipes         []string `yaml:"pipes" opt:"" doc:"pipes that can execute the class (any one per instruction)"`
	Rate          float64  `yaml:"rate" opt:"" min:"0.0001" max:"64" unit:"ops/lane/cycle" doc:"thread-operations per lane per cycle on one listed pipe"`
	Pack          int      `yaml:"pack" opt:"" min:"1" max:"64" unit:"components" doc:"components one instruction covers per thread (sub-word SIMD or co-issue); default 1"`
	CyclesPerWarp float64  `yaml:"cycles_per_warp" opt:"" min:"0.0001" max:"1e6" unit:"cycles" doc:"fixed cost per warp instruction for slow paths; overrides rate"`
	Emulated      bool     `yaml:"emulated" opt:"" doc:"carried out by a sequence of other instructions"`
	ExpandsTo     []string `yaml:"expands_to" opt:"" doc:"the op classes one operation becomes when emulated, each costed by its own entry (replaces pipes, rate, pack and cycles_per_warp)"`
	Unsupported   bool     `yaml:"unsupported" opt:"" doc:"the GPU cannot execute the class at all"`
	Note          string   `yaml:"note" opt:"" doc:"remark"`
}

// L1 is a per-core first-level data cache. The timing model treats it as
// write-back and write-allocate (a store fills no line from below; see
// docs/timing.md).
type L1 struct {
	Kind            string  `yaml:"kind" enum:"load_store,mixed" doc:"load_store (Mali: global and local data) or mixed (Rogue: all transfers)"`
	SizeKiB         int     `yaml:"size_kib" min:"1" max:"65536" unit:"KiB" doc:"capacity"`
	LineBytes       int     `yaml:"line_bytes" min:"4" max:"4096" pow2:"" unit:"B" doc:"line size"`
	Ways            int     `yaml:"ways" min:"1" max:"1024" unit:"ways" doc:"associativity"`
	LatencyCycles   int     `yaml:"latency_cycles" min:"1" max:"100000" unit:"cycles" doc:"load-to-use latency on a hit"`
	BytesPerCycle   float64 `yaml:"bytes_per_cycle" min:"0.001" max:"100000" unit:"B/cycle" doc:"bandwidth per core"`
	LookupsPerCycle float64 `yaml:"lookups_per_cycle" min:"0.001" max:"1024" unit:"lookups/cycle" doc:"tag lookups per cycle: a warp access touching N lines (Rogue: N transactions) holds the cache for at least N / lookups_per_cycle cycles"`
	// LanesPerCycle is 0 when the unit takes a whole warp's addresses at
	// once.
	LanesPerCycle float64 `yaml:"lanes_per_cycle" opt:"" min:"0.001" max:"1024" unit:"lanes/cycle" doc:"lane addresses the load/store unit takes per cycle: a warp access of N active lanes holds it for at least N / lanes_per_cycle cycles (unset: a warp's at once)"`
	// BurstBytes makes a warp's accesses go lane by lane, in transactions
	// of at most this many bytes within a line (Rogue, seed 003).
	BurstBytes int `yaml:"burst_bytes" opt:"" min:"1" max:"65536" unit:"B" doc:"a warp's transfers go lane by lane in bursts of at most this many bytes, none crossing a line (Rogue; unset: a warp access is resolved by the lines it touches)"`
}

// UnifiedStore is a register file made of stores, each shared by
// lanes_per_engine / stores pipes (Rogue's unified stores, seed 003): the
// core's file is stores × registers × register_bits.
type UnifiedStore struct {
	Stores       int `yaml:"stores" min:"1" max:"64" unit:"stores" doc:"stores per core, each shared by lanes_per_engine/stores pipes"`
	Registers    int `yaml:"registers" min:"1" max:"1048576" unit:"registers" doc:"registers per store"`
	RegisterBits int `yaml:"register_bits" min:"32" max:"1024" pow2:"" unit:"bits" doc:"width of one register"`
}

// AsyncCopy is a burst path for async_work_group_copy into local memory
// (Rogue's DMA into the common store). Without it the copy is one bulk
// transfer; with it, a work-group too small for the path, or whose size
// is not fixed at compile time, copies element by element through its
// work-items.
type AsyncCopy struct {
	Bytes        int `yaml:"bytes" min:"1" max:"1048576" unit:"B" doc:"largest async_work_group_copy burst into local memory"`
	MinWorkgroup int `yaml:"min_workgroup" min:"1" max:"65536" unit:"threads" doc:"smallest compile-time work-group size for the burst path"`
}

// TextureCache is the cache of one texture unit (per core, or per Rogue TPU).
type TextureCache struct {
	SizeKiB       int `yaml:"size_kib" min:"1" max:"65536" unit:"KiB" doc:"capacity used by the model"`
	SpecSizeKiB   int `yaml:"spec_size_kib" opt:"" min:"1" max:"65536" unit:"KiB" doc:"capacity on the vendor's spec sheet, where it differs from measurement"`
	LineBytes     int `yaml:"line_bytes" min:"4" max:"4096" pow2:"" unit:"B" doc:"line size"`
	Ways          int `yaml:"ways" min:"1" max:"1024" unit:"ways" doc:"associativity"`
	LatencyCycles int `yaml:"latency_cycles" min:"1" max:"100000" unit:"cycles" doc:"hit latency"`
}

// L2 is the GPU-wide cache.
type L2 struct {
	SizeKiB           int     `yaml:"size_kib" min:"1" max:"1048576" unit:"KiB" doc:"capacity"`
	LineBytes         int     `yaml:"line_bytes" min:"4" max:"4096" pow2:"" unit:"B" doc:"line size"`
	Ways              int     `yaml:"ways" min:"1" max:"1024" unit:"ways" doc:"associativity"`
	Slices            int     `yaml:"slices" min:"1" max:"256" unit:"slices" doc:"independent slices (address-interleaved)"`
	LatencyCycles     int     `yaml:"latency_cycles" min:"1" max:"100000" unit:"cycles" doc:"hit latency seen by a core"`
	BytesPerCycle     float64 `yaml:"bytes_per_cycle" min:"0.001" max:"100000" unit:"B/cycle" doc:"bandwidth of one slice"`
	CoreBytesPerCycle float64 `yaml:"core_bytes_per_cycle" min:"0.001" max:"100000" unit:"B/cycle" doc:"bandwidth of one core's path to L2"`
	// CorePathPerLane: the path returns load data lane by lane (no L1 to
	// broadcast from), so lanes sharing an address each cost its bytes.
	CorePathPerLane bool `yaml:"core_path_per_lane" opt:"" doc:"loads that reach L2 without an L1 bring each active lane its own copy over the core's path: lanes reading the same bytes (a broadcast) take core_bytes_per_cycle for every lane's bytes, not once for the distinct lines"`
}

// SLC is a system-level cache shared with the rest of the SoC.
type SLC struct {
	SizeKiB      int     `yaml:"size_kib" min:"1" max:"1048576" unit:"KiB" doc:"capacity"`
	LineBytes    int     `yaml:"line_bytes" min:"4" max:"4096" pow2:"" unit:"B" doc:"line size"`
	Ways         int     `yaml:"ways" min:"1" max:"1024" unit:"ways" doc:"associativity"`
	LatencyNS    float64 `yaml:"latency_ns" min:"0.001" max:"100000" unit:"ns" doc:"hit latency"`
	BandwidthGBs float64 `yaml:"bandwidth_gbs" min:"0.001" max:"100000" unit:"GB/s" doc:"bandwidth available to the GPU"`
}

// DRAM is main memory.
type DRAM struct {
	Type                 string  `yaml:"type" doc:"memory technology"`
	BusBits              int     `yaml:"bus_bits" min:"8" max:"4096" unit:"bits" doc:"total data bus width"`
	TransferMTs          float64 `yaml:"transfer_mts" min:"1" max:"100000" unit:"MT/s" doc:"transfers per second per pin"`
	LatencyNS            float64 `yaml:"latency_ns" min:"0.001" max:"100000" unit:"ns" doc:"load-to-use latency seen by a core for data from DRAM (L2 and SLC missed)"`
	Efficiency           float64 `yaml:"efficiency" min:"0.01" max:"1" unit:"fraction" doc:"share of the theoretical bandwidth (bus_bits / 8 × transfer_mts) the GPU's requests achieve; the timing model uses theoretical × efficiency"`
	MeasuredBandwidthGBs float64 `yaml:"measured_bandwidth_gbs" opt:"" min:"0.001" max:"100000" unit:"GB/s" doc:"bandwidth measured from the GPU on the real part, for reference (efficiency carries it into the model)"`
}

// TLB is the GPU's address translation (one GPU-wide TLB, consulted by
// requests that leave a core's first-level cache).
type TLB struct {
	Entries           int `yaml:"entries" min:"1" max:"1048576" unit:"entries" doc:"entries of the last-level GPU TLB"`
	Ways              int `yaml:"ways" min:"1" max:"1048576" unit:"ways" doc:"associativity (entries for fully associative)"`
	PageKiB           int `yaml:"page_kib" min:"1" max:"1048576" pow2:"" unit:"KiB" doc:"page size"`
	MissLatencyCycles int `yaml:"miss_latency_cycles" min:"1" max:"1000000" unit:"cycles" doc:"extra latency of a miss (page walk)"`
}

// Local-memory kinds.
const (
	LocalGlobal = "global"
	LocalOnChip = "on_chip"
)

// LocalMemory is work-group local memory (OpenCL local, Vulkan shared).
type LocalMemory struct {
	Kind                       string  `yaml:"kind" enum:"global,on_chip" doc:"global: system RAM through the load/store cache; on_chip: dedicated storage"`
	MaxPerWorkgroupKiB         int     `yaml:"max_per_workgroup_kib" min:"1" max:"65536" unit:"KiB" doc:"largest allocation of one work-group"`
	InstanceKiB                int     `yaml:"instance_kib" opt:"" min:"1" max:"65536" unit:"KiB" doc:"on_chip: capacity of one instance"`
	CoresPerInstance           int     `yaml:"cores_per_instance" opt:"" min:"1" max:"1024" unit:"cores" doc:"on_chip: cores sharing one instance"`
	AllocGranuleBytes          int     `yaml:"alloc_granule_bytes" opt:"" min:"1" max:"65536" unit:"B" doc:"allocations round up to a multiple of this"`
	Banks                      int     `yaml:"banks" opt:"" min:"1" max:"1024" unit:"banks" doc:"on_chip: banks; each serves one bank_bytes-wide word per cycle to any lanes that want it (absent: bandwidth only, no conflicts)"`
	BankBytes                  int     `yaml:"bank_bytes" opt:"" min:"1" max:"1024" pow2:"" unit:"B" doc:"on_chip: width of one bank"`
	RowWriteCycles             int     `yaml:"row_write_cycles" opt:"" min:"1" max:"1024" unit:"cycles" doc:"on_chip with banks: cycles to write one full row (one word in every bank); default 1, as a read"`
	BytesPerCycle              float64 `yaml:"bytes_per_cycle" opt:"" min:"0.001" max:"100000" unit:"B/cycle" doc:"on_chip: bandwidth of one instance (global: the l1 bandwidth applies)"`
	LatencyCycles              int     `yaml:"latency_cycles" opt:"" min:"1" max:"100000" unit:"cycles" doc:"on_chip: access latency (global: the l1 and l2 latencies apply)"`
	WorkgroupsWithLocalPerCore int     `yaml:"workgroups_with_local_per_core" opt:"" min:"1" max:"1024" unit:"work-groups" doc:"most work-groups with local memory resident on one core (absent: no such limit)"`
}

// Atomics describes atomic operations.
type Atomics struct {
	LatencyCycles      int     `yaml:"latency_cycles" min:"1" max:"100000" unit:"cycles" doc:"round trip of a global atomic"`
	LocalLatencyCycles int     `yaml:"local_latency_cycles" opt:"" min:"1" max:"100000" unit:"cycles" doc:"round trip of an atomic on local memory, where it differs"`
	OpsPerClock        float64 `yaml:"ops_per_clock" min:"0.001" max:"100000" unit:"ops/cycle" doc:"GPU-wide throughput of 32-bit atomic adds"`
}

// HostCopy describes copies between host memory and GPU buffers. A copy
// reads and writes DRAM, so it moves bytes at (achieved DRAM bandwidth / 2)
// × the direction's factor.
type HostCopy struct {
	ToGPUFactor   float64 `yaml:"to_gpu_factor" min:"0.0001" max:"1" unit:"fraction" doc:"host-to-GPU copy speed as a share of half the achieved DRAM bandwidth (1: the copy engine reads and writes DRAM as fast as the shader array)"`
	FromGPUFactor float64 `yaml:"from_gpu_factor" min:"0.0001" max:"1" unit:"fraction" doc:"GPU-to-host copy speed as a share of half the achieved DRAM bandwidth"`
	ZeroCopy      bool    `yaml:"zero_copy" opt:"" doc:"host and GPU share buffers without copies (map/unmap is free)"`
}

// Texture describes the texture units.
type Texture struct {
	SamplesPerClock float64 `yaml:"samples_per_clock" min:"0.001" max:"1024" unit:"samples/cycle" doc:"samples per clock of one texture unit"`
	BytesPerSample  int     `yaml:"bytes_per_sample" min:"1" max:"1024" unit:"B" doc:"bytes one sample returns"`
	CoresPerUnit    int     `yaml:"cores_per_unit" min:"1" max:"64" unit:"cores" doc:"cores sharing one texture unit (Rogue: a TPU per USC pair)"`
	// CyclesPerMessage is what the unit spends on each warp's texture
	// instruction besides its samples: taking the message (its header and
	// the warp's coordinates) off the core's messaging fabric.
	CyclesPerMessage float64 `yaml:"cycles_per_message" opt:"" min:"0.001" max:"1024" unit:"cycles" doc:"cycles the texture unit spends taking each warp's texture message (header and coordinates) before its samples, which the samples of that message cannot overlap; absent: none"`
	// BufferMaxTexels is the widest 1D image over a buffer the driver
	// accepts (OpenCL's CL_DEVICE_IMAGE_MAX_BUFFER_SIZE).
	BufferMaxTexels int `yaml:"buffer_max_texels" opt:"" min:"65536" max:"4294967295" unit:"texels" doc:"widest 1D image made over a buffer (CL_MEM_OBJECT_IMAGE1D_BUFFER) the driver accepts, its CL_DEVICE_IMAGE_MAX_BUFFER_SIZE; absent: 65536, OpenCL 1.2's minimum"`
}

// ImageMaxBufferTexels is texture.buffer_max_texels, or OpenCL 1.2's
// minimum of 65536 texels when the description does not give it.
func (g *GPU) ImageMaxBufferTexels() int {
	if g.Texture.BufferMaxTexels > 0 {
		return g.Texture.BufferMaxTexels
	}
	return 65536
}

// Tiling schemes (tiling.scheme).
const (
	TileLists = "tile_lists"
	GMEMBins  = "gmem_bins"
)

// Geometry is the fixed-function front end between the command processor
// and the tiler: the vertex fetch that feeds vertex warps their attributes
// and the primitive assembly that makes triangles of shaded vertices.
type Geometry struct {
	VertexFetchBytesPerCycle float64 `yaml:"vertex_fetch_bytes_per_cycle" min:"0.001" max:"4096" unit:"B/cycle" doc:"attribute bytes the GPU's vertex fetch hands to vertex warps per cycle (a warp waits for its attributes)"`
	PrimitivesPerCycle       float64 `yaml:"primitives_per_cycle" min:"0.001" max:"1024" unit:"prims/cycle" doc:"triangles primitive assembly (with clipping and culling) takes per cycle, before the tiler or, in immediate mode, the rasterisers"`
}

// Tiling describes tile-based rendering. The scheme decides which of the
// other parameters apply: the polygon-list ones for tile_lists, the GMEM
// and visibility-stream ones for gmem_bins (validation asks for those the
// scheme needs; the doc of each says which scheme it belongs to).
type Tiling struct {
	Scheme                     string  `yaml:"scheme" enum:"tile_lists,gmem_bins" doc:"how a tiled frame is rendered: tile_lists (the tiler writes per-tile primitive lists to memory, then each tile is shaded on one core in its tile buffer and written back: Mali, and Rogue as modelled) or gmem_bins (a binning pass writes visibility streams, then all cores render each bin in GMEM and resolve it to memory: Adreno)"`
	TileWidth                  int     `yaml:"tile_width" min:"1" max:"4096" unit:"px" doc:"nominal tile width"`
	TileHeight                 int     `yaml:"tile_height" min:"1" max:"4096" unit:"px" doc:"nominal tile height"`
	TileBufferBitsPerPixel     int     `yaml:"tile_buffer_bits_per_pixel" opt:"" min:"1" max:"4096" unit:"bits" doc:"on-chip tile storage per pixel (Mali)"`
	TileBufferKiB              int     `yaml:"tile_buffer_kib" opt:"" min:"1" max:"65536" unit:"KiB" doc:"tile buffer per core (Mali)"`
	FramebufferLayout          string  `yaml:"framebuffer_layout" enum:"u-interleaved,linear" doc:"layout of the colour buffer that tiles are written back and bins resolved to (render --layout overrides it)"`
	Hierarchical               bool    `yaml:"hierarchical" opt:"" doc:"the tiler bins into several tile sizes (Mali hierarchical tiling)"`
	HierarchyLevels            int     `yaml:"hierarchy_levels" opt:"" min:"2" max:"16" unit:"levels" doc:"hierarchical: bin sizes the tiler uses, from one tile and doubling per level (8 levels of 16x16 tiles: 16x16 to 2048x2048)"`
	HierarchyMaxBins           int     `yaml:"hierarchy_max_bins" opt:"" min:"1" max:"1024" unit:"bins" doc:"hierarchical: a primitive goes to the smallest level at which its bounding box touches at most this many bins"`
	PolygonListEntryBytes      int     `yaml:"polygon_list_entry_bytes" opt:"" min:"1" max:"1024" unit:"B" doc:"tile_lists: one primitive's entry in one bin's list"`
	PolygonListHeaderBytes     int     `yaml:"polygon_list_header_bytes" opt:"" min:"1" max:"1024" unit:"B" doc:"tile_lists: header of one bin's list at one level, written when the list is not empty"`
	PolygonListChunkBytes      int     `yaml:"polygon_list_chunk_bytes" opt:"" min:"2" max:"1048576" unit:"B" doc:"tile_lists: lists are allocated per bin in chunks of this size as they fill"`
	PolygonListLinkBytes       int     `yaml:"polygon_list_link_bytes" opt:"" min:"1" max:"64" unit:"B" doc:"tile_lists: the end of each chunk, which points to the bin's next chunk"`
	PolygonListReservedChunk   bool    `yaml:"polygon_list_reserved_chunk" opt:"" doc:"tile_lists: every bin of every level gets its first chunk when the frame starts (Midgard), instead of when its first primitive arrives"`
	DropSamplelessPrimitives   bool    `yaml:"drop_sampleless_primitives" opt:"" doc:"tile_lists: the tiler drops triangles that cover no sample before they reach a list"`
	TransactionElimination     bool    `yaml:"transaction_elimination" opt:"" doc:"tile_lists: a tile whose colour CRC equals the previous frame's is not written back"`
	CRCBytesPerTile            int     `yaml:"crc_bytes_per_tile" opt:"" min:"1" max:"1024" unit:"B" doc:"transaction_elimination: the CRC kept in memory per tile, read for every tile and written when it changed"`
	TilerPrimitivesPerCycle    float64 `yaml:"tiler_primitives_per_cycle" min:"0.001" max:"1024" unit:"prims/cycle" doc:"primitives the tiler (gmem_bins: the binning hardware) takes per cycle"`
	TilerEntriesPerCycle       float64 `yaml:"tiler_entries_per_cycle" min:"0.001" max:"1024" unit:"entries/cycle" doc:"bin entries the tiler writes per cycle (a primitive in a polygon list, or marked in a bin)"`
	GMEMKiB                    int     `yaml:"gmem_kib" opt:"" min:"1" max:"1048576" unit:"KiB" doc:"gmem_bins: tile memory GPU-wide (Adreno GMEM)"`
	GMEMAlignW                 int     `yaml:"gmem_align_w" opt:"" min:"1" max:"4096" unit:"px" doc:"gmem_bins: GMEM allocation alignment, width (default bin_align_w)"`
	GMEMAlignH                 int     `yaml:"gmem_align_h" opt:"" min:"1" max:"4096" unit:"px" doc:"gmem_bins: GMEM allocation alignment, height (default bin_align_h)"`
	GMEMPageBytes              int     `yaml:"gmem_page_bytes" opt:"" min:"1" max:"1048576" unit:"B" doc:"gmem_bins: each attachment starts at a multiple of this in GMEM"`
	GMEMBytesPerCycle          float64 `yaml:"gmem_bytes_per_cycle" opt:"" min:"0.001" max:"100000" unit:"B/cycle" doc:"gmem_bins: bandwidth between GMEM and system memory (resolves)"`
	BinAlignW                  int     `yaml:"bin_align_w" opt:"" min:"1" max:"4096" unit:"px" doc:"gmem_bins: bin width alignment"`
	BinAlignH                  int     `yaml:"bin_align_h" opt:"" min:"1" max:"4096" unit:"px" doc:"gmem_bins: bin height alignment"`
	BinMaxW                    int     `yaml:"bin_max_w" opt:"" min:"1" max:"65536" unit:"px" doc:"gmem_bins: largest bin width (default raster.max_framebuffer_width)"`
	BinMaxH                    int     `yaml:"bin_max_h" opt:"" min:"1" max:"65536" unit:"px" doc:"gmem_bins: largest bin height (default raster.max_framebuffer_height)"`
	VisibilityStreamPipes      int     `yaml:"visibility_stream_pipes" opt:"" min:"1" max:"1024" unit:"pipes" doc:"gmem_bins: visibility-stream (VSC) pipes"`
	PipeMaxBins                int     `yaml:"pipe_max_bins" opt:"" min:"1" max:"4096" unit:"bins" doc:"gmem_bins: most bins one visibility-stream pipe covers; a layout that needs more renders directly"`
	VisibilityStreamEntryBytes int     `yaml:"visibility_stream_entry_bytes" opt:"" min:"1" max:"1024" unit:"B" doc:"gmem_bins: a pipe's stream bytes per primitive visible in one of its bins"`
	HWBinningMinBins           int     `yaml:"hw_binning_min_bins" opt:"" min:"1" max:"65536" unit:"bins" doc:"gmem_bins: fewest bins for which a binning pass runs; with fewer, every bin walks every primitive"`
	MaxColorAttachments        int     `yaml:"max_color_attachments" opt:"" min:"1" max:"64" unit:"attachments" doc:"colour attachments (render targets) a render pass may bind"`
	FramebufferCompression     string  `yaml:"framebuffer_compression" opt:"" enum:"none,afbc,ubwc" doc:"lossless compression of the render targets tiles are written back and bins resolved to, and that a later pass's texturing reads: none (absent), afbc (Arm frame-buffer compression: blocks with a header each, payload of sub-blocks, a solid-colour block header only) or ubwc (Qualcomm universal bandwidth compression: blocks with metadata bytes, payload rounded to a granule); the compression_* parameters size it"`
	CompressionBlockWidth      int     `yaml:"compression_block_width" opt:"" min:"1" max:"256" unit:"px" doc:"framebuffer_compression: width of a block with its own header or metadata (AFBC superblock, UBWC block)"`
	CompressionBlockHeight     int     `yaml:"compression_block_height" opt:"" min:"1" max:"256" unit:"px" doc:"framebuffer_compression: height of that block"`
	CompressionSubblockWidth   int     `yaml:"compression_subblock_width" opt:"" min:"1" max:"256" unit:"px" doc:"framebuffer_compression: width of the unit the payload is estimated in (per channel a base and per-pixel deltas at the bit width the sub-block needs)"`
	CompressionSubblockHeight  int     `yaml:"compression_subblock_height" opt:"" min:"1" max:"256" unit:"px" doc:"framebuffer_compression: height of that unit"`
	CompressionHeaderBytes     int     `yaml:"compression_header_bytes" opt:"" min:"1" max:"4096" unit:"B" doc:"framebuffer_compression: header (AFBC) or metadata (UBWC) bytes per block, in a separate header buffer"`
	CompressionPayloadAlign    int     `yaml:"compression_payload_align_bytes" opt:"" min:"1" max:"4096" unit:"B" doc:"framebuffer_compression: a block's payload is rounded up to a multiple of this"`
	HiddenSurfaceRemoval       bool    `yaml:"hidden_surface_removal" opt:"" doc:"tile_lists: deferred rendering: per tile, visibility is resolved for opaque geometry before any of it is shaded, so each covered opaque pixel is shaded once (blended and discarding materials are shaded in order, after the opaque fragments pending under them)"`
	ParameterBufferKiB         int     `yaml:"parameter_buffer_kib" opt:"" min:"1" max:"16777216" unit:"KiB" doc:"tile_lists: memory for a frame's polygon lists and transformed vertices (the parameter buffer); when a render pass needs more, the tiles are rendered with what has been binned, their colour and depth stored, and loaded again when rendering resumes (a partial render); absent: unlimited"`
}

// Raster describes the fixed-function pixel back end the renderer prices.
type Raster struct {
	BlendPixelsPerCycle  float64 `yaml:"blend_pixels_per_cycle" min:"0.001" max:"1024" unit:"px/cycle" doc:"pixels one core's blender (ROP) writes per cycle"`
	MaxFramebufferWidth  int     `yaml:"max_framebuffer_width" min:"1" max:"65536" unit:"px" doc:"widest render target"`
	MaxFramebufferHeight int     `yaml:"max_framebuffer_height" min:"1" max:"65536" unit:"px" doc:"tallest render target"`
	QuadsPerCycle        float64 `yaml:"quads_per_cycle" min:"0.001" max:"1024" unit:"quads/cycle" doc:"2×2 quads one core's rasteriser produces per cycle, those the early depth test then kills included"`
	QueueWarps           int     `yaml:"queue_warps" min:"1" max:"1024" unit:"warps" doc:"fragment warps one core's rasteriser may have produced (or be producing) that wait for a warp slot; with that many waiting it stalls"`
	ZSSamplesPerCycle    float64 `yaml:"zs_samples_per_cycle" min:"0.001" max:"4096" unit:"samples/cycle" doc:"depth samples one core's ZS unit tests per cycle, early (before shading) and late (after)"`
}

// CommandProcessor describes the front end.
type CommandProcessor struct {
	Kind               string   `yaml:"kind" doc:"job_manager (Mali), pfp_me, sqe or bv_br (Adreno), cdm (Rogue compute data master)"`
	Microcontrollers   []string `yaml:"microcontrollers" opt:"" doc:"microcontrollers that read the command stream"`
	LowPriorityCompute bool     `yaml:"low_priority_compute" opt:"" doc:"a separate queue for low-priority compute (Adreno LPAC)"`
	ConcurrentBinning  bool     `yaml:"concurrent_binning" opt:"" doc:"binning of the next pass overlaps rendering of this one"`
	CyclesPerDraw      float64  `yaml:"cycles_per_draw" min:"0.001" max:"1000000" unit:"cycles" doc:"cycles to parse and set up one draw, paid once per pass over the command stream"`
	// Queues: the microcontroller or job slot that runs each kind of
	// work. Queues with different names run at the same time; one queue
	// runs its jobs one after another (timing/cp).
	GeometryQueue           string `yaml:"geometry_queue" doc:"the queue that runs vertex, tiler and binning work (Mali job slot js1, Adreno sqe or bv)"`
	FragmentQueue           string `yaml:"fragment_queue" doc:"the queue that renders tiles or bins (Mali js0, Adreno sqe or br)"`
	ComputeQueue            string `yaml:"compute_queue" doc:"the queue that runs compute dispatches"`
	LowPriorityComputeQueue string `yaml:"low_priority_compute_queue" opt:"" doc:"the queue of low-priority compute beside the others (Adreno LPAC); absent: such compute goes to compute_queue"`
	MaxPassesAhead          int    `yaml:"max_passes_ahead" opt:"" min:"1" max:"64" unit:"passes" doc:"how many passes the geometry queue may run ahead of a separate fragment queue (Adreno 7xx BV ahead of BR); absent: no limit"`
	CommandBytesPerDraw     int    `yaml:"command_bytes_per_draw" min:"1" max:"65536" unit:"B" doc:"command-stream bytes parsed per draw (packets, descriptors, indirect buffers), fetched through L2"`
	// KernelLaunchUS is the driver's and front end's time from a kernel
	// command reaching the device to its work starting: what an OpenCL
	// program sees between CL_PROFILING_COMMAND_SUBMIT and _START (clpeak's
	// "kernel launch latency" reads START - QUEUED of an idle queue). It
	// belongs to the command, not to the kernel's cycles.
	KernelLaunchUS float64 `yaml:"kernel_launch_us" opt:"" min:"0" max:"1000000" unit:"us" doc:"time from a kernel command reaching the device until its work starts (driver and front end), charged between the command's SUBMIT and START profiling times, not in the kernel's cycles; absent: 0"`
}

// Execution holds the latencies of the execution pipes and of the
// work-group barrier. The ops table says how long an instruction keeps a
// pipe busy; these say how long after issue its result can be read by a
// later instruction (on Bifrost, by a later clause: inside a clause results
// pass through temporaries), and how long a barrier takes to let its
// work-group go once every warp is there.
type Execution struct {
	ALULatencyCycles     int `yaml:"alu_latency_cycles" min:"1" max:"10000" unit:"cycles" doc:"from the issue of an ALU operation (Bifrost: of a clause's last tuple) until a dependent instruction can read its result"`
	SFULatencyCycles     int `yaml:"sfu_latency_cycles" min:"1" max:"10000" unit:"cycles" doc:"the same for special-function operations (*_sfu, fp32_div)"`
	BarrierLatencyCycles int `yaml:"barrier_latency_cycles" min:"1" max:"10000" unit:"cycles" doc:"from the last warp of a work-group reaching a barrier (its stores accepted) until the work-group's warps may issue again"`
	// SkipsIdlePasses: a warp wider than the engine's lanes runs an ALU
	// instruction in passes of lanes_per_engine lanes (a wave128 FP32
	// instruction on a 64-wide partition, seed 004); hardware that skips a
	// pass with no active lane makes a branch that splits the warp along
	// pass boundaries cost nothing extra.
	SkipsIdlePasses bool `yaml:"skips_idle_passes" opt:"" doc:"a warp wider than lanes_per_engine runs an ALU instruction in passes of lanes_per_engine lanes and skips a pass whose lanes are all inactive, so divergence costs only the passes with work"`
	// FetchesEarly: the vendor's compiler schedules a block's memory
	// fetches as early as their operands allow, so that a warp has its
	// independent fetches in flight together (isa.SerialBlock's families).
	FetchesEarly bool `yaml:"fetches_early" opt:"" doc:"the compiler moves each load, sample and atomic of a block up to just after the last instruction it depends on, so a warp has its independent fetches in flight together rather than waiting for each before the next (families scheduled one instruction at a time: Adreno, Rogue)"`
}

// InstructionCache is the per-core instruction cache the timing model fetches
// the lowered code through (isa gives each issue group its code offset and
// size).
type InstructionCache struct {
	SizeKiB            int `yaml:"size_kib" min:"1" max:"65536" unit:"KiB" doc:"capacity per core"`
	LineBytes          int `yaml:"line_bytes" min:"4" max:"4096" pow2:"" unit:"B" doc:"line size"`
	MissLatencyCycles  int `yaml:"miss_latency_cycles" min:"1" max:"100000" unit:"cycles" doc:"extra cycles to refill a line on a miss"`
	EngineBufferBytes  int `yaml:"engine_buffer_bytes" opt:"" min:"16" max:"1048576" unit:"B" doc:"a smaller instruction buffer per engine in front of the cache (Bifrost), absent where there is none"`
	BufferRefillCycles int `yaml:"buffer_refill_cycles" opt:"" min:"1" max:"100000" unit:"cycles" doc:"extra cycles to refill the engine buffer from the cache"`
	FetchBytesPerCycle int `yaml:"fetch_bytes_per_cycle" opt:"" min:"1" max:"65536" unit:"B/cycle" doc:"code the cache delivers to the core's engine buffers, shared by them (absent: unlimited); misses refill at l2.core_bytes_per_cycle"`
}

// MidgardParams are Midgard-only parameters.
type MidgardParams struct {
	WorkRegisterBits  int `yaml:"work_register_bits" min:"32" max:"1024" unit:"bits" doc:"width of a work register (a vec4)"`
	ScalarALUsPerPipe int `yaml:"scalar_alus_per_pipe" opt:"" min:"1" max:"16" unit:"ALUs" doc:"scalar ALUs beside the vector units (not in the ops table); a scalar operation may use one instead of a vector unit"`
	BundleHeaderBits  int `yaml:"bundle_header_bits" min:"1" max:"1024" unit:"bits" doc:"control word of an ALU bundle"`
	VectorOpBits      int `yaml:"vector_op_bits" min:"1" max:"1024" unit:"bits" doc:"one vector-unit operation in a bundle, its register word included"`
	ScalarOpBits      int `yaml:"scalar_op_bits" min:"1" max:"1024" unit:"bits" doc:"one scalar-unit operation (or branch) in a bundle, its register word included"`
	BundleAlignBits   int `yaml:"bundle_align_bits" min:"8" max:"4096" pow2:"" unit:"bits" doc:"bundles are a multiple of this size"`
	MessageBundleBits int `yaml:"message_bundle_bits" min:"8" max:"4096" unit:"bits" doc:"a load/store or texture bundle"`
	MessagesPerBundle int `yaml:"messages_per_bundle" min:"1" max:"16" unit:"instructions" doc:"load/store instructions one load/store bundle holds"`
}

// BifrostParams are Bifrost-only parameters.
type BifrostParams struct {
	ClauseMaxTuples              int `yaml:"clause_max_tuples" min:"1" max:"64" unit:"tuples" doc:"instruction tuples (FMA+ADD) per clause"`
	MessageInstructionsPerClause int `yaml:"message_instructions_per_clause" min:"1" max:"64" unit:"instructions" doc:"instructions per clause that may use units outside the EE (memory, varyings)"`
	ScoreboardSlots              int `yaml:"scoreboard_slots" min:"1" max:"64" unit:"slots" doc:"software-managed scoreboard entries for cross-clause dependencies"`
	RegisterReadPorts            int `yaml:"register_read_ports" min:"1" max:"16" unit:"ports" doc:"register file read ports"`
	RegisterWritePorts           int `yaml:"register_write_ports" min:"1" max:"16" unit:"ports" doc:"register file write ports"`
	RegisterReadWritePorts       int `yaml:"register_read_write_ports" opt:"" min:"1" max:"16" unit:"ports" doc:"register file ports that can read or write"`
	UniformPortBits              int `yaml:"uniform_port_bits" min:"32" max:"1024" unit:"bits" doc:"uniform/constant port width per instruction: one uniform or one embedded constant of this width a tuple"`
	InstructionBits              int `yaml:"instruction_bits" min:"1" max:"1024" unit:"bits" doc:"size of one FMA+ADD instruction (tuple)"`
	ClauseHeaderBits             int `yaml:"clause_header_bits" min:"1" max:"1024" unit:"bits" doc:"clause header"`
	ConstantBits                 int `yaml:"constant_bits" min:"1" max:"1024" unit:"bits" doc:"one constant embedded in a clause"`
	QuadwordBits                 int `yaml:"quadword_bits" min:"8" max:"4096" pow2:"" unit:"bits" doc:"clauses are fetched and stored in quadwords of this size"`
	QuadwordTagBits              int `yaml:"quadword_tag_bits" opt:"" min:"1" max:"64" unit:"bits" doc:"format tag in each quadword (not available to instructions)"`
}

// AdrenoParams are Adreno-only parameters.
type AdrenoParams struct {
	GPUID           int `yaml:"gpu_id" min:"100" max:"9999" doc:"freedreno GPU id (e.g. 640); accepted wherever a GPU is named"`
	InstructionBits int `yaml:"instruction_bits" min:"8" max:"1024" unit:"bits" doc:"size of one instruction"`
	RepeatMax       int `yaml:"repeat_max" min:"1" max:"64" unit:"components" doc:"components one instruction covers with its repeat field (a vec4 add is one instruction)"`
}

// RogueParams are Rogue-only parameters.
type RogueParams struct {
	CommonStoreBanks    int `yaml:"common_store_banks" min:"1" max:"64" unit:"banks" doc:"common store (local memory) banks"`
	CommonStoreBankBits int `yaml:"common_store_bank_bits" min:"8" max:"4096" unit:"bits" doc:"width of one common store bank"`
	InstructionBits     int `yaml:"instruction_bits" min:"8" max:"1024" unit:"bits" doc:"average size of one instruction"`
}

// Op returns the cost of an operation class and whether the table has it.
func (g *GPU) Op(class string) (OpCost, bool) {
	op, ok := g.Ops[class]
	if !ok || op == nil {
		return OpCost{}, false
	}
	return *op, true
}

// HasFP64 reports whether the GPU executes double precision (its ops table
// has fp64_add and does not mark it unsupported), as cl_khr_fp64 on its
// driver would say.
func (g *GPU) HasFP64() bool {
	op, ok := g.Op("fp64_add")
	return ok && !op.Unsupported
}

// OpSequence is the classes one operation of class becomes: the class itself,
// or for an emulated class given with expands_to, that sequence. Each is
// costed by IssueCycles.
func (g *GPU) OpSequence(class string) []string {
	if op, ok := g.Op(class); ok && len(op.ExpandsTo) > 0 {
		return op.ExpandsTo
	}
	return []string{class}
}

// RegisterFileBytesPerCore is the register file of one core in bytes: the
// register_file_kib parameter, or with unified_store stores × registers ×
// register_bits.
func (g *GPU) RegisterFileBytesPerCore() int {
	if u := g.UnifiedStore; u != nil {
		return u.Stores * u.Registers * u.RegisterBits / 8
	}
	return g.RegisterFileKiB * 1024
}

// Clusters is the number of clusters (Adreno SPs, Rogue USC pairs).
func (g *GPU) Clusters() int {
	if g.CoresPerCluster <= 0 {
		return g.Cores
	}
	return g.Cores / g.CoresPerCluster
}

// WidestWarp is the largest warp width the GPU schedules.
func (g *GPU) WidestWarp() int {
	w := 0
	for _, s := range g.WarpSizes {
		if s > w {
			w = s
		}
	}
	return w
}

// Source returns the recorded source of a parameter path ("" if none).
func (g *GPU) Source(path string) string { return g.sources[path] }
