package gfx

import (
	"math"
)

// run renders the frame: draws, vertex shading, primitive assembly, then
// the tiled path of the GPU's tiling scheme or the immediate-mode
// baseline.
func (fr *frameRun) run() error {
	r := fr.r
	r.ms.reset()
	if r.timed {
		r.rec = &recorder{}
		r.ms.rec = r.rec
		defer func() { r.rec, r.ms.rec = nil, nil }()
	}
	for _, p := range r.passes {
		if err := fr.runPass(p); err != nil {
			return err
		}
	}
	fr.endStage()
	if r.timed {
		tasks := r.rec.tasks
		r.rec, r.ms.rec = nil, nil
		ft, err := r.timeFrame(fr, tasks)
		if err != nil {
			return err
		}
		ft.interval = ft.end
		fw := sortTasks(fr, tasks)
		if r.prevWork != nil && overlaps(r.g) {
			if ft.interval, err = r.interval(r.prevWork, fw); err != nil {
				return err
			}
		}
		r.prevWork = fw
		fr.timing = ft
	}
	fr.finish()
	return nil
}

// runPass renders one render pass: its draws, vertex shading, primitive
// assembly, then the tiled path of the GPU's tiling scheme or the
// immediate-mode baseline.
func (fr *frameRun) runPass(p *renderPass) error {
	r := fr.r
	fr.pass, fr.prog = p, p.prog
	fr.draws, fr.clip, fr.vary, fr.prims = nil, nil, nil, nil
	fr.vertexWork, fr.visBase, fr.passVertices = Work{}, 0, 0
	fr.passStart = fr.dramTotal()
	r.rec.nextPass(p.name)
	if err := fr.prepareDraws(); err != nil {
		return err
	}
	if err := fr.shadeVertices(); err != nil {
		return err
	}
	fr.assemble()
	var err error
	switch {
	case r.opt.Mode == Immediate:
		err = fr.renderImmediate()
	case p.bins != nil && p.bins.DirectRendering:
		if p.main {
			fr.st.DirectRendering = true
		}
		err = fr.renderImmediate()
	case p.bins != nil:
		err = fr.renderBins()
	default:
		err = fr.renderTiled()
	}
	if err != nil {
		return err
	}
	if p.main {
		fr.mainGrid = fr.grid
	}
	for _, a := range []*attachment{p.color, p.depth} {
		if a != nil && a.tex != nil {
			a.refreshTexture()
		}
	}
	return nil
}

// dramTotal is the DRAM traffic so far in the frame.
func (fr *frameRun) dramTotal() uint64 {
	read, write := fr.r.ms.dram()
	return read.Total() + write.Total()
}

func (fr *frameRun) addPass(name string, cycles float64) {
	if len(fr.r.passes) > 1 {
		name = fr.pass.name + ": " + name
	}
	fr.st.PassCycles = append(fr.st.PassCycles, Pass{Name: name, Cycles: cycles})
}

// flushMemory writes L2's dirty lines back at the end of the frame.
func (fr *frameRun) flushMemory() { fr.r.ms.Flush() }

func (fr *frameRun) initGrid(tw, th, nx, ny int) {
	fr.grid = TileGrid{TileWidth: tw, TileHeight: th, X: nx, Y: ny,
		Prims: make([]uint64, nx*ny), Cycles: make([]float64, nx*ny), State: make([]TileState, nx*ny)}
	fr.work = make([]Work, nx*ny)
}

// immediateCell is the heatmap cell of immediate-mode rendering.
const immediateCell = 16

// renderImmediate is the immediate-mode baseline (and Adreno's direct
// rendering): primitives are drawn in order over the whole screen, and
// every depth test, depth write, blend read and colour write goes through
// L2 to the attachments in memory. A clear writes the attachment (no fast
// clear or compression is modelled); a load reads nothing up front (the
// contents are in memory already) and don't-care neither; the store
// actions change nothing, every write having gone to memory.
func (fr *frameRun) renderImmediate() error {
	r := fr.r
	g := r.g
	p := fr.pass
	W, H := p.w, p.h
	r.rec.begin(taskScreen, "screen", -1)
	start := fr.dramTotal()
	vs := math.Max(r.cost.Shader(fr.vertexWork, g.Cores), r.cost.Memory(Work{DRAMBytes: float64(start - fr.passStart)}))
	tgt := &target{immediate: true, x0: 0, y0: 0, w: W, h: H, samples: p.samples, depthFmt: p.depthFmt, ms: r.ms, tileBytes: &fr.st.TileMemoryBytes}
	if a := p.color; a != nil {
		if p.colorMS != nil {
			a = p.colorMS // the samples live in memory; the resolve follows
		}
		if p.colorLoad != LoadLoad {
			c := packRGBA(ClearColor)
			for i := range a.color {
				a.color[i] = c
			}
		}
		if p.colorLoad == LoadClear {
			r.ms.Write(a.base, a.img.Size(), StreamFramebuffer)
		}
		tgt.colorAtt, tgt.color = a, a.color
	}
	if a := p.depth; a != nil {
		if p.depthLoad != LoadLoad {
			for i := range a.depth {
				a.depth[i] = clearDepth
			}
		}
		if p.depthLoad == LoadClear {
			r.ms.Write(a.base, a.img.Size(), StreamFramebuffer)
		}
		tgt.depthAtt, tgt.depth = a, a.depth
	}
	cx, cy := (W+immediateCell-1)/immediateCell, (H+immediateCell-1)/immediateCell
	fr.initGrid(immediateCell, immediateCell, cx, cy)
	fu := newFragUnit(fr, tgt)
	fu.roundRobin = true
	fu.cellOf = func(x, y int) int32 { return int32((y/immediateCell)*cx + x/immediateCell) }
	fu.begin(-1)
	for pi := range fr.prims {
		if err := fr.checkpoint("primitives", pi, len(fr.prims)); err != nil {
			return err
		}
		p := &fr.prims[pi]
		if p.bx0 <= p.bx1 && p.by0 <= p.by1 {
			for y := int(p.by0) / immediateCell; y <= int(p.by1)/immediateCell; y++ {
				for x := int(p.bx0) / immediateCell; x <= int(p.bx1)/immediateCell; x++ {
					fr.grid.Prims[y*cx+x]++
				}
			}
		}
		if err := fu.raster(int32(pi)); err != nil {
			return err
		}
	}
	if err := fu.flush(); err != nil {
		return err
	}
	fr.flushMemory()
	var all Work
	for i := range fr.work {
		w := fr.work[i]
		fr.grid.Cycles[i] = r.cost.Shader(w, 1)
		all.add(w)
	}
	all.DRAMBytes = float64(fr.dramTotal() - start)
	frag := math.Max(r.cost.Shader(all, g.Cores), r.cost.Memory(all))
	fr.addPass("vertex", vs)
	fr.addPass("fragment", frag+r.cost.Commands(len(fr.draws)))
	if ms := p.colorMS; ms != nil && p.colorStore {
		// The resolve: every sample read from memory, their average
		// written to the colour attachment.
		before := fr.dramTotal()
		rt := &target{x0: 0, y0: 0, w: W, h: H, samples: p.samples, color: ms.color}
		for i := range p.color.color {
			p.color.color[i] = rt.resolved(i)
		}
		r.ms.Read(ms.base, ms.img.Size(), StreamFramebuffer)
		r.ms.Write(p.color.base, p.color.img.Size(), StreamFramebuffer)
		fr.st.AttachmentStoreBytes += uint64(p.color.img.Size())
		fr.flushMemory()
		fr.addPass("resolve", r.cost.Memory(Work{DRAMBytes: float64(fr.dramTotal() - before)}))
	}
	fr.st.CommandStreamOps += uint64(len(fr.draws))
	fr.st.Passes++
	if p.main {
		fr.st.TileWidth, fr.st.TileHeight = immediateCell, immediateCell
	}
	return nil
}

// finish fills the frame's totals and prices it.
func (fr *frameRun) finish() {
	r := fr.r
	ms := r.ms
	st := &fr.st
	st.DRAMRead, st.DRAMWrite = ms.dram()
	st.DRAMReadBytes = st.DRAMRead.Total()
	st.DRAMWriteBytes = st.DRAMWrite.Total()
	c := ms.h.Counters()
	l2, tex := c.L2Total(), c.TextureTotal()
	st.L2Hits, st.L2Misses = uint64(l2.Hits), uint64(l2.Misses)
	st.TexCacheHits, st.TexCacheMisses = uint64(tex.Hits), uint64(tex.Misses)
	if n := st.TexCacheHits + st.TexCacheMisses; n > 0 {
		st.TexCacheHitRate = float64(st.TexCacheHits) / float64(n)
	}
	st.Overdraw = float64(st.FragmentsShaded) / float64(r.opt.Width*r.opt.Height)
	st.FragmentWarpWidth = r.mainPass.prog.fs.width
	st.RenderPasses = len(r.passes)
	st.Samples = r.mainPass.samples
	var cycles float64
	if ft := fr.timing; ft != nil {
		// The timeline: the command processor's jobs as they ran, the
		// frame from the first job's start to its last write-back.
		st.PassCycles = ft.passes
		cycles = ft.end
		st.RasterBusyCycles, st.BlendBusyCycles, st.BlendWaitCycles = ft.rasterBusy, ft.blendBusy, ft.blendHeld
		st.TilerBusyCycles, st.GMEMBusyCycles = ft.tilerBusy, ft.gmemBusy
		st.ZSBusyCycles, st.RasterStallCycles = ft.zsBusy, ft.rasterStall
		st.VertexFetchBusyCycles, st.VertexFetchWaitCycles, st.AssemblyBusyCycles = ft.vfetchBusy, ft.vfetchWait, ft.primsBusy
		st.CommandProcessor = ft.cp.Counters()
		st.Engine = ft.engine.Counters
		for cell, c := range ft.cells {
			if cell >= 0 && cell < len(fr.grid.Cycles) {
				fr.grid.Cycles[cell] = c
			}
		}
	} else {
		for _, p := range st.PassCycles {
			cycles += p.Cycles
		}
		cycles -= fr.overlap
	}
	st.Cycles = cycles
	st.TimeMS = cycles / (r.g.ClockMHz * 1e3)
	st.IntervalCycles = cycles
	if ft := fr.timing; ft != nil {
		st.IntervalCycles = ft.interval
	}
	if st.IntervalCycles > 0 {
		st.FPS = r.g.ClockMHz * 1e6 / st.IntervalCycles
	}
}

func (fr *frameRun) result() *Frame {
	return &Frame{Index: fr.index, Image: fr.r.image(), Stats: fr.st, Tiles: fr.mainGrid}
}
