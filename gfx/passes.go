package gfx

import (
	"encoding/binary"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/gfx/layout"
	"github.com/pocketgpu/pocketgpu/gfx/scene"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// LoadOp is what a render pass does with an attachment's contents when it
// starts, as Vulkan's VkAttachmentLoadOp: on a tiled GPU at the start of
// every tile or bin.
type LoadOp uint8

const (
	// LoadClear starts from the clear value: the tile buffer or GMEM is
	// cleared on chip (no memory traffic); in immediate mode the buffer
	// in memory is written.
	LoadClear LoadOp = iota
	// LoadLoad reads the attachment from memory: into the tile buffer at
	// each tile's start (GMEM: an "unresolve" at each bin's start).
	LoadLoad
	// LoadDontCare leaves the contents undefined: no traffic. The
	// renderer starts from the clear value so that images stay
	// deterministic.
	LoadDontCare
)

var loadOpNames = []string{"clear", "load", "dont-care"}

func (o LoadOp) String() string { return loadOpNames[o] }

// ParseLoadOp reads "clear", "load" or "dont-care".
func ParseLoadOp(s string) (LoadOp, error) {
	for i, n := range loadOpNames {
		if s == n {
			return LoadOp(i), nil
		}
	}
	return 0, inputErrorf("unknown load action %q (%s)", s, strings.Join(loadOpNames, ", "))
}

// StoreOp is what a render pass does with an attachment when it ends, as
// Vulkan's VkAttachmentStoreOp: on a tiled GPU at the end of every tile or
// bin.
type StoreOp uint8

const (
	// StoreDefault is the renderer's default: colour is stored; depth is
	// not (Mali's tiles and Adreno's bins drop it), unless a later pass
	// samples it.
	StoreDefault StoreOp = iota
	// StoreStore writes the attachment back to memory (a tile write-back,
	// a GMEM resolve).
	StoreStore
	// StoreDontCare drops it: no traffic.
	StoreDontCare
)

var storeOpNames = []string{"default", "store", "dont-care"}

func (o StoreOp) String() string { return storeOpNames[o] }

// ParseStoreOp reads "store" or "dont-care".
func ParseStoreOp(s string) (StoreOp, error) {
	for i, n := range storeOpNames {
		if s == n && i > 0 {
			return StoreOp(i), nil
		}
	}
	return 0, inputErrorf("unknown store action %q (store, dont-care)", s)
}

// Units of the renderer's arithmetic, not a GPU's.
const (
	quadSide    = 2    // a quad is 2×2 pixels: tiles are whole quads
	bitsPerByte = 8    // bits per byte
	bytesPerKiB = 1024 // bytes per KiB
)

// depthUnormBits are the depth formats that store depth as an unsigned
// normalised integer of so many bits (the others store a 32-bit float):
// the depth test compares values quantised to the format.
var depthUnormBits = map[string]int{"d16": 16, "d24s8": 24}

// DefaultDepthFormat is the depth attachment's format unless the options
// say otherwise: 32-bit float depth, which is what the renderer tested
// before depth formats were modelled.
const DefaultDepthFormat = "d32f"

// RenderDepthFormats lists the depth formats render accepts.
func RenderDepthFormats() string {
	var names []string
	for n, planes := range DepthFormats {
		if n != "s8" && (len(planes) > 0 || n == "none") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// depthFormat is a depth attachment's format: its bytes per sample in
// memory (all planes) and how it quantises depth.
type depthFormat struct {
	name      string
	bytes     int
	unormBits int // 0: float32
}

func parseDepthFormat(s string) (depthFormat, error) {
	if s == "" {
		s = DefaultDepthFormat
	}
	planes, ok := DepthFormats[s]
	if !ok {
		return depthFormat{}, inputErrorf("depth format %q is not known (%s)", s, RenderDepthFormats())
	}
	if s == "s8" {
		return depthFormat{}, inputErrorf("depth format s8 has no depth, and the renderer does not model stencil: give a depth format (%s)", RenderDepthFormats())
	}
	f := depthFormat{name: s, unormBits: depthUnormBits[s]}
	for _, b := range planes {
		f.bytes += b
	}
	return f, nil
}

// quantize is the value a depth of z (0 to 1) is stored as: rounded to the
// nearest of the format's 2^n - 1 steps for unorm formats, float32
// otherwise.
func (f depthFormat) quantize(z float64) float32 {
	if f.unormBits == 0 {
		return float32(z)
	}
	steps := float64(uint64(1)<<f.unormBits - 1)
	return float32(math.Round(clamp01(z)*steps) / steps)
}

// attachment is an attachment's image in memory: its contents (colour
// per pixel, depth per sample), where it lives and how it is laid out.
type attachment struct {
	name    string
	isDepth bool
	w, h    int
	samples int
	bpp     int          // bytes per sample
	img     layout.Image // addresses: BPP is bpp × samples
	base    uint64
	color   []uint32  // colour, w×h×samples in raster order
	depth   []float32 // depth, w×h×samples
	// comp is the compressed form of a colour attachment that tiles are
	// written back or bins resolved to on a GPU that compresses.
	comp *compressedImage
	// tex is the image the executor samples when a later pass reads the
	// attachment (RGBA8 colour, or depth as 32-bit floats): what memory
	// holds at the end of the pass that draws it.
	tex *emu.Image
	// Transaction elimination: one CRC per tile of the pass.
	crcBase  uint64
	crcs     []uint32
	crcValid []bool
}

func (r *Renderer) newAttachment(name string, isDepth bool, kind layout.Kind, w, h, samples, bpp int) *attachment {
	a := &attachment{name: name, isDepth: isDepth, w: w, h: h, samples: samples, bpp: bpp}
	a.img = layout.Image{Kind: kind, Width: w, Height: h, BPP: bpp * samples}
	a.base = r.va.alloc(a.img.Size())
	if isDepth {
		a.depth = make([]float32, w*h*samples)
		for i := range a.depth {
			a.depth[i] = clearDepth
		}
	} else {
		a.color = make([]uint32, w*h*samples)
		c := packRGBA(ClearColor)
		for i := range a.color {
			a.color[i] = c
		}
	}
	return a
}

// addr is the memory address of sample s of pixel (x, y).
func (a *attachment) addr(x, y, s int) uint64 {
	return a.base + uint64(a.img.Offset(x, y)+s*a.bpp)
}

// renderPass is one render pass as the renderer runs it.
type renderPass struct {
	index      int
	name       string
	spec       scene.Pass
	main, last bool
	w, h       int
	samples    int
	depthFmt   depthFormat // name "" when the pass has no depth attachment
	color      *attachment
	depth      *attachment
	colorMS    *attachment // immediate mode with samples: the multisampled colour
	colorLoad  LoadOp
	depthLoad  LoadOp
	colorStore bool
	depthStore bool
	prog       *program
	texture    *attachment // sampled at binding 1 instead of the materials' textures
	input      *attachment // sampled at binding 2
	lightFrom  *renderPass
	vp         scene.Mat4 // this frame's view-projection

	tileW, tileH int        // tile_lists tiles
	bins         *BinLayout // gmem_bins, tiled mode
}

// tileGrid is how many tile_lists tiles cover the pass across and down.
func (p *renderPass) tileGrid() (tx, ty int) {
	return (p.w + p.tileW - 1) / p.tileW, (p.h + p.tileH - 1) / p.tileH
}

// defaultPasses is the pass list of a scene without passes: one pass with
// colour and depth.
func defaultPasses() []scene.Pass {
	return []scene.Pass{{Name: "main", Color: true, Depth: true, Main: true}}
}

// setupPasses makes the scene's render passes: sizes, formats, load and
// store actions (the options' for the main pass), shaders, tile or bin
// layouts and attachments in memory.
func (r *Renderer) setupPasses() error {
	g, opt := r.g, r.opt
	specs := r.sc.Passes
	if len(specs) == 0 {
		specs = defaultPasses()
	}
	kind, err := layout.Parse(g.Tiling.FramebufferLayout)
	if err != nil {
		return inputErrorf("%s: tiling.framebuffer_layout: %v", g.ID, err)
	}
	if opt.LayoutSet {
		kind = opt.Layout
	}
	byName := map[string]*renderPass{}
	// sampled[name] says which attachments of a pass later passes sample.
	type use struct{ color, depth bool }
	sampled := map[string]use{}
	for _, sp := range specs {
		for _, in := range []*scene.PassInput{sp.Texture, sp.Input} {
			if in != nil {
				u := sampled[in.Pass]
				if in.Depth {
					u.depth = true
				} else {
					u.color = true
				}
				sampled[in.Pass] = u
			}
		}
	}
	for i, sp := range specs {
		p := &renderPass{index: i, name: sp.Name, spec: sp, main: sp.Main, last: i == len(specs)-1, w: opt.Width, h: opt.Height, samples: 1}
		if sp.Width > 0 {
			p.w, p.h = sp.Width, sp.Height
			if err := checkFrameSize(g, p.w, p.h); err != nil {
				return inputErrorf("pass %s: %v", p.name, err)
			}
		}
		u := sampled[sp.Name]
		p.colorStore = sp.Color
		p.depthStore = sp.Depth && u.depth
		if sp.Depth {
			df := ""
			if p.main {
				df = opt.DepthFormat
			}
			if p.depthFmt, err = parseDepthFormat(df); err != nil {
				return err
			}
		}
		if p.main {
			if opt.MSAA > 1 {
				p.samples = opt.MSAA
			}
			p.colorLoad, p.depthLoad = opt.ColorLoad, opt.DepthLoad
			switch opt.ColorStore {
			case StoreStore:
				p.colorStore = sp.Color
			case StoreDontCare:
				p.colorStore = false
			}
			switch opt.DepthStore {
			case StoreStore:
				p.depthStore = p.depthFmt.name != "none" && sp.Depth
			case StoreDontCare:
				p.depthStore = false
			}
		}
		if p.depthFmt.name == "none" {
			p.depthFmt = depthFormat{}
		}
		shading := sp.Shading
		if p.main && (opt.VS != nil || opt.FS != nil) {
			shading = "" // the user's shaders draw the main pass
		}
		if p.prog, err = r.program(shading, sp.Color); err != nil {
			return err
		}
		if sp.LightFrom != "" {
			p.lightFrom = byName[sp.LightFrom]
		}
		if err := r.configureTiling(p); err != nil {
			return err
		}
		// Attachments in memory, colour before depth (the order the
		// single-pass renderer laid them out in).
		if sp.Color {
			p.color = r.newAttachment(p.name+" colour", false, kind, p.w, p.h, 1, colorBytes)
		}
		if p.depthFmt.name != "" {
			p.depth = r.newAttachment(p.name+" depth", true, kind, p.w, p.h, p.samples, p.depthFmt.bytes)
		}
		if p.samples > 1 && p.color != nil && (opt.Mode == Immediate || p.bins != nil && p.bins.DirectRendering) {
			// Immediate mode keeps the multisampled colour in memory and
			// resolves it into the colour attachment at the pass's end.
			p.colorMS = r.newAttachment(p.name+" colour samples", false, kind, p.w, p.h, p.samples, colorBytes)
		}
		if p.color != nil && g.Tiling.TransactionElimination {
			nt := ceilDivInt(p.w, p.tileW) * ceilDivInt(p.h, p.tileH)
			p.color.crcs = make([]uint32, nt)
			p.color.crcValid = make([]bool, nt)
			p.color.crcBase = r.va.alloc(nt * g.Tiling.CRCBytesPerTile)
		}
		if c := newCompression(g); c != nil && p.color != nil && opt.Mode == Tiled && !(p.bins != nil && p.bins.DirectRendering) {
			p.color.comp = r.newCompressedImage(c, p.color)
		}
		for _, in := range []struct {
			src *scene.PassInput
			dst **attachment
		}{{sp.Texture, &p.texture}, {sp.Input, &p.input}} {
			if in.src == nil {
				continue
			}
			src := byName[in.src.Pass]
			a := src.color
			if in.src.Depth {
				a = src.depth
			}
			if a == nil {
				return inputErrorf("pass %s samples the %s of pass %s, which has none", p.name, map[bool]string{true: "depth", false: "colour"}[in.src.Depth], src.name)
			}
			*in.dst = a
			r.sample(a)
		}
		if sh := p.prog.fs; sh.inputParam >= 0 && p.input == nil {
			par := sh.ir.Params[sh.inputParam]
			return inputErrorf("%s: resource %q (%s) at set %d binding %d is not provided; the renderer binds a uniform block Draw at set 0 binding 0 and a sampler2D at set 0 binding 1 (and at binding 2 only in a pass that samples an earlier pass's attachment)", sh.name, par.Name, par.Kind, par.Set, par.Binding)
		}
		byName[p.name] = p
		r.passes = append(r.passes, p)
		if p.main {
			r.mainPass = p
		}
	}
	return nil
}

// sample makes an attachment one a later pass samples: an image for the
// executor, whose texel addresses the texture unit sees at the
// attachment's place in memory (texelAddrs).
func (r *Renderer) sample(a *attachment) {
	if a.tex != nil {
		return
	}
	ch, typ := colorBytes, emu.ChanUNorm8
	if a.isDepth {
		ch, typ = 1, emu.ChanF32
	}
	n := a.w * a.h * ch * typ.Bytes()
	a.tex = &emu.Image{Dim: spirv.Dim2D, Width: a.w, Height: a.h, Depth: 1, Channels: ch, Type: typ, RowPitch: a.w * ch * typ.Bytes(), SlicePitch: n}
	a.tex.Buf = r.mem.Alloc(n, a.name, true)
	r.sampled = append(r.sampled, a)
}

// refreshTexture copies what memory holds of a sampled attachment into
// its image: colour as RGBA8, depth (its first sample) as float32.
func (a *attachment) refreshTexture() {
	b := a.tex.Buf.Data
	for i := 0; i < a.w*a.h; i++ {
		if a.isDepth {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(a.depth[i*a.samples]))
		} else {
			binary.LittleEndian.PutUint32(b[4*i:], a.color[i])
		}
	}
}

// sampledAt is the sampled attachment whose image holds addr, or nil.
func (r *Renderer) sampledAt(addr uint64) *attachment {
	for _, a := range r.sampled {
		if b := a.tex.Buf; addr >= b.Base && addr < b.Base+uint64(len(b.Data)) {
			return a
		}
	}
	return nil
}

// texelAddrs maps the executor's texel addresses in a sampled
// attachment's image to what the texture unit reads in memory: the
// texels' places in the attachment's layout, or for a compressed one
// their blocks' headers and their shares of the payloads. It returns the
// addresses and the bytes read at each.
func (a *attachment) texelAddrs(addrs []uint64, out []uint64) ([]uint64, int) {
	out = out[:0]
	tb := uint64(a.tex.TexelBytes())
	for _, ad := range addrs {
		i := int((ad - a.tex.Buf.Base) / tb)
		x, y := i%a.w, i/a.w
		if a.comp != nil {
			out = a.comp.texelAddrs(a, x, y, out)
		} else {
			out = append(out, a.addr(x, y, 0))
		}
	}
	if a.comp != nil {
		return out, 1
	}
	return out, a.bpp
}

// configureTiling checks the GPU's tiling parameters against a pass's
// attachments and derives its tile or bin layout.
func (r *Renderer) configureTiling(p *renderPass) error {
	g := r.g
	if g.Tiling.Scheme == arch.GMEMBins {
		if r.opt.Mode == Immediate {
			return nil
		}
		q := BinQuery{Width: p.w, Height: p.h, Depth: "none", MSAA: p.samples}
		if p.spec.Color {
			q.Colors = []string{"rgba8"}
		}
		if p.depthFmt.name != "" {
			q.Depth = p.depthFmt.name
		}
		bl, err := AdrenoBins(g, q)
		if err != nil {
			return err
		}
		p.bins = bl
		return nil
	}
	// tile_lists: the nominal tile, whole 2×2 quads.
	p.tileW, p.tileH = max(g.Tiling.TileWidth, quadSide), max(g.Tiling.TileHeight, quadSide)
	p.tileW += p.tileW % quadSide
	p.tileH += p.tileH % quadSide
	if r.opt.Mode == Immediate {
		return nil
	}
	// The colour and depth/stencil samples of every pixel of a tile must
	// fit the tile buffer: tile_buffer_bits_per_pixel at the nominal tile
	// size (seed 000 §Rasterization and Tiled Rendering: 256 bits per
	// pixel on Bifrost), and tile_buffer_kib. A pixel that needs more
	// (MSAA, wide formats) gets a smaller tile, height halved first
	// (16x16, 16x8, 8x8 ...), as Arm's Mali GPUs shrink their tiles
	// (assumed: Arm's Mali best-practice guides; the seed gives the
	// budget, not the rule).
	need := 0 // bits per pixel
	if p.spec.Color {
		need += colorBytes
	}
	need += p.depthFmt.bytes
	need *= p.samples * bitsPerByte
	capacity := 0 // bits of tile storage; 0: no limit given
	if bits := g.Tiling.TileBufferBitsPerPixel; bits > 0 {
		capacity = p.tileW * p.tileH * bits
	}
	if kib := g.Tiling.TileBufferKiB; kib > 0 {
		if c := kib * bytesPerKiB * bitsPerByte; capacity == 0 || c < capacity {
			capacity = c
		}
	}
	for capacity > 0 && p.tileW*p.tileH*need > capacity {
		if p.tileW <= quadSide && p.tileH <= quadSide {
			return inputErrorf("%s's tile buffer (%d bits per pixel of a %dx%d tile, %d KiB) cannot hold even a %dx%d tile of %s (%d bits per pixel)",
				g.ID, g.Tiling.TileBufferBitsPerPixel, g.Tiling.TileWidth, g.Tiling.TileHeight, g.Tiling.TileBufferKiB, quadSide, quadSide, p.describeAttachments(), need)
		}
		if p.tileH >= p.tileW && p.tileH > quadSide || p.tileW <= quadSide {
			p.tileH = halveEven(p.tileH)
		} else {
			p.tileW = halveEven(p.tileW)
		}
	}
	return nil
}

// halveEven halves a tile side, keeping it a whole number of quads.
func halveEven(n int) int {
	n /= quadSide
	return max(n-n%quadSide, quadSide)
}

// describeAttachments names a pass's attachments for messages.
func (p *renderPass) describeAttachments() string {
	var parts []string
	if p.spec.Color {
		parts = append(parts, "RGBA8 colour")
	}
	if p.depthFmt.name != "" {
		parts = append(parts, p.depthFmt.name+" depth")
	}
	s := strings.Join(parts, " and ")
	if p.samples > 1 {
		s += " at " + strconv.Itoa(p.samples) + " samples"
	}
	return s
}
