package gfx

import (
	"strings"
	"testing"
)

func TestAdrenoBins(t *testing.T) {
	tests := []struct {
		gpu                          string
		q                            BinQuery
		bw, bh, bx, by, perPipe, bpp int
		passes                       int
		direct                       bool
	}{
		// 1920x1080, RGBA8 + D24S8 in 1 MiB: worked through in
		// docs/rendering.md (bins 320x368, 6x3).
		{"adreno-640", BinQuery{Width: 1920, Height: 1080, Colors: []string{"rgba8"}, Depth: "d24s8"}, 320, 368, 6, 3, 1, 8, 19, false},
		// Small enough for one bin: no binning pass.
		{"adreno-640", BinQuery{Width: 256, Height: 256, Colors: []string{"rgba8"}, Depth: "d24s8"}, 256, 256, 1, 1, 1, 8, 1, false},
		// 4x MSAA quadruples the bytes per pixel.
		{"adreno-640", BinQuery{Width: 1920, Height: 1080, Colors: []string{"rgba8"}, Depth: "d24s8", MSAA: 4}, 160, 192, 12, 6, 3, 32, 73, false},
		// 2 MiB of GMEM and 64x32 alignment on the 730.
		{"adreno-730", BinQuery{Width: 1920, Height: 1080, Colors: []string{"rgba8"}, Depth: "d24s8"}, 512, 384, 4, 3, 1, 8, 13, false},
		// 16 KiB of GMEM: 2048-pixel bins, the wider side split first.
		{"adreno-16k-gmem.yaml", BinQuery{Width: 128, Height: 64, Colors: []string{"rgba8"}, Depth: "d24s8"}, 32, 64, 4, 1, 1, 8, 5, false},
		// Too many bins for the pipes: direct rendering.
		{"adreno-16k-gmem.yaml", BinQuery{Width: 4096, Height: 4096, Colors: []string{"rgba8"}, Depth: "d24s8"}, 32, 64, 128, 64, 256, 8, 1, true},
		// Not even one bin fits: direct rendering.
		{"adreno-1k-gmem.yaml", BinQuery{Width: 64, Height: 64, Colors: []string{"rgba8"}, Depth: "d24s8"}, 0, 0, 0, 0, 0, 8, 1, true},
	}
	for _, tt := range tests {
		bl, err := AdrenoBins(gpu(t, tt.gpu), tt.q)
		if err != nil {
			t.Fatalf("%s %+v: %v", tt.gpu, tt.q, err)
		}
		got := []int{bl.BinWidth, bl.BinHeight, bl.BinsX, bl.BinsY, bl.BinsPerPipe, bl.BytesPerPixel, bl.Passes}
		want := []int{tt.bw, tt.bh, tt.bx, tt.by, tt.perPipe, tt.bpp, tt.passes}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("%s %dx%d msaa %d: bin %dx%d, %dx%d bins, %d per pipe, %d B/px, %d passes; want %v", tt.gpu, tt.q.Width, tt.q.Height, tt.q.MSAA,
					bl.BinWidth, bl.BinHeight, bl.BinsX, bl.BinsY, bl.BinsPerPipe, bl.BytesPerPixel, bl.Passes, want)
				break
			}
		}
		if bl.DirectRendering != tt.direct || (tt.direct && bl.Reason == "") {
			t.Errorf("%s %dx%d: direct %v (%s)", tt.gpu, tt.q.Width, tt.q.Height, bl.DirectRendering, bl.Reason)
		}
		if !bl.DirectRendering {
			if bl.GMEMUsedBytes > bl.GMEMBytes || bl.BinsX*bl.BinWidth < tt.q.Width || (bl.BinsX-1)*bl.BinWidth >= tt.q.Width {
				t.Errorf("%s: layout does not cover the frame or overflows GMEM: %+v", tt.gpu, bl)
			}
			if bl.Pipes*bl.BinsPerPipe < bl.Bins {
				t.Errorf("%s: %d pipes of %d bins do not cover %d bins", tt.gpu, bl.Pipes, bl.BinsPerPipe, bl.Bins)
			}
			// Every bin is in one pipe, and the bin order visits each once.
			seen := map[int]bool{}
			for _, b := range bl.binOrder() {
				if seen[b] || bl.pipeOf(b) < 0 || bl.pipeOf(b) >= bl.Pipes {
					t.Fatalf("%s: bin %d repeated or in pipe %d of %d", tt.gpu, b, bl.pipeOf(b), bl.Pipes)
				}
				seen[b] = true
			}
			if len(seen) != bl.Bins {
				t.Errorf("%s: bin order visits %d of %d bins", tt.gpu, len(seen), bl.Bins)
			}
		}
	}
}

func TestAdrenoBinsBadInput(t *testing.T) {
	tests := []struct {
		gpu  string
		q    BinQuery
		want string
	}{
		{"mali-g52", BinQuery{Width: 64, Height: 64, Colors: []string{"rgba8"}}, "its tiling.scheme is tile_lists"},
		{"adreno-640", BinQuery{Width: 64, Height: 64, Colors: []string{"rgbx"}}, `colour format "rgbx" is not known`},
		{"adreno-640", BinQuery{Width: 64, Height: 64, Colors: []string{"rgba8"}, Depth: "d99"}, `depth format "d99"`},
		{"adreno-640", BinQuery{Width: 64, Height: 64, Colors: []string{"rgba8"}, MSAA: 3}, "--msaa 3"},
		{"adreno-640", BinQuery{Width: 20000, Height: 64, Colors: []string{"rgba8"}}, "over adreno-640's limit"},
		{"adreno-640", BinQuery{Width: 0, Height: 64, Colors: []string{"rgba8"}}, "at least 1"},
		{"adreno-640", BinQuery{Width: 64, Height: 64, Depth: "none"}, "no attachments"},
	}
	for _, tt := range tests {
		_, err := AdrenoBins(gpu(t, tt.gpu), tt.q)
		if err == nil || !strings.Contains(err.Error(), tt.want) || !IsUserError(err) {
			t.Errorf("%s %+v: %v, want %q", tt.gpu, tt.q, err, tt.want)
		}
	}
}
