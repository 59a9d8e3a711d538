package gfx

import (
	"github.com/pocketgpu/pocketgpu/gfx/layout"
)

// rectTraffic sends the memory traffic of moving a rectangle of an
// attachment between memory and a tile buffer or GMEM, and returns its
// bytes. u-interleaved: each 16×16 block the rectangle touches, whole when
// the rectangle holds all of the block's pixels inside the image (its
// padding at the image's edge included: the layout's rule, seed 002), or
// else the rectangle's part of it from its first pixel (a tile smaller
// than the block); linear: the rectangle's rows.
func (r *Renderer) rectTraffic(a *attachment, x0, y0, w, h int, write bool) uint64 {
	img := a.img
	access := r.ms.Read
	if write {
		access = r.ms.Write
	}
	var total uint64
	if img.Kind == layout.UInterleaved {
		const ts = layout.TileSize
		for by := y0 / ts; by <= (y0+h-1)/ts; by++ {
			for bx := x0 / ts; bx <= (x0+w-1)/ts; bx++ {
				bx0, by0 := bx*ts, by*ts
				bx1, by1 := min(bx0+ts, img.Width), min(by0+ts, img.Height)
				ix0, iy0 := max(bx0, x0), max(by0, y0)
				ix1, iy1 := min(bx1, x0+w), min(by1, y0+h)
				n := ts * ts * img.BPP
				addr := a.base + uint64(img.TileBase(bx, by))
				if ix0 != bx0 || iy0 != by0 || ix1 != bx1 || iy1 != by1 {
					n = (ix1 - ix0) * (iy1 - iy0) * img.BPP
					addr = a.base + uint64(img.Offset(ix0, iy0))
				}
				access(addr, n, StreamFramebuffer)
				total += uint64(n)
			}
		}
		return total
	}
	for y := y0; y < y0+h; y++ {
		access(a.base+uint64(img.Offset(x0, y)), w*img.BPP, StreamFramebuffer)
		total += uint64(w * img.BPP)
	}
	return total
}

// storeColor writes a finished tile's or bin's colour to its attachment in
// memory, resolved (the average of its samples), and returns the bytes
// moved.
func (fr *frameRun) storeColor(t *target, a *attachment) uint64 {
	for y := 0; y < t.h; y++ {
		for x := 0; x < t.w; x++ {
			a.color[(t.y0+y)*a.w+t.x0+x] = t.resolved(y*t.w + x)
		}
	}
	if a.comp != nil {
		n, plain := fr.r.storeCompressed(a.comp, a, t.x0, t.y0, t.w, t.h)
		fr.st.CompressedBytes += n
		fr.st.UncompressedBytes += plain
		fr.st.AttachmentStoreBytes += n
		return n
	}
	n := fr.r.rectTraffic(a, t.x0, t.y0, t.w, t.h, true)
	fr.st.AttachmentStoreBytes += n
	return n
}

// storeDepth writes a finished tile's or bin's depth samples to the depth
// attachment in memory and returns the bytes moved.
func (fr *frameRun) storeDepth(t *target, a *attachment) uint64 {
	s := t.samples
	for y := 0; y < t.h; y++ {
		copy(a.depth[((t.y0+y)*a.w+t.x0)*s:((t.y0+y)*a.w+t.x0+t.w)*s], t.depth[y*t.w*s:(y+1)*t.w*s])
	}
	*t.tileBytes += uint64(len(t.depth) * t.depthFmt.bytes)
	n := fr.r.rectTraffic(a, t.x0, t.y0, t.w, t.h, true)
	fr.st.AttachmentStoreBytes += n
	return n
}

// loadColor reads a tile's or bin's colour from its attachment in memory
// into every sample, and returns the bytes moved.
func (fr *frameRun) loadColor(t *target, a *attachment) uint64 {
	s := t.samples
	for y := 0; y < t.h; y++ {
		for x := 0; x < t.w; x++ {
			c := a.color[(t.y0+y)*a.w+t.x0+x]
			for k := 0; k < s; k++ {
				t.color[(y*t.w+x)*s+k] = c
			}
		}
	}
	*t.tileBytes += uint64(len(t.color) * colorBytes)
	var n uint64
	if a.comp != nil {
		n = fr.r.loadCompressed(a.comp, a, t.x0, t.y0, t.w, t.h)
	} else {
		n = fr.r.rectTraffic(a, t.x0, t.y0, t.w, t.h, false)
	}
	fr.st.AttachmentLoadBytes += n
	return n
}

// loadDepth reads a tile's or bin's depth samples from the depth
// attachment in memory, and returns the bytes moved.
func (fr *frameRun) loadDepth(t *target, a *attachment) uint64 {
	s := t.samples
	for y := 0; y < t.h; y++ {
		copy(t.depth[y*t.w*s:(y+1)*t.w*s], a.depth[((t.y0+y)*a.w+t.x0)*s:((t.y0+y)*a.w+t.x0+t.w)*s])
	}
	*t.tileBytes += uint64(len(t.depth) * t.depthFmt.bytes)
	n := fr.r.rectTraffic(a, t.x0, t.y0, t.w, t.h, false)
	fr.st.AttachmentLoadBytes += n
	return n
}
