package gfx

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pocketgpu/pocketgpu/arch"
)

// ColorFormats are the colour attachment formats the bin layout knows, by
// bytes per pixel per sample.
var ColorFormats = map[string]int{
	"r8": 1, "rg8": 2, "rgb565": 2, "rgba4": 2, "rgba8": 4, "bgra8": 4, "srgba8": 4, "rgb10a2": 4, "r11g11b10f": 4,
	"r16f": 2, "rg16f": 4, "rgba16f": 8, "r32f": 4, "rg32f": 8, "rgba32f": 16,
}

// DepthFormats are the depth/stencil formats by bytes per pixel per sample
// ("none" for no depth attachment). A separate stencil plane (d32fs8) takes
// its own GMEM allocation.
var DepthFormats = map[string][]int{
	"none": nil, "d16": {2}, "d24s8": {4}, "d32f": {4}, "d32fs8": {4, 1}, "s8": {1},
}

// FormatNames lists a format table's names, sorted.
func FormatNames[V any](m map[string]V) string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// BinQuery is a render pass's attachments and size.
type BinQuery struct {
	Width, Height int
	Colors        []string
	Depth         string
	MSAA          int
}

// GMEMAttachment is one attachment's place in GMEM.
type GMEMAttachment struct {
	Name          string `json:"name"`
	BytesPerPixel int    `json:"bytes_per_pixel"`
	Offset        int    `json:"gmem_offset"`
	Bytes         int    `json:"gmem_bytes"`
}

// BinLayout is how an Adreno part splits a render pass into bins.
type BinLayout struct {
	GPU             string           `json:"gpu"`
	Width           int              `json:"width"`
	Height          int              `json:"height"`
	MSAA            int              `json:"msaa"`
	BinWidth        int              `json:"bin_width"`
	BinHeight       int              `json:"bin_height"`
	BinsX           int              `json:"bins_x"`
	BinsY           int              `json:"bins_y"`
	Bins            int              `json:"bins"`
	BytesPerPixel   int              `json:"bytes_per_pixel"`
	GMEMBytes       int              `json:"gmem_bytes"`
	GMEMUsedBytes   int              `json:"gmem_used_bytes"`
	Attachments     []GMEMAttachment `json:"attachments"`
	Pipes           int              `json:"pipes"`
	PipeBinsX       int              `json:"pipe_bins_x"`
	PipeBinsY       int              `json:"pipe_bins_y"`
	BinsPerPipe     int              `json:"bins_per_pipe"`
	HWBinning       bool             `json:"hw_binning"`
	HWBinningMin    int              `json:"-"` // tiling.hw_binning_min_bins
	Passes          int              `json:"passes"`
	DirectRendering bool             `json:"direct_rendering"`
	Reason          string           `json:"reason,omitempty"`
}

func alignUp(n, a int) int {
	if a <= 1 {
		return n
	}
	return (n + a - 1) / a * a
}

// AdrenoBins works out the bin layout a GPU whose tiling scheme is
// gmem_bins (Adreno) uses for a render pass: bins as large as GMEM allows
// for the attachments (bytes per pixel × samples, each attachment
// page-aligned), aligned to the part's bin alignment and within its maximum
// bin size, bins grouped into visibility-stream pipes; direct (system
// memory) rendering when even the smallest bin does not fit or the pipes
// cannot cover the bins. Every size and limit is a tiling parameter of the
// GPU's description.
func AdrenoBins(g *arch.GPU, q BinQuery) (*BinLayout, error) {
	t := g.Tiling
	if t.Scheme != arch.GMEMBins {
		return nil, inputErrorf("%s (a %s GPU) has no GMEM bins to lay out: its tiling.scheme is %s, each %dx%d tile shaded from its polygon lists in a core's tile buffer; bins needs a GPU described with tiling.scheme gmem_bins, as the Adreno presets are (render shows %s's tiles)",
			g.ID, g.Family, t.Scheme, t.TileWidth, t.TileHeight, g.ID)
	}
	if err := g.ValidateTiling(); err != nil {
		return nil, &InputError{Msg: err.Error()}
	}
	if err := checkFrameSize(g, q.Width, q.Height); err != nil {
		return nil, err
	}
	if q.MSAA == 0 {
		q.MSAA = 1
	}
	if q.MSAA != 1 && q.MSAA != 2 && q.MSAA != 4 {
		return nil, inputErrorf("--msaa %d: 1, 2 or 4 samples", q.MSAA)
	}
	bl := &BinLayout{GPU: g.ID, Width: q.Width, Height: q.Height, MSAA: q.MSAA, GMEMBytes: t.GMEMKiB * 1024}
	if len(q.Colors) == 0 && (q.Depth == "" || q.Depth == "none") {
		return nil, inputErrorf("no attachments: give --color and/or --depth")
	}
	if m := t.MaxColorAttachments; m > 0 && len(q.Colors) > m {
		return nil, inputErrorf("%d colour attachments: %s binds at most %d (tiling.max_color_attachments)", len(q.Colors), g.ID, m)
	}
	for i, c := range q.Colors {
		b, ok := ColorFormats[c]
		if !ok {
			return nil, inputErrorf("colour format %q is not known (%s)", c, FormatNames(ColorFormats))
		}
		bl.Attachments = append(bl.Attachments, GMEMAttachment{Name: fmt.Sprintf("color%d (%s)", i, c), BytesPerPixel: b * q.MSAA})
	}
	if q.Depth != "" {
		planes, ok := DepthFormats[q.Depth]
		if !ok {
			return nil, inputErrorf("depth format %q is not known (%s)", q.Depth, FormatNames(DepthFormats))
		}
		for k, b := range planes {
			name := "depth (" + q.Depth + ")"
			if k == 1 {
				name = "stencil (" + q.Depth + ")"
			}
			bl.Attachments = append(bl.Attachments, GMEMAttachment{Name: name, BytesPerPixel: b * q.MSAA})
		}
	}
	for _, a := range bl.Attachments {
		bl.BytesPerPixel += a.BytesPerPixel
	}
	alignW, alignH := t.BinAlignW, t.BinAlignH
	gAlignW := firstPositive(t.GMEMAlignW, alignW)
	gAlignH := firstPositive(t.GMEMAlignH, alignH)
	maxW := firstPositive(t.BinMaxW, g.Raster.MaxFramebufferWidth)
	maxH := firstPositive(t.BinMaxH, g.Raster.MaxFramebufferHeight)
	maxW -= maxW % alignW
	maxH -= maxH % alignH
	if maxW < alignW || maxH < alignH {
		return nil, inputErrorf("%s: the maximum bin size %dx%d is below the bin alignment %dx%d", g.ID, t.BinMaxW, t.BinMaxH, alignW, alignH)
	}
	// fits lays the attachments of a bw×bh bin out in GMEM.
	fits := func(bw, bh int) (int, bool) {
		off := 0
		for i := range bl.Attachments {
			a := &bl.Attachments[i]
			off = alignUp(off, t.GMEMPageBytes)
			a.Offset = off
			a.Bytes = alignUp(bw, gAlignW) * alignUp(bh, gAlignH) * a.BytesPerPixel
			off += a.Bytes
		}
		return off, off <= bl.GMEMBytes
	}
	binSize := func(n, nb, align int) int { return alignUp((n+nb-1)/nb, align) }
	nx, ny := 1, 1
	for binSize(q.Width, nx, alignW) > maxW {
		nx++
	}
	for binSize(q.Height, ny, alignH) > maxH {
		ny++
	}
	for {
		bw, bh := binSize(q.Width, nx, alignW), binSize(q.Height, ny, alignH)
		if used, ok := fits(bw, bh); ok {
			bl.BinWidth, bl.BinHeight, bl.GMEMUsedBytes = bw, bh, used
			break
		}
		if bw <= alignW && bh <= alignH {
			used, _ := fits(alignW, alignH)
			bl.DirectRendering = true
			bl.Reason = fmt.Sprintf("the attachments need %d bytes per pixel; even one %dx%d bin needs %d bytes of the %d-byte GMEM", bl.BytesPerPixel, alignW, alignH, used, bl.GMEMBytes)
			bl.Bins, bl.Passes = 0, 1
			return bl, nil
		}
		// Split the longer side of the bin.
		if (bw >= bh && bw > alignW) || bh <= alignH {
			nx++
		} else {
			ny++
		}
	}
	bl.BinsX = (q.Width + bl.BinWidth - 1) / bl.BinWidth
	bl.BinsY = (q.Height + bl.BinHeight - 1) / bl.BinHeight
	bl.Bins = bl.BinsX * bl.BinsY
	// Pipes: rectangles of bins, as few bins per pipe as the pipe count
	// allows.
	pipes := max(t.VisibilityStreamPipes, 1)
	px, py := 1, 1
	for (bl.BinsY+py-1)/py > pipes {
		py++
	}
	for ((bl.BinsY+py-1)/py)*((bl.BinsX+px-1)/px) > pipes {
		px++
	}
	bl.PipeBinsX, bl.PipeBinsY = px, py
	bl.BinsPerPipe = px * py
	bl.Pipes = ((bl.BinsX + px - 1) / px) * ((bl.BinsY + py - 1) / py)
	bl.HWBinningMin = t.HWBinningMinBins
	bl.HWBinning = bl.Bins >= t.HWBinningMinBins
	bl.Passes = bl.Bins
	if bl.HWBinning {
		bl.Passes++
	}
	if bl.BinsPerPipe > t.PipeMaxBins {
		bl.DirectRendering = true
		bl.Reason = fmt.Sprintf("%d bins need %d bins per visibility-stream pipe (%d pipes); a pipe covers at most %d", bl.Bins, bl.BinsPerPipe, pipes, t.PipeMaxBins)
		bl.Passes = 1
	}
	return bl, nil
}

func firstPositive(v ...int) int {
	for _, x := range v {
		if x > 0 {
			return x
		}
	}
	return 1
}

// binOrder is the order bins are rendered in: rows alternating direction
// (an S), so consecutive bins are neighbours and share texture data.
// assumed: Mesa freedreno_gmem.c orders bins in such an S pattern.
func (bl *BinLayout) binOrder() []int {
	var out []int
	for y := 0; y < bl.BinsY; y++ {
		for i := 0; i < bl.BinsX; i++ {
			x := i
			if y%2 == 1 {
				x = bl.BinsX - 1 - i
			}
			out = append(out, y*bl.BinsX+x)
		}
	}
	return out
}

// pipeOf is the visibility-stream pipe of bin b.
func (bl *BinLayout) pipeOf(b int) int {
	bx, by := b%bl.BinsX, b/bl.BinsX
	return (by/bl.PipeBinsY)*((bl.BinsX+bl.PipeBinsX-1)/bl.PipeBinsX) + bx/bl.PipeBinsX
}
