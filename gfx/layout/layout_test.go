package layout

import (
	"strings"
	"testing"
)

// seedFormula is seed 002's picture of a u-interleaved index, most
// significant bit first, copied as the seed writes it.
const seedFormula = "| y3 | (x3 ^ y3) | y2 | (y2 ^ x2) | y1 | (y1 ^ x1) | y0 | (y0 ^ x0) |"

// fromSeed evaluates seedFormula for texel (x, y): an independent reading
// of the seed, field by field.
func fromSeed(t *testing.T, x, y int) int {
	t.Helper()
	var fields []string
	for _, f := range strings.Split(seedFormula, "|") {
		if f = strings.TrimSpace(f); f != "" {
			fields = append(fields, f)
		}
	}
	if len(fields) != 8 {
		t.Fatalf("seed formula has %d fields", len(fields))
	}
	bit := func(name string) int {
		k := int(name[1] - '0')
		if name[0] == 'x' {
			return (x >> k) & 1
		}
		return (y >> k) & 1
	}
	idx := 0
	for _, f := range fields {
		f = strings.Trim(f, "()")
		v := 0
		for _, term := range strings.Split(f, "^") {
			v ^= bit(strings.TrimSpace(term))
		}
		idx = idx<<1 | v
	}
	return idx
}

func TestIndexFollowsSeedAndIsABijection(t *testing.T) {
	seen := make([]bool, TileTexels)
	for y := 0; y < TileSize; y++ {
		for x := 0; x < TileSize; x++ {
			i := Index(x, y)
			if want := fromSeed(t, x, y); i != want {
				t.Fatalf("Index(%d,%d) = %d, seed 002 gives %d", x, y, i, want)
			}
			if i < 0 || i >= TileTexels || seen[i] {
				t.Fatalf("Index(%d,%d) = %d repeats or is out of range", x, y, i)
			}
			seen[i] = true
			if ux, uy := Unindex(i); ux != x || uy != y {
				t.Fatalf("Unindex(%d) = (%d,%d), want (%d,%d)", i, ux, uy, x, y)
			}
		}
	}
}

func TestIndexKnownValues(t *testing.T) {
	tests := []struct{ x, y, want int }{
		{0, 0, 0}, {1, 0, 1}, {0, 1, 3}, {1, 1, 2}, {2, 0, 4}, {15, 15, 0xaa}, {15, 0, 0x55}, {0, 15, 0xff},
	}
	for _, tt := range tests {
		if got := Index(tt.x, tt.y); got != tt.want {
			t.Errorf("Index(%d,%d) = %#x, want %#x", tt.x, tt.y, got, tt.want)
		}
	}
}

// slowOffsets lays an image out the long way: tiles in raster order, each
// tile's texels in curve order (from a table inverted from the seed's
// formula, not from Unindex), counting bytes as it goes; padding texels take
// room but are not recorded.
func slowOffsets(t *testing.T, w, h, bpp int) map[[2]int]int {
	var byIndex [256][2]int
	var have [256]bool
	for yy := 0; yy < 16; yy++ {
		for xx := 0; xx < 16; xx++ {
			i := fromSeed(t, xx, yy)
			byIndex[i], have[i] = [2]int{xx, yy}, true
		}
	}
	out := map[[2]int]int{}
	off := 0
	for ty := 0; ty < (h+15)/16; ty++ {
		for tx := 0; tx < (w+15)/16; tx++ {
			for i := 0; i < 256; i++ {
				if !have[i] {
					t.Fatalf("no texel has index %d", i)
				}
				if x, y := tx*16+byIndex[i][0], ty*16+byIndex[i][1]; x < w && y < h {
					out[[2]int{x, y}] = off
				}
				off += bpp
			}
		}
	}
	return out
}

func TestOffsetsAgainstSlowReference(t *testing.T) {
	for _, tt := range []struct{ w, h, bpp int }{{1, 1, 4}, {17, 5, 4}, {33, 31, 1}, {20, 40, 3}, {16, 16, 16}, {47, 18, 8}} {
		im := Image{Kind: UInterleaved, Width: tt.w, Height: tt.h, BPP: tt.bpp}
		ref := slowOffsets(t, tt.w, tt.h, tt.bpp)
		used := map[int]bool{}
		for y := 0; y < tt.h; y++ {
			for x := 0; x < tt.w; x++ {
				off := im.Offset(x, y)
				if want := ref[[2]int{x, y}]; off != want {
					t.Fatalf("%dx%d bpp %d: Offset(%d,%d) = %d, reference %d", tt.w, tt.h, tt.bpp, x, y, off, want)
				}
				if used[off] || off+tt.bpp > im.Size() {
					t.Fatalf("%dx%d: offset %d reused or past the end (%d)", tt.w, tt.h, off, im.Size())
				}
				used[off] = true
				for b := 0; b < tt.bpp; b++ {
					gx, gy, gb, ok := im.TexelAt(off + b)
					if !ok || gx != x || gy != y || gb != b {
						t.Fatalf("TexelAt(%d) = (%d,%d) byte %d ok %v, want (%d,%d) byte %d", off+b, gx, gy, gb, ok, x, y, b)
					}
				}
			}
		}
		// Every other byte is padding.
		pad := 0
		for off := 0; off < im.Size(); off += tt.bpp {
			if _, _, _, ok := im.TexelAt(off); !ok {
				pad++
			}
		}
		if want := im.TilesX()*im.TilesY()*256 - tt.w*tt.h; pad != want {
			t.Errorf("%dx%d: %d padding texels, want %d", tt.w, tt.h, pad, want)
		}
	}
}

func TestLinear(t *testing.T) {
	im := Image{Kind: Linear, Width: 7, Height: 3, BPP: 4}
	if im.Size() != 84 || im.Offset(2, 1) != 36 {
		t.Fatalf("size %d, Offset(2,1) %d", im.Size(), im.Offset(2, 1))
	}
	for off := 0; off < im.Size(); off++ {
		x, y, b, ok := im.TexelAt(off)
		if !ok || im.Offset(x, y)+b != off {
			t.Fatalf("TexelAt(%d) = (%d,%d,%d,%v)", off, x, y, b, ok)
		}
	}
	if _, _, _, ok := im.TexelAt(84); ok {
		t.Error("offset past the end accepted")
	}
}

func TestTileBaseIsContiguous(t *testing.T) {
	im := Image{Kind: UInterleaved, Width: 50, Height: 20, BPP: 4}
	for ty := 0; ty < im.TilesY(); ty++ {
		for tx := 0; tx < im.TilesX(); tx++ {
			base := im.TileBase(tx, ty)
			for y := 0; y < 16; y++ {
				for x := 0; x < 16; x++ {
					if o := im.Offset(tx*16+x, ty*16+y); o < base || o >= base+1024 {
						t.Fatalf("texel (%d,%d) at %d outside tile (%d,%d) [%d,%d)", tx*16+x, ty*16+y, o, tx, ty, base, base+1024)
					}
				}
			}
		}
	}
}

func TestCheckAndParse(t *testing.T) {
	bad := []Image{{Width: 0, Height: 1, BPP: 4}, {Width: 1, Height: 1, BPP: 0}, {Width: 1 << 21, Height: 1, BPP: 4}, {Width: 1, Height: 1, BPP: 65}}
	for _, im := range bad {
		if im.Check() == nil {
			t.Errorf("%+v accepted", im)
		}
	}
	if _, err := Parse("tiled"); err == nil || !strings.Contains(err.Error(), "u-interleaved") {
		t.Errorf("Parse(tiled) = %v", err)
	}
	if k, err := Parse("u-interleaved"); err != nil || k != UInterleaved || k.String() != "u-interleaved" {
		t.Errorf("Parse(u-interleaved) = %v, %v", k, err)
	}
}
