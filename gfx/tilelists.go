package gfx

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
)

// binList is one bin's polygon list.
type binList struct {
	prims  []int32
	chunks []uint64
}

// tileLists are the polygon lists of the primitives binned since the
// last render: one list per bin of every hierarchy level, with the
// headers' addresses.
type tileLists struct {
	levels     int
	lists      [][]binList
	lx, ly     []int
	headerBase []uint64
}

// renderTiled renders a pass the tile_lists way, tile by tile: the tiler
// bins primitives into polygon lists in memory (into a hierarchy of bin
// sizes when tiling.hierarchical, dropping sample-less triangles when
// tiling.drop_sampleless_primitives), then each tile is shaded on the core
// free first: its attachments loaded or cleared at its start and stored
// at its end as the pass's load and store actions say, colour unless
// transaction elimination finds its CRC unchanged. The sizes of the
// lists' entries, headers and chunks are the description's
// tiling.polygon_list_* parameters. When the lists and the transformed
// vertices outgrow tiling.parameter_buffer_kib, the tiles are rendered
// with what has been binned so far, colour and depth stored, the lists
// freed, and binning goes on; the next render loads colour and depth
// again (a partial render).
func (fr *frameRun) renderTiled() error {
	r := fr.r
	g := r.g
	tl := &g.Tiling
	p := fr.pass
	W, H := p.w, p.h
	tw, th := p.tileW, p.tileH
	tx, ty := p.tileGrid()
	levels := 1
	if tl.Hierarchical {
		levels = tl.HierarchyLevels
	}
	entryBytes, headerBytes := tl.PolygonListEntryBytes, tl.PolygonListHeaderBytes
	chunk := tl.PolygonListChunkBytes
	perChunk := (chunk - tl.PolygonListLinkBytes) / entryBytes // the chunk's end links to the next
	reserved := tl.PolygonListReservedChunk
	tls := &tileLists{levels: levels, lists: make([][]binList, levels), lx: make([]int, levels), ly: make([]int, levels), headerBase: make([]uint64, levels)}
	fixed := 0 // headers (and reserved first chunks) allocated up front
	for l := 0; l < levels; l++ {
		tls.lx[l] = (tx + (1 << l) - 1) >> l
		tls.ly[l] = (ty + (1 << l) - 1) >> l
		tls.lists[l] = make([]binList, tls.lx[l]*tls.ly[l])
		tls.headerBase[l] = r.va.alloc(tls.lx[l] * tls.ly[l] * headerBytes)
		if reserved {
			fixed += tls.lx[l] * tls.ly[l] * (headerBytes + chunk)
		} else {
			fixed += tls.lx[l] * tls.ly[l] * headerBytes
		}
	}
	fr.st.PolygonListAlloc += uint64(fixed)
	fr.st.ParameterBufferPeak = max(fr.st.ParameterBufferPeak, uint64(fixed))
	recBytes := fr.vertexRecordBytes()
	pbBytes := tl.ParameterBufferKiB * bytesPerKiB
	if pbBytes > 0 && fixed+3*recBytes > pbBytes {
		return inputErrorf("%s's parameter buffer of %d KiB cannot hold the polygon-list headers of a %dx%d pass (%d bytes) and one triangle", g.ID, tl.ParameterBufferKiB, W, H, fixed)
	}
	if levels > 1 && fr.st.HierarchyLevelUses == nil {
		fr.st.HierarchyLevelUses = make([]int, levels)
	}
	heap := r.va.alloc(0) // chunks are carved from here on
	heapNext := heap
	heapTop := heap
	geomBytes := fr.dramTotal() - fr.passStart // the pass's vertex work
	fr.initGrid(tw, th, tx, ty)
	passesBefore := len(fr.st.PassCycles)

	// Tiling: every primitive into the bins of one level; a full
	// parameter buffer renders what it holds first.
	var refs, tilerBytes uint64
	var fragCycles float64
	occupancy := fixed
	vstamp := make([]int32, len(fr.clip))
	segment := int32(1)
	tilerStart := fr.dramTotal()
	tiler := r.rec.begin(taskTiler, "tiler", -1)
	var segPrims, segRefs uint64 // the tiler's work since its task began
	for pi := range fr.prims {
		pr := &fr.prims[pi]
		if tl.DropSamplelessPrimitives && !pr.coversSample(samplePositions[p.samples]) {
			fr.st.PrimitivesCulled.NoSample++
			continue
		}
		if pr.bx0 > pr.bx1 || pr.by0 > pr.by1 {
			continue
		}
		t0x, t1x := int(pr.bx0)/tw, int(pr.bx1)/tw
		t0y, t1y := int(pr.by0)/th, int(pr.by1)/th
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
				bl := &tls.lists[l][by*tls.lx[l]+bx]
				k := len(bl.prims)
				if k%perChunk == 0 {
					bl.chunks = append(bl.chunks, heapNext)
					heapNext += uint64(chunk)
					if !reserved || k > 0 { // a reserved first chunk was counted above
						fr.st.PolygonListAlloc += uint64(chunk)
						occupancy += chunk
					}
				}
				bl.prims = append(bl.prims, int32(pi))
				r.ms.Write(bl.chunks[k/perChunk]+uint64(k%perChunk*entryBytes), entryBytes, StreamBinning)
				fr.st.PolygonListBytes += uint64(entryBytes)
				refs++
				segRefs++
			}
		}
		for _, v := range pr.v {
			if vstamp[v] != segment {
				vstamp[v] = segment
				occupancy += recBytes
			}
		}
		fr.st.ParameterBufferPeak = max(fr.st.ParameterBufferPeak, uint64(occupancy))
		segPrims++
		if pbBytes > 0 && occupancy > pbBytes && pi+1 < len(fr.prims) {
			// The buffer is full: a partial render of what it holds.
			fr.writeListHeaders(tls)
			if tiler != nil {
				tiler.prims, tiler.refs = segPrims, segRefs
			}
			tilerBytes += fr.dramTotal() - tilerStart
			cyc, err := fr.renderTiles(tls, segment == 1, false)
			if err != nil {
				return err
			}
			fragCycles += cyc
			fr.addPass(fmt.Sprintf("fragment (partial render %d)", segment), cyc)
			fr.st.PartialRenders++
			for l := range tls.lists {
				clear(tls.lists[l])
			}
			heapTop = max(heapTop, heapNext)
			heapNext = heap
			occupancy = fixed
			segment++
			tilerStart = fr.dramTotal()
			tiler = r.rec.begin(taskTiler, "tiler", -1)
			segPrims, segRefs = 0, 0
		}
	}
	fr.writeListHeaders(tls)
	if tiler != nil {
		tiler.prims, tiler.refs = segPrims, segRefs
	}
	heapTop = max(heapTop, heapNext)
	r.va.next = max(r.va.next, heapTop+64<<10)
	tilerBytes += fr.dramTotal() - tilerStart
	vsCycles := r.cost.Shader(fr.vertexWork, g.Cores)
	geomPass := math.Max(math.Max(vsCycles, r.cost.Tiler(uint64(len(fr.prims)), refs)), r.cost.Memory(Work{DRAMBytes: float64(tilerBytes + geomBytes)}))
	fr.addPass("vertex and tiling", geomPass)
	// The partial renders interrupted the geometry pass: list it first.
	pc := fr.st.PassCycles[passesBefore:]
	geom := pc[len(pc)-1]
	copy(pc[1:], pc[:len(pc)-1])
	pc[0] = geom
	cyc, err := fr.renderTiles(tls, segment == 1, true)
	if err != nil {
		return err
	}
	fr.addPass("fragment", cyc)
	fr.st.TilesTotal += tx * ty
	if p.main {
		fr.st.TileWidth, fr.st.TileHeight = tw, th
	}
	fr.st.Passes += 2 + int(segment-1)
	return nil
}

// writeListHeaders writes the header of every bin's list that is not
// empty.
func (fr *frameRun) writeListHeaders(tls *tileLists) {
	headerBytes := fr.r.g.Tiling.PolygonListHeaderBytes
	for l := 0; l < tls.levels; l++ {
		for b := range tls.lists[l] {
			if len(tls.lists[l][b].prims) > 0 {
				fr.r.ms.Write(tls.headerBase[l]+uint64(b*headerBytes), headerBytes, StreamBinning)
				fr.st.PolygonListBytes += uint64(headerBytes)
			}
		}
	}
}

// renderTiles is the fragment work of the lists, tile by tile, each tile
// to the core free first. first and final say whether this render starts
// and ends the pass: the pass's load actions apply only to its first
// render and its store actions (and transaction elimination) to its last;
// a partial render stores colour and depth, and the render after it loads
// them. It returns the fragment pass's cycles.
func (fr *frameRun) renderTiles(tls *tileLists, first, final bool) (float64, error) {
	r := fr.r
	g := r.g
	tl := &g.Tiling
	p := fr.pass
	W, H := p.w, p.h
	tw, th := p.tileW, p.tileH
	tx, ty := p.tileGrid()
	headerBytes, entryBytes := tl.PolygonListHeaderBytes, tl.PolygonListEntryBytes
	perChunk := (tl.PolygonListChunkBytes - tl.PolygonListLinkBytes) / entryBytes
	colorLoad, depthLoad := p.colorLoad, p.depthLoad
	if !first {
		colorLoad, depthLoad = LoadLoad, LoadLoad
	}
	colorStore, depthStore := p.colorStore, p.depthStore
	if !final {
		colorStore, depthStore = p.color != nil, p.depth != nil
	}
	te := tl.TransactionElimination && final
	crcBytes := tl.CRCBytesPerTile
	tgt := &target{tileBytes: &fr.st.TileMemoryBytes, samples: p.samples, depthFmt: p.depthFmt, hasColor: p.color != nil}
	fu := newFragUnit(fr, tgt)
	fu.hsr = tl.HiddenSurfaceRemoval
	coreBusy := make([]float64, max(g.Cores, 1))
	recBytes := uint64(fr.vertexRecordBytes())
	fragStart := fr.dramTotal()
	heads := make([][]int32, tls.levels)
	var crcBuf []byte
	for t := 0; t < tx*ty; t++ {
		if err := fr.checkpoint("tiles", t, tx*ty); err != nil {
			return 0, err
		}
		if tk := r.rec.begin(taskTile, fmt.Sprintf("tile %d", t), t); tk != nil {
			per := p.depthFmt.bytes
			if p.color != nil {
				per += colorBytes
			}
			tk.tileBytes = tw * th * p.samples * per
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
		work0 := fr.work[t]
		if colorLoad == LoadLoad && p.color != nil {
			fr.loadColor(tgt, p.color)
		}
		if depthLoad == LoadLoad && p.depth != nil {
			fr.loadDepth(tgt, p.depth)
		}
		var n uint64
		for l := 0; l < tls.levels; l++ {
			b := (cy>>l)*tls.lx[l] + (cx >> l)
			bl := &tls.lists[l][b]
			heads[l] = bl.prims
			r.ms.Read(tls.headerBase[l]+uint64(b*headerBytes), headerBytes, StreamBinning)
			for k := range bl.prims {
				r.ms.Read(bl.chunks[k/perChunk]+uint64(k%perChunk*entryBytes), entryBytes, StreamBinning)
			}
			n += uint64(len(bl.prims))
		}
		// Merge the levels' lists back into submission order.
		for {
			best := -1
			for l := 0; l < tls.levels; l++ {
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
				return 0, err
			}
		}
		if err := fu.resolveHSR(); err != nil {
			return 0, err
		}
		if err := fu.flush(); err != nil {
			return 0, err
		}
		fr.grid.Prims[t] += n
		fr.st.PrimitiveRefs += n
		fr.st.PrimitiveRefsMax = max(fr.st.PrimitiveRefsMax, n)
		// Write-back, unless the tile's CRC matches the last frame's.
		state := TileNone
		if colorStore {
			fr.st.TileMemoryBytes += uint64(len(tgt.color) * colorBytes)
			state = TileWritten
			if te && p.color.crcs != nil {
				crcBuf = crcBuf[:0]
				for i := 0; i < tgt.w*tgt.h; i++ {
					crcBuf = binary.LittleEndian.AppendUint32(crcBuf, tgt.resolved(i))
				}
				crc := crc32.ChecksumIEEE(crcBuf)
				a := p.color
				r.ms.Read(a.crcBase+uint64(t*crcBytes), crcBytes, StreamFramebuffer)
				if a.crcValid[t] && a.crcs[t] == crc {
					state = TileEliminated
				} else {
					a.crcs[t], a.crcValid[t] = crc, true
					r.ms.Write(a.crcBase+uint64(t*crcBytes), crcBytes, StreamFramebuffer)
				}
			}
			if state == TileWritten {
				fr.storeColor(tgt, p.color)
				if final {
					fr.st.TilesWritten++
				}
			} else {
				fr.st.TilesEliminated++
			}
		}
		if depthStore {
			fr.storeDepth(tgt, p.depth)
		}
		if final {
			fr.grid.State[t] = state
		}
		w := fr.work[t]
		w.sub(work0)
		w.DRAMBytes = float64(fr.dramTotal() - before)
		cyc := math.Max(r.cost.Shader(w, 1), r.cost.Memory(w))
		fr.grid.Cycles[t] += cyc
		coreBusy[core] += cyc
	}
	span := 0.0
	for _, c := range coreBusy {
		span = math.Max(span, c)
	}
	fr.flushMemory()
	return math.Max(span, r.cost.Memory(Work{DRAMBytes: float64(fr.dramTotal() - fragStart)})), nil
}
