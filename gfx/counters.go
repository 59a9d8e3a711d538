package gfx

import (
	"strconv"

	"github.com/pocketgpu/pocketgpu/counters"
)

// A frame's counters (docs/counters.md, "Rendering"): FrameStats as the
// counter model's items. "Tile" means a Mali 16×16 tile (or a flat-tiling
// tile), an Adreno bin, or a 16×16 heatmap cell in immediate mode.
var frameCounters = counters.Register(&counters.Part{
	Key: "rendering", Title: "Rendering", Rank: 30, Scope: counters.Frame,
	Defs: []counters.Def{
		counters.New("frame", "", "frame index (the camera has turned `frame × --camera-orbit` degrees)"),
		counters.New("cycles", "cycles", "the frame on the timing engine at the shader clock: from its first command-processor job's start to its last write-back (docs/rendering.md)"),
		counters.New("time_ms", "ms", "`cycles` at `clock_mhz`"),
		counters.New("interval_cycles", "cycles", "from the previous frame's end to this one's when frames are submitted back to back: where the command processor runs a frame's geometry beside the previous frame's fragment work (Mali's job slots, Adreno 7xx's BV and BR), less than `cycles`"),
		counters.New("fps", "1/s", "frames per second at `interval_cycles`"),
		counters.New("passes", "passes", "passes over the command stream (Adreno: 1 binning + 1 per bin, seed 004) or jobs (Mali: 2); each pass's cycles are in the report's `passes` list"),
		counters.New("dram_read_bytes", "B", "DRAM bytes read in the frame"),
		counters.New("dram_write_bytes", "B", "DRAM bytes written in the frame"),
		counters.New("dram_read_<stream>_bytes", "B", "DRAM bytes read by stream: `geometry` (attributes, indices, post-transform vertices), `binning` (polygon lists and headers, visibility streams), `texture`, `framebuffer` (tile write-back, resolves, CRCs, immediate-mode colour and depth)"),
		counters.New("dram_write_<stream>_bytes", "B", "DRAM bytes written, by the same streams"),
		counters.New("l2_hits", "lines", "L2 line lookups that hit"),
		counters.New("l2_misses", "lines", "L2 line lookups that missed"),
		counters.New("draws", "draws", "mesh instances drawn"),
		counters.New("vertices_shaded", "vertices", "vertex-shader invocations (Adreno: binning pass plus every bin's re-shading of the vertices its visible primitives use)"),
		counters.New("vertex_warps", "warps", "vertex-shader warps run on the executor"),
		counters.New("vertex_warp_instructions", "instructions", "their executed IR instructions"),
		counters.New("vertex_warp_width", "lanes", "their width"),
		counters.New("primitives_in", "triangles", "triangles the draws submitted"),
		counters.New("primitives_clipped", "triangles", "triangles cut by the near or far plane or the guard band"),
		counters.New("primitives_culled_<cause>", "triangles", "removed before rasterisation, by cause: `frustum` (outside the view volume or the screen), `back_face`, `zero_area` (after snapping), `no_sample` (covers no pixel centre; tilers with `tiling.drop_sampleless_primitives`, the Mali presets)"),
		counters.New("primitives_binned", "triangles", "triangles the tiler or binning pass placed in at least one bin"),
		counters.New("primitive_refs", "refs", "primitive references tiles read from their lists (Mali: all hierarchy levels; Adreno: visible primitives per bin)"),
		counters.New("primitive_refs_max_per_tile", "refs", "the same in the busiest tile"),
		counters.New("hierarchy_level_<n>_primitives", "triangles", "hierarchical tiling (Mali): triangles placed at level `<n>` of the `tiling.hierarchy_levels`, 0 the 16×16 tiles, each level doubling (2048×2048 at level 7 on the presets)"),
		counters.New("polygon_list_bytes", "B", "polygon-list entries and headers written (`tile_lists`: Mali, Rogue)"),
		counters.New("polygon_list_allocated_bytes", "B", "polygon-list memory allocated (headers plus chunks; with `tiling.polygon_list_reserved_chunk`, Midgard, a first chunk per bin up front)"),
		counters.New("visibility_stream_bytes", "B", "visibility-stream entries written (`gmem_bins`: Adreno)"),
		counters.New("tile_width", "px", "tile (bin) width"),
		counters.New("tile_height", "px", "tile (bin) height"),
		counters.New("tiles_total", "tiles", "tiles (bins) of the frame; 0 in immediate mode"),
		counters.New("tiles_written", "tiles", "tiles written back"),
		counters.New("tiles_eliminated", "tiles", "tiles whose CRC matched the previous frame's so the write was skipped (`tiling.transaction_elimination`: Mali)"),
		counters.New("bins", "bins", "Adreno bins in the frame"),
		counters.New("direct_rendering", "", "1 when the frame fell back to direct (system-memory) rendering"),
		counters.New("fragments_rasterized", "fragments", "pixels covered by triangles (inside the frame)"),
		counters.New("fragments_early_z_killed", "fragments", "rejected by the depth test before shading"),
		counters.New("fragments_shaded", "lanes", "fragment-shader lanes for covered pixels"),
		counters.New("helper_lanes", "lanes", "lanes run only to fill a 2×2 quad"),
		counters.New("fragments_discarded", "fragments", "killed by the shader"),
		counters.New("fragments_late_z_killed", "fragments", "killed by the depth test after shading"),
		counters.New("fragments_hsr_removed", "fragments", "passed the depth test but were hidden by a later opaque primitive before being shaded (`tiling.hidden_surface_removal`: Rogue's deferred rendering)"),
		counters.New("fragments_written", "fragments", "colour writes"),
		counters.New("fragments_blended", "fragments", "colour writes that blended with what was there"),
		counters.New("overdraw", "", "`fragments_shaded` / pixels of the frame"),
		counters.New("fragment_warps", "warps", "fragment warps run"),
		counters.New("fragment_warp_instructions", "instructions", "their IR instructions"),
		counters.New("fragment_thread_instructions", "instructions", "their lane-instructions"),
		counters.New("fragment_warp_width", "lanes", "their width"),
		counters.New("texture_samples", "samples", "lanes that executed a texture instruction"),
		counters.New("texture_cache_hits", "lines", "texture-cache line lookups that hit (each distinct line a lane's texels touch, once per instruction)"),
		counters.New("texture_cache_misses", "lines", "texture-cache line lookups that missed"),
		counters.New("texture_cache_hit_rate_pct", "%", "hits / lookups"),
		counters.New("texture_samples_minified", "samples", "samples whose level of detail was above 0 (the minification filter, on the mip level it selects)"),
		counters.New("texture_samples_trilinear", "samples", "samples that blended two mip levels (a linear mipmap between levels), reading texels of both"),
		counters.New("texture_lod_avg", "levels", "mean mip level the samples selected (0 is the full-size level; a blend counts its fractional level)"),
		counters.New("tile_memory_bytes", "B", "on-chip traffic of the tile buffer or GMEM: depth tests and writes, blend reads, colour writes, attachments loaded in and read out for write-back"),
		counters.New("render_passes", "passes", "render passes in the frame (the scene's; one for a single-pass scene)"),
		counters.New("samples", "samples", "samples per pixel of the main pass (`--msaa`)"),
		counters.New("attachment_load_bytes", "B", "attachment bytes read from memory into the tile buffer or GMEM by a load action `load` (GMEM: unresolves) or after a partial render, as sent to L2"),
		counters.New("attachment_store_bytes", "B", "attachment bytes written to memory by a store action `store`: tile write-backs, GMEM resolves, depth stores, partial renders' stores, immediate mode's MSAA resolve; as sent to L2, compressed where the GPU compresses"),
		counters.New("framebuffer_uncompressed_bytes", "B", "colour the GPU wrote back compressed (`tiling.framebuffer_compression`: AFBC on Mali Bifrost, UBWC on Adreno), at its uncompressed size"),
		counters.New("framebuffer_compressed_bytes", "B", "what it wrote instead: each block's header or metadata and its estimated payload (docs/rendering.md)"),
		counters.New("framebuffer_compression_saved_bytes", "B", "`framebuffer_uncompressed_bytes` − `framebuffer_compressed_bytes`: the write-back bytes compression saved before caching (DRAM moves whole lines: compare `dram_write_framebuffer_bytes` with compression off)"),
		counters.New("framebuffer_compression_ratio", "", "`framebuffer_uncompressed_bytes` / `framebuffer_compressed_bytes` (0 when nothing was compressed)"),
		counters.New("partial_renders", "renders", "renders of the tiles forced mid-pass by a full parameter buffer (`tiling.parameter_buffer_kib`), each storing colour and depth and loading them again"),
		counters.New("parameter_buffer_peak_bytes", "B", "the most parameter-buffer memory (polygon-list headers and chunks and the transformed vertices the listed primitives use) a pass held (`tile_lists`)"),
		counters.New("command_stream_draws_processed", "draws", "draws the command processor walked, summed over passes"),
		counters.New("vertex_fetch_busy_cycles", "cycles", "cycles the vertex fetch spent handing vertex warps their attributes (geometry.vertex_fetch_bytes_per_cycle)"),
		counters.New("vertex_fetch_wait_cycles", "cycles", "warp-cycles vertex warps waited for the vertex fetch to start on their attributes while it served others, summed over warps"),
		counters.New("primitive_assembly_busy_cycles", "cycles", "cycles primitive assembly spent on triangles, culled ones included (geometry.primitives_per_cycle)"),
		counters.New("raster_busy_cycles", "cycles", "cycles the cores' rasterisers spent producing quads (raster.quads_per_cycle; those early Z then killed included), summed over cores"),
		counters.New("raster_stall_cycles", "cycles", "cycles the cores' rasterisers had quads to produce but their output queue (raster.queue_warps) was full of warps waiting for a slot, summed over cores: back-pressure from cores full of running warps or of finished ones waiting for the blender"),
		counters.New("zs_busy_cycles", "cycles", "cycles the cores' ZS units spent on depth samples, early before shading and late after (raster.zs_samples_per_cycle), summed over cores"),
		counters.New("blend_busy_cycles", "cycles", "cycles the cores' blenders spent taking fragments (raster.blend_pixels_per_cycle), summed over cores"),
		counters.New("blend_wait_warp_cycles", "cycles", "warp-cycles finished fragment warps stayed resident waiting for their core's late depth test and blender: a slow blender holds warp slots"),
		counters.New("tiler_busy_cycles", "cycles", "cycles the tiler or binning hardware spent on primitives and bin entries (tiling.tiler_*_per_cycle)"),
		counters.New("gmem_busy_cycles", "cycles", "cycles the GMEM-to-memory path spent resolving bins (tiling.gmem_bytes_per_cycle)"),
	},
})

// CompressionRatio is the uncompressed size of what the frame wrote back
// compressed over its compressed size (0 when it compressed nothing).
func (st *FrameStats) CompressionRatio() float64 {
	if st.CompressedBytes == 0 {
		return 0
	}
	return float64(st.UncompressedBytes) / float64(st.CompressedBytes)
}

// Counters are the frame's counters in the model's order.
func (st *FrameStats) Counters() counters.Set {
	p := frameCounters
	n := func(name string, v uint64) counters.Item { return p.Of(name, float64(v)) }
	i := func(name string, v int) counters.Item { return p.Of(name, float64(v)) }
	s := counters.Set{
		i("frame", st.Frame), p.Of("cycles", st.Cycles), p.Of("time_ms", st.TimeMS), p.Of("interval_cycles", st.IntervalCycles), p.Of("fps", st.FPS), i("passes", st.Passes),
		n("dram_read_bytes", st.DRAMReadBytes), n("dram_write_bytes", st.DRAMWriteBytes),
	}
	for _, dir := range []struct {
		def string
		b   StreamBytes
	}{{"dram_read_<stream>_bytes", st.DRAMRead}, {"dram_write_<stream>_bytes", st.DRAMWrite}} {
		d := p.Def(dir.def)
		s = append(s, d.With("geometry", float64(dir.b.Geometry)), d.With("binning", float64(dir.b.Binning)),
			d.With("texture", float64(dir.b.Texture)), d.With("framebuffer", float64(dir.b.Framebuffer)))
	}
	s = append(s, n("l2_hits", st.L2Hits), n("l2_misses", st.L2Misses),
		i("draws", st.Draws), n("vertices_shaded", st.VerticesShaded), n("vertex_warps", st.VertexWarps),
		n("vertex_warp_instructions", st.VertexWarpInsts), i("vertex_warp_width", st.VertexWarpWidth),
		n("primitives_in", st.PrimitivesIn), n("primitives_clipped", st.PrimitivesClipped))
	culled := p.Def("primitives_culled_<cause>")
	c := st.PrimitivesCulled
	s = append(s, culled.With("frustum", float64(c.Frustum)), culled.With("back_face", float64(c.BackFace)),
		culled.With("zero_area", float64(c.ZeroArea)), culled.With("no_sample", float64(c.NoSample)))
	s = append(s, n("primitives_binned", st.PrimitivesBinned), n("primitive_refs", st.PrimitiveRefs),
		n("primitive_refs_max_per_tile", st.PrimitiveRefsMax))
	level := p.Def("hierarchy_level_<n>_primitives")
	for l, u := range st.HierarchyLevelUses {
		s = append(s, level.With(strconv.Itoa(l), float64(u)))
	}
	direct := 0
	if st.DirectRendering {
		direct = 1
	}
	s = append(s, n("polygon_list_bytes", st.PolygonListBytes), n("polygon_list_allocated_bytes", st.PolygonListAlloc),
		n("visibility_stream_bytes", st.VisibilityStreams),
		i("tile_width", st.TileWidth), i("tile_height", st.TileHeight), i("tiles_total", st.TilesTotal),
		i("tiles_written", st.TilesWritten), i("tiles_eliminated", st.TilesEliminated), i("bins", st.Bins),
		i("direct_rendering", direct),
		n("fragments_rasterized", st.FragmentsRasterized), n("fragments_early_z_killed", st.EarlyZKilled),
		n("fragments_shaded", st.FragmentsShaded), n("helper_lanes", st.HelperLanes),
		n("fragments_discarded", st.Discarded), n("fragments_late_z_killed", st.LateZKilled), n("fragments_hsr_removed", st.HSRRemoved),
		n("fragments_written", st.FragmentsWritten), n("fragments_blended", st.Blended),
		p.Of("overdraw", st.Overdraw),
		n("fragment_warps", st.FragmentWarps), n("fragment_warp_instructions", st.FragmentWarpInsts),
		n("fragment_thread_instructions", st.FragmentThreadInsts), i("fragment_warp_width", st.FragmentWarpWidth),
		n("texture_samples", st.TextureSamples), n("texture_cache_hits", st.TexCacheHits),
		n("texture_cache_misses", st.TexCacheMisses), p.Of("texture_cache_hit_rate_pct", 100*st.TexCacheHitRate),
		n("texture_samples_minified", st.TexSamplesMinified), n("texture_samples_trilinear", st.TexSamplesTrilinear),
		p.Of("texture_lod_avg", st.TexLodAvg),
		n("tile_memory_bytes", st.TileMemoryBytes),
		i("render_passes", st.RenderPasses), i("samples", st.Samples),
		n("attachment_load_bytes", st.AttachmentLoadBytes), n("attachment_store_bytes", st.AttachmentStoreBytes),
		n("framebuffer_uncompressed_bytes", st.UncompressedBytes), n("framebuffer_compressed_bytes", st.CompressedBytes),
		n("framebuffer_compression_saved_bytes", st.UncompressedBytes-st.CompressedBytes), p.Of("framebuffer_compression_ratio", st.CompressionRatio()),
		i("partial_renders", st.PartialRenders), n("parameter_buffer_peak_bytes", st.ParameterBufferPeak),
		n("command_stream_draws_processed", st.CommandStreamOps),
		p.Of("vertex_fetch_busy_cycles", st.VertexFetchBusyCycles), p.Of("vertex_fetch_wait_cycles", st.VertexFetchWaitCycles),
		p.Of("primitive_assembly_busy_cycles", st.AssemblyBusyCycles),
		p.Of("raster_busy_cycles", st.RasterBusyCycles), p.Of("raster_stall_cycles", st.RasterStallCycles),
		p.Of("zs_busy_cycles", st.ZSBusyCycles), p.Of("blend_busy_cycles", st.BlendBusyCycles),
		p.Of("blend_wait_warp_cycles", st.BlendWaitCycles), p.Of("tiler_busy_cycles", st.TilerBusyCycles),
		p.Of("gmem_busy_cycles", st.GMEMBusyCycles))
	s = append(s, st.CommandProcessor...)
	return s
}
