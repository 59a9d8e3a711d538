package arch

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestUserFileDoublesPeakWithFourCores(t *testing.T) {
	base := mustLookup(t, "mali-g52").Derived().PeakFP32GFLOPS
	g, err := Parse([]byte("base: mali-g52\ncores: 4\n"), "gpus/four.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Derived().PeakFP32GFLOPS; math.Abs(got-2*base) > 1e-9 {
		t.Errorf("peak %v, want %v", got, 2*base)
	}
	if g.ID != "four" || g.Base != "mali-g52" || g.Family != Bifrost {
		t.Errorf("id %q base %q family %q", g.ID, g.Base, g.Family)
	}
	if s := g.Source("cores"); s != "user: gpus/four.yaml" {
		t.Errorf("cores source %q", s)
	}
	if s := g.Source("clock_mhz"); !strings.HasPrefix(s, "seed 000") {
		t.Errorf("clock_mhz keeps the preset's source, got %q", s)
	}
}

func TestUserFileForms(t *testing.T) {
	g, err := Load("testdata/my-g52.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != "my-g52" || g.Cores != 4 || g.L2.SizeKiB != 256 || g.PowerDomains != nil {
		t.Errorf("got id %s cores %d l2 %d domains %v", g.ID, g.Cores, g.L2.SizeKiB, g.PowerDomains)
	}
	if s := g.Source("l2.size_kib"); s != "user: testdata/my-g52.yaml (64 KB per core, as the two-core part)" {
		t.Errorf("explicit source kept: %q", s)
	}
	for _, p := range g.Params() {
		if p.Path == "power_domains" {
			t.Errorf("power_domains removed by null is still listed: %+v", p)
		}
	}

	// Section-level sources, op overrides merging field by field, removing
	// an optional section, and a user-chosen id.
	src := `
base: 640
id: fast-640
clock_mhz: 700
ops:
  source: "my measurements"
  fp32_fma: {cycles_per_warp: 8}
slc: null
l2:
  source: "vendor sheet"
  size_kib: 256
  latency_cycles: 40
`
	g, err = Parse([]byte(src), "x.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != "fast-640" || g.SLC != nil || g.ClockMHz != 700 {
		t.Errorf("id %s slc %v clock %v", g.ID, g.SLC, g.ClockMHz)
	}
	if op := g.Ops["fp32_fma"]; op.CyclesPerWarp != 8 || !op.Emulated || op.Pipes[0] != "alu" {
		t.Errorf("fp32_fma merged to %+v", *op)
	}
	if s := g.Source("l2.latency_cycles"); s != "user: x.yaml (vendor sheet)" {
		t.Errorf("section source: %q", s)
	}
	if s := g.Source("ops.fp32_fma.cycles_per_warp"); s != "user: x.yaml (my measurements)" {
		t.Errorf("ops section source: %q", s)
	}
	if s := g.Source("slc.size_kib"); s != "" {
		t.Errorf("removed section keeps source %q", s)
	}
}

// Every kind of bad input gives a ConfigError naming the file, the line and
// the parameter, and saying what is allowed.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		line int
		path string
		msg  string
	}{
		{"not yaml", "base: mali-g52\ncores: [4\n", 1, "", "not valid YAML"}, // yaml.v3 reports the line before
		{"bad indentation", "base: mali-g52\nl2:\n  size_kib: 4\n   ways: 2\n", 4, "", "not valid YAML"},
		{"empty", "", 0, "", "empty file"},
		{"two documents", "base: mali-g52\n---\ncores: 4\n", 2, "", "more than one YAML document"},
		{"only a comment", "# nothing\n", 0, "", "empty file"},
		{"top-level list", "- mali-g52\n", 1, "", "top level must be a mapping"},
		{"unknown base", "base: mali-g53\n", 1, "base", "nearest presets: mali-g5"},
		{"base not text", "base: [mali-g52]\n", 1, "base", "want the id of a preset"},
		{"unknown field", "base: mali-g52\nl2:\n  sise_kib: 4\n", 3, "l2.sise_kib", "unknown field (did you mean size_kib?)"},
		{"unknown top field", "base: mali-g52\ncorez: 4\n", 2, "corez", "did you mean cores?"},
		{"derived field", "base: mali-g52\npeak_fp32_gflops: 2000\n", 2, "peak_fp32_gflops", "derived figure"},
		{"derived section", "base: mali-g52\nderived: {}\n", 2, "derived", "derived figure"},
		{"wrong type", "base: mali-g52\ncores: many\n", 2, "cores", `want a whole number, got the string "many"`},
		{"float for int", "base: mali-g52\ncores: 2.5\n", 2, "cores", "want a whole number, got the number 2.5"},
		{"quoted number", "base: mali-g52\ncores: \"4\"\n", 2, "cores", "want a whole number"},
		{"string for float", "base: mali-g52\nclock_mhz: fast\n", 2, "clock_mhz", "want a number"},
		{"nan", "base: mali-g52\nclock_mhz: .nan\n", 2, "clock_mhz", "finite"},
		{"bool wrong", "base: mali-g52\nhost_copy: {zero_copy: 1}\n", 2, "host_copy.zero_copy", "want true or false"},
		{"section not mapping", "base: mali-g52\nl2: 5\n", 2, "l2", "want a section"},
		{"list not list", "base: mali-g52\nwarp_sizes: 8\n", 2, "warp_sizes", "want a list"},
		{"zero clock", "base: mali-g52\nclock_mhz: 0\n", 2, "clock_mhz", "0 is out of range; want number (1 to 10000)"},
		{"zero warp slots", "base: mali-g52\nmax_warps_per_engine: 0\n", 2, "max_warps_per_engine", "0 is out of range"},
		{"empty warp sizes", "base: mali-g52\nwarp_sizes: []\n", 2, "warp_sizes", "an empty list is out of range"},
		{"zero cores", "base: mali-g52\ncores: 0\n", 2, "cores", "0 is out of range; want integer (1 to 1024)"},
		{"negative clock", "base: mali-g52\nclock_mhz: -5\n", 2, "clock_mhz", "-5 is out of range; allowed: 1 to 10000"},
		{"huge", "base: mali-g52\ncores: 99999999999\n", 2, "cores", "far out of range"},
		{"warp not power of two", "base: mali-g52\nwarp_sizes: [6]\n", 2, "warp_sizes[0]", "not a power of two"},
		{"fitted not a list", "base: mali-g52\ncores: {value: 2, source: s, fitted: g52-cores}\n", 2, "cores.fitted", "want a list of the figure ids"},
		{"fitted empty id", "base: mali-g52\ncores: {value: 2, source: s, fitted: [\"\"]}\n", 2, "cores.fitted", "want a figure id"},
		{"fitted in value map typo", "base: mali-g52\ncores: {value: 2, fited: [x]}\n", 2, "cores", "fitted: [FIGURE, ...]"},
		{"warp sizes order", "base: adreno-640\nwarp_sizes: [128, 64]\n", 2, "warp_sizes[1]", "ascending"},
		{"cache smaller than line", "base: mali-g52\nl2: {size_kib: 1, line_bytes: 2048}\n", 2, "l2.size_kib", "smaller than one 2048-byte line"},
		{"cache not multiple", "base: mali-g52\ntexture_cache: {ways: 3}\n", 2, "texture_cache.ways", "multiple of line_bytes × ways"},
		{"line not power of two", "base: mali-g52\nl1: {line_bytes: 48}\n", 2, "l1.line_bytes", "not a power of two"},
		{"enum", "base: mali-g52\nlocal_memory: {kind: dram}\n", 2, "local_memory.kind", "allowed: global, on_chip"},
		{"family without section", "base: mali-g52\nfamily: adreno\n", 2, "family", "needs its adreno: section"},
		{"unknown family", "base: mali-g52\nfamily: bifrots\n", 2, "family", "did you mean bifrost?"},
		{"section of other family", "base: mali-g52\nrogue: {common_store_banks: 4}\n", 2, "rogue", "is for family rogue"},
		{"unknown op", "base: mali-g52\nops:\n  fp32_addd: {rate: 1}\n", 3, "ops.fp32_addd", "did you mean fp32_add?"},
		{"unknown pipe", "base: mali-g52\nops:\n  fp32_add: {pipes: [fadd2]}\n", 3, "ops.fp32_add.pipes[0]", `unknown pipe "fadd2"`},
		{"op not mapping", "base: mali-g52\nops:\n  fp32_add: 1\n", 3, "ops.fp32_add", "want {pipes"},
		{"duplicate pipe", "base: mali-g52\npipes: [fma, fma]\n", 2, "pipes[1].name", "listed twice"},
		{"pipe form", "base: mali-g52\npipes: [{nom: fma}]\n", 2, "pipes[0]", "a pipe is {name: N}"},
		{"null required", "base: mali-g52\ncores: null\n", 2, "cores", "required"},
		{"alias", "base: mali-g52\nname: &n x\nsoc: *n\n", 3, "soc", "aliases"},
		{"duplicate key", "base: mali-g52\ncores: 4\ncores: 8\n", 3, "cores", "set twice (first on line 2)"},
		{"wrapper key", "base: mali-g52\ncores: {value: 4, sauce: x}\n", 2, "cores", `"sauce" is not allowed`},
		{"wrapper without value", "base: mali-g52\ncores: {source: x}\n", 2, "cores", "missing `value:`"},
		{"source not text", "base: mali-g52\nl2: {size_kib: {value: 64, source: [x]}}\n", 2, "l2.size_kib.source", "want a text"},
		{"clusters", "base: adreno-640\ncores: 5\n", 2, "cores", "5 cores cannot be split into clusters of 3"},
		{"rogue register file", "base: powervr-gx6250\nregister_file_kib: 64\n", 2, "register_file_kib", "derived from unified_store.stores"},
		{"rogue stores", "base: powervr-gx6250\nunified_store: {stores: 3}\n", 2, "unified_store.stores", "multiple of unified_store.stores"},
		{"registers do not fit", "base: mali-g52\nmax_registers_per_thread: 1000\n", 2, "max_registers_per_thread", "do not fit"},
		{"workgroup too big", "base: mali-g52\nmax_workgroup_size: 1024\n", 2, "max_workgroup_size", "at most 384"},
		{"local instance too small", "base: adreno-640\nlocal_memory: {instance_kib: 16}\n", 2, "local_memory.instance_kib", "more than one instance"},
		{"local global instance", "base: mali-g52\nlocal_memory: {instance_kib: 16}\n", 2, "local_memory.instance_kib", "no on-chip instances"},
		{"texture units", "base: mali-g52\ntexture: {cores_per_unit: 3}\n", 2, "texture.cores_per_unit", "groups of 3"},
		{"local global bandwidth", "base: mali-g52\nlocal_memory: {bytes_per_cycle: 64}\n", 2, "local_memory.bytes_per_cycle", "l1 and l2 bandwidths and latencies apply"},
		{"local on_chip no bandwidth", "base: adreno-640\nlocal_memory: {bytes_per_cycle: null}\n", 0, "local_memory.bytes_per_cycle", "bandwidth of one instance"},
		{"local on_chip no latency", "base: adreno-640\nlocal_memory: {latency_cycles: null}\n", 0, "local_memory.latency_cycles", "access latency"},
		{"local banks without width", "base: adreno-640\nlocal_memory: {banks: 8}\n", 2, "local_memory.banks", "both banks and bank_bytes"},
		{"row write without banks", "base: adreno-640\nlocal_memory: {row_write_cycles: 4}\n", 2, "local_memory.row_write_cycles", "needs banked local memory"},
		{"common store mismatch", "base: powervr-gx6250\nlocal_memory: {banks: 8}\n", 2, "local_memory.banks", "must match rogue.common_store_banks"},
		{"slc geometry", "base: adreno-640\nslc: {ways: 3}\n", 2, "slc.ways", "multiple of line_bytes × ways"},
		{"tlb ways", "base: mali-g52\ntlb: {ways: 3}\n", 2, "tlb.ways", "multiple of ways"},
		{"l2 faster than l1", "base: mali-g52\nl2: {latency_cycles: 50}\n", 2, "l2.latency_cycles", "longer than an L1 hit"},
		{"slc faster than l2", "base: adreno-640\nslc: {latency_ns: 10}\n", 2, "slc.latency_ns", "longer than an L2 hit"},
		{"dram faster than slc", "base: adreno-640\ndram: {latency_ns: 200}\n", 2, "dram.latency_ns", "hit in the level above it (slc.latency_ns"},
		{"dram efficiency", "base: mali-g52\ndram: {efficiency: 1.5}\n", 2, "dram.efficiency", "allowed: 0.01 to 1"},
		{"old copy field", "base: mali-g52\nhost_copy: {to_gpu_gbs: 2}\n", 2, "host_copy.to_gpu_gbs", "unknown field"},
		{"tiling scheme", "base: mali-g52\ntiling: {scheme: bins}\n", 2, "tiling.scheme", "allowed: tile_lists, gmem_bins"},
		{"framebuffer layout", "base: mali-g52\ntiling: {framebuffer_layout: tiled}\n", 2, "tiling.framebuffer_layout", "allowed: u-interleaved, linear"},
		{"tile lists need entries", "base: mali-g52\ntiling: {polygon_list_entry_bytes: null}\n", 0, "tiling.polygon_list_entry_bytes", "tiling.polygon_list_entry_bytes is missing; tiling.scheme tile_lists needs the size of a polygon-list entry"},
		{"chunk too small", "base: mali-g52\ntiling: {polygon_list_chunk_bytes: 12}\n", 2, "tiling.polygon_list_chunk_bytes", "a 12-byte chunk cannot hold its 8-byte link and one 8-byte entry"},
		{"hierarchy without levels", "base: mali-g52\ntiling: {hierarchy_levels: null}\n", 0, "tiling.hierarchy_levels", "tiling.hierarchical: true needs the number of bin sizes"},
		{"hierarchy of one level", "base: mali-g52\ntiling: {hierarchy_levels: 1}\n", 2, "tiling.hierarchy_levels", "1 is out of range; allowed: 2 to 16"},
		{"elimination without crc", "base: powervr-gx6250\ntiling:\n  transaction_elimination: true\n", 3, "tiling.transaction_elimination", "tiling.crc_bytes_per_tile is missing; tiling.transaction_elimination: true needs the CRC size per tile"},
		{"gmem on tile lists", "base: mali-g52\ntiling: {gmem_kib: 512}\n", 2, "tiling.gmem_kib", "has no GMEM"},
		{"scheme switched alone", "base: adreno-640\ntiling:\n  scheme: tile_lists\n", 3, "tiling.scheme", "has no GMEM"},
		{"bins need pipe limit", "base: adreno-640\ntiling: {pipe_max_bins: null}\n", 0, "tiling.pipe_max_bins", "tiling.scheme gmem_bins needs the most bins one pipe covers"},
		{"hierarchy on bins", "base: adreno-640\ntiling: {hierarchical: true}\n", 2, "tiling.hierarchical", "belongs to tiling.scheme tile_lists"},
		{"hsr on bins", "base: adreno-640\ntiling: {hidden_surface_removal: true}\n", 2, "tiling.hidden_surface_removal", "belongs to tiling.scheme tile_lists; gmem_bins does not model it (set it to false)"},
		{"parameter buffer on bins", "base: adreno-640\ntiling: {parameter_buffer_kib: 1024}\n", 2, "tiling.parameter_buffer_kib", "gmem_bins does not model it (remove it"},
		{"compression kind", "base: mali-g52\ntiling: {framebuffer_compression: fbc}\n", 2, "tiling.framebuffer_compression", "allowed: none, afbc, ubwc"},
		{"compression without sizes", "base: powervr-gx6250\ntiling: {framebuffer_compression: afbc}\n", 2, "tiling.framebuffer_compression", "tiling.compression_block_width is missing; tiling.framebuffer_compression afbc needs the width of a compressed block"},
		{"compression sub-blocks", "base: mali-g52\ntiling: {framebuffer_compression: afbc, compression_block_width: 16, compression_block_height: 16, compression_subblock_width: 5, compression_subblock_height: 4, compression_header_bytes: 16, compression_payload_align_bytes: 1}\n", 2, "tiling.compression_subblock_width", "a 16x16 compressed block is not a whole number of 5x4 sub-blocks"},
		{"bin max below alignment", "base: adreno-640\ntiling: {bin_max_w: 16}\n", 2, "tiling.bin_max_w", "below the bin width alignment 32"},
		{"zero tiler rate", "base: mali-g52\ntiling: {tiler_primitives_per_cycle: 0}\n", 2, "tiling.tiler_primitives_per_cycle", "0 is out of range"},
		{"gmem bandwidth", "base: adreno-640\ntiling: {gmem_bytes_per_cycle: -32}\n", 2, "tiling.gmem_bytes_per_cycle", "-32 is out of range"},
		{"blend rate", "base: mali-g52\nraster: {blend_pixels_per_cycle: .inf}\n", 2, "raster.blend_pixels_per_cycle", "finite"},
		{"framebuffer limit", "base: mali-g52\nraster: {max_framebuffer_width: 100000}\n", 2, "raster.max_framebuffer_width", "allowed: 1 to 65536"},
		{"cycles per draw", "base: adreno-640\ncommand_processor: {cycles_per_draw: lots}\n", 2, "command_processor.cycles_per_draw", "want a number"},
		{"no base, incomplete", "id: mine\ncores: 2\n", 0, "family", "missing; want one of midgard"},
		{"no base, family only", "family: rogue\nrogue: {common_store_banks: 4}\n", 0, "name", "missing; want string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.src), "my.yaml")
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v, want *ConfigError", err)
			}
			if ce.File != "my.yaml" || ce.Line != tt.line || ce.Path != tt.path || !strings.Contains(ce.Msg, tt.msg) {
				t.Errorf("got %s (file %q line %d path %q); want line %d path %q message containing %q", err, ce.File, ce.Line, ce.Path, tt.line, tt.path, tt.msg)
			}
			if !strings.HasPrefix(err.Error(), "my.yaml") {
				t.Errorf("message %q does not start with the file name", err)
			}
		})
	}
}

// A preset without a source on a parameter is refused.
func TestPresetNeedsSources(t *testing.T) {
	_, err := parse([]byte("base: mali-g52\ncores: 3\n"), parseOpts{file: "preset x", presetID: "x"})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Path != "cores" || !strings.Contains(ce.Msg, "no source") {
		t.Fatalf("got %v", err)
	}
}

// Go code can build or change a GPU directly; Validate still checks it.
func TestValidateGoBuiltGPU(t *testing.T) {
	g := mustLookup(t, "mali-g52")
	g.WarpSizes = []int{8, 12}
	var ce *ConfigError
	if err := g.Validate(); !errors.As(err, &ce) || ce.Path != "warp_sizes[1]" {
		t.Fatalf("got %v", err)
	}
	if err := (&GPU{}).Validate(); err == nil {
		t.Fatal("empty GPU validated")
	}
	if err := (*GPU)(nil).Validate(); err == nil {
		t.Fatal("nil GPU validated")
	}
}

// A parameter (or a section, such as an op's cost) says which validate
// figures its value was fitted to (issue 25: those figures calibrate the
// description rather than test it).
func TestFitted(t *testing.T) {
	g, err := Parse([]byte(`
base: mali-g52
l2:
  latency_cycles: {value: 90, source: "backed out of the chase", fitted: [g52-l2-latency, g52-l2-step]}
ops:
  fp32_fma: {pipes: [fma], rate: 1, source: "s", fitted: [g52-fp32-fma]}
`), "my.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := g.Fitted()
	for id, path := range map[string]string{"g52-l2-latency": "l2.latency_cycles", "g52-l2-step": "l2.latency_cycles", "g52-fp32-fma": "ops.fp32_fma"} {
		if !slices.Contains(got[id], path) {
			t.Errorf("fitted[%s] = %v, want it to hold %s", id, got[id], path)
		}
	}
	// The preset's own tag on the value the file replaces is gone; the
	// ones on values it keeps stay.
	if got["a615-vs-g52-texture-l2-latency"] != nil {
		t.Errorf("the replaced l2.latency_cycles keeps the preset's fit: %v", got)
	}
	if !slices.Contains(got["g52-l2-step"], "l2.size_kib") {
		t.Errorf("the inherited l2.size_kib lost its fit: %v", got["g52-l2-step"])
	}
	if s := g.Source("l2.latency_cycles"); s != "user: my.yaml (backed out of the chase)" {
		t.Errorf("source %q", s)
	}
	// An op restated without a tag drops the preset's (the cost it was
	// fitted for is replaced).
	h, err := Parse([]byte("base: mali-g52\nops:\n  fp32_add: {pipes: [fadd], rate: 1, source: \"s\"}\n"), "my.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if f := h.Fitted()["g52-fp32-add"]; f != nil {
		t.Errorf("a restated op keeps its base's fit: %v", f)
	}
	for _, p := range g.Params() {
		if strings.HasSuffix(p.Path, ".fitted") {
			t.Errorf("fitted listed as a parameter: %+v", p)
		}
	}
}
