package gfx

import (
	"github.com/pocketgpu/pocketgpu/counters"
	"github.com/pocketgpu/pocketgpu/emu"
)

// StreamBytes splits DRAM bytes by what they were for.
type StreamBytes struct {
	Geometry    uint64 `json:"geometry"`
	Binning     uint64 `json:"binning"`
	Texture     uint64 `json:"texture"`
	Framebuffer uint64 `json:"framebuffer"`
}

func (s StreamBytes) Total() uint64 { return s.Geometry + s.Binning + s.Texture + s.Framebuffer }

// Culled counts primitives removed before rasterisation, by cause.
type Culled struct {
	Frustum  uint64 `json:"frustum"`   // wholly outside the view volume or the screen
	BackFace uint64 `json:"back_face"` // facing away, on a single-sided material
	ZeroArea uint64 `json:"zero_area"` // no area after snapping to the sub-pixel grid
	NoSample uint64 `json:"no_sample"` // covers no pixel centre (dropped by a tiler with tiling.drop_sampleless_primitives)
}

func (c Culled) Total() uint64 { return c.Frustum + c.BackFace + c.ZeroArea + c.NoSample }

// Pass is one pass over the command stream (or one job) with its cycles.
type Pass struct {
	Name   string  `json:"name"`
	Cycles float64 `json:"cycles"`
}

// FrameStats are one frame's counters (docs/counters.md, "Rendering").
type FrameStats struct {
	Frame  int     `json:"frame"`
	Mode   string  `json:"mode"`
	Cycles float64 `json:"cycles"`
	TimeMS float64 `json:"time_ms"`
	// IntervalCycles is from the previous frame's end to this one's
	// when frames stream back to back (the command processor may start a
	// frame's geometry before the previous frame's fragments are done);
	// FPS is its inverse.
	IntervalCycles float64 `json:"interval_cycles"`
	FPS            float64 `json:"fps"`

	DRAMReadBytes  uint64      `json:"dram_read_bytes"`
	DRAMWriteBytes uint64      `json:"dram_write_bytes"`
	DRAMRead       StreamBytes `json:"dram_read"`
	DRAMWrite      StreamBytes `json:"dram_write"`
	L2Hits         uint64      `json:"l2_hits"`
	L2Misses       uint64      `json:"l2_misses"`

	Draws              int    `json:"draws"`
	VerticesShaded     uint64 `json:"vertices_shaded"`
	VertexWarps        uint64 `json:"vertex_warps"`
	VertexWarpInsts    uint64 `json:"vertex_warp_instructions"`
	PrimitivesIn       uint64 `json:"primitives_in"`
	PrimitivesClipped  uint64 `json:"primitives_clipped"`
	PrimitivesCulled   Culled `json:"primitives_culled"`
	PrimitivesBinned   uint64 `json:"primitives_binned"`
	PrimitiveRefs      uint64 `json:"primitive_refs"`
	PrimitiveRefsMax   uint64 `json:"primitive_refs_max_per_tile"`
	PolygonListBytes   uint64 `json:"polygon_list_bytes"`
	PolygonListAlloc   uint64 `json:"polygon_list_allocated_bytes"`
	VisibilityStreams  uint64 `json:"visibility_stream_bytes"`
	HierarchyLevelUses []int  `json:"hierarchy_level_primitives,omitempty"`

	TileWidth       int  `json:"tile_width"`
	TileHeight      int  `json:"tile_height"`
	TilesTotal      int  `json:"tiles_total"`
	TilesWritten    int  `json:"tiles_written"`
	TilesEliminated int  `json:"tiles_eliminated"`
	Bins            int  `json:"bins"`
	Passes          int  `json:"passes"`
	DirectRendering bool `json:"direct_rendering"`

	FragmentsRasterized uint64  `json:"fragments_rasterized"`
	EarlyZKilled        uint64  `json:"fragments_early_z_killed"`
	FragmentsShaded     uint64  `json:"fragments_shaded"`
	HelperLanes         uint64  `json:"helper_lanes"`
	Discarded           uint64  `json:"fragments_discarded"`
	LateZKilled         uint64  `json:"fragments_late_z_killed"`
	HSRRemoved          uint64  `json:"fragments_hsr_removed"`
	FragmentsWritten    uint64  `json:"fragments_written"`
	Blended             uint64  `json:"fragments_blended"`
	Overdraw            float64 `json:"overdraw"`
	FragmentWarps       uint64  `json:"fragment_warps"`
	FragmentWarpInsts   uint64  `json:"fragment_warp_instructions"`
	FragmentThreadInsts uint64  `json:"fragment_thread_instructions"`
	FragmentWarpWidth   int     `json:"fragment_warp_width"`
	VertexWarpWidth     int     `json:"vertex_warp_width"`

	TextureSamples  uint64  `json:"texture_samples"`
	TexCacheHits    uint64  `json:"texture_cache_hits"`
	TexCacheMisses  uint64  `json:"texture_cache_misses"`
	TexCacheHitRate float64 `json:"texture_cache_hit_rate"`
	TileMemoryBytes uint64  `json:"tile_memory_bytes"`
	// Render passes and their attachments.
	RenderPasses         int    `json:"render_passes"`
	Samples              int    `json:"samples"`
	AttachmentLoadBytes  uint64 `json:"attachment_load_bytes"`
	AttachmentStoreBytes uint64 `json:"attachment_store_bytes"`
	PartialRenders       int    `json:"partial_renders"`
	CompressedBytes      uint64 `json:"framebuffer_compressed_bytes"`
	UncompressedBytes    uint64 `json:"framebuffer_uncompressed_bytes"`
	ParameterBufferPeak  uint64 `json:"parameter_buffer_peak_bytes"`
	CommandStreamOps     uint64 `json:"command_stream_draws_processed"`

	// Mip levels the fragment shaders' samples read (helper lanes
	// included): samples minified (LOD above 0), samples that blended two
	// levels, and the mean level read.
	TexSamplesMinified  uint64  `json:"texture_samples_minified"`
	TexSamplesTrilinear uint64  `json:"texture_samples_trilinear"`
	TexLodAvg           float64 `json:"texture_lod_avg"`

	PassCycles []Pass `json:"pass_cycles"`

	// The frame's run on the timing engine: the fixed-function units'
	// busy cycles, the warp-cycles finished fragment warps waited for a
	// blender, the command processor's counters, and the engine's own
	// counters over the frame (issue, stalls, occupancy, memory).
	VertexFetchBusyCycles float64      `json:"vertex_fetch_busy_cycles"`
	VertexFetchWaitCycles float64      `json:"vertex_fetch_wait_cycles"`
	AssemblyBusyCycles    float64      `json:"primitive_assembly_busy_cycles"`
	RasterBusyCycles      float64      `json:"raster_busy_cycles"`
	RasterStallCycles     float64      `json:"raster_stall_cycles"`
	ZSBusyCycles          float64      `json:"zs_busy_cycles"`
	BlendBusyCycles       float64      `json:"blend_busy_cycles"`
	BlendWaitCycles       float64      `json:"blend_wait_warp_cycles"`
	TilerBusyCycles       float64      `json:"tiler_busy_cycles"`
	GMEMBusyCycles        float64      `json:"gmem_busy_cycles"`
	CommandProcessor      counters.Set `json:"-"`
	Engine                counters.Set `json:"-"`

	texFiltered uint64  // samples through a sampler, TexLodAvg's denominator
	texLevelSum float64 // their levels' sum
}

// addTex adds a fragment warp's sampling counters.
func (st *FrameStats) addTex(t emu.TexStats) {
	st.TexSamplesMinified += t.Minified
	st.TexSamplesTrilinear += t.TwoLevels
	st.texFiltered += t.Samples
	st.texLevelSum += t.LevelSum
	if st.texFiltered > 0 {
		st.TexLodAvg = st.texLevelSum / float64(st.texFiltered)
	}
}
