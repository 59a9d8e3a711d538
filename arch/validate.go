package arch

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/pocketgpu/pocketgpu/internal/suggest"
)

// Validate checks every parameter (presence, type range, allowed values) and
// the consistency between parameters. The first problem is returned as a
// *ConfigError naming the parameter path and, when the GPU was read from a
// file, the file and line that set it.
func (g *GPU) Validate() error {
	if g == nil {
		return &ConfigError{Msg: "no GPU"}
	}
	// The family decides which sections belong; check it first.
	var names []string
	for _, r := range FamilyList() {
		names = append(names, string(r.Name))
	}
	rules, known := RulesOf(g.Family)
	if !known {
		if g.Family == "" {
			return g.at("family", "missing; want one of %s", strings.Join(names, ", "))
		}
		return g.at("family", "%q is not allowed%s; allowed: %s", g.Family, suggest.DidYouMean(string(g.Family), names), strings.Join(names, ", "))
	}
	// Family sections: exactly the one for the family.
	sections := g.familySections()
	if rules.Section != "" && !sections[rules.Section] {
		return g.errAt([]string{"family", string(g.Family)}, "family %s needs its %s: section", g.Family, rules.Section)
	}
	for _, r := range FamilyList() {
		if r.Section != "" && r.Section != rules.Section && sections[r.Section] {
			return g.errAt([]string{r.Section, "family"}, "the %s: section is for family %s, but family is %s; remove it (set it to null in a user file)", r.Section, r.Name, g.Family)
		}
	}

	if err := g.validateFields(reflect.ValueOf(g).Elem(), ""); err != nil {
		return err
	}
	return g.validateConsistency()
}

// errAt builds a ConfigError for a problem involving the given parameter
// paths. It blames the first path set by the file being read (so a user's
// override is named rather than the preset value it clashes with), else the
// first path, and locates the file and line that set it.
func (g *GPU) errAt(paths []string, format string, args ...any) error {
	chosen := paths[0]
	for _, p := range paths {
		if o, ok := g.originOf(p); ok && o.file == g.File {
			chosen = p
			break
		}
	}
	e := &ConfigError{Path: chosen, Msg: fmt.Sprintf(format, args...), File: g.File}
	if o, ok := g.originOf(chosen); ok {
		e.File, e.Line = o.file, o.line
	}
	return e
}

// originOf finds where a path was set: the path itself, else the first line
// of the file being read that set something under it, else its nearest
// parent.
func (g *GPU) originOf(path string) (origin, bool) {
	if o, ok := g.origins[path]; ok {
		return o, true
	}
	var best origin
	found := false
	for p, o := range g.origins {
		if strings.HasPrefix(p, path+".") || strings.HasPrefix(p, path+"[") {
			if !found || (o.file == g.File && (best.file != g.File || o.line < best.line)) {
				best, found = o, true
			}
		}
	}
	if found {
		return best, true
	}
	for p := path; ; {
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			return origin{}, false
		}
		p = p[:i]
		if o, ok := g.origins[p]; ok {
			return o, true
		}
	}
}

// at is errAt for a single path.
func (g *GPU) at(path, format string, args ...any) error {
	return g.errAt([]string{path}, format, args...)
}

func (g *GPU) validateFields(v reflect.Value, prefix string) error {
	for _, m := range fieldsOf(v.Type()) {
		fv := v.Field(m.index)
		path := joinPath(prefix, m.key)
		switch {
		case isLeaf(m.typ):
			if fv.IsZero() || (fv.Kind() == reflect.Slice && fv.Len() == 0) {
				if _, given := g.origins[path]; given && m.rangeText() != "" {
					// Given but zero (or empty): say so rather than "missing".
					return g.at(path, "%s is out of range; want %s%s", zeroText(fv), typeName(m.typ), allowedSuffix(m))
				}
				if !m.opt {
					return g.at(path, "missing; want %s%s", typeName(m.typ), allowedSuffix(m))
				}
				continue
			}
			if err := g.checkLeaf(fv, path, m); err != nil {
				return err
			}
		case m.typ == opsMapType:
			// checked in validateOps
		case m.typ.Kind() == reflect.Ptr:
			if !fv.IsNil() {
				if err := g.validateFields(fv.Elem(), path); err != nil {
					return err
				}
			}
		case m.typ.Kind() == reflect.Struct:
			if err := g.validateFields(fv, path); err != nil {
				return err
			}
		}
	}
	return nil
}

func allowedSuffix(m fieldMeta) string {
	if r := m.rangeText(); r != "" {
		return " (" + r + ")"
	}
	return ""
}

func (g *GPU) checkLeaf(fv reflect.Value, path string, m fieldMeta) error {
	check := func(x float64, p string) error {
		if (m.hasLo && x < m.min) || (m.hasHi && x > m.max) {
			return g.at(p, "%s is out of range; allowed: %s", fmtNum(x), m.rangeText())
		}
		if m.pow2 && !isPow2(int64(x)) {
			return g.at(p, "%s is not a power of two; allowed: %s", fmtNum(x), m.rangeText())
		}
		return nil
	}
	switch fv.Kind() {
	case reflect.Int:
		return check(float64(fv.Int()), path)
	case reflect.Float64:
		if math.IsNaN(fv.Float()) || math.IsInf(fv.Float(), 0) {
			return g.at(path, "want a finite number")
		}
		return check(fv.Float(), path)
	case reflect.String:
		if len(m.enum) > 0 {
			for _, e := range m.enum {
				if fv.String() == e {
					return nil
				}
			}
			return g.at(path, "%q is not allowed%s; allowed: %s", fv.String(), suggest.DidYouMean(fv.String(), m.enum), strings.Join(m.enum, ", "))
		}
	case reflect.Slice:
		for i := 0; i < fv.Len(); i++ {
			e := fv.Index(i)
			p := fmt.Sprintf("%s[%d]", path, i)
			switch e.Kind() {
			case reflect.Int:
				if err := check(float64(e.Int()), p); err != nil {
					return err
				}
			case reflect.String:
				if strings.TrimSpace(e.String()) == "" {
					return g.at(p, "empty name")
				}
			case reflect.Struct:
				if strings.TrimSpace(e.Field(0).String()) == "" {
					return g.at(p+".name", "empty pipe name")
				}
			}
		}
	}
	return nil
}

func isPow2(x int64) bool { return x > 0 && x&(x-1) == 0 }

func (g *GPU) validateConsistency() error {
	if cp := &g.CommandProcessor; cp.LowPriorityCompute != (cp.LowPriorityComputeQueue != "") {
		return g.errAt([]string{"command_processor.low_priority_compute_queue", "command_processor.low_priority_compute"}, "low_priority_compute is %v but low_priority_compute_queue is %q; a low-priority compute queue needs both (or neither)", cp.LowPriorityCompute, cp.LowPriorityComputeQueue)
	}
	if g.Cores%g.CoresPerCluster != 0 {
		return g.errAt([]string{"cores", "cores_per_cluster"}, "%d cores cannot be split into clusters of %d (cores must be a multiple of cores_per_cluster)", g.Cores, g.CoresPerCluster)
	}
	for i := 1; i < len(g.WarpSizes); i++ {
		if g.WarpSizes[i] <= g.WarpSizes[i-1] {
			return g.at(fmt.Sprintf("warp_sizes[%d]", i), "warp sizes must be listed in ascending order without repeats, got %v", g.WarpSizes)
		}
	}

	// Registers.
	if u := g.UnifiedStore; u != nil {
		if g.RegisterFileKiB != 0 {
			return g.at("register_file_kib", "with unified_store the register file is derived from unified_store.stores × unified_store.registers × unified_store.register_bits; remove register_file_kib or unified_store")
		}
		if g.LanesPerEngine%u.Stores != 0 {
			return g.errAt([]string{"unified_store.stores", "lanes_per_engine"}, "%d unified stores cannot share %d pipes equally; lanes_per_engine must be a multiple of unified_store.stores", u.Stores, g.LanesPerEngine)
		}
	} else if g.RegisterFileKiB == 0 {
		return g.at("register_file_kib", "missing; want the register file of one core in KiB (or a unified_store section)")
	}
	if g.RegisterGranule > g.MaxRegistersPerThread {
		return g.errAt([]string{"register_granule", "max_registers_per_thread"}, "%d is larger than max_registers_per_thread (%d)", g.RegisterGranule, g.MaxRegistersPerThread)
	}
	perEngine := g.RegisterFileBytesPerCore() / g.EnginesPerCore
	narrow := g.WarpSizes[0]
	need := narrow * g.allocRegs(g.MaxRegistersPerThread) * 4
	if need > perEngine {
		return g.errAt([]string{"max_registers_per_thread", "register_file_kib", "warp_sizes", "engines_per_core", "register_granule", "unified_store.registers", "unified_store.stores", "unified_store.register_bits"}, "%d registers (allocated as %d) × %d threads × 4 B = %d B do not fit the register file of one engine (%d B); lower max_registers_per_thread or enlarge the register file",
			g.MaxRegistersPerThread, g.allocRegs(g.MaxRegistersPerThread), narrow, need, perEngine)
	}
	if maxT := g.MaxWarpsPerEngine * g.EnginesPerCore * g.WidestWarp(); g.MaxWorkgroupSize > maxT {
		return g.errAt([]string{"max_workgroup_size", "max_warps_per_engine", "engines_per_core", "warp_sizes"}, "%d threads cannot be resident on one core, which holds at most %d (max_warps_per_engine × engines_per_core × widest warp)", g.MaxWorkgroupSize, maxT)
	}

	if err := g.validatePipesAndOps(); err != nil {
		return err
	}
	if err := g.validateExecution(); err != nil {
		return err
	}

	// Caches.
	if g.L1 != nil {
		if err := g.checkCache("l1", g.L1.SizeKiB, g.L1.LineBytes, g.L1.Ways, 1); err != nil {
			return err
		}
	}
	if err := g.checkCache("texture_cache", g.TextureCache.SizeKiB, g.TextureCache.LineBytes, g.TextureCache.Ways, 1); err != nil {
		return err
	}
	if err := g.checkCache("l2", g.L2.SizeKiB, g.L2.LineBytes, g.L2.Ways, g.L2.Slices); err != nil {
		return err
	}
	if g.SLC != nil {
		if err := g.checkCache("slc", g.SLC.SizeKiB, g.SLC.LineBytes, g.SLC.Ways, 1); err != nil {
			return err
		}
	}
	if g.TLB.Entries%g.TLB.Ways != 0 {
		return g.errAt([]string{"tlb.ways", "tlb.entries"}, "%d entries cannot be split into sets of %d ways (entries must be a multiple of ways)", g.TLB.Entries, g.TLB.Ways)
	}
	if err := g.checkLatencyOrder(); err != nil {
		return err
	}

	// Local memory.
	lm := g.LocalMemory
	switch lm.Kind {
	case LocalOnChip:
		if lm.InstanceKiB == 0 {
			return g.at("local_memory.instance_kib", "missing; on_chip local memory needs the size of one instance")
		}
		if lm.CoresPerInstance == 0 {
			return g.at("local_memory.cores_per_instance", "missing; on_chip local memory needs the number of cores sharing one instance")
		}
		if g.Cores%lm.CoresPerInstance != 0 {
			return g.errAt([]string{"local_memory.cores_per_instance", "cores"}, "%d cores cannot be split into groups of %d sharing an instance", g.Cores, lm.CoresPerInstance)
		}
		if lm.MaxPerWorkgroupKiB > lm.InstanceKiB {
			return g.errAt([]string{"local_memory.max_per_workgroup_kib", "local_memory.instance_kib"}, "%d KiB is more than one instance holds (instance_kib %d)", lm.MaxPerWorkgroupKiB, lm.InstanceKiB)
		}
		if lm.BytesPerCycle == 0 {
			return g.at("local_memory.bytes_per_cycle", "missing; on_chip local memory needs the bandwidth of one instance in B/cycle")
		}
		if lm.LatencyCycles == 0 {
			return g.at("local_memory.latency_cycles", "missing; on_chip local memory needs its access latency in cycles")
		}
		if (lm.Banks == 0) != (lm.BankBytes == 0) {
			return g.errAt([]string{"local_memory.banks", "local_memory.bank_bytes"}, "give both banks and bank_bytes (banked local memory) or neither (bandwidth only)")
		}
		if lm.RowWriteCycles != 0 && lm.Banks == 0 {
			return g.errAt([]string{"local_memory.row_write_cycles", "local_memory.banks"}, "row_write_cycles needs banked local memory; set banks and bank_bytes or remove it")
		}
		if r := g.Rogue; r != nil && lm.Banks != 0 && (lm.Banks != r.CommonStoreBanks || lm.BankBytes*8 != r.CommonStoreBankBits) {
			return g.errAt([]string{"local_memory.banks", "local_memory.bank_bytes", "rogue.common_store_banks", "rogue.common_store_bank_bits"},
				"local memory is the common store on rogue: %d banks × %d B must match rogue.common_store_banks %d × common_store_bank_bits %d / 8", lm.Banks, lm.BankBytes, r.CommonStoreBanks, r.CommonStoreBankBits)
		}
	case LocalGlobal:
		if lm.InstanceKiB != 0 || lm.CoresPerInstance != 0 {
			return g.errAt([]string{"local_memory.instance_kib", "local_memory.cores_per_instance", "local_memory.kind"}, "global local memory (system RAM through the load/store cache) has no on-chip instances; remove instance_kib and cores_per_instance")
		}
		if lm.Banks != 0 || lm.BankBytes != 0 || lm.RowWriteCycles != 0 || lm.BytesPerCycle != 0 || lm.LatencyCycles != 0 {
			return g.errAt([]string{"local_memory.bytes_per_cycle", "local_memory.latency_cycles", "local_memory.banks", "local_memory.bank_bytes", "local_memory.row_write_cycles", "local_memory.kind"},
				"global local memory is ordinary memory through the load/store cache, so the l1 and l2 bandwidths and latencies apply; remove bytes_per_cycle, latency_cycles, banks, bank_bytes and row_write_cycles (set them to null in a user file)")
		}
	}
	if g.Cores%g.Texture.CoresPerUnit != 0 {
		return g.errAt([]string{"texture.cores_per_unit", "cores"}, "%d cores cannot be split into groups of %d sharing a texture unit", g.Cores, g.Texture.CoresPerUnit)
	}
	return g.ValidateTiling()
}

// ValidateTiling asks for the tiling parameters the scheme uses and refuses
// the features the other scheme's model does not have. Validate runs it;
// the renderer runs it again for GPUs built or changed in Go.
func (g *GPU) ValidateTiling() error {
	t := g.Tiling
	if t.Scheme != TileLists && t.Scheme != GMEMBins {
		return g.at("tiling.scheme", "%q is not a tiling scheme; allowed: %s, %s", t.Scheme, TileLists, GMEMBins)
	}
	// req is a parameter the description needs because of another one
	// (by, which the message blames when the file being read set it).
	type req struct {
		set       bool
		key, what string
		by        string
	}
	var reqs []req
	switch t.Scheme {
	case TileLists:
		if t.GMEMKiB != 0 {
			return g.errAt([]string{"tiling.gmem_kib", "tiling.scheme"}, "tiling.scheme tile_lists renders tiles in each core's tile buffer and has no GMEM; remove gmem_kib (null in a user file) or use scheme gmem_bins")
		}
		reqs = []req{
			{t.PolygonListEntryBytes > 0, "polygon_list_entry_bytes", "the size of a polygon-list entry", "scheme"},
			{t.PolygonListHeaderBytes > 0, "polygon_list_header_bytes", "the size of a bin's list header", "scheme"},
			{t.PolygonListChunkBytes > 0, "polygon_list_chunk_bytes", "the chunk size polygon lists grow by", "scheme"},
			{t.PolygonListLinkBytes > 0, "polygon_list_link_bytes", "the size of a chunk's link to the next", "scheme"},
			{!t.Hierarchical || t.HierarchyLevels > 0, "hierarchy_levels", "the number of bin sizes", "hierarchical"},
			{!t.Hierarchical || t.HierarchyMaxBins > 0, "hierarchy_max_bins", "the most bins a primitive may touch at its level", "hierarchical"},
			{!t.TransactionElimination || t.CRCBytesPerTile > 0, "crc_bytes_per_tile", "the CRC size per tile", "transaction_elimination"},
		}
	case GMEMBins:
		for _, f := range []struct {
			on  bool
			key string
		}{{t.Hierarchical, "hierarchical"}, {t.TransactionElimination, "transaction_elimination"}, {t.DropSamplelessPrimitives, "drop_sampleless_primitives"}, {t.PolygonListReservedChunk, "polygon_list_reserved_chunk"},
			{t.HiddenSurfaceRemoval, "hidden_surface_removal"}, {t.ParameterBufferKiB != 0, "parameter_buffer_kib"}} {
			if f.on {
				return g.errAt([]string{"tiling." + f.key, "tiling.scheme"}, "%s belongs to tiling.scheme tile_lists; gmem_bins does not model it (%s)", f.key, map[bool]string{true: "remove it (null in a user file)", false: "set it to false"}[f.key == "parameter_buffer_kib"])
			}
		}
		reqs = []req{
			{t.GMEMKiB > 0, "gmem_kib", "the GMEM size", "scheme"},
			{t.GMEMPageBytes > 0, "gmem_page_bytes", "the alignment of attachments in GMEM", "scheme"},
			{t.GMEMBytesPerCycle > 0, "gmem_bytes_per_cycle", "the GMEM bandwidth", "scheme"},
			{t.BinAlignW > 0, "bin_align_w", "the bin width alignment", "scheme"},
			{t.BinAlignH > 0, "bin_align_h", "the bin height alignment", "scheme"},
			{t.VisibilityStreamPipes > 0, "visibility_stream_pipes", "the number of visibility-stream pipes", "scheme"},
			{t.PipeMaxBins > 0, "pipe_max_bins", "the most bins one pipe covers", "scheme"},
			{t.VisibilityStreamEntryBytes > 0, "visibility_stream_entry_bytes", "the stream bytes per visible primitive", "scheme"},
			{t.HWBinningMinBins > 0, "hw_binning_min_bins", "the fewest bins that get a binning pass", "scheme"},
		}
	}
	if t.FramebufferCompression != "" && t.FramebufferCompression != "none" {
		reqs = append(reqs,
			req{t.CompressionBlockWidth > 0, "compression_block_width", "the width of a compressed block", "framebuffer_compression"},
			req{t.CompressionBlockHeight > 0, "compression_block_height", "the height of a compressed block", "framebuffer_compression"},
			req{t.CompressionSubblockWidth > 0, "compression_subblock_width", "the width of the unit the payload is estimated in", "framebuffer_compression"},
			req{t.CompressionSubblockHeight > 0, "compression_subblock_height", "the height of that unit", "framebuffer_compression"},
			req{t.CompressionHeaderBytes > 0, "compression_header_bytes", "the header or metadata bytes per block", "framebuffer_compression"},
			req{t.CompressionPayloadAlign > 0, "compression_payload_align_bytes", "the granule a block's payload is rounded to", "framebuffer_compression"})
	}
	for _, r := range reqs {
		if r.set {
			continue
		}
		cause := "tiling.scheme " + t.Scheme
		switch r.by {
		case "scheme":
		case "framebuffer_compression":
			cause = "tiling.framebuffer_compression " + t.FramebufferCompression
		default:
			cause = "tiling." + r.by + ": true"
		}
		return g.errAt([]string{"tiling." + r.key, "tiling." + r.by}, "tiling.%s is missing; %s needs %s", r.key, cause, r.what)
	}
	if t.CompressionSubblockWidth > 0 && t.CompressionBlockWidth > 0 && (t.CompressionBlockWidth%t.CompressionSubblockWidth != 0 || t.CompressionBlockHeight%t.CompressionSubblockHeight != 0) {
		return g.errAt([]string{"tiling.compression_subblock_width", "tiling.compression_subblock_height", "tiling.compression_block_width", "tiling.compression_block_height"},
			"a %dx%d compressed block is not a whole number of %dx%d sub-blocks", t.CompressionBlockWidth, t.CompressionBlockHeight, t.CompressionSubblockWidth, t.CompressionSubblockHeight)
	}
	switch t.Scheme {
	case TileLists:
		if t.PolygonListChunkBytes < t.PolygonListLinkBytes+t.PolygonListEntryBytes {
			return g.errAt([]string{"tiling.polygon_list_chunk_bytes", "tiling.polygon_list_link_bytes", "tiling.polygon_list_entry_bytes"},
				"a %d-byte chunk cannot hold its %d-byte link and one %d-byte entry", t.PolygonListChunkBytes, t.PolygonListLinkBytes, t.PolygonListEntryBytes)
		}
	case GMEMBins:
		if t.BinMaxW > 0 && t.BinMaxW < t.BinAlignW {
			return g.errAt([]string{"tiling.bin_max_w", "tiling.bin_align_w"}, "the largest bin width %d is below the bin width alignment %d", t.BinMaxW, t.BinAlignW)
		}
		if t.BinMaxH > 0 && t.BinMaxH < t.BinAlignH {
			return g.errAt([]string{"tiling.bin_max_h", "tiling.bin_align_h"}, "the largest bin height %d is below the bin height alignment %d", t.BinMaxH, t.BinAlignH)
		}
	}
	return nil
}

// checkLatencyOrder refuses a hierarchy whose deeper levels answer sooner
// than the levels in front of them (SLC and DRAM latencies are in ns and are
// compared at the shader clock).
func (g *GPU) checkLatencyOrder() error {
	l2 := float64(g.L2.LatencyCycles)
	if g.L1 != nil && g.L1.LatencyCycles >= g.L2.LatencyCycles {
		return g.errAt([]string{"l2.latency_cycles", "l1.latency_cycles"}, "an L2 hit (%d cycles) must take longer than an L1 hit (%d cycles)", g.L2.LatencyCycles, g.L1.LatencyCycles)
	}
	prev, prevPath := l2, "l2.latency_cycles"
	if g.SLC != nil {
		if c := g.NSToCycles(g.SLC.LatencyNS); c <= l2 {
			return g.errAt([]string{"slc.latency_ns", "l2.latency_cycles", "clock_mhz"}, "an SLC hit (%s ns = %s cycles at %s MHz) must take longer than an L2 hit (%d cycles)", fmtNum(g.SLC.LatencyNS), fmtNum(c), fmtNum(g.ClockMHz), g.L2.LatencyCycles)
		} else {
			prev, prevPath = c, "slc.latency_ns"
		}
	}
	if c := g.NSToCycles(g.DRAM.LatencyNS); c <= prev {
		return g.errAt([]string{"dram.latency_ns", prevPath, "clock_mhz"}, "a DRAM access (%s ns = %s cycles at %s MHz) must take longer than a hit in the level above it (%s, %s cycles)", fmtNum(g.DRAM.LatencyNS), fmtNum(c), fmtNum(g.ClockMHz), prevPath, fmtNum(prev))
	}
	return nil
}

func (g *GPU) checkCache(path string, sizeKiB, line, ways, slices int) error {
	size := sizeKiB * 1024
	related := []string{path + ".size_kib", path + ".line_bytes", path + ".ways", path + ".slices"}
	if size < line {
		return g.errAt(related, "%d KiB is smaller than one %d-byte line", sizeKiB, line)
	}
	if size%slices != 0 || (size/slices)%(line*ways) != 0 {
		what := "line_bytes × ways"
		if slices > 1 {
			what = "slices × line_bytes × ways"
		}
		return g.errAt(related, "%d KiB must be a multiple of %s (%d B)", sizeKiB, what, slices*line*ways)
	}
	return nil
}

func (g *GPU) validatePipesAndOps() error {
	names := map[string]bool{}
	var list []string
	for i, p := range g.Pipes {
		if names[p.Name] {
			return g.at(fmt.Sprintf("pipes[%d].name", i), "pipe %q is listed twice", p.Name)
		}
		names[p.Name] = true
		list = append(list, p.Name)
	}
	for _, class := range OpClasses {
		op, ok := g.Ops[class]
		path := "ops." + class
		if !ok || op == nil {
			return g.at("ops", "missing op class %s; every class needs an entry ({unsupported: true} if the GPU lacks it)", class)
		}
		if op.Unsupported {
			continue
		}
		if len(op.ExpandsTo) > 0 {
			if err := g.validateExpansion(class, op); err != nil {
				return err
			}
			continue
		}
		if len(op.Pipes) == 0 {
			return g.at(path+".pipes", "missing; list the pipes that execute %s (one of %s), or mark it unsupported: true", class, strings.Join(list, ", "))
		}
		for i, p := range op.Pipes {
			if !names[p] {
				return g.at(fmt.Sprintf("%s.pipes[%d]", path, i), "unknown pipe %q%s; the engine's pipes are: %s", p, suggest.DidYouMean(p, list), strings.Join(list, ", "))
			}
		}
		if op.Rate == 0 && op.CyclesPerWarp == 0 {
			return g.at(path+".rate", "missing; give rate (thread-operations per lane per cycle) or cycles_per_warp")
		}
	}
	for class := range g.Ops {
		if !isOpClass(class) {
			return g.at("ops."+class, "unknown op class; the classes are: %s", strings.Join(OpClasses, ", "))
		}
	}
	return nil
}

// validateExpansion checks an emulated class given as a sequence of other
// classes: the sequence replaces the class's own cost, and every class in it
// must have a cost of its own.
func (g *GPU) validateExpansion(class string, op *OpCost) error {
	path := "ops." + class
	if len(op.Pipes) > 0 || op.Rate != 0 || op.Pack != 0 || op.CyclesPerWarp != 0 {
		return g.errAt([]string{path + ".rate", path + ".pipes", path + ".pack", path + ".cycles_per_warp", path + ".expands_to"}, "expands_to replaces pipes, rate, pack and cycles_per_warp; remove them (null in a user file), or expands_to")
	}
	if !op.Emulated {
		return g.at(path+".emulated", "a class given by expands_to is emulated; set emulated: true")
	}
	for i, c := range op.ExpandsTo {
		p := fmt.Sprintf("%s.expands_to[%d]", path, i)
		if !isOpClass(c) {
			return g.at(p, "unknown op class %q%s; the classes are: %s", c, suggest.DidYouMean(c, OpClasses), strings.Join(OpClasses, ", "))
		}
		t := g.Ops[c]
		if c == class || (t != nil && len(t.ExpandsTo) > 0) {
			return g.at(p, "%s expands to %s, which is itself expanded; list classes with a cost of their own", class, c)
		}
		if t == nil || t.Unsupported {
			return g.at(p, "%s expands to %s, which the GPU cannot execute", class, c)
		}
	}
	return nil
}

// validateExecution checks the pipeline latencies, the instruction cache and
// the code-size parameters of the family section.
func (g *GPU) validateExecution() error {
	ic := g.InstructionCache
	if ic.SizeKiB*1024 < ic.LineBytes {
		return g.errAt([]string{"instruction_cache.size_kib", "instruction_cache.line_bytes"}, "%d KiB is smaller than one %d-byte line", ic.SizeKiB, ic.LineBytes)
	}
	if ic.EngineBufferBytes > 0 && ic.EngineBufferBytes >= ic.SizeKiB*1024 {
		return g.errAt([]string{"instruction_cache.engine_buffer_bytes", "instruction_cache.size_kib"}, "%d B is not smaller than the %d KiB cache it sits in front of", ic.EngineBufferBytes, ic.SizeKiB)
	}
	if ic.BufferRefillCycles > 0 && ic.EngineBufferBytes == 0 {
		return g.at("instruction_cache.buffer_refill_cycles", "set without instruction_cache.engine_buffer_bytes; give the buffer's size too, or remove it")
	}
	if b := g.Bifrost; b != nil && b.QuadwordTagBits >= b.QuadwordBits {
		return g.errAt([]string{"bifrost.quadword_tag_bits", "bifrost.quadword_bits"}, "a %d-bit tag leaves nothing of a %d-bit quadword", b.QuadwordTagBits, b.QuadwordBits)
	}
	return nil
}

// zeroText names a zero leaf the way the user wrote it.
func zeroText(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Slice:
		return "an empty list"
	case reflect.String:
		return `""`
	}
	return "0"
}
