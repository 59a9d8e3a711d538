package timing

import "github.com/pocketgpu/pocketgpu/counters"

// The engine's counters (docs/counters.md, "Compute"). An engine is what
// issues warps (a Bifrost execution engine, an Adreno ALU partition, a
// Rogue USC, a Midgard arithmetic pipe); a group what one warp issues at
// once (a clause, a bundle, an instruction).
var engineCounters = counters.Register(&counters.Part{
	Key: "engine", Title: "Compute", Rank: 10, Scope: counters.Kernel,
	Defs: []counters.Def{
		counters.New("cycles", "cycles", "from the first work-group's launch to the last warp's end and the end-of-kernel write-back of dirty L2 lines, at the GPU clock"),
		counters.New("time_ns", "ns", "`cycles` at `clock_mhz`"),
		counters.New("occupancy_avg_pct", "%", "resident warps averaged over time and cores, as a share of the warps a core can hold for this kernel (`ResidentWarpsPerCore` of the occupancy rules)"),
		counters.New("occupancy_peak_pct", "%", "the most warps resident on one core at once, same scale"),
		counters.New("issue_utilization_pct", "%", "cycles the engines' issue ports were busy / (cycles × engines)"),
		counters.New("alu_capacity_used_pct", "%", "all pipes' busy cycles / (cycles × engines × pipes): like Snapdragon Profiler's \"% ALU capacity used\" (seed 001 §Rasterization: 3DMark)"),
		counters.New("pipe_<name>_busy_cycles", "cycles", "cycles pipe `<name>` (fma, fadd, alu, sfu ...) was busy, summed over engines"),
		counters.New("pipe_<name>_utilization_pct", "%", "`pipe_<name>_busy_cycles / (cycles × engines)`"),
		counters.New("stall_<cause>_cycles", "cycles", "engine cycles with nothing issued, by what the earliest-ready warp was waiting for: `memory` (a load's data), `texture` (a sample), `dependency` (an ALU or special-function result), `pipe` (its pipe was busy), `barrier` (the work-group barrier), `bank_conflict` (local memory serialised by bank conflicts), `instruction_fetch` (its code missed the instruction buffer or cache), `no_warp` (no warp resident: launch, tail, or a core without work)"),
		counters.New("stall_<cause>_pct", "%", "`stall_<cause>_cycles / (cycles × engines)`"),
		counters.New("active_lanes_avg", "lanes", "`thread_instructions / warp_instructions`: divergence lowers it"),
		counters.New("simd_efficiency_pct", "%", "`active_lanes_avg / warp_width`"),
		counters.New("warp_width", "lanes", "lanes per warp for this kernel (Adreno: the wave size the occupancy rules chose)"),
		counters.New("warp_instructions", "instructions", "executor instructions issued per warp, summed (one IR instruction or block terminator each)"),
		counters.New("warps_launched", "warps", "warps (waves, tasks) launched"),
		counters.New("thread_instructions", "instructions", "the same counted per active lane"),
		counters.New("groups_issued", "groups", "groups issued by all engines"),
		counters.New("machine_ops", "ops", "machine operations in the issued groups"),
		counters.New("spill_load_messages", "messages", "warp reloads of spilled registers from the thread's scratch memory: messages the lowering adds when a kernel's live values need more than `max_registers_per_thread` (timing.md, Registers); they go through the load/store path as private memory and are counted in `mem_loads` too"),
		counters.New("spill_store_messages", "messages", "warp stores of spilled registers to scratch memory (counted in `mem_stores` too)"),
		counters.New("spill_load_bytes", "bytes", "bytes the spill reloads moved, over their active lanes"),
		counters.New("spill_store_bytes", "bytes", "bytes the spill stores moved, over their active lanes"),
		counters.New("thread_ops_<class>", "ops", "operations of op class `<class>` (fp32_fma, fp16_add, int32_add ... as in the GPU's ops table) the issued groups held, counted per active lane and per component each covers (a packed FP16x2 operation 2): the work `run --roofline` places against the compute roofs"),
		counters.New("workgroups", "work-groups", "work-groups run"),
		counters.New("icache_hits", "lines", "code-line fetches that hit the engine's instruction buffer (or the core's cache where there is no buffer)"),
		counters.New("icache_buffer_misses", "lines", "fetches that missed the engine buffer and hit the core's instruction cache"),
		counters.New("icache_misses", "lines", "fetches that missed the core's instruction cache (refilled from L2)"),
	},
})

// The engine's counters per core.
var engineCoreCounters = counters.Register(&counters.Part{
	Key: "engine_core", Title: "Compute, per core", Rank: 11, Scope: counters.Core,
	Defs: []counters.Def{
		counters.New("active_cycles", "cycles", "first launch to last warp's end on this core"),
		counters.New("warps_launched", "warps", "warps launched on this core"),
		counters.New("occupancy_avg_pct", "%", "this core's resident warps averaged over the kernel, as a share of what it can hold"),
		counters.New("occupancy_peak_pct", "%", "the most warps resident on this core at once, same scale"),
		counters.New("issue_utilization_pct", "%", "cycles this core's issue ports were busy / (cycles × its engines)"),
		counters.New("stall_<cause>_pct", "%", "this core's engine cycles stalled on `<cause>` / (cycles × its engines)"),
	},
})
