package gfx

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sort"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// target is where fragments land: a tile buffer or GMEM bin (tiled), or
// the whole attachments in memory (immediate). Colour and depth are held
// per sample, w×h×samples in raster order with a pixel's samples
// adjacent; either is nil when the pass has no such attachment.
type target struct {
	x0, y0, w, h int // rectangle of the screen it covers
	samples      int
	color        []uint32
	depth        []float32
	depthFmt     depthFormat

	// Immediate mode: the arrays are the attachments' own contents, and
	// every colour and depth access goes through the memory system.
	immediate bool
	colorAtt  *attachment
	depthAtt  *attachment
	ms        *memSystem

	tileBytes *uint64 // on-chip traffic (tiled)
	hasColor  bool    // tiled: the pass has a colour attachment
}

func packRGBA(c [4]uint8) uint32 {
	return uint32(c[0]) | uint32(c[1])<<8 | uint32(c[2])<<16 | uint32(c[3])<<24
}

// reset makes t a cleared on-chip buffer for the rectangle.
func (t *target) reset(x0, y0, w, h int) {
	t.x0, t.y0, t.w, t.h = x0, y0, w, h
	n := w * h * t.samples
	if t.hasColor {
		if cap(t.color) < n {
			t.color = make([]uint32, n)
		}
		t.color = t.color[:n]
		c := packRGBA(ClearColor)
		for i := range t.color {
			t.color[i] = c
		}
	}
	if t.depthFmt.name != "" {
		if cap(t.depth) < n {
			t.depth = make([]float32, n)
		}
		t.depth = t.depth[:n]
		for i := range t.depth {
			t.depth[i] = clearDepth
		}
	}
}

// at is the index of sample s of pixel (x, y).
func (t *target) at(x, y, s int) int { return ((y-t.y0)*t.w+(x-t.x0))*t.samples + s }

func (t *target) readDepth(x, y, s int) float32 {
	if t.immediate {
		t.ms.Read(t.depthAtt.addr(x, y, s), t.depthFmt.bytes, StreamFramebuffer)
	} else {
		*t.tileBytes += uint64(t.depthFmt.bytes)
	}
	return t.depth[t.at(x, y, s)]
}

func (t *target) writeDepth(x, y, s int, z float32) {
	t.depth[t.at(x, y, s)] = z
	if t.immediate {
		t.ms.Write(t.depthAtt.addr(x, y, s), t.depthFmt.bytes, StreamFramebuffer)
	} else {
		*t.tileBytes += uint64(t.depthFmt.bytes)
	}
}

func (t *target) readColor(x, y, s int) uint32 {
	if t.immediate {
		t.ms.Read(t.colorAtt.addr(x, y, s), colorBytes, StreamFramebuffer)
	} else {
		*t.tileBytes += colorBytes
	}
	return t.color[t.at(x, y, s)]
}

func (t *target) writeColor(x, y, s int, c uint32) {
	if t.immediate {
		t.ms.Write(t.colorAtt.addr(x, y, s), colorBytes, StreamFramebuffer)
	} else {
		*t.tileBytes += colorBytes
	}
	t.color[t.at(x, y, s)] = c
}

// resolved is pixel i's colour (i counts pixels of the target in raster
// order): the average of its samples, each channel rounded to nearest
// (ties up); a single sample as it is.
func (t *target) resolved(i int) uint32 {
	n := t.samples
	if n == 1 {
		return t.color[i]
	}
	var out uint32
	for c := 0; c < 4; c++ {
		sum := 0
		for s := 0; s < n; s++ {
			sum += int(uint8(t.color[i*n+s] >> (8 * c)))
		}
		out |= uint32((sum+n/2)/n) << (8 * c)
	}
	return out
}

// quad is a 2×2 block of pixels of one primitive waiting to be shaded:
// cov has a bit per pixel (x + 2y) with a sample inside the primitive and
// the target, live the pixels with a sample that passed the early depth
// test (or all covered ones when depth is tested late); scov and slive
// are the same per sample of each pixel.
type quad struct {
	prim        int32
	x, y        int32
	cov, live   uint8
	scov, slive [4]uint8
	cell        int32
}

// laneInfo is what a fragment lane was set up with.
type laneInfo struct {
	z, w float64 // depth, interpolated 1/w for FragCoord
	pc   [3]float64
}

// fragUnit rasterises primitives into a target and shades their quads in
// warps on one core.
type fragUnit struct {
	fr     *frameRun
	tgt    *target
	core   int // which texture cache
	cell   int32
	cellOf func(x, y int) int32 // immediate mode: heatmap cell of a pixel
	// samplePos are the pass's sample positions in sub-pixel units.
	samplePos [][2]int64

	batch     []quad
	batchDraw int32
	batchID   int32
	stamp     []int32 // per quad position of the target: the batch holding it
	lanes     [emu.MaxWidth]laneInfo
	trace     emu.Trace
	// roundRobin spreads warps over all cores (Adreno bins, immediate
	// mode); otherwise the unit's core shades everything (a Mali tile).
	roundRobin bool
	warps      int
	// Fixed-function work since the last warp, which that warp carries to
	// the timeline: quads rasterised (early-Z killed ones included) and
	// depth samples tested early.
	rasterQuads float64
	zsEarly     int

	// Hidden-surface removal (tiling.hidden_surface_removal): tags holds
	// per sample of the target the opaque primitive visible there whose
	// shading is pending (-1: none).
	hsr      bool
	tags     []int32
	pending  bool
	entries  []hsrEntry
	texAddrs []uint64 // texel addresses mapped to a sampled attachment's memory
	// hsrVisible counts the pixels of primitives that passed the depth
	// test since the last resolve; those not shaded then were removed.
	hsrVisible uint64
}

// hsrEntry is a pixel of a primitive that is visible in some of the
// pixel's samples when the pending fragments are shaded.
type hsrEntry struct {
	prim   int32
	qy, qx int32 // the quad
	k      uint8 // the pixel in the quad
	mask   uint8 // its samples the primitive shows in
}

func newFragUnit(fr *frameRun, t *target) *fragUnit {
	return &fragUnit{fr: fr, tgt: t, batchDraw: -1, batchID: 1, samplePos: samplePositions[t.samples]}
}

// begin points the unit at a (reset) target covering a new rectangle.
func (fu *fragUnit) begin(cell int32) {
	t := fu.tgt
	n := ((t.w + 1) / 2) * ((t.h + 1) / 2)
	if cap(fu.stamp) < n {
		fu.stamp = make([]int32, n)
	}
	fu.stamp = fu.stamp[:n]
	clear(fu.stamp)
	fu.batchID = 1
	fu.cell = cell
	if fu.hsr {
		m := t.w * t.h * t.samples
		if cap(fu.tags) < m {
			fu.tags = make([]int32, m)
		}
		fu.tags = fu.tags[:m]
		for i := range fu.tags {
			fu.tags[i] = -1
		}
		fu.pending = false
	}
}

// raster walks the quads of primitive pi inside the target. With
// hidden-surface removal an opaque primitive tested early only has its
// visibility resolved (hsrRaster); any other first has the fragments
// pending under it shaded.
func (fu *fragUnit) raster(pi int32) error {
	fr := fu.fr
	p := &fr.prims[pi]
	t := fu.tgt
	if fu.hsr {
		d := fr.draws[p.draw]
		if !d.lateZ && !d.blend && d.depthWrite && t.depth != nil {
			fu.hsrRaster(pi, p)
			return nil
		}
		if err := fu.resolveHSR(); err != nil {
			return err
		}
	}
	x0, y0 := max(int(p.bx0), t.x0), max(int(p.by0), t.y0)
	x1, y1 := min(int(p.bx1), t.x0+t.w-1), min(int(p.by1), t.y0+t.h-1)
	if x0 > x1 || y0 > y1 {
		return nil
	}
	x0 &^= 1
	y0 &^= 1
	for qy := y0; qy <= y1; qy += 2 {
		for qx := x0; qx <= x1; qx += 2 {
			var cov uint8
			var scov [4]uint8
			for k := 0; k < 4; k++ {
				px, py := qx+k&1, qy+k>>1
				if px < t.x0 || px >= t.x0+t.w || py < t.y0 || py >= t.y0+t.h || px > int(p.bx1) || py > int(p.by1) {
					continue
				}
				if m := p.sampleMask(px, py, fu.samplePos); m != 0 {
					cov |= 1 << k
					scov[k] = m
				}
			}
			if cov != 0 {
				if err := fu.addQuad(pi, p, qx, qy, cov, scov); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// lambdas are the barycentric weights at (X, Y) in sub-pixel units
// (extrapolated outside the triangle).
func (p *prim) lambdas(X, Y int64) [3]float64 {
	var lam [3]float64
	inv := 1 / float64(p.area)
	for i := 0; i < 3; i++ {
		lam[i] = float64(p.ea[i]*X+p.eb[i]*Y+p.ec[i]) * inv
	}
	return lam
}

// depthAt is the primitive's depth at (X, Y) in sub-pixel units: at a
// sample for the depth test.
func (p *prim) depthAt(X, Y int64) float64 {
	lam := p.lambdas(X, Y)
	var z float64
	for i := 0; i < 3; i++ {
		z += lam[i] * p.z[i]
	}
	return z
}

// samplePoint is sample pos of pixel (px, py) in sub-pixel units.
func samplePoint(px, py int, pos [2]int64) (int64, int64) {
	return int64(px)<<subBits + pos[0], int64(py)<<subBits + pos[1]
}

// interp sets up lane information for pixel (px, py) of p: depth and
// perspective-correct barycentrics at the pixel's centre (extrapolated
// for helper pixels), where the fragment shader runs whatever the
// samples.
func (p *prim) interp(px, py int) laneInfo {
	var li laneInfo
	lam := p.lambdas(int64(px)<<subBits+subOne/2, int64(py)<<subBits+subOne/2)
	var s float64
	for i := 0; i < 3; i++ {
		li.z += lam[i] * p.z[i]
		li.pc[i] = lam[i] * p.iw[i]
		s += li.pc[i]
	}
	li.w = s
	if s != 0 {
		for i := range li.pc {
			li.pc[i] /= s
		}
	}
	return li
}

// hsrRaster is the ISP's work for an opaque primitive: coverage and the
// depth test per sample, depth written, and the primitive tagged as what
// the samples that passed show, replacing what was pending there (whose
// shading is then never done).
func (fu *fragUnit) hsrRaster(pi int32, p *prim) {
	fr := fu.fr
	t := fu.tgt
	x0, y0 := max(int(p.bx0), t.x0), max(int(p.by0), t.y0)
	x1, y1 := min(int(p.bx1), t.x0+t.w-1), min(int(p.by1), t.y0+t.h-1)
	for py := y0; py <= y1; py++ {
		for px := x0; px <= x1; px++ {
			m := p.sampleMask(px, py, fu.samplePos)
			if m == 0 {
				continue
			}
			fr.st.FragmentsRasterized++
			fu.rasterQuads += 1 / float64(quadSide*quadSide) // the ISP works per pixel
			fu.zsEarly += bits.OnesCount8(m)
			passed := false
			for s, pos := range fu.samplePos {
				if m&(1<<s) == 0 {
					continue
				}
				z := t.depthFmt.quantize(p.depthAt(samplePoint(px, py, pos)))
				if z < t.readDepth(px, py, s) {
					t.writeDepth(px, py, s, z)
					fu.tags[t.at(px, py, s)] = pi
					passed = true
				}
			}
			if passed {
				fu.hsrVisible++
				fu.pending = true
			} else {
				fr.st.EarlyZKilled++
			}
		}
	}
}

// resolveHSR shades the pending visible fragments: per primitive in
// submission order, each pixel once, in quads whose other pixels run as
// helpers; colour goes to the samples the primitive shows in.
func (fu *fragUnit) resolveHSR() error {
	if !fu.pending {
		return nil
	}
	fr := fu.fr
	t := fu.tgt
	fu.entries = fu.entries[:0]
	for y := 0; y < t.h; y++ {
		for x := 0; x < t.w; x++ {
			base := (y*t.w + x) * t.samples
			for s := 0; s < t.samples; s++ {
				pi := fu.tags[base+s]
				if pi < 0 {
					continue
				}
				// The first sample of this primitive in the pixel
				// gathers its mask.
				seen := false
				for s2 := 0; s2 < s; s2++ {
					seen = seen || fu.tags[base+s2] == pi
				}
				if seen {
					continue
				}
				var mask uint8
				for s2 := s; s2 < t.samples; s2++ {
					if fu.tags[base+s2] == pi {
						mask |= 1 << s2
					}
				}
				px, py := t.x0+x, t.y0+y
				fu.entries = append(fu.entries, hsrEntry{prim: pi, qy: int32(py &^ 1), qx: int32(px &^ 1), k: uint8(px&1 + (py&1)*2), mask: mask})
			}
		}
		for i := y * t.w * t.samples; i < (y+1)*t.w*t.samples; i++ {
			fu.tags[i] = -1
		}
	}
	fu.pending = false
	sort.Slice(fu.entries, func(i, j int) bool {
		a, b := &fu.entries[i], &fu.entries[j]
		if a.prim != b.prim {
			return a.prim < b.prim
		}
		if a.qy != b.qy {
			return a.qy < b.qy
		}
		if a.qx != b.qx {
			return a.qx < b.qx
		}
		return a.k < b.k
	})
	fr.st.HSRRemoved += fu.hsrVisible - uint64(len(fu.entries))
	fu.hsrVisible = 0
	for i := 0; i < len(fu.entries); {
		e := fu.entries[i]
		var cov uint8
		var scov [4]uint8
		j := i
		for ; j < len(fu.entries) && fu.entries[j].prim == e.prim && fu.entries[j].qy == e.qy && fu.entries[j].qx == e.qx; j++ {
			cov |= 1 << fu.entries[j].k
			scov[fu.entries[j].k] = fu.entries[j].mask
		}
		i = j
		if err := fu.enqueue(e.prim, int(e.qx), int(e.qy), cov, cov, scov, scov); err != nil {
			return err
		}
	}
	return nil
}

func (fu *fragUnit) addQuad(pi int32, p *prim, qx, qy int, cov uint8, scov [4]uint8) error {
	fr := fu.fr
	d := fr.draws[p.draw]
	t := fu.tgt
	fr.st.FragmentsRasterized += uint64(bits.OnesCount8(cov))
	fu.rasterQuads++
	live, slive := cov, scov
	if !d.lateZ && t.depth != nil {
		live = 0
		for k := 0; k < 4; k++ {
			if cov&(1<<k) == 0 {
				continue
			}
			px, py := qx+k&1, qy+k>>1
			slive[k] = 0
			fu.zsEarly += bits.OnesCount8(scov[k])
			for s, pos := range fu.samplePos {
				if scov[k]&(1<<s) == 0 {
					continue
				}
				z := t.depthFmt.quantize(p.depthAt(samplePoint(px, py, pos)))
				if z < t.readDepth(px, py, s) {
					slive[k] |= 1 << s
					if d.depthWrite {
						t.writeDepth(px, py, s, z)
					}
				}
			}
			if slive[k] != 0 {
				live |= 1 << k
			} else {
				fr.st.EarlyZKilled++
			}
		}
		if live == 0 {
			return nil
		}
	}
	return fu.enqueue(pi, qx, qy, cov, live, scov, slive)
}

// enqueue adds a quad to the batch the next warp shades, shading the
// batch first when the quad belongs to another draw or its position is
// already in the batch.
func (fu *fragUnit) enqueue(pi int32, qx, qy int, cov, live uint8, scov, slive [4]uint8) error {
	fr := fu.fr
	t := fu.tgt
	p := &fr.prims[pi]
	d := fr.draws[p.draw]
	si := ((qy-t.y0)/2)*((t.w+1)/2) + (qx-t.x0)/2
	if len(fu.batch) > 0 && (fu.batchDraw != p.draw || fu.stamp[si] == fu.batchID) {
		if err := fu.flush(); err != nil {
			return err
		}
	}
	fu.batchDraw = p.draw
	fu.stamp[si] = fu.batchID
	cell := fu.cell
	if fu.cellOf != nil {
		cell = fu.cellOf(qx, qy)
	}
	fu.batch = append(fu.batch, quad{prim: pi, x: int32(qx), y: int32(qy), cov: cov, live: live, scov: scov, slive: slive, cell: cell})
	if len(fu.batch)*4 >= d.fs.sh.width {
		return fu.flush()
	}
	return nil
}

func (fu *fragUnit) initLane(lane int, frame []byte) {
	fr := fu.fr
	q := &fu.batch[lane/4]
	k := lane % 4
	p := &fr.prims[q.prim]
	li := p.interp(int(q.x)+k&1, int(q.y)+k>>1)
	fu.lanes[lane] = li
	nv := fr.prog.nvary
	r0 := fr.vary[int(p.v[0])*nv:]
	r1 := fr.vary[int(p.v[1])*nv:]
	r2 := fr.vary[int(p.v[2])*nv:]
	rp := fr.vary[int(p.provoking)*nv:]
	for _, v := range fr.prog.varyings {
		for c := 0; c < v.comps; c++ {
			w := v.word + c
			var bitsOut uint32
			if v.float {
				a := float64(math.Float32frombits(r0[w]))
				b := float64(math.Float32frombits(r1[w]))
				cc := float64(math.Float32frombits(r2[w]))
				bitsOut = math.Float32bits(float32(li.pc[0]*a + li.pc[1]*b + li.pc[2]*cc))
			} else {
				bitsOut = rp[w]
			}
			binary.LittleEndian.PutUint32(frame[v.fsOffset+4*c:], bitsOut)
		}
	}
}

func (fu *fragUnit) builtin(b spirv.BuiltIn, lane, comp int) (uint64, bool) {
	if lane/4 >= len(fu.batch) {
		return 0, true // a lane past the batch: it does not run
	}
	q := &fu.batch[lane/4]
	k := lane % 4
	switch b {
	case spirv.BuiltInFragCoord:
		li := &fu.lanes[lane]
		var v float64
		switch comp {
		case 0:
			v = float64(int(q.x)+k&1) + 0.5
		case 1:
			v = float64(int(q.y)+k>>1) + 0.5
		case 2:
			v = li.z
		default:
			v = li.w
		}
		return uint64(math.Float32bits(float32(v))), true
	case spirv.BuiltInFrontFacing:
		if fu.fr.prims[q.prim].front {
			return 1, true
		}
		return 0, true
	case spirv.BuiltInHelperInvocation:
		if q.cov&(1<<k) == 0 {
			return 1, true
		}
		return 0, true
	}
	return 0, false
}

// flush shades the batch in one warp and writes its surviving fragments.
func (fu *fragUnit) flush() error {
	if len(fu.batch) == 0 {
		return nil
	}
	fr := fu.fr
	r := fr.r
	d := fr.draws[fu.batchDraw]
	sr := d.fs
	sh := sr.sh
	fr.bind(d, sr)
	sr.fu = fu
	n := len(fu.batch) * 4
	wg := sr.d.NewPartialWorkGroup(0, n)
	w := wg.Warps[0]
	w.Trace = &fu.trace
	if fu.roundRobin {
		fu.core = fu.warps % max(r.g.Cores, 1)
	}
	fu.warps++
	var samples uint64
	cycles, sw, err := r.runWarp(sh, w, func() { samples += fu.textureStep() })
	w.Trace = nil
	if err != nil {
		sr.d.Release(wg)
		return err
	}
	t := fu.tgt
	var written uint64
	zsLate := 0
	for lane := 0; lane < n; lane++ {
		q := &fu.batch[lane/4]
		k := lane % 4
		if q.cov&(1<<k) == 0 {
			fr.st.HelperLanes++
			continue
		}
		if q.live&(1<<k) == 0 {
			continue
		}
		fr.st.FragmentsShaded++
		if w.Killed.Has(lane) {
			fr.st.Discarded++
			continue
		}
		px, py := int(q.x)+k&1, int(q.y)+k>>1
		f := w.Private(lane)
		smask := q.slive[k]
		if d.lateZ && t.depth != nil {
			zsLate += bits.OnesCount8(smask)
			pass := uint8(0)
			for s, pos := range fu.samplePos {
				if smask&(1<<s) == 0 {
					continue
				}
				var z float32
				if sh.fragDepth >= 0 {
					fz := math.Float32frombits(binary.LittleEndian.Uint32(f[sh.fragDepth:]))
					z = t.depthFmt.quantize(float64(float32(math.Min(math.Max(float64(fz), 0), 1))))
				} else {
					z = t.depthFmt.quantize(fr.prims[q.prim].depthAt(samplePoint(px, py, pos)))
				}
				if z < t.readDepth(px, py, s) {
					pass |= 1 << s
					if d.depthWrite {
						t.writeDepth(px, py, s, z)
					}
				}
			}
			if pass == 0 {
				fr.st.LateZKilled++
				continue
			}
			smask = pass
		}
		if t.color == nil {
			continue // a depth-only pass
		}
		var src [4]float64
		src[3] = 1
		for c := 0; c < sh.colorComps && c < 4; c++ {
			src[c] = float64(math.Float32frombits(binary.LittleEndian.Uint32(f[sh.colorOffset+4*c:])))
		}
		var out [4]uint8
		if d.blend {
			a := clamp01(src[3])
			for s := range fu.samplePos {
				if smask&(1<<s) == 0 {
					continue
				}
				dst := t.readColor(px, py, s)
				for c := 0; c < 3; c++ {
					dc := float64(uint8(dst>>(8*c))) / 255
					out[c] = unorm8(src[c]*a + dc*(1-a))
				}
				out[3] = unorm8(a + float64(uint8(dst>>24))/255*(1-a))
				t.writeColor(px, py, s, packRGBA(out))
			}
			fr.st.Blended++
		} else {
			for c := 0; c < 4; c++ {
				out[c] = unorm8(src[c])
			}
			col := packRGBA(out)
			for s := range fu.samplePos {
				if smask&(1<<s) != 0 {
					t.writeColor(px, py, s, col)
				}
			}
		}
		written++
		if c := q.cell; c >= 0 && int(c) < len(fr.work) {
			fr.work[c].Fragments++
		}
	}
	fr.st.FragmentsWritten += written
	if sw != nil {
		sw.quads, sw.frags = fu.rasterQuads, int(written)
		sw.zsEarly, sw.zsLate = fu.zsEarly, zsLate
		if fu.roundRobin {
			sw.core = fu.core
		}
	}
	fr.st.FragmentWarps++
	fr.st.FragmentWarpInsts += w.WarpInsts
	fr.st.FragmentThreadInsts += w.ThreadInsts
	fr.st.TextureSamples += samples
	fr.st.addTex(w.Tex)
	// Share the warp's work among the cells of its quads.
	share := 1 / float64(len(fu.batch))
	for i := range fu.batch {
		c := fu.batch[i].cell
		if c < 0 || int(c) >= len(fr.work) {
			continue
		}
		wk := &fr.work[c]
		wk.Warps += share
		wk.WarpInsts += float64(w.WarpInsts) * share
		wk.ThreadInsts += float64(w.ThreadInsts) * share
		wk.EngineCycles += cycles * share
		wk.TexSamples += float64(samples) * share
		wk.WarpWidth = sh.width
	}
	sr.d.Release(wg)
	fu.batch = fu.batch[:0]
	fu.batchID++
	fu.rasterQuads, fu.zsEarly = 0, 0
	return nil
}

// textureStep sends one step's texel fetches through the core's texture
// unit and cache (the memory model merges a bilinear footprint's texels
// into the lines they share). It returns the samples taken (active lanes
// per texture instruction).
func (fu *fragUnit) textureStep() uint64 {
	tr := &fu.trace
	var samples uint64
	active := tr.Active.Count()
	r := fu.fr.r
	for _, a := range tr.Accesses {
		if a.Kind != emu.AccessTexture {
			continue
		}
		samples += uint64(active)
		addrs, bytes := tr.Addrs[a.Start:a.Start+a.N], a.Bytes
		if len(r.sampled) > 0 && len(addrs) > 0 {
			if att := r.sampledAt(addrs[0]); att != nil {
				fu.texAddrs, bytes = att.texelAddrs(addrs, fu.texAddrs)
				addrs = fu.texAddrs
			}
		}
		r.ms.texture(fu.core, addrs, bytes, active)
	}
	return samples
}

func clamp01(v float64) float64 {
	if !(v > 0) {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}

// unorm8 converts a colour channel to 8 bits, rounding to nearest.
func unorm8(v float64) uint8 { return uint8(math.Floor(clamp01(v)*255 + 0.5)) }
