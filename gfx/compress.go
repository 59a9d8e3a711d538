package gfx

import (
	"math"
	"math/bits"

	"github.com/pocketgpu/pocketgpu/arch"
)

// fbCompression is the GPU's lossless frame-buffer compression
// (tiling.framebuffer_compression): AFBC on Mali, UBWC on Adreno. A
// compressed image is a header buffer (compression_header_bytes per
// block of compression_block_width × _height pixels) and a body in which
// each block keeps the room of its uncompressed pixels but only its
// payload is written and read. The payload is an estimate from the
// pixels, the same for both kinds (their real encodings are not
// published in full): per sub-block of compression_subblock_width ×
// _height pixels and per channel an 8-bit base (the smallest value) and
// one delta per pixel at the bit width the largest delta needs; a
// sub-block costs at most its uncompressed bytes; a block's payload is
// rounded up to compression_payload_align_bytes and costs at most the
// uncompressed block; a block whose pixels are all equal (a solid
// colour) is its header alone.
type fbCompression struct {
	kind          string
	bw, bh        int // block
	sw, sh        int // sub-block
	header, align int
}

func newCompression(g *arch.GPU) *fbCompression {
	t := g.Tiling
	if t.FramebufferCompression == "" || t.FramebufferCompression == "none" {
		return nil
	}
	return &fbCompression{kind: t.FramebufferCompression, bw: t.CompressionBlockWidth, bh: t.CompressionBlockHeight,
		sw: t.CompressionSubblockWidth, sh: t.CompressionSubblockHeight, header: t.CompressionHeaderBytes, align: t.CompressionPayloadAlign}
}

// compressedImage is a colour attachment's compressed form: where its
// headers are, and each block's payload as last written.
type compressedImage struct {
	c          *fbCompression
	headerBase uint64
	bx, by     int   // blocks across and down
	payload    []int // bytes, per block
}

func (r *Renderer) newCompressedImage(c *fbCompression, a *attachment) *compressedImage {
	ci := &compressedImage{c: c, bx: ceilDivInt(a.w, c.bw), by: ceilDivInt(a.h, c.bh)}
	ci.payload = make([]int, ci.bx*ci.by)
	ci.headerBase = r.va.alloc(ci.bx * ci.by * c.header)
	return ci
}

// blockBytes is an uncompressed block's size: the room it keeps in the
// body.
func (ci *compressedImage) blockBytes() int { return ci.c.bw * ci.c.bh * colorBytes }

// bodyAddr is block b's place in the body (the attachment's memory).
func (ci *compressedImage) bodyAddr(a *attachment, b int) uint64 {
	return a.base + uint64(b*ci.blockBytes())
}

// subblockBytes estimates the payload of the pixels of col (row stride
// stride) in [x0, x1)×[y0, y1): per channel an 8-bit base and a delta per
// pixel at the width the largest delta needs, at most the pixels'
// uncompressed bytes.
func subblockBytes(col []uint32, stride, x0, y0, x1, y1 int) int {
	n := (x1 - x0) * (y1 - y0)
	if n <= 0 {
		return 0
	}
	total := 0
	for c := 0; c < colorBytes; c++ {
		lo, hi := uint8(math.MaxUint8), uint8(0)
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				v := uint8(col[y*stride+x] >> (bitsPerByte * c))
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		total += bitsPerByte + n*bits.Len8(hi-lo)
	}
	return min((total+bitsPerByte-1)/bitsPerByte, n*colorBytes)
}

// estimate is the payload of the block's pixels in the rectangle [x0,
// x1)×[y0, y1) of the attachment's colour (the rectangle lies in one
// block): 0 for a solid colour.
func (ci *compressedImage) estimate(a *attachment, x0, y0, x1, y1 int) int {
	c := ci.c
	first := a.color[y0*a.w+x0]
	solid := true
	for y := y0; y < y1 && solid; y++ {
		for x := x0; x < x1; x++ {
			if a.color[y*a.w+x] != first {
				solid = false
				break
			}
		}
	}
	if solid {
		return 0
	}
	bx0, by0 := x0/c.bw*c.bw, y0/c.bh*c.bh
	p := 0
	for sy := by0; sy < y1; sy += c.sh {
		for sx := bx0; sx < x1; sx += c.sw {
			p += subblockBytes(a.color, a.w, max(sx, x0), max(sy, y0), min(sx+c.sw, x1), min(sy+c.sh, y1))
		}
	}
	p = (p + c.align - 1) / c.align * c.align
	return min(p, (x1-x0)*(y1-y0)*colorBytes)
}

// blocksOf calls f for each block the rectangle touches, with the part of
// the block inside the rectangle and the image.
func (ci *compressedImage) blocksOf(a *attachment, x0, y0, w, h int, f func(b, ix0, iy0, ix1, iy1 int)) {
	c := ci.c
	for by := y0 / c.bh; by <= (y0+h-1)/c.bh; by++ {
		for bx := x0 / c.bw; bx <= (x0+w-1)/c.bw; bx++ {
			ix0, iy0 := max(bx*c.bw, x0), max(by*c.bh, y0)
			ix1, iy1 := min((bx+1)*c.bw, x0+w, a.w), min((by+1)*c.bh, y0+h, a.h)
			if ix0 < ix1 && iy0 < iy1 {
				f(by*ci.bx+bx, ix0, iy0, ix1, iy1)
			}
		}
	}
}

// store writes the rectangle of the attachment's colour compressed: each
// block's header and payload (a block split between two rectangles, a
// tile smaller than the block, is written as two pieces with a header
// each). It returns the bytes written and what they would have been
// uncompressed.
func (r *Renderer) storeCompressed(ci *compressedImage, a *attachment, x0, y0, w, h int) (written, plain uint64) {
	ci.blocksOf(a, x0, y0, w, h, func(b, ix0, iy0, ix1, iy1 int) {
		p := ci.estimate(a, ix0, iy0, ix1, iy1)
		ci.payload[b] = p
		r.ms.Write(ci.headerBase+uint64(b*ci.c.header), ci.c.header, StreamFramebuffer)
		if p > 0 {
			r.ms.Write(ci.bodyAddr(a, b), p, StreamFramebuffer)
		}
		written += uint64(ci.c.header + p)
		plain += uint64((ix1 - ix0) * (iy1 - iy0) * colorBytes)
	})
	return written, plain
}

// loadCompressed reads the rectangle's blocks as last written: headers
// and payloads. It returns the bytes read.
func (r *Renderer) loadCompressed(ci *compressedImage, a *attachment, x0, y0, w, h int) uint64 {
	var n uint64
	ci.blocksOf(a, x0, y0, w, h, func(b, ix0, iy0, ix1, iy1 int) {
		r.ms.Read(ci.headerBase+uint64(b*ci.c.header), ci.c.header, StreamFramebuffer)
		if p := ci.payload[b]; p > 0 {
			r.ms.Read(ci.bodyAddr(a, b), p, StreamFramebuffer)
		}
		n += uint64(ci.c.header + ci.payload[b])
	})
	return n
}

// texelAddrs are the addresses a texture unit reads for texel (x, y) of a
// compressed attachment: its block's header, and its bytes in the
// payload, at the texel's place in the block scaled by the block's
// compression (a solid block: the header alone).
func (ci *compressedImage) texelAddrs(a *attachment, x, y int, out []uint64) []uint64 {
	c := ci.c
	bx, by := x/c.bw, y/c.bh
	b := by*ci.bx + bx
	out = append(out, ci.headerBase+uint64(b*c.header))
	if p := ci.payload[b]; p > 0 {
		off := ((y-by*c.bh)*c.bw + (x - bx*c.bw)) * colorBytes
		out = append(out, ci.bodyAddr(a, b)+uint64(off*p/ci.blockBytes()))
	}
	return out
}
