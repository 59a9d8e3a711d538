package gfx

import (
	"fmt"
	"math"
)

// renderBins renders a frame the gmem_bins way, Adreno's (seeds 001, 004):
// a binning pass runs the vertex work again for positions and writes each
// visibility-stream pipe's stream; then every bin is one pass over the
// command stream that re-shades the vertices of its visible primitives,
// renders into GMEM and resolves the colour to system memory. With fewer
// than tiling.hw_binning_min_bins bins there is no binning pass and every
// bin walks every primitive.
func (fr *frameRun) renderBins() error {
	r := fr.r
	g := r.g
	p := fr.pass
	bl := p.bins
	visEntryBytes := g.Tiling.VisibilityStreamEntryBytes
	W, H := p.w, p.h
	vertsBefore := fr.st.VerticesShaded
	cores := max(g.Cores, 1)
	nb := bl.Bins
	visible := make([][]int32, nb)
	pipeEntries := make([]int, bl.Pipes)
	binStart := fr.dramTotal()
	var binning float64
	if bl.HWBinning {
		// Binning: each primitive is marked in the bins its box touches;
		// each pipe's stream gets an entry for a primitive visible in any
		// of its bins.
		visBase := r.va.alloc(len(fr.prims)*visEntryBytes*bl.Pipes + 1)
		binTask := r.rec.begin(taskTiler, "binning", -1)
		var refs uint64
		pipeStamp := make([]int, bl.Pipes)
		for i := range pipeStamp {
			pipeStamp[i] = -1
		}
		for pi := range fr.prims {
			pr := &fr.prims[pi]
			if pr.bx0 > pr.bx1 || pr.by0 > pr.by1 {
				continue
			}
			fr.st.PrimitivesBinned++
			for by := int(pr.by0) / bl.BinHeight; by <= int(pr.by1)/bl.BinHeight; by++ {
				for bx := int(pr.bx0) / bl.BinWidth; bx <= int(pr.bx1)/bl.BinWidth; bx++ {
					b := by*bl.BinsX + bx
					visible[b] = append(visible[b], int32(pi))
					refs++
					pp := bl.pipeOf(b)
					if pipeStamp[pp] != pi {
						pipeStamp[pp] = pi
						addr := visBase + uint64(pp*len(fr.prims)*visEntryBytes+pipeEntries[pp]*visEntryBytes)
						r.ms.Write(addr, visEntryBytes, StreamBinning)
						pipeEntries[pp]++
						fr.st.VisibilityStreams += uint64(visEntryBytes)
					}
				}
			}
		}
		fr.st.PrimitiveRefs += refs
		if binTask != nil {
			binTask.prims, binTask.refs = uint64(len(fr.prims)), refs
		}
		// The binning pass shades positions for every vertex again.
		vs := r.cost.Shader(fr.vertexWork, cores)
		binning = math.Max(math.Max(vs, r.cost.Tiler(uint64(len(fr.prims)), refs)), r.cost.Memory(Work{DRAMBytes: float64(fr.dramTotal() - binStart)}))
		binning += r.cost.Commands(len(fr.draws))
		fr.st.CommandStreamOps += uint64(len(fr.draws))
		fr.addPass("binning", binning)
		r.va.next = max(r.va.next, visBase)
		fr.visBase = visBase
	} else {
		all := make([]int32, 0, len(fr.prims))
		for pi := range fr.prims {
			all = append(all, int32(pi))
		}
		for b := range visible {
			visible[b] = all
		}
	}
	// Vertex work per vertex, to price the re-shading in each bin.
	perVertex := Work{WarpWidth: fr.vertexWork.WarpWidth}
	if fr.passVertices > 0 {
		s := 1 / float64(fr.passVertices)
		perVertex.Warps = fr.vertexWork.Warps * s
		perVertex.WarpInsts = fr.vertexWork.WarpInsts * s
		perVertex.ThreadInsts = fr.vertexWork.ThreadInsts * s
		perVertex.EngineCycles = fr.vertexWork.EngineCycles * s
	}
	fr.initGrid(bl.BinWidth, bl.BinHeight, bl.BinsX, bl.BinsY)
	tgt := &target{tileBytes: &fr.st.TileMemoryBytes, samples: p.samples, depthFmt: p.depthFmt, hasColor: p.color != nil}
	fu := newFragUnit(fr, tgt)
	fu.roundRobin = true
	stamp := make([]int32, len(fr.clip))
	var rendering float64
	if !bl.HWBinning {
		// No binning pass: the vertex work happens in the bin passes only.
		fr.st.VerticesShaded = vertsBefore - fr.passVertices
	}
	order := bl.binOrder()
	for i, b := range order {
		if err := fr.checkpoint("bins", i, len(order)); err != nil {
			return err
		}
		binTask := r.rec.begin(taskBin, fmt.Sprintf("bin %d", b), b)
		bx, by := b%bl.BinsX, b/bl.BinsX
		x0, y0 := bx*bl.BinWidth, by*bl.BinHeight
		tgt.reset(x0, y0, min(bl.BinWidth, W-x0), min(bl.BinHeight, H-y0))
		fu.begin(int32(b))
		before := fr.dramTotal()
		// Unresolve: a loaded attachment comes from system memory into
		// GMEM.
		var gmem uint64
		if p.colorLoad == LoadLoad && p.color != nil {
			gmem += fr.loadColor(tgt, p.color)
		}
		if p.depthLoad == LoadLoad && p.depth != nil {
			gmem += fr.loadDepth(tgt, p.depth)
		}
		if bl.HWBinning {
			pp := bl.pipeOf(b)
			r.ms.Read(fr.visBase+uint64(pp*len(fr.prims)*visEntryBytes), pipeEntries[pp]*visEntryBytes, StreamBinning)
		}
		// Re-shade the vertices the bin's primitives use.
		var verts uint64
		for _, pi := range visible[b] {
			for _, v := range fr.prims[pi].v {
				if stamp[v] != int32(b)+1 {
					stamp[v] = int32(b) + 1
					verts++
				}
			}
		}
		fr.st.VerticesShaded += verts
		if binTask != nil {
			vw := max(fr.prog.vs.width, 1)
			binTask.revisit = (int(verts) + vw - 1) / vw
			binTask.draws = len(fr.draws)
			binTask.gmemBytes = tgt.w * tgt.h * colorBytes
		}
		for _, pi := range visible[b] {
			if err := fu.raster(pi); err != nil {
				return err
			}
		}
		if err := fu.flush(); err != nil {
			return err
		}
		n := uint64(len(visible[b]))
		fr.grid.Prims[b] = n
		fr.st.PrimitiveRefsMax = max(fr.st.PrimitiveRefsMax, n)
		// Resolve: the stored attachments from GMEM to system memory
		// (colour's samples averaged).
		if p.colorStore {
			fr.st.TileMemoryBytes += uint64(len(tgt.color) * colorBytes)
			fr.storeColor(tgt, p.color)
			gmem += uint64(len(tgt.color) * colorBytes)
			fr.grid.State[b] = TileWritten
			fr.st.TilesWritten++
		}
		if p.depthStore {
			gmem += fr.storeDepth(tgt, p.depth)
		}
		w := fr.work[b]
		vw := Work{WarpWidth: perVertex.WarpWidth, Warps: perVertex.Warps * float64(verts), WarpInsts: perVertex.WarpInsts * float64(verts),
			EngineCycles: perVertex.EngineCycles * float64(verts)}
		w.add(vw)
		w.DRAMBytes = float64(fr.dramTotal() - before)
		w.GMEMBytes = float64(gmem)
		cyc := math.Max(r.cost.Shader(w, cores), r.cost.Memory(w)) + r.cost.Commands(len(fr.draws))
		fr.st.CommandStreamOps += uint64(len(fr.draws))
		fr.grid.Cycles[b] = cyc
		fr.addPass(fmt.Sprintf("bin %d", b), cyc)
		rendering += cyc
	}
	if !bl.HWBinning {
		fr.st.PrimitiveRefs += uint64(len(fr.prims) * nb)
	}
	fr.flushMemory()
	fr.st.TilesTotal += nb
	fr.st.Bins += nb
	if p.main {
		fr.st.TileWidth, fr.st.TileHeight = bl.BinWidth, bl.BinHeight
	}
	fr.st.Passes += bl.Passes
	// Adreno 7xx: BV bins the next frame while BR renders this one (seed
	// 004 §Optimizing Tiled Rendering), so after the first frame a frame
	// takes the longer of the two.
	if g.CommandProcessor.ConcurrentBinning && fr.index > 0 {
		fr.overlap += math.Min(binning, rendering)
	}
	return nil
}
