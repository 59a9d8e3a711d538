package bench

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/gfx"
	"github.com/pocketgpu/pocketgpu/gfx/layout"
	"github.com/pocketgpu/pocketgpu/gfx/scene"
)

// The tiled-rendering rules the seeds state (tile size, the tile storage
// it implies, transaction elimination, one binning pass before the bins)
// are read from frames the renderer draws, not from the description: a
// frame of the cube, twice with the camera still, large enough that an
// Adreno splits it into several bins and runs its binning pass.
const tilingFrame = 1024

var tiling = &Test{
	Name:   "tiling",
	Title:  "Tiled rendering: tile size, write-back elimination, passes",
	Doc:    "The built-in cube scene rendered twice at 1024 × 1024 with the camera still: the tile (bin) size of the frame, the tile storage that size takes at the GPU's bits per pixel, the share of tiles whose write-back the second, identical frame skips (transaction elimination), the passes over the command stream beyond one per bin (Adreno's binning pass) the most GMEM a bin's colour and depth fill over frames of 512 to 2048 pixels a side (Adreno), the second frame's interval against its cycles when frames go back to back, and the 64-byte lines one tile of a u-interleaved colour buffer spans.",
	Points: func(*arch.GPU, Options) int { return 1 },
	Applies: func(g *arch.GPU) bool {
		return g.Tiling.Scheme != ""
	},
}

func init() {
	tiling.run = func(c *ctx) (*Result, error) {
		sc, err := scene.Builtin("cube")
		if err != nil {
			return nil, err
		}
		fs, err := gfx.RenderFrames(c.g, sc, gfx.Options{Width: tilingFrame, Height: tilingFrame, Mode: gfx.Tiled}, 2)
		if err != nil {
			return nil, err
		}
		c.tick()
		st, again := fs[0].Stats, fs[1].Stats
		r := &Result{Chart: Table, YLabel: "value"}
		add := func(label, metric string, v float64) {
			r.add(c.g.ID, Point{Label: label, Y: v})
			r.metric(metric, v)
		}
		add("tile width (px)", "tile_width", float64(st.TileWidth))
		add("tile height (px)", "tile_height", float64(st.TileHeight))
		if bits := c.g.Tiling.TileBufferBitsPerPixel; bits > 0 {
			add("tile storage (KB)", "tile_storage_kib", float64(st.TileWidth*st.TileHeight*bits)/8/kib)
		}
		add("tiles (bins)", "tiles", float64(st.TilesTotal))
		if again.TilesTotal > 0 {
			add("second frame: write-backs skipped (%)", "eliminated_pct", 100*float64(again.TilesEliminated)/float64(again.TilesTotal))
		}
		add("passes", "passes", float64(st.Passes))
		if st.Bins > 0 {
			add("passes beyond one per bin", "binning_passes", float64(st.Passes-st.Bins))
			most, err := largestBin(c.g)
			if err != nil {
				return nil, err
			}
			add("GMEM the largest bin fills (KB)", "bin_kib", most/kib)
		}
		// Back to back, the second frame's interval against its own time:
		// below 1 where geometry of one frame runs beside the fragment
		// work of the previous (Adreno 7xx's BV and BR, Mali's job slots).
		if again.Cycles > 0 {
			add("second frame: interval / its cycles", "interval_ratio", again.IntervalCycles/again.Cycles)
		}
		if k, err := layout.Parse(c.g.Tiling.FramebufferLayout); err == nil && k == layout.UInterleaved {
			lines, span := tileLines(k)
			add("64-byte lines one RGBA8 tile spans", "tile_lines", float64(lines))
			add("bytes from a tile's first to last byte", "tile_span_bytes", float64(span))
		}
		r.Notes = append(r.Notes, fmt.Sprintf("%d × %d frames of the cube scene, the camera still", tilingFrame, tilingFrame))
		return r, nil
	}
}

// largestBin is the most GMEM one bin's attachments (RGBA8 colour and
// 32-bit depth, the frames' own) fill over frames of 512 to 2048 pixels a
// side in steps of 64: how large the bins an Adreno picks get, the lower
// bound on its GMEM a reader of its bin sizes infers. One frame size alone
// says little: bins are aligned and split evenly, so most frames leave
// part of the GMEM unused.
func largestBin(g *arch.GPU) (float64, error) {
	most := 0
	for w := 512; w <= 2048; w += 64 {
		for h := 512; h <= 2048; h += 64 {
			bl, err := gfx.AdrenoBins(g, gfx.BinQuery{Width: w, Height: h, Colors: []string{"rgba8"}, Depth: gfx.DefaultDepthFormat})
			if err != nil {
				return 0, err
			}
			if !bl.DirectRendering {
				most = max(most, bl.BinWidth*bl.BinHeight*8)
			}
		}
	}
	return float64(most), nil
}

// tileLines reads the colour buffer's layout for one 16×16 tile of an
// RGBA8 image (tile (1, 1) of a 64 × 64 image): the 64-byte lines its
// texels fall in, and the bytes from its first to its last. Seed 002: a
// tile's 16-texel rows are 64-byte lines, and tiles occur in order.
func tileLines(k layout.Kind) (lines, span int) {
	im := layout.Image{Kind: k, Width: 64, Height: 64, BPP: 4}
	seen := map[int]bool{}
	lo, hi := im.Size(), 0
	for y := 16; y < 32; y++ {
		for x := 16; x < 32; x++ {
			off := im.Offset(x, y)
			seen[off/64] = true
			lo, hi = min(lo, off), max(hi, off+im.BPP)
		}
	}
	return len(seen), hi - lo
}
