package gfx

import (
	"encoding/binary"
	"math"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/gfx/scene"
	"github.com/pocketgpu/pocketgpu/gfx/shaders"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// subBits is the rasteriser's sub-pixel precision: window coordinates snap
// to 1/256 pixel. assumed: 8 fractional bits, as Direct3D and Vulkan
// implementations commonly use (Vulkan subPixelPrecisionBits); the seeds
// do not give Mali's or Adreno's.
const subBits = 8
const subOne = 1 << subBits

// guardBand is how far outside the viewport, in viewport sizes from its
// centre (clip-space |x| and |y| over w), a primitive may reach before it
// is clipped; inside it the rasteriser's fixed-point range copes. assumed:
// 8, within the range of 8 sub-pixel bits in the 64-bit edge functions.
const guardBand = 8.0

// A post-transform vertex record holds the clip-space position (a vec4 of
// float32) and the varyings' 32-bit words, as the vertex shader wrote them:
// the renderer's vertex format on every GPU, not a GPU's parameter.
const (
	positionBytes    = 16
	varyingWordBytes = 4
)

// vertexRecordBytes is the size of one post-transform vertex record.
func (fr *frameRun) vertexRecordBytes() int { return positionBytes + varyingWordBytes*fr.prog.nvary }

// drawState is one instance of a mesh drawn in a frame.
type drawState struct {
	index      int
	serial     uint64 // unique over the renderer's frames: which uniforms ubo holds
	mesh       *scene.Mesh
	mat        *scene.Material
	addrs      meshAddrs
	ubo        [shaders.DrawBlockSize]byte
	image      *emu.Image
	input      *emu.Image // set 0 binding 2: an earlier pass's attachment
	vs, fs     *stageRun
	cullBack   bool
	blend      bool
	depthWrite bool
	lateZ      bool
	vbase      int32
}

// frameRun is the work of one frame.
type frameRun struct {
	// stage and stageTotal are the progress stage under way.
	stage      string
	stageTotal int

	r     *Renderer
	index int
	// pass is the render pass under way, prog its shaders.
	pass  *renderPass
	prog  *program
	draws []*drawState
	clip  [][4]float32
	vary  []uint32
	prims []prim
	st    FrameStats
	grid  TileGrid
	work  []Work // per grid tile
	// mainGrid is the main pass's grid, the frame's heatmaps.
	mainGrid TileGrid

	vertexWork   Work
	timing       *frameTiming // the frame's run on the timing engine
	passVertices uint64       // vertices the pass's vertex shading ran
	passStart    uint64       // DRAM bytes of the frame before the pass
	visBase      uint64       // Adreno visibility streams
	overlap      float64      // cycles hidden by concurrent binning
	clipScratch
}

func (r *Renderer) newFrame(i int) *frameRun {
	fr := &frameRun{r: r, index: i}
	fr.st.Frame = i
	fr.st.Mode = r.opt.Mode.String()
	return fr
}

func putF32(b []byte, off int, v float64) {
	binary.LittleEndian.PutUint32(b[off:], math.Float32bits(float32(v)))
}

// prepareDraws makes a draw of every instance of the frame, with its
// uniform block.
func (fr *frameRun) prepareDraws() error {
	r := fr.r
	sc := r.sc
	p := fr.pass
	aspect := float64(p.w) / float64(p.h)
	if p.spec.Camera != nil {
		p.vp = p.spec.Camera.ViewProj(fr.index, aspect, 0)
	} else {
		p.vp = sc.ViewProj(fr.index, aspect, r.opt.OrbitDeg)
	}
	vp := p.vp
	light := sc.Light.Norm()
	instances := sc.Frame(fr.index)
	if p.spec.Instances != nil {
		instances = p.spec.Instances(fr.index)
	}
	for i, in := range instances {
		if in.Mesh < 0 || in.Mesh >= len(sc.Meshes) {
			return inputErrorf("scene: frame %d draws mesh %d, which does not exist", fr.index, in.Mesh)
		}
		m := &sc.Meshes[in.Mesh]
		mat := &sc.Materials[m.Material]
		r.draws++
		d := &drawState{index: i, serial: r.draws, mesh: m, mat: mat, addrs: r.meshAddr[in.Mesh], image: r.white, input: r.white}
		if mat.Texture >= 0 {
			d.image = r.images[mat.Texture]
		}
		smp, inSmp := samplerBits(mat.Sampler), uint64(0)
		if p.texture != nil {
			d.image, smp = p.texture.tex, samplerBits(p.spec.Texture.Sampler)
		}
		if p.input != nil {
			d.input, inSmp = p.input.tex, samplerBits(p.spec.Input.Sampler)
		}
		fs := fr.prog.fs
		if mat.Alpha == scene.Mask {
			fs = fr.prog.fsMasked
		}
		var err error
		if d.vs, err = r.stage(fr.prog.vs, smp, inSmp); err != nil {
			return err
		}
		if d.fs, err = r.stage(fs, smp, inSmp); err != nil {
			return err
		}
		d.cullBack = !mat.DoubleSided
		d.blend = mat.Alpha == scene.Blend
		d.depthWrite = !d.blend
		d.lateZ = fs.kills || fs.fragDepth >= 0
		mvp := vp.Mul(in.Transform)
		for k, v := range mvp {
			putF32(d.ubo[:], 4*k, v)
		}
		for k, v := range in.Transform {
			putF32(d.ubo[:], 64+4*k, v)
		}
		for k := 0; k < 4; k++ {
			putF32(d.ubo[:], 128+4*k, mat.BaseColor[k])
		}
		for k := 0; k < 3; k++ {
			putF32(d.ubo[:], 144+4*k, light[k])
		}
		cutoff := 0.0
		if mat.Alpha == scene.Mask {
			cutoff = mat.AlphaCutoff
		}
		lit := 1.0
		if mat.Unlit {
			lit = 0
		}
		putF32(d.ubo[:], 160, cutoff)
		putF32(d.ubo[:], 164, lit)
		putF32(d.ubo[:], 168, float64(fr.index))
		if p.lightFrom != nil {
			for k, v := range p.lightFrom.vp.Mul(in.Transform) {
				putF32(d.ubo[:], 176+4*k, v)
			}
		}
		fr.draws = append(fr.draws, d)
	}
	fr.st.Draws += len(fr.draws)
	return nil
}

// bind puts a draw's uniforms and texture where its shaders read them.
func (fr *frameRun) bind(d *drawState, sr *stageRun) {
	r := fr.r
	if r.uboFor != d.serial {
		copy(r.ubo.Data, d.ubo[:])
		r.uboFor = d.serial
	}
	sr.d.Images[0] = d.image
	sr.d.Images[1] = d.input
}

// vertexBatch is the vertices one vertex warp shades.
type vertexBatch struct {
	d     *drawState
	first int
}

func (vb *vertexBatch) initLane(lane int, frame []byte) {
	m := vb.d.mesh
	v := vb.first + lane
	for _, in := range vb.d.vs.sh.inputs {
		var val [4]float32
		switch in.location {
		case attrPosition:
			p := m.Positions[v]
			val = [4]float32{p[0], p[1], p[2], 1}
		case attrNormal:
			val = [4]float32{0, 0, 1, 0}
			if m.Normals != nil {
				n := m.Normals[v]
				val = [4]float32{n[0], n[1], n[2], 0}
			}
		case attrTexCoord:
			if m.TexCoords != nil {
				t := m.TexCoords[v]
				val = [4]float32{t[0], t[1], 0, 1}
			}
		case attrColor:
			val = [4]float32{1, 1, 1, 1}
			if m.Colors != nil {
				val = m.Colors[v]
			}
		}
		for c := 0; c < in.comps; c++ {
			binary.LittleEndian.PutUint32(frame[in.offset+4*c:], math.Float32bits(val[c]))
		}
	}
}

func (vb *vertexBatch) builtin(b spirv.BuiltIn, lane int) (uint64, bool) {
	switch b {
	case spirv.BuiltInVertexIndex:
		return uint64(vb.first + lane), true
	case spirv.BuiltInInstanceIndex:
		return 0, true
	}
	return 0, false
}

// shadeVertices runs the vertex shader over every draw's vertices, warp by
// warp, keeping clip-space positions and varyings.
func (fr *frameRun) shadeVertices() error {
	r := fr.r
	// tile_lists keeps transformed vertices in memory between the
	// vertex/tiler job and the fragment job; gmem_bins re-runs the vertex
	// work per pass and an immediate-mode renderer streams vertices to the
	// rasteriser on chip.
	storePostTransform := r.opt.Mode == Tiled && fr.pass.bins == nil
	total := 0
	for _, d := range fr.draws {
		total += len(d.mesh.Positions)
	}
	recBytes := fr.vertexRecordBytes()
	nvary, varyings := fr.prog.nvary, fr.prog.varyings
	if need := (total + total/4 + 1024) * recBytes; storePostTransform && need > r.ptCap {
		r.ptCap = need // room for the vertices clipping adds
		r.ptBase = r.va.alloc(r.ptCap)
	}
	fr.clip = make([][4]float32, 0, total+total/8)
	fr.vary = make([]uint32, 0, (total+total/8)*nvary)
	if tk := r.rec.begin(taskVertex, "vertex", -1); tk != nil {
		tk.draws = len(fr.draws)
	}
	for di, d := range fr.draws {
		if err := fr.checkpoint("geometry", di, len(fr.draws)); err != nil {
			return err
		}
		sr := d.vs
		sh := sr.sh
		fr.bind(d, sr)
		n := len(d.mesh.Positions)
		d.vbase = int32(len(fr.clip))
		fr.clip = fr.clip[:len(fr.clip)+n]
		fr.vary = fr.vary[:len(fr.vary)+n*nvary]
		W := sh.width
		vb := &vertexBatch{d: d}
		sr.vtx = vb
		for first := 0; first < n; first += W {
			cnt := min(W, n-first)
			vb.first = first
			// The attribute fetch feeds the warp.
			for _, in := range sh.inputs {
				sz := attrComps[in.location] * 4
				r.ms.Read(d.addrs.attr[in.location]+uint64(first*sz), cnt*sz, StreamGeometry)
			}
			wg := sr.d.NewPartialWorkGroup(0, cnt)
			w := wg.Warps[0]
			cycles, _, err := r.runWarp(sh, w, nil)
			if err != nil {
				return err
			}
			for l := 0; l < cnt; l++ {
				f := w.Private(l)
				vi := int(d.vbase) + first + l
				for c := 0; c < 4; c++ {
					fr.clip[vi][c] = math.Float32frombits(binary.LittleEndian.Uint32(f[sh.posOffset+4*c:]))
				}
				rec := fr.vary[vi*nvary : (vi+1)*nvary]
				for _, v := range varyings {
					for c := 0; c < v.comps; c++ {
						rec[v.word+c] = binary.LittleEndian.Uint32(f[v.vsOffset+4*c:])
					}
				}
			}
			fr.st.VertexWarps++
			fr.st.VertexWarpInsts += w.WarpInsts
			fr.vertexWork.add(Work{Warps: 1, WarpInsts: float64(w.WarpInsts), ThreadInsts: float64(w.ThreadInsts), EngineCycles: cycles, WarpWidth: W})
			sr.d.Release(wg)
			// The post-transform record written for the tiler and the
			// fragment stage.
			if storePostTransform {
				r.ms.Write(r.ptBase+uint64((int(d.vbase)+first)*recBytes), cnt*recBytes, StreamGeometry)
			}
		}
		fr.st.VerticesShaded += uint64(n)
		fr.passVertices += uint64(n)
	}
	if fr.pass.main {
		fr.st.VertexWarpWidth = fr.prog.vs.width
	}
	return nil
}

// prim is a triangle set up for rasterisation: fixed-point window
// coordinates oriented so that its area is positive, edge functions,
// depth and 1/w per vertex, and the pixel box of its samples.
type prim struct {
	draw      int32
	provoking int32
	v         [3]int32
	x, y      [3]int64
	z, iw     [3]float64
	area      int64
	ea, eb    [3]int64
	ec        [3]int64
	bias      [3]int64 // 0 on top-left edges, 1 elsewhere: inside iff E >= bias
	bx0, by0  int32
	bx1, by1  int32 // inclusive
	front     bool
}

// coversAt reports whether the point (X, Y), in sub-pixel units, is
// inside (top-left rule).
func (p *prim) coversAt(X, Y int64) bool {
	for i := 0; i < 3; i++ {
		if p.ea[i]*X+p.eb[i]*Y+p.ec[i] < p.bias[i] {
			return false
		}
	}
	return true
}

// sampleMask has a bit per sample of pixel (px, py) inside the primitive.
func (p *prim) sampleMask(px, py int, pos [][2]int64) uint8 {
	var m uint8
	for s, sp := range pos {
		if p.coversAt(samplePoint(px, py, sp)) {
			m |= 1 << s
		}
	}
	return m
}

// samplePositions are Vulkan's standard sample locations
// (standardSampleLocations) for 1, 2 and 4 samples, in sub-pixel units
// from the pixel's top-left corner: (0.5, 0.5); (0.75, 0.75), (0.25,
// 0.25); (0.375, 0.125), (0.875, 0.375), (0.125, 0.625), (0.625, 0.875).
var samplePositions = map[int][][2]int64{
	1: {{subOne / 2, subOne / 2}},
	2: {{subOne * 3 / 4, subOne * 3 / 4}, {subOne / 4, subOne / 4}},
	4: {{subOne * 3 / 8, subOne / 8}, {subOne * 7 / 8, subOne * 3 / 8}, {subOne / 8, subOne * 5 / 8}, {subOne * 5 / 8, subOne * 7 / 8}},
}

// Outcode bits of a clip-space vertex.
const (
	outLeft = 1 << iota
	outRight
	outBottom
	outTop
	outNear
	outFar
	outGuard // beyond the guard band in x or y
	outW     // w too small to divide by
)

func outcode(c [4]float32) int {
	x, y, z, w := float64(c[0]), float64(c[1]), float64(c[2]), float64(c[3])
	o := 0
	if x < -w {
		o |= outLeft
	}
	if x > w {
		o |= outRight
	}
	if y < -w {
		o |= outBottom
	}
	if y > w {
		o |= outTop
	}
	if z < 0 {
		o |= outNear
	}
	if z > w {
		o |= outFar
	}
	if math.Abs(x) > guardBand*w || math.Abs(y) > guardBand*w {
		o |= outGuard
	}
	if w < 1e-6 {
		o |= outW
	}
	for _, v := range c {
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			o |= outLeft | outRight // never drawn
		}
	}
	return o
}

// assemble reads each draw's triangles, clips and culls them and sets up
// the survivors in submission order.
func (fr *frameRun) assemble() {
	r := fr.r
	for di, d := range fr.draws {
		idx := d.mesh.Indices
		if r.rec != nil {
			r.rec.assembled += uint64(len(idx) / 3)
		}
		for t := 0; t+2 < len(idx); t += 3 {
			fr.st.PrimitivesIn++
			v := [3]int32{d.vbase + int32(idx[t]), d.vbase + int32(idx[t+1]), d.vbase + int32(idx[t+2])}
			o0, o1, o2 := outcode(fr.clip[v[0]]), outcode(fr.clip[v[1]]), outcode(fr.clip[v[2]])
			if o0&o1&o2&(outLeft|outRight|outBottom|outTop|outNear|outFar) != 0 {
				fr.st.PrimitivesCulled.Frustum++
				continue
			}
			if (o0|o1|o2)&(outNear|outFar|outGuard|outW) == 0 {
				fr.setup(int32(di), v, v[0])
				continue
			}
			fr.st.PrimitivesClipped++
			fr.clipTriangle(int32(di), v)
		}
		r.ms.Read(d.addrs.indices, len(idx)*4, StreamGeometry)
	}
}

// clipScratch holds the polygon being clipped.
type clipScratch struct {
	poly, next []clipVert
}

type clipVert struct {
	c    [4]float64
	vary []float64
}

// clipTriangle clips against the near and far planes and the guard band
// (Sutherland-Hodgman in clip space, where linear interpolation of
// varyings is perspective-correct) and sets up the fan of what is left.
func (fr *frameRun) clipTriangle(di int32, v [3]int32) {
	nv := fr.prog.nvary
	mk := func(i int32) clipVert {
		cv := clipVert{vary: make([]float64, nv)}
		for c := 0; c < 4; c++ {
			cv.c[c] = float64(fr.clip[i][c])
		}
		for k := 0; k < nv; k++ {
			cv.vary[k] = float64(math.Float32frombits(fr.vary[int(i)*nv+k]))
		}
		return cv
	}
	poly := append(fr.poly[:0], mk(v[0]), mk(v[1]), mk(v[2]))
	planes := []func(c [4]float64) float64{
		func(c [4]float64) float64 { return c[2] },        // near: z >= 0
		func(c [4]float64) float64 { return c[3] - c[2] }, // far: z <= w
		func(c [4]float64) float64 { return c[3] - 1e-6 }, // w > 0
		func(c [4]float64) float64 { return guardBand*c[3] - c[0] },
		func(c [4]float64) float64 { return guardBand*c[3] + c[0] },
		func(c [4]float64) float64 { return guardBand*c[3] - c[1] },
		func(c [4]float64) float64 { return guardBand*c[3] + c[1] },
	}
	for _, plane := range planes {
		if len(poly) < 3 {
			break
		}
		next := fr.next[:0]
		for i := range poly {
			a, b := poly[i], poly[(i+1)%len(poly)]
			da, db := plane(a.c), plane(b.c)
			if da >= 0 {
				next = append(next, a)
			}
			if (da >= 0) != (db >= 0) {
				t := da / (da - db)
				cv := clipVert{vary: make([]float64, nv)}
				for c := 0; c < 4; c++ {
					cv.c[c] = a.c[c] + t*(b.c[c]-a.c[c])
				}
				for k := 0; k < nv; k++ {
					cv.vary[k] = a.vary[k] + t*(b.vary[k]-a.vary[k])
				}
				next = append(next, cv)
			}
		}
		fr.next, fr.poly = poly, next
		poly = next
	}
	fr.poly = poly
	if len(poly) < 3 {
		fr.st.PrimitivesCulled.Frustum++
		return
	}
	// New vertices; integer (flat) varyings come from the provoking vertex.
	ids := make([]int32, len(poly))
	for i, cv := range poly {
		ids[i] = int32(len(fr.clip))
		fr.clip = append(fr.clip, [4]float32{float32(cv.c[0]), float32(cv.c[1]), float32(cv.c[2]), float32(cv.c[3])})
		for _, vr := range fr.prog.varyings {
			for c := 0; c < vr.comps; c++ {
				k := vr.word + c
				if vr.float {
					fr.vary = append(fr.vary, math.Float32bits(float32(cv.vary[k])))
				} else {
					fr.vary = append(fr.vary, fr.vary[int(v[0])*nv+k])
				}
			}
		}
	}
	for i := 1; i+1 < len(poly); i++ {
		fr.setup(di, [3]int32{ids[0], ids[i], ids[i+1]}, v[0])
	}
}

// setup projects a triangle to the viewport, snaps it, culls zero-area and
// back-facing triangles and computes its edge functions.
func (fr *frameRun) setup(di int32, v [3]int32, provoking int32) {
	pw, ph := fr.pass.w, fr.pass.h
	W, H := float64(pw), float64(ph)
	var p prim
	p.draw, p.provoking, p.v = di, provoking, v
	for i := 0; i < 3; i++ {
		c := fr.clip[v[i]]
		iw := 1 / float64(c[3])
		xw := (float64(c[0])*iw + 1) * W / 2
		yw := (float64(c[1])*iw + 1) * H / 2
		p.x[i] = int64(math.Round(xw * subOne))
		p.y[i] = int64(math.Round(yw * subOne))
		p.z[i] = float64(c[2]) * iw
		p.iw[i] = iw
	}
	area := (p.x[1]-p.x[0])*(p.y[2]-p.y[0]) - (p.x[2]-p.x[0])*(p.y[1]-p.y[0])
	if area == 0 {
		fr.st.PrimitivesCulled.ZeroArea++
		return
	}
	// With y down the frame buffer, a triangle counter-clockwise on
	// screen (glTF's front face) has negative area here.
	p.front = area < 0
	if fr.draws[di].cullBack && !p.front {
		fr.st.PrimitivesCulled.BackFace++
		return
	}
	if area < 0 {
		p.v[1], p.v[2] = p.v[2], p.v[1]
		p.x[1], p.x[2] = p.x[2], p.x[1]
		p.y[1], p.y[2] = p.y[2], p.y[1]
		p.z[1], p.z[2] = p.z[2], p.z[1]
		p.iw[1], p.iw[2] = p.iw[2], p.iw[1]
		area = -area
	}
	p.area = area
	for i := 0; i < 3; i++ {
		j, k := (i+1)%3, (i+2)%3
		dx, dy := p.x[k]-p.x[j], p.y[k]-p.y[j]
		p.ea[i] = -dy
		p.eb[i] = dx
		p.ec[i] = dy*p.x[j] - dx*p.y[j]
		if dy < 0 || (dy == 0 && dx > 0) {
			p.bias[i] = 0 // top or left edge: samples on it are inside
		} else {
			p.bias[i] = 1
		}
	}
	minX := min(p.x[0], p.x[1], p.x[2])
	maxX := max(p.x[0], p.x[1], p.x[2])
	minY := min(p.y[0], p.y[1], p.y[2])
	maxY := max(p.y[0], p.y[1], p.y[2])
	// Pixels one of whose samples (px + offset) can be inside.
	lo, hi := fr.sampleSpan()
	bx0 := ceilDiv(minX-hi[0], subOne)
	bx1 := floorDiv(maxX-lo[0], subOne)
	by0 := ceilDiv(minY-hi[1], subOne)
	by1 := floorDiv(maxY-lo[1], subOne)
	if bx1 < 0 || by1 < 0 || bx0 >= int64(pw) || by0 >= int64(ph) || maxX < 0 || maxY < 0 ||
		minX > int64(pw)<<subBits || minY > int64(ph)<<subBits {
		fr.st.PrimitivesCulled.Frustum++
		return
	}
	p.bx0 = int32(max(bx0, 0))
	p.by0 = int32(max(by0, 0))
	p.bx1 = int32(min(bx1, int64(pw)-1))
	p.by1 = int32(min(by1, int64(ph)-1))
	fr.prims = append(fr.prims, p)
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func ceilDiv(a, b int64) int64 { return -floorDiv(-a, b) }

// exactCoverageMaxPixels bounds the pixel box coversSample tests pixel by
// pixel; a larger triangle is assumed to cover a sample. It limits the
// simulator's own work, not a GPU's (docs/rendering.md).
const exactCoverageMaxPixels = 1024

// sampleSpan is the smallest and largest sample offsets of the pass in x
// and y.
func (fr *frameRun) sampleSpan() (lo, hi [2]int64) {
	pos := samplePositions[fr.pass.samples]
	lo, hi = pos[0], pos[0]
	for _, sp := range pos[1:] {
		for c := 0; c < 2; c++ {
			lo[c], hi[c] = min(lo[c], sp[c]), max(hi[c], sp[c])
		}
	}
	return lo, hi
}

// coversSample reports whether a primitive covers at least one sample:
// exactly for boxes up to exactCoverageMaxPixels, assumed for larger ones.
func (p *prim) coversSample(pos [][2]int64) bool {
	if p.bx0 > p.bx1 || p.by0 > p.by1 {
		return false
	}
	if int(p.bx1-p.bx0+1)*int(p.by1-p.by0+1) > exactCoverageMaxPixels {
		return true
	}
	for py := int(p.by0); py <= int(p.by1); py++ {
		for px := int(p.bx0); px <= int(p.bx1); px++ {
			if p.sampleMask(px, py, pos) != 0 {
				return true
			}
		}
	}
	return false
}
