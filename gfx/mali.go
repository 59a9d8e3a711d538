package gfx

import (
	"encoding/binary"
	"hash/crc32"
	"math"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/gfx/layout"
)

// Mali tiler parameters.
const (
	// maliLevels: hierarchy levels of 16×16 up to 2048×2048 bins, all
	// enabled. assumed: Mesa pan_tiler.c (hierarchical tiling spans 16x16
	// to 2048x2048; the driver enables every level, hierarchy_mask 0xFF).
	maliLevels = 8
	// maxBinsPerPrim: a primitive goes to the smallest level at which it
	// overlaps at most this many bins (2×2). assumed: seed 000 §Rasterization
	// and Tiled Rendering says larger power-of-two bins contain triangles to
	// limit duplication, not the threshold.
	maxBinsPerPrim = 4
	// polyEntryBytes: one polygon-list entry per primitive per bin.
	// assumed: 8 bytes, the granule of Mali's tiler structures (Mesa
	// pan_tiler.c: 8 bytes of header per bin).
	polyEntryBytes = 8
	// polyHeaderBytes: header per bin per level (Mesa pan_tiler.c).
	polyHeaderBytes = 8
	// Polygon-list memory is allocated per bin in chunks as it fills.
	// Bifrost allocates finely with no minimum (seed 000 §Rasterization
	// and Tiled Rendering); assumed 128-byte chunks. Midgard reserves a
	// body for every bin of every level up front: assumed 512 bytes (Mesa
	// pan_tiler.c estimates 512 bytes of body per tile).
	bifrostChunkBytes = 128
	midgardChunkBytes = 512
	// crcBytesPerTile: the CRC kept per 16×16 tile for transaction
	// elimination. assumed: 8 bytes (one 64-bit word per tile).
	crcBytesPerTile = 8
)

// binList is one bin's polygon list.
type binList struct {
	prims  []int32
	chunks []uint64
}

// renderTiled renders a frame tile by tile: the Mali model (hierarchical
// bins, sample-less triangles dropped by the tiler, transaction
// elimination) when mali is set, otherwise flat binning into the GPU's
// nominal tiles.
func (fr *frameRun) renderTiled(mali bool) error {
	r := fr.r
	g := r.g
	W, H := r.opt.Width, r.opt.Height
	tw, th := r.tileW, r.tileH
	tx, ty := (W+tw-1)/tw, (H+th-1)/th
	levels := 1
	if mali && g.Tiling.Hierarchical {
		levels = maliLevels
	}
	chunk := bifrostChunkBytes
	if g.Family == arch.Midgard {
		chunk = midgardChunkBytes
	}
	perChunk := (chunk - 8) / polyEntryBytes // the last 8 bytes link to the next chunk
	lists := make([][]binList, levels)
	lx := make([]int, levels)
	ly := make([]int, levels)
	headerBase := make([]uint64, levels)
	for l := 0; l < levels; l++ {
		lx[l] = (tx + (1 << l) - 1) >> l
		ly[l] = (ty + (1 << l) - 1) >> l
		lists[l] = make([]binList, lx[l]*ly[l])
		headerBase[l] = r.va.alloc(lx[l] * ly[l] * polyHeaderBytes)
		if g.Family == arch.Midgard {
			fr.st.PolygonListAlloc += uint64(lx[l] * ly[l] * (polyHeaderBytes + chunk))
		} else {
			fr.st.PolygonListAlloc += uint64(lx[l] * ly[l] * polyHeaderBytes)
		}
	}
	if levels > 1 {
		fr.st.HierarchyLevelUses = make([]int, levels)
	}
	heap := r.va.alloc(0) // chunks are carved from here on
	heapNext := heap
	geomBytes := fr.dramTotal()

	// Tiling: every primitive into the bins of one level.
	var refs uint64
	for pi := range fr.prims {
		p := &fr.prims[pi]
		if mali && !p.coversSample() {
			fr.st.PrimitivesCulled.NoSample++
			continue
		}
		if p.bx0 > p.bx1 || p.by0 > p.by1 {
			continue
		}
		t0x, t1x := int(p.bx0)/tw, int(p.bx1)/tw
		t0y, t1y := int(p.by0)/th, int(p.by1)/th
		l := 0
		for l < levels-1 && ((t1x>>l)-(t0x>>l)+1)*((t1y>>l)-(t0y>>l)+1) > maxBinsPerPrim {
			l++
		}
		if levels > 1 {
			fr.st.HierarchyLevelUses[l]++
		}
		fr.st.PrimitivesBinned++
		for by := t0y >> l; by <= t1y>>l; by++ {
			for bx := t0x >> l; bx <= t1x>>l; bx++ {
				bl := &lists[l][by*lx[l]+bx]
				k := len(bl.prims)
				if k%perChunk == 0 {
					bl.chunks = append(bl.chunks, heapNext)
					heapNext += uint64(chunk)
					if g.Family != arch.Midgard || k > 0 { // Midgard's first chunk is the reserved body
						fr.st.PolygonListAlloc += uint64(chunk)
					}
				}
				bl.prims = append(bl.prims, int32(pi))
				r.ms.Write(bl.chunks[k/perChunk]+uint64(k%perChunk*polyEntryBytes), polyEntryBytes, StreamBinning)
				fr.st.PolygonListBytes += polyEntryBytes
				refs++
			}
		}
	}
	for l := 0; l < levels; l++ {
		for b := range lists[l] {
			if len(lists[l][b].prims) > 0 {
				r.ms.Write(headerBase[l]+uint64(b*polyHeaderBytes), polyHeaderBytes, StreamBinning)
				fr.st.PolygonListBytes += polyHeaderBytes
			}
		}
	}
	r.va.next = max(r.va.next, heapNext+64<<10)
	tilerBytes := fr.dramTotal() - geomBytes
	vsCycles := r.cost.Shader(fr.vertexWork, g.Cores)
	geomPass := math.Max(math.Max(vsCycles, r.cost.Tiler(uint64(len(fr.prims)), refs)), r.cost.Memory(Work{DRAMBytes: float64(tilerBytes + geomBytes)}))
	fr.addPass("vertex and tiling", geomPass)

	// Fragment work, tile by tile, each tile to the core free first.
	fr.initGrid(tw, th, tx, ty)
	te := mali
	tgt := &target{tileBytes: &fr.st.TileMemoryBytes}
	fu := newFragUnit(fr, tgt)
	coreBusy := make([]float64, max(g.Cores, 1))
	recBytes := uint64(16 + 4*r.nvary)
	fragStart := fr.dramTotal()
	var heads [maliLevels][]int32
	var crcBuf []byte
	for t := 0; t < tx*ty; t++ {
		if err := fr.checkpoint("tiles", t, tx*ty); err != nil {
			return err
		}
		cx, cy := t%tx, t/tx
		core := 0
		for c := range coreBusy {
			if coreBusy[c] < coreBusy[core] {
				core = c
			}
		}
		fu.core = core
		x0, y0 := cx*tw, cy*th
		tgt.reset(x0, y0, min(tw, W-x0), min(th, H-y0))
		fu.begin(int32(t))
		before := fr.dramTotal()
		var n uint64
		for l := 0; l < levels; l++ {
			b := (cy>>l)*lx[l] + (cx >> l)
			bl := &lists[l][b]
			heads[l] = bl.prims
			r.ms.Read(headerBase[l]+uint64(b*polyHeaderBytes), polyHeaderBytes, StreamBinning)
			for k := range bl.prims {
				r.ms.Read(bl.chunks[k/perChunk]+uint64(k%perChunk*polyEntryBytes), polyEntryBytes, StreamBinning)
			}
			n += uint64(len(bl.prims))
		}
		// Merge the levels' lists back into submission order.
		for {
			best := -1
			for l := 0; l < levels; l++ {
				if len(heads[l]) > 0 && (best < 0 || heads[l][0] < heads[best][0]) {
					best = l
				}
			}
			if best < 0 {
				break
			}
			pi := heads[best][0]
			heads[best] = heads[best][1:]
			for _, v := range fr.prims[pi].v {
				if off := uint64(v) * recBytes; off+recBytes <= uint64(r.ptCap) {
					r.ms.Read(r.ptBase+off, int(recBytes), StreamGeometry)
				}
			}
			if err := fu.raster(pi); err != nil {
				return err
			}
		}
		if err := fu.flush(); err != nil {
			return err
		}
		fr.grid.Prims[t] = n
		fr.st.PrimitiveRefs += n
		fr.st.PrimitiveRefsMax = max(fr.st.PrimitiveRefsMax, n)
		// Write-back, unless the tile's CRC matches the last frame's.
		crcBuf = crcBuf[:0]
		for _, c := range tgt.color {
			crcBuf = binary.LittleEndian.AppendUint32(crcBuf, c)
		}
		crc := crc32.ChecksumIEEE(crcBuf)
		fr.st.TileMemoryBytes += uint64(len(tgt.color) * 4)
		state := TileWritten
		if te {
			r.ms.Read(r.crcBase+uint64(t*crcBytesPerTile), crcBytesPerTile, StreamFramebuffer)
			if r.crcValid[t] && r.crcs[t] == crc {
				state = TileEliminated
			} else {
				r.crcs[t], r.crcValid[t] = crc, true
				r.ms.Write(r.crcBase+uint64(t*crcBytesPerTile), crcBytesPerTile, StreamFramebuffer)
			}
		}
		fr.grid.State[t] = state
		if state == TileWritten {
			fr.writeTile(tgt)
			fr.st.TilesWritten++
		} else {
			fr.st.TilesEliminated++
		}
		w := fr.work[t]
		w.DRAMBytes = float64(fr.dramTotal() - before)
		cyc := math.Max(r.cost.Shader(w, 1), r.cost.Memory(w))
		fr.grid.Cycles[t] = cyc
		coreBusy[core] += cyc
	}
	span := 0.0
	for _, c := range coreBusy {
		span = math.Max(span, c)
	}
	fr.flushMemory()
	fragPass := math.Max(span, r.cost.Memory(Work{DRAMBytes: float64(fr.dramTotal() - fragStart)}))
	fr.addPass("fragment", fragPass)
	fr.st.TilesTotal = tx * ty
	fr.st.TileWidth, fr.st.TileHeight = tw, th
	fr.st.Passes = 2
	return nil
}

// writeTile copies a finished tile to the colour buffer in memory and
// sends the write through L2: whole 16×16 u-interleaved blocks (1 KiB
// contiguous at 4 bytes per pixel), or the tile's rows in linear layout.
func (fr *frameRun) writeTile(t *target) {
	r := fr.r
	for y := 0; y < t.h; y++ {
		for x := 0; x < t.w; x++ {
			o := r.fbImg.Offset(t.x0+x, t.y0+y)
			binary.LittleEndian.PutUint32(r.fb[o:], t.color[y*t.w+x])
		}
	}
	img := r.fbImg
	if img.Kind == layout.UInterleaved {
		const ts = layout.TileSize
		for by := t.y0 / ts; by <= (t.y0+t.h-1)/ts; by++ {
			for bx := t.x0 / ts; bx <= (t.x0+t.w-1)/ts; bx++ {
				r.ms.Write(r.fbBase+uint64(img.TileBase(bx, by)), ts*ts*img.BPP, StreamFramebuffer)
			}
		}
		return
	}
	for y := t.y0; y < t.y0+t.h; y++ {
		r.ms.Write(r.fbBase+uint64(img.Offset(t.x0, y)), t.w*img.BPP, StreamFramebuffer)
	}
}
