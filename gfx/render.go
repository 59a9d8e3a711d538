// Package gfx renders scenes the way tile-based mobile GPUs do, and counts
// what it costs: vertex shading through the functional executor, clipping
// and culling, then, as the GPU's tiling.scheme says, either
//
//   - tile_lists (Mali; Rogue as modelled): the tiler writes per-tile
//     polygon lists to memory, flat or into a hierarchy of power-of-two
//     bins, and each tile is shaded in a core's tile buffer and written
//     back, with transaction elimination by CRC and the sample-less
//     triangles dropped where the description has them (seeds 000, 002);
//   - gmem_bins (Adreno): a binning pass writing visibility streams, one
//     pass per bin in GMEM, resolves to system memory, or direct rendering
//     when the attachments do not fit (seeds 001, 004);
//
// or an immediate-mode baseline whose colour and depth traffic goes
// through L2 to DRAM. Every hardware number comes from the GPU's
// description (arch: tiling, raster, command_processor); the code does not
// branch on the family. Fragments are shaded per 2×2 quad in warps of the
// GPU's width by the executor, with texture sampling through a model of
// the texture caches. Tiled and immediate rendering produce the same
// image bit for bit. docs/rendering.md describes the model and its
// sources.
package gfx

import (
	"context"
	"fmt"
	"image"
	"math"
	"time"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/gfx/layout"
	"github.com/pocketgpu/pocketgpu/gfx/scene"
	"github.com/pocketgpu/pocketgpu/gfx/shaders"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Mode is how frames are rendered.
type Mode uint8

const (
	Tiled Mode = iota
	Immediate
)

func (m Mode) String() string {
	if m == Immediate {
		return "immediate"
	}
	return "tiled"
}

// ParseMode reads "tiled" or "immediate".
func ParseMode(s string) (Mode, error) {
	switch s {
	case "tiled":
		return Tiled, nil
	case "immediate":
		return Immediate, nil
	}
	return 0, inputErrorf("unknown mode %q (tiled or immediate)", s)
}

// MaxFrameSide is the largest frame width or height the renderer accepts
// on any GPU: it keeps a frame's host memory (colour, depth and the
// per-pixel arrays, gfx.EstimateMemory) within reach. It is the
// simulator's limit, not a GPU's: each GPU's own is
// raster.max_framebuffer_width/height, which are no larger on the presets.
const MaxFrameSide = 16384

// Options configure a renderer.
type Options struct {
	Width, Height int
	Mode          Mode
	// Layout of the colour buffer in memory; LayoutSet false picks the
	// GPU's own (tiling.framebuffer_layout).
	Layout    layout.Kind
	LayoutSet bool
	// VS and FS replace the default shaders (SPIR-V); VSName and FSName
	// name them in messages.
	VS, FS         []byte
	VSName, FSName string
	// OrbitDeg turns a perspective camera about its target by this many
	// degrees per frame.
	OrbitDeg float64
	// Cost, when set, prices a frame from its counts (Estimate: throughput
	// bounds) instead of running it on the timing engine.
	Cost CostModel
	// MaxWarpInsts bounds one shader warp (0: 1<<22).
	MaxWarpInsts uint64
	// The main pass's attachments (the one pass of a single-pass scene):
	// MSAA is its samples per pixel (0 or 1: one); DepthFormat its depth
	// format ("" is DefaultDepthFormat, "none" no depth attachment);
	// the load and store actions of its colour and depth.
	MSAA                   int
	DepthFormat            string
	ColorLoad, DepthLoad   LoadOp
	ColorStore, DepthStore StoreOp
	// Compute are dispatches submitted with the first frame, run beside
	// it on the same engine by the command processor's compute queue or,
	// for LowPriority ones, its low-priority queue (Adreno's LPAC) where
	// the GPU has one.
	Compute []ComputeJob
	// Context, when set, stops a frame when done: Render returns an error
	// wrapping emu.ErrStopped and the context's cause, and no frame.
	Context context.Context
	// Progress, when set, is called at most every 100 ms while a frame
	// renders.
	Progress func(Progress)
	// Trace, when set, records each frame's run on it (timing/trace;
	// `render --trace`): the engine's tracks, the command processor's jobs
	// and the render passes' tasks, frames one after another. The runs
	// that measure the interval between frames are not recorded.
	Trace *trace.Trace
}

// Compute is a compute dispatch that can run on a timing engine beside a
// frame (device.Plan implements it).
type Compute interface {
	AddTo(e *timing.Engine) (*timing.Kernel, error)
}

// ComputeJob is a compute dispatch submitted with a frame.
type ComputeJob struct {
	Name        string
	Work        Compute
	LowPriority bool
}

// ClearColor is the colour every frame starts from (opaque dark grey).
var ClearColor = [4]uint8{24, 24, 28, 255}

// clearDepth is the depth buffer's initial value (the far plane).
const clearDepth = 1.0

// The renderer's pixel formats, the same on every GPU: RGBA8 colour and
// 32-bit depth. They are what the frame holds, not properties of a GPU.
const (
	colorBytes = 4
	depthBytes = 4
)

// Renderer renders a scene on a GPU, frame after frame; it keeps what
// persists between frames (the colour buffer in memory, the CRCs of its
// tiles).
type Renderer struct {
	lastProgress time.Time

	g    *arch.GPU
	sc   *scene.Scene
	opt  Options
	cost CostModel

	programs  map[string]*program
	stageRuns map[stageKey]*stageRun

	mem    *emu.Memory
	ubo    *emu.Buffer
	uboFor uint64 // serial of the draw whose uniforms are in ubo (0: none)
	draws  uint64 // draws made so far, every frame's, for their serials
	images []*emu.Image
	white  *emu.Image

	ms *memSystem
	va virtual
	// timed: frames run on the timing engine (no CostModel given); rec,
	// while such a frame renders, records its work for it.
	timed bool
	rec   *recorder
	// prevWork is the last frame's recorded work, timed again beside the
	// next frame for the frame interval.
	prevWork *frameWork

	meshAddr []meshAddrs
	ptBase   uint64 // post-transform vertex buffer
	ptCap    int

	passes   []*renderPass
	mainPass *renderPass
	sampled  []*attachment // attachments later passes sample
	frame    int
}

// meshAddrs are the GPU addresses of a mesh's vertex streams.
type meshAddrs struct {
	attr    [numAttrs]uint64
	indices uint64
}

type stageKey struct {
	sh             *shader
	sampler, input uint64 // samplers of bindings 1 and 2
}

// stageRun is a dispatch of one shader with one sampler; ctx tells its
// hooks which lanes hold what.
type stageRun struct {
	sh  *shader
	d   *emu.Dispatch
	vtx *vertexBatch
	fu  *fragUnit
}

// New prepares a renderer: it checks the options, loads and links the
// shaders and lays out the GPU-side buffers.
func New(g *arch.GPU, sc *scene.Scene, opt Options) (*Renderer, error) {
	if err := checkFrameSize(g, opt.Width, opt.Height); err != nil {
		return nil, err
	}
	if err := g.ValidateTiling(); err != nil {
		return nil, &InputError{Msg: err.Error()}
	}
	if math.IsNaN(opt.OrbitDeg) || math.IsInf(opt.OrbitDeg, 0) {
		return nil, inputErrorf("camera orbit %v is not a number of degrees", opt.OrbitDeg)
	}
	if err := sc.Validate(); err != nil {
		return nil, &InputError{Msg: "scene: " + err.Error()}
	}
	if opt.MSAA != 0 && opt.MSAA != 1 && opt.MSAA != 2 && opt.MSAA != 4 {
		return nil, inputErrorf("%d samples per pixel: 1, 2 or 4", opt.MSAA)
	}
	r := &Renderer{g: g, sc: sc, opt: opt, cost: opt.Cost, stageRuns: map[stageKey]*stageRun{}, programs: map[string]*program{}}
	if r.cost == nil {
		// Frames run on the timing engine; the throughput model still
		// prices the pieces the renderer's own bookkeeping asks about.
		r.timed = true
		r.cost = Estimate{GPU: g}
	}
	if r.opt.MaxWarpInsts == 0 {
		r.opt.MaxWarpInsts = 1 << 22
	}
	r.mem = emu.NewMemory()
	r.ubo = r.mem.Alloc(shaders.DrawBlockSize, "draw uniforms", true)
	for i := range sc.Textures {
		t := &sc.Textures[i]
		r.images = append(r.images, r.newImage(t.Name, t.Width, t.Height, t.Pixels))
	}
	r.white = r.newImage("white", 1, 1, []byte{255, 255, 255, 255})
	r.ms = newMemSystem(g)
	for i := range sc.Meshes {
		m := &sc.Meshes[i]
		var a meshAddrs
		for k := 0; k < numAttrs; k++ {
			a.attr[k] = r.va.alloc(len(m.Positions) * attrComps[k] * 4)
		}
		a.indices = r.va.alloc(len(m.Indices) * 4)
		r.meshAddr = append(r.meshAddr, a)
	}
	if err := r.setupPasses(); err != nil {
		return nil, err
	}
	return r, nil
}

// checkFrameSize refuses a frame the GPU (raster.max_framebuffer_*) or the
// renderer (MaxFrameSide) cannot hold.
func checkFrameSize(g *arch.GPU, w, h int) error {
	if w < 1 || h < 1 {
		return inputErrorf("frame size %dx%d: width and height must be at least 1", w, h)
	}
	if mw, mh := g.Raster.MaxFramebufferWidth, g.Raster.MaxFramebufferHeight; w > mw || h > mh {
		return inputErrorf("frame size %dx%d is over %s's limit of %dx%d pixels (raster.max_framebuffer_width, max_framebuffer_height)", w, h, g.ID, mw, mh)
	}
	if w > MaxFrameSide || h > MaxFrameSide {
		return inputErrorf("frame size %dx%d is over the renderer's limit of %d pixels a side", w, h, MaxFrameSide)
	}
	return nil
}

func ceilDivInt(a, b int) int { return (a + b - 1) / b }

// newImage uploads an RGBA8 texture with its full mip chain (levels laid
// out after level 0 in the same buffer, as emu.MipChain places them).
func (r *Renderer) newImage(name string, w, h int, pix []byte) *emu.Image {
	img := &emu.Image{Dim: spirv.Dim2D, Width: w, Height: h, Depth: 1, Channels: 4, Type: emu.ChanUNorm8, RowPitch: w * 4, SlicePitch: w * h * 4}
	var size int
	img.Mips, size = emu.MipChain(img)
	img.Buf = r.mem.Alloc(size, "texture "+name, true)
	copy(img.Buf.Data, pix)
	buildMips(img)
	return img
}

// buildMips fills each mip level of an RGBA8 image from the one before
// with a 2×2 box filter: each channel the rounded mean of the four bytes
// as stored (linear RGBA8, no sRGB decoding: the renderer's textures have
// no colour space). A level of odd size drops the last row or column of
// the one before (level i is max(1, size >> i)); a dimension already 1
// repeats its texel.
func buildMips(img *emu.Image) {
	prev := emu.Level{Width: img.Width, Height: img.Height, RowPitch: img.RowPitch}
	d := img.Buf.Data
	for _, lv := range img.Mips {
		for y := 0; y < lv.Height; y++ {
			y0, y1 := 2*y, min(2*y+1, prev.Height-1)
			for x := 0; x < lv.Width; x++ {
				x0, x1 := 2*x, min(2*x+1, prev.Width-1)
				o := lv.Offset + y*lv.RowPitch + 4*x
				for c := 0; c < 4; c++ {
					at := func(px, py int) int { return int(d[prev.Offset+py*prev.RowPitch+4*px+c]) }
					d[o+c] = byte((at(x0, y0) + at(x1, y0) + at(x0, y1) + at(x1, y1) + 2) / 4)
				}
			}
		}
		prev = lv
	}
}

// program is a pass's shaders: the vertex shader, the fragment shaders of
// opaque or blended and of alpha-tested materials, and the varyings
// between them.
type program struct {
	vs, fs, fsMasked *shader
	varyings         []varying
	nvary            int
}

// program loads the shaders of a pass's shading: "" is the default pair
// (or the user's); color says the pass has a colour attachment for the
// fragment shader to write.
func (r *Renderer) program(shading string, color bool) (*program, error) {
	pr, ok := r.programs[shading]
	if !ok {
		var err error
		if pr, err = r.loadProgram(shading); err != nil {
			return nil, err
		}
		r.programs[shading] = pr
	}
	if color && pr.fs.colorOffset < 0 {
		return nil, inputErrorf("%s writes no colour (an output at location 0)", pr.fs.name)
	}
	return pr, nil
}

func (r *Renderer) loadProgram(shading string) (*program, error) {
	g := r.g
	pr := &program{}
	vsSrc, vsName := shaders.Vertex, "default.vert"
	fsSrc, fsName := shaders.Fragment, "default.frag"
	maskedSrc, maskedName := shaders.FragmentMasked, "masked.frag"
	switch shading {
	case "":
		if r.opt.VS != nil {
			vsSrc, vsName = r.opt.VS, r.opt.VSName
		}
		if r.opt.FS != nil {
			fsSrc, fsName = r.opt.FS, r.opt.FSName
			maskedSrc = nil
		}
	case "depth":
		fsSrc, fsName = shaders.FragmentDepth, "depth.frag"
		maskedSrc = nil
	case "shadowed":
		vsSrc, vsName = shaders.VertexShadowed, "shadowed.vert"
		fsSrc, fsName = shaders.FragmentShadowed, "shadowed.frag"
		maskedSrc = nil
	case "bloom":
		fsSrc, fsName = shaders.FragmentBloom, "bloom.frag"
		maskedSrc = nil
	default:
		return nil, inputErrorf("scene: a pass uses shading %q, which the renderer does not have (depth, shadowed, bloom)", shading)
	}
	var err error
	if pr.vs, err = loadShader(g, vsSrc, vsName, spirv.ExecutionModelVertex); err != nil {
		return nil, err
	}
	if pr.fs, err = loadShader(g, fsSrc, fsName, spirv.ExecutionModelFragment); err != nil {
		return nil, err
	}
	pr.fsMasked = pr.fs
	if maskedSrc != nil {
		if pr.fsMasked, err = loadShader(g, maskedSrc, maskedName, spirv.ExecutionModelFragment); err != nil {
			return nil, err
		}
	}
	if pr.varyings, pr.nvary, err = linkVaryings(pr.vs, pr.fs); err != nil {
		return nil, err
	}
	if pr.fsMasked != pr.fs {
		v2, _, err := linkVaryings(pr.vs, pr.fsMasked)
		if err != nil {
			return nil, err
		}
		if len(v2) != len(pr.varyings) {
			return nil, fmt.Errorf("internal: the fragment shaders of shading %q read different inputs", shading)
		}
	}
	return pr, nil
}

// stage returns the dispatch of sh with a sampler, creating it the first
// time.
func (r *Renderer) stage(sh *shader, sampler, input uint64) (*stageRun, error) {
	k := stageKey{sh, sampler, input}
	if sr, ok := r.stageRuns[k]; ok {
		return sr, nil
	}
	sr := &stageRun{sh: sh}
	p := sh.ir
	params := make([]emu.ParamValue, len(p.Params))
	if sh.drawParam >= 0 {
		params[sh.drawParam] = emu.ParamValue{Slots: []uint64{r.ubo.Base}}
	}
	if sh.texParam >= 0 {
		params[sh.texParam] = emu.ParamValue{Slots: []uint64{0, sampler}}
	}
	if sh.inputParam >= 0 {
		params[sh.inputParam] = emu.ParamValue{Slots: []uint64{1, input}}
	}
	d := &emu.Dispatch{Prog: sh.prog, Mem: r.mem, Width: sh.width, Dims: 1, Global: [3]int{sh.width, 1, 1}, Local: [3]int{sh.width, 1, 1},
		Params: params, Images: []*emu.Image{r.white, r.white}, MaxWarpInsts: math.MaxUint64}
	if p.Model == spirv.ExecutionModelVertex {
		d.InitLane = func(w *emu.Warp, lane int, frame []byte) { sr.vtx.initLane(lane, frame) }
		d.Builtin = func(b spirv.BuiltIn, w *emu.Warp, lane, comp int) (uint64, bool) { return sr.vtx.builtin(b, lane) }
	} else {
		d.InitLane = func(w *emu.Warp, lane int, frame []byte) { sr.fu.initLane(lane, frame) }
		d.Builtin = func(b spirv.BuiltIn, w *emu.Warp, lane, comp int) (uint64, bool) { return sr.fu.builtin(b, lane, comp) }
	}
	if err := d.Init(); err != nil {
		return nil, fmt.Errorf("%s: %w", sh.name, err)
	}
	sr.d = d
	r.stageRuns[k] = sr
	return sr, nil
}

// samplerBits encodes a material's sampler for the executor. Level 0
// only (MipNone) is Vulkan's way to emulate a non-mipmapped minification
// filter: a nearest mipmap with maxLod 0.25, so a slightly minified sample
// still takes the minification filter (VkSamplerCreateInfo's usage notes).
func samplerBits(s scene.Sampler) uint64 {
	st := ir.SamplerState{Addressing: 3, Normalized: true, MagFilter: 1, MinFilter: 1, MipmapLinear: true, MaxLod: ir.MaxSamplerLod} // repeat, linear
	switch s.Wrap {
	case scene.ClampToEdge:
		st.Addressing = 1
	case scene.MirroredRepeat:
		st.Addressing = 4
	}
	if s.Filter == scene.Nearest {
		st.MagFilter = 0
	}
	if s.MinFilter == scene.Nearest {
		st.MinFilter = 0
	}
	switch s.Mipmap {
	case scene.MipNearest:
		st.MipmapLinear = false
	case scene.MipNone:
		st.MipmapLinear, st.MaxLod = false, 0.25
	}
	return st.Encode()
}

// runWarp steps a warp to the end; each step's trace (if the warp has one)
// goes to onStep. It returns the engine cycles the warp's blocks cost
// (shader.blockCycles) and, while a frame is recorded for the timing
// engine, the recorded warp (nil otherwise).
func (r *Renderer) runWarp(sh *shader, w *emu.Warp, onStep func()) (float64, *shadeWarp, error) {
	cycles := 0.0
	var sw *shadeWarp
	var own emu.Trace
	if r.rec != nil {
		sw = r.rec.warp(sh, -1)
		if w.Trace == nil {
			w.Trace = &own
			defer func() { w.Trace = nil }()
		}
	}
	for {
		st := w.Step()
		if b := w.LastBlock(); b >= 0 && int(b) < len(sh.blockCycles) {
			cycles += sh.blockCycles[b]
		}
		if sw != nil {
			r.rec.step(sw, w.Trace)
		}
		if onStep != nil {
			onStep()
		}
		switch st {
		case emu.Done:
			return cycles, sw, nil
		case emu.Faulted:
			return cycles, sw, fmt.Errorf("%s: %w", sh.name, w.Err())
		case emu.AtBarrier:
			return cycles, sw, inputErrorf("%s reached a barrier, which graphics shaders cannot use", sh.name)
		}
		if w.WarpInsts > r.opt.MaxWarpInsts {
			return cycles, sw, fmt.Errorf("%s did not finish within %d warp instructions for one warp: %w", sh.name, r.opt.MaxWarpInsts, emu.ErrBudget)
		}
	}
}

// Frame is one rendered frame.
type Frame struct {
	Index int
	Image *image.NRGBA
	Stats FrameStats
	// Tiles are the per-tile (Mali, generic), per-bin (Adreno) or
	// per-16×16-cell (immediate) figures behind the heatmaps.
	Tiles TileGrid
}

// TileGrid holds per-tile figures in raster order.
type TileGrid struct {
	TileWidth, TileHeight int
	X, Y                  int // tiles across and down
	Prims                 []uint64
	Cycles                []float64
	// State is TileWritten, TileEliminated or TileNone per tile.
	State []TileState
}

// TileState says what happened to a tile's write-back.
type TileState uint8

const (
	TileNone TileState = iota
	TileWritten
	TileEliminated
)

// Render renders the next frame.
func (r *Renderer) Render() (*Frame, error) {
	fr := r.newFrame(r.frame)
	r.frame++
	if err := fr.run(); err != nil {
		return nil, err
	}
	return fr.result(), nil
}

// RenderFrames renders frames frames of a scene on a GPU.
func RenderFrames(g *arch.GPU, sc *scene.Scene, opt Options, frames int) ([]*Frame, error) {
	r, err := New(g, sc, opt)
	if err != nil {
		return nil, err
	}
	var out []*Frame
	for i := 0; i < frames; i++ {
		f, err := r.Render()
		if err != nil {
			return nil, fmt.Errorf("frame %d: %w", i, err)
		}
		out = append(out, f)
	}
	return out, nil
}

// image reads the last pass's colour attachment back from memory: what
// write-backs, resolves or immediate-mode writes left there.
func (r *Renderer) image() *image.NRGBA {
	a := r.passes[len(r.passes)-1].color
	img := image.NewNRGBA(image.Rect(0, 0, a.w, a.h))
	for y := 0; y < a.h; y++ {
		for x := 0; x < a.w; x++ {
			c := a.color[y*a.w+x]
			o := y*img.Stride + x*4
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = uint8(c), uint8(c>>8), uint8(c>>16), uint8(c>>24)
		}
	}
	return img
}

// Layout is the colour buffer's layout in memory.
func (r *Renderer) Layout() layout.Kind { return r.passes[len(r.passes)-1].color.img.Kind }
