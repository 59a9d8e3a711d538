// Package layout computes where a texel of an image lives in memory: the
// plain linear (row-major) layout and Arm's 16×16 u-interleaved tiling
// (DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED), which Mali GPUs write
// frame buffers in and which pocketgpu uses to give tile write-backs their
// real DRAM addresses.
//
// U-interleaved (seed 002 §U-interleaved tiling): the image is cut into
// 16×16-texel tiles stored one after the other in raster order (tiles
// occur in source order); the 256 texels inside a tile are ordered by a
// Morton-like curve whose index interleaves the y and x bits with each
// x bit XORed with the y bit of the same weight. From the most significant
// bit down, the 8-bit index within the tile is
//
//	y3 | x3^y3 | y2 | x2^y2 | y1 | x1^y1 | y0 | x0^y0
//
// so bit 2k is x_k XOR y_k and bit 2k+1 is y_k. A row of 16 texels of
// 4 bytes is one 64-byte cache line's worth of data (seed 002), and a whole
// tile is 1 KiB at 4 bytes per texel.
package layout

import "fmt"

// TileSize is the side of a u-interleaved tile in texels (seed 002
// §U-interleaved tiling: 16x16 tiles for regular formats).
const TileSize = 16

// TileTexels is the number of texels in one u-interleaved tile.
const TileTexels = TileSize * TileSize

// Kind is a memory layout.
type Kind int

const (
	Linear Kind = iota
	UInterleaved
)

// Kinds lists the layouts by their command-line names.
var Kinds = map[string]Kind{"linear": Linear, "u-interleaved": UInterleaved}

func (k Kind) String() string {
	if k == UInterleaved {
		return "u-interleaved"
	}
	return "linear"
}

// Parse returns the layout called name.
func Parse(name string) (Kind, error) {
	k, ok := Kinds[name]
	if !ok {
		return 0, fmt.Errorf("unknown layout %q (linear or u-interleaved)", name)
	}
	return k, nil
}

// Index is the position (0..255) of texel (x, y) of a tile, x and y in
// 0..15, along the u-interleaved curve.
func Index(x, y int) int {
	i := 0
	for k := 0; k < 4; k++ {
		xb := (x >> k) & 1
		yb := (y >> k) & 1
		i |= (xb ^ yb) << (2 * k)
		i |= yb << (2*k + 1)
	}
	return i
}

// Unindex is the inverse of Index: the texel of a tile at position i.
func Unindex(i int) (x, y int) {
	for k := 0; k < 4; k++ {
		yb := (i >> (2*k + 1)) & 1
		xb := ((i >> (2 * k)) & 1) ^ yb
		x |= xb << k
		y |= yb << k
	}
	return x, y
}

// Image describes an image's geometry in memory.
type Image struct {
	Kind   Kind
	Width  int // texels
	Height int
	BPP    int // bytes per texel
}

// Check reports a geometry that cannot be laid out.
func (im Image) Check() error {
	switch {
	case im.Width < 1 || im.Height < 1:
		return fmt.Errorf("image size %dx%d: width and height must be at least 1", im.Width, im.Height)
	case im.Width > 1<<20 || im.Height > 1<<20:
		return fmt.Errorf("image size %dx%d: at most %d texels a side", im.Width, im.Height, 1<<20)
	case im.BPP < 1 || im.BPP > 64:
		return fmt.Errorf("%d bytes per texel: 1 to 64 are possible", im.BPP)
	}
	return nil
}

// TilesX is the number of tile columns (the last one padded).
func (im Image) TilesX() int { return (im.Width + TileSize - 1) / TileSize }

// TilesY is the number of tile rows.
func (im Image) TilesY() int { return (im.Height + TileSize - 1) / TileSize }

// RowPitch is the distance between rows of texels (linear) or of tiles
// (u-interleaved) in bytes.
func (im Image) RowPitch() int {
	if im.Kind == UInterleaved {
		return im.TilesX() * TileTexels * im.BPP
	}
	return im.Width * im.BPP
}

// Size is the image's size in bytes, padding included.
func (im Image) Size() int {
	if im.Kind == UInterleaved {
		return im.RowPitch() * im.TilesY()
	}
	return im.RowPitch() * im.Height
}

// Offset is the byte offset of texel (x, y); the caller keeps x and y in
// range.
func (im Image) Offset(x, y int) int {
	if im.Kind == UInterleaved {
		tile := (y/TileSize)*im.TilesX() + x/TileSize
		return (tile*TileTexels + Index(x%TileSize, y%TileSize)) * im.BPP
	}
	return y*im.Width*im.BPP + x*im.BPP
}

// TexelAt is the texel holding byte off and the byte's position within the
// texel; ok is false when off is outside the image or in the padding of a
// u-interleaved image's last tile column or row.
func (im Image) TexelAt(off int) (x, y, byteInTexel int, ok bool) {
	if off < 0 || off >= im.Size() {
		return 0, 0, 0, false
	}
	t, b := off/im.BPP, off%im.BPP
	if im.Kind == UInterleaved {
		tile, i := t/TileTexels, t%TileTexels
		ix, iy := Unindex(i)
		x = (tile%im.TilesX())*TileSize + ix
		y = (tile/im.TilesX())*TileSize + iy
	} else {
		x, y = t%im.Width, t/im.Width
	}
	if x >= im.Width || y >= im.Height {
		return x, y, b, false
	}
	return x, y, b, true
}

// TileBase is the offset of the first byte of u-interleaved tile (tx, ty),
// in tile units; a tile's TileTexels×BPP bytes follow it contiguously.
func (im Image) TileBase(tx, ty int) int {
	return (ty*im.TilesX() + tx) * TileTexels * im.BPP
}
