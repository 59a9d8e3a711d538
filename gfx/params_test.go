package gfx

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/gfx/layout"
)

// userGPU writes a user's GPU description (a base preset and the changes)
// to a file and looks it up by path, as `pocketgpu render --gpu FILE` does.
func userGPU(t *testing.T, name, src string) *arch.GPU {
	t.Helper()
	p := filepath.Join(t.TempDir(), name+".yaml")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := arch.Lookup(p)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func passCycles(t *testing.T, st FrameStats, name string) float64 {
	t.Helper()
	for _, p := range st.PassCycles {
		if p.Name == name {
			return p.Cycles
		}
	}
	t.Fatalf("no pass %q in %v", name, st.PassCycles)
	return 0
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }

// Every number the renderer uses is the description's: a user file that
// changes one moves the frame's counters the way the hardware would.
func TestDescriptionNumbersMoveTheFrame(t *testing.T) {
	spheres := builtin(t, "spheres:2000")
	small := Options{Width: 96, Height: 64}
	one := func(g *arch.GPU, opt Options) FrameStats { return render(t, g, spheres, opt, 1)[0].Stats }

	t.Run("tiler rate", func(t *testing.T) {
		// A slow tiler bounds the vertex-and-tiling job: half the rate,
		// twice the tiler's part of it. The vertex work v is the same, so
		// b = v + 2(a - v): v = 2a - b, positive and no more than the
		// whole job at the default rates (where primitive assembly, not
		// the tiler, may bound the tiling).
		slow := one(userGPU(t, "slow", "base: mali-g52\ntiling: {tiler_primitives_per_cycle: 0.01, tiler_entries_per_cycle: 0.01}\n"), small)
		slower := one(userGPU(t, "slower", "base: mali-g52\ntiling: {tiler_primitives_per_cycle: 0.005, tiler_entries_per_cycle: 0.005}\n"), small)
		ref := one(gpu(t, "mali-g52"), small)
		r0, a, b := passCycles(t, ref, "vertex and tiling"), passCycles(t, slow, "vertex and tiling"), passCycles(t, slower, "vertex and tiling")
		if v := 2*a - b; !(a > 5*r0) || !(v > 0) || v > r0 {
			t.Errorf("vertex and tiling: %v cycles at 1 per cycle, %v at 0.01, %v at 0.005", r0, a, b)
		}
		if !(slower.Cycles > slow.Cycles && slow.Cycles > ref.Cycles) {
			t.Errorf("frame cycles %v, %v, %v", ref.Cycles, slow.Cycles, slower.Cycles)
		}
	})

	t.Run("polygon lists", func(t *testing.T) {
		ref := one(gpu(t, "mali-g52"), small)
		big := one(userGPU(t, "bigchunk", "base: mali-g52\ntiling: {polygon_list_chunk_bytes: 1024}\n"), small)
		if !(big.PolygonListAlloc > ref.PolygonListAlloc) || big.PolygonListBytes != ref.PolygonListBytes {
			t.Errorf("1 KiB chunks: %d bytes allocated, %d written; 128-byte chunks %d, %d", big.PolygonListAlloc, big.PolygonListBytes, ref.PolygonListAlloc, ref.PolygonListBytes)
		}
		wide := one(userGPU(t, "wideentry", "base: mali-g52\ntiling: {polygon_list_entry_bytes: 16}\n"), small)
		if !(wide.PolygonListBytes > ref.PolygonListBytes) || !(wide.DRAMWrite.Binning > ref.DRAMWrite.Binning) {
			t.Errorf("16-byte entries: %d list bytes, %d binning DRAM bytes written; 8-byte %d, %d", wide.PolygonListBytes, wide.DRAMWrite.Binning, ref.PolygonListBytes, ref.DRAMWrite.Binning)
		}
		// Midgard's rule on a Bifrost: every bin's first chunk up front.
		reserved := one(userGPU(t, "reserved", "base: mali-g52\ntiling: {polygon_list_reserved_chunk: true}\n"), small)
		if !(reserved.PolygonListAlloc > ref.PolygonListAlloc) || reserved.PolygonListBytes != ref.PolygonListBytes {
			t.Errorf("reserved first chunks: %d bytes allocated, was %d", reserved.PolygonListAlloc, ref.PolygonListAlloc)
		}
		flat := one(userGPU(t, "flat", "base: mali-g52\ntiling: {hierarchical: false}\n"), small)
		four := one(userGPU(t, "fourlevels", "base: mali-g52\ntiling: {hierarchy_levels: 4}\n"), small)
		if flat.HierarchyLevelUses != nil || len(four.HierarchyLevelUses) != 4 || len(ref.HierarchyLevelUses) != 8 {
			t.Errorf("levels used: flat %v, 4 levels %v, preset %v", flat.HierarchyLevelUses, four.HierarchyLevelUses, ref.HierarchyLevelUses)
		}
	})

	t.Run("transaction elimination", func(t *testing.T) {
		ui := builtin(t, "ui")
		opt := Options{Width: 112, Height: 72}
		on := render(t, gpu(t, "mali-g52"), ui, opt, 2)
		off := render(t, userGPU(t, "note", "base: mali-g52\ntiling: {transaction_elimination: false}\n"), ui, opt, 2)
		if on[1].Stats.TilesEliminated == 0 || off[1].Stats.TilesEliminated != 0 || off[1].Stats.TilesWritten != off[1].Stats.TilesTotal {
			t.Errorf("second frame: with elimination %d eliminated; without %d eliminated, %d of %d written", on[1].Stats.TilesEliminated, off[1].Stats.TilesEliminated, off[1].Stats.TilesWritten, off[1].Stats.TilesTotal)
		}
		if !(on[1].Stats.DRAMWrite.Framebuffer > 0 && off[1].Stats.DRAMWrite.Framebuffer > on[1].Stats.DRAMWrite.Framebuffer) {
			t.Errorf("second frame's frame-buffer writes: %d with elimination, %d without", on[1].Stats.DRAMWrite.Framebuffer, off[1].Stats.DRAMWrite.Framebuffer)
		}
		wide := render(t, userGPU(t, "widecrc", "base: mali-g52\ntiling: {crc_bytes_per_tile: 64}\n"), ui, opt, 1)[0].Stats
		if !(wide.DRAMRead.Framebuffer > on[0].Stats.DRAMRead.Framebuffer) {
			t.Errorf("64-byte CRCs read %d frame-buffer bytes, 8-byte ones %d", wide.DRAMRead.Framebuffer, on[0].Stats.DRAMRead.Framebuffer)
		}
		if countDiff(off[1].Image, on[1].Image) != 0 {
			t.Error("transaction elimination changes the image")
		}
	})

	t.Run("blend rate", func(t *testing.T) {
		// A slow blender keeps finished fragment warps waiting: the
		// fragment job takes at least the fragments over the cores'
		// blenders.
		g := userGPU(t, "slowblend", "base: mali-g52\nraster: {blend_pixels_per_cycle: 0.01}\n")
		st := one(g, small)
		ref := one(gpu(t, "mali-g52"), small)
		frag := passCycles(t, st, "fragment")
		if floor := float64(st.FragmentsWritten) / (0.01 * float64(g.Cores)); frag < floor*(1-1e-9) || !(frag > passCycles(t, ref, "fragment")) {
			t.Errorf("fragment pass %v cycles for %d fragments at 0.01 a cycle on %d cores (at least %v); at 1 a cycle %v", frag, st.FragmentsWritten, g.Cores, floor, passCycles(t, ref, "fragment"))
		}
	})

	const bins16k = "base: adreno-640\ntiling:\n  gmem_kib: 16\n"
	t.Run("GMEM bandwidth", func(t *testing.T) {
		// At half a byte a cycle the resolve bounds every bin: its pass
		// takes at least the bin's colour bytes over the bandwidth.
		st := one(userGPU(t, "slowgmem", bins16k+"  gmem_bytes_per_cycle: 0.5\n"), small)
		ref := one(userGPU(t, "gmem16k", bins16k), small)
		if st.Bins < 2 || st.TileWidth > small.Width || st.TileHeight > small.Height {
			t.Fatalf("%d bins of %dx%d", st.Bins, st.TileWidth, st.TileHeight)
		}
		floor := float64(st.TileWidth*st.TileHeight*colorBytes) / 0.5
		if got := passCycles(t, st, "bin 0"); got < floor || !(st.Cycles > ref.Cycles+float64(st.Bins-1)*floor*0.9) {
			t.Errorf("bin 0: %v cycles, at least %v; frame %v cycles, %v at 32 B/cycle", got, floor, st.Cycles, ref.Cycles)
		}
	})

	t.Run("command processor", func(t *testing.T) {
		ref := one(gpu(t, "adreno-640"), small)
		slow := one(userGPU(t, "slowcp", "base: adreno-640\ncommand_processor: {cycles_per_draw: 500}\n"), small)
		if ref.CommandStreamOps == 0 || !near(slow.Cycles-ref.Cycles, float64(ref.CommandStreamOps)*450) {
			t.Errorf("450 more cycles per draw per pass: %v more cycles for %d draw walks", slow.Cycles-ref.Cycles, ref.CommandStreamOps)
		}
	})

	t.Run("binning", func(t *testing.T) {
		ref := one(userGPU(t, "gmem16k", bins16k), small)
		none := one(userGPU(t, "nobinning", bins16k+"  hw_binning_min_bins: 1000\n"), small)
		wide := one(userGPU(t, "widevis", bins16k+"  visibility_stream_entry_bytes: 8\n"), small)
		if ref.Passes != ref.Bins+1 || ref.VisibilityStreams == 0 || none.Passes != none.Bins || none.VisibilityStreams != 0 {
			t.Errorf("passes %d for %d bins (%d stream bytes); without a binning pass %d for %d (%d)", ref.Passes, ref.Bins, ref.VisibilityStreams, none.Passes, none.Bins, none.VisibilityStreams)
		}
		if wide.VisibilityStreams != 2*ref.VisibilityStreams {
			t.Errorf("8-byte entries: %d stream bytes, 4-byte %d", wide.VisibilityStreams, ref.VisibilityStreams)
		}
		direct := one(userGPU(t, "onepipe", bins16k+"  visibility_stream_pipes: 1\n  pipe_max_bins: 1\n"), small)
		if !direct.DirectRendering {
			t.Errorf("one pipe of one bin for %d bins renders binned", ref.Bins)
		}
	})

	t.Run("limits and layout", func(t *testing.T) {
		g := userGPU(t, "narrow", "base: mali-g52\nraster: {max_framebuffer_width: 64}\n")
		_, err := New(g, spheres, small)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "over narrow's limit of 64x16384") {
			t.Errorf("96-wide frame on a 64-wide GPU: %v", err)
		}
		lin, err := New(userGPU(t, "linear", "base: mali-g52\ntiling: {framebuffer_layout: linear}\n"), spheres, small)
		if err != nil || lin.Layout() != layout.Linear {
			t.Errorf("framebuffer_layout linear: %v, %v", lin, err)
		}
	})
}

// The tiling follows the description, not the family: a Rogue given Mali's
// hierarchy, sample-less dropping and transaction elimination tiles as a
// Mali does, and a Mali described with GMEM bins renders through bins, with
// the same image.
func TestTilingFollowsTheDescriptionNotTheFamily(t *testing.T) {
	ui := builtin(t, "ui")
	opt := Options{Width: 112, Height: 72}
	want := render(t, gpu(t, "mali-g52"), ui, opt, 2)

	rogue := userGPU(t, "rogue-te", `base: powervr-gx6250
tiling:
  hierarchical: true
  hierarchy_levels: 8
  hierarchy_max_bins: 4
  drop_sampleless_primitives: true
  transaction_elimination: true
  crc_bytes_per_tile: 8
`)
	fs := render(t, rogue, ui, opt, 2)
	if st := fs[1].Stats; len(st.HierarchyLevelUses) != 8 || st.TilesEliminated == 0 || st.Bins != 0 {
		t.Errorf("rogue with Mali's tiler: levels %v, %d tiles eliminated, %d bins", st.HierarchyLevelUses, st.TilesEliminated, st.Bins)
	}

	binned := userGPU(t, "mali-gmem", `base: mali-g52
tiling:
  scheme: gmem_bins
  hierarchical: false
  drop_sampleless_primitives: false
  transaction_elimination: false
  gmem_kib: 16
  gmem_page_bytes: 4096
  gmem_bytes_per_cycle: 32
  bin_align_w: 32
  bin_align_h: 16
  visibility_stream_pipes: 32
  pipe_max_bins: 32
  visibility_stream_entry_bytes: 4
  hw_binning_min_bins: 3
`)
	fb := render(t, binned, ui, opt, 2)
	if st := fb[0].Stats; st.Bins < 3 || st.Passes != st.Bins+1 || st.VisibilityStreams == 0 || st.PolygonListBytes != 0 {
		t.Errorf("mali with GMEM bins: %d bins, %d passes, %d stream bytes, %d polygon-list bytes", st.Bins, st.Passes, st.VisibilityStreams, st.PolygonListBytes)
	}
	if _, err := AdrenoBins(binned, BinQuery{Width: 1920, Height: 1080, Colors: []string{"rgba8"}, Depth: "d24s8"}); err != nil {
		t.Errorf("bins on a Mali described with GMEM bins: %v", err)
	}
	for i := range want {
		if n := countDiff(fs[i].Image, want[i].Image) + countDiff(fb[i].Image, want[i].Image); n != 0 {
			t.Errorf("frame %d: %d pixels differ from the Mali-G52's", i, n)
		}
	}
}
