package gfx

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"

	"github.com/pocketgpu/pocketgpu/gfx/layout"
)

// binList is one bin's polygon list.
type binList struct {
	prims  []int32
	chunks []uint64
}

// renderTiled renders a frame the tile_lists way, tile by tile: the tiler
// bins primitives into polygon lists in memory (into a hierarchy of bin
// sizes when tiling.hierarchical, dropping sample-less triangles when
// tiling.drop_sampleless_primitives), then each tile is shaded on the core
// free first and written back, unless transaction elimination finds its
// CRC unchanged. The sizes of the lists' entries, headers and chunks are
// the description's tiling.polygon_list_* parameters.
func (fr *frameRun) renderTiled() error {
	r := fr.r
	g := r.g
	tl := &g.Tiling
	W, H := r.opt.Width, r.opt.Height
	tw, th := r.tileW, r.tileH
	tx, ty := (W+tw-1)/tw, (H+th-1)/th
	levels := 1
	if tl.Hierarchical {
		levels = tl.HierarchyLevels
	}
	entryBytes, headerBytes := tl.PolygonListEntryBytes, tl.PolygonListHeaderBytes
	chunk := tl.PolygonListChunkBytes
	perChunk := (chunk - tl.PolygonListLinkBytes) / entryBytes // the chunk's end links to the next
	reserved := tl.PolygonListReservedChunk
	lists := make([][]binList, levels)
	lx := make([]int, levels)
	ly := make([]int, levels)
	headerBase := make([]uint64, levels)
	for l := 0; l < levels; l++ {
		lx[l] = (tx + (1 << l) - 1) >> l
		ly[l] = (ty + (1 << l) - 1) >> l
		lists[l] = make([]binList, lx[l]*ly[l])
		headerBase[l] = r.va.alloc(lx[l] * ly[l] * headerBytes)
		if reserved {
			fr.st.PolygonListAlloc += uint64(lx[l] * ly[l] * (headerBytes + chunk))
		} else {
			fr.st.PolygonListAlloc += uint64(lx[l] * ly[l] * headerBytes)
		}
	}
	if levels > 1 {
		fr.st.HierarchyLevelUses = make([]int, levels)
	}
	heap := r.va.alloc(0) // chunks are carved from here on
	heapNext := heap
	geomBytes := fr.dramTotal()

	// Tiling: every primitive into the bins of one level.
	tilerTask := r.rec.begin(taskTiler, "tiler", -1)
	var refs uint64
	for pi := range fr.prims {
		p := &fr.prims[pi]
		if tl.DropSamplelessPrimitives && !p.coversSample() {
			fr.st.PrimitivesCulled.NoSample++
			continue
		}
		if p.bx0 > p.bx1 || p.by0 > p.by1 {
			continue
		}
		t0x, t1x := int(p.bx0)/tw, int(p.bx1)/tw
		t0y, t1y := int(p.by0)/th, int(p.by1)/th
		l := 0
		for l < levels-1 && ((t1x>>l)-(t0x>>l)+1)*((t1y>>l)-(t0y>>l)+1) > tl.HierarchyMaxBins {
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
					if !reserved || k > 0 { // a reserved first chunk was counted above
						fr.st.PolygonListAlloc += uint64(chunk)
					}
				}
				bl.prims = append(bl.prims, int32(pi))
				r.ms.Write(bl.chunks[k/perChunk]+uint64(k%perChunk*entryBytes), entryBytes, StreamBinning)
				fr.st.PolygonListBytes += uint64(entryBytes)
				refs++
			}
		}
	}
	for l := 0; l < levels; l++ {
		for b := range lists[l] {
			if len(lists[l][b].prims) > 0 {
				r.ms.Write(headerBase[l]+uint64(b*headerBytes), headerBytes, StreamBinning)
				fr.st.PolygonListBytes += uint64(headerBytes)
			}
		}
	}
	r.va.next = max(r.va.next, heapNext+64<<10)
	if tilerTask != nil {
		tilerTask.prims, tilerTask.refs = uint64(len(fr.prims)), refs
	}
	tilerBytes := fr.dramTotal() - geomBytes
	vsCycles := r.cost.Shader(fr.vertexWork, g.Cores)
	geomPass := math.Max(math.Max(vsCycles, r.cost.Tiler(uint64(len(fr.prims)), refs)), r.cost.Memory(Work{DRAMBytes: float64(tilerBytes + geomBytes)}))
	fr.addPass("vertex and tiling", geomPass)

	// Fragment work, tile by tile, each tile to the core free first.
	fr.initGrid(tw, th, tx, ty)
	te := tl.TransactionElimination
	crcBytes := tl.CRCBytesPerTile
	tgt := &target{tileBytes: &fr.st.TileMemoryBytes}
	fu := newFragUnit(fr, tgt)
	coreBusy := make([]float64, max(g.Cores, 1))
	recBytes := uint64(r.vertexRecordBytes())
	fragStart := fr.dramTotal()
	heads := make([][]int32, levels)
	var crcBuf []byte
	for t := 0; t < tx*ty; t++ {
		if err := fr.checkpoint("tiles", t, tx*ty); err != nil {
			return err
		}
		r.rec.begin(taskTile, fmt.Sprintf("tile %d", t), t)
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
			r.ms.Read(headerBase[l]+uint64(b*headerBytes), headerBytes, StreamBinning)
			for k := range bl.prims {
				r.ms.Read(bl.chunks[k/perChunk]+uint64(k%perChunk*entryBytes), entryBytes, StreamBinning)
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
		fr.st.TileMemoryBytes += uint64(len(tgt.color) * colorBytes)
		state := TileWritten
		if te {
			r.ms.Read(r.crcBase+uint64(t*crcBytes), crcBytes, StreamFramebuffer)
			if r.crcValid[t] && r.crcs[t] == crc {
				state = TileEliminated
			} else {
				r.crcs[t], r.crcValid[t] = crc, true
				r.ms.Write(r.crcBase+uint64(t*crcBytes), crcBytes, StreamFramebuffer)
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
// sends the write through L2: whole u-interleaved blocks (16×16 pixels,
// 1 KiB contiguous at 4 bytes per pixel: the layout's rule, seed 002), or
// the tile's rows in linear layout.
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
