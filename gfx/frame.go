package gfx

import (
	"encoding/binary"
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
	case r.bins != nil && r.bins.DirectRendering:
		fr.st.DirectRendering = true
		err = fr.renderImmediate()
	case r.bins != nil:
		err = fr.renderBins()
	default:
		err = fr.renderTiled()
	}
	if err != nil {
		return err
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

// dramTotal is the DRAM traffic so far in the frame.
func (fr *frameRun) dramTotal() uint64 {
	read, write := fr.r.ms.dram()
	return read.Total() + write.Total()
}

func (fr *frameRun) addPass(name string, cycles float64) {
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
// L2 to the buffers in memory. Buffers are cleared by writing them (no
// fast clear or compression is modelled).
func (fr *frameRun) renderImmediate() error {
	r := fr.r
	g := r.g
	W, H := r.opt.Width, r.opt.Height
	r.rec.begin(taskScreen, "screen", -1)
	start := fr.dramTotal()
	vs := math.Max(r.cost.Shader(fr.vertexWork, g.Cores), r.cost.Memory(Work{DRAMBytes: float64(start)}))
	// Clear colour and depth.
	c := packRGBA(ClearColor)
	for y := 0; y < H; y++ {
		for x := 0; x < W; x++ {
			binary.LittleEndian.PutUint32(r.fb[r.fbImg.Offset(x, y):], c)
		}
	}
	r.ms.Write(r.fbBase, r.fbImg.Size(), StreamFramebuffer)
	r.ms.Write(r.depthBase, r.depthImg.Size(), StreamFramebuffer)
	tgt := &target{immediate: true, x0: 0, y0: 0, w: W, h: H, fb: r.fb, fbImg: r.fbImg, fbBase: r.fbBase,
		depthImg: r.depthImg, depthBase: r.depthBase, ms: r.ms, tileBytes: &fr.st.TileMemoryBytes}
	tgt.depth = make([]float32, W*H)
	for i := range tgt.depth {
		tgt.depth[i] = clearDepth
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
	fr.st.CommandStreamOps += uint64(len(fr.draws))
	fr.st.Passes = 1
	fr.st.TileWidth, fr.st.TileHeight = immediateCell, immediateCell
	fr.st.TilesTotal = 0
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
	st.FragmentWarpWidth = r.fs.width
	var cycles float64
	if ft := fr.timing; ft != nil {
		// The timeline: the command processor's jobs as they ran, the
		// frame from the first job's start to its last write-back.
		st.PassCycles = ft.passes
		cycles = ft.end
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
	return &Frame{Index: fr.index, Image: fr.r.image(), Stats: fr.st, Tiles: fr.grid}
}
