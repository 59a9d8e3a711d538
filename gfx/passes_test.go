package gfx

import (
	"image"
	"math/rand"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/gfx/scene"
)

// refTri is a flat-coloured triangle of the reference rasteriser: window
// coordinates in 1/256 pixel, a depth and an RGBA8 colour.
type refTri struct {
	x, y [3]int64
	z    float64
	c    [4]uint8
}

// refSamples are Vulkan's standard sample locations in 1/256 pixel,
// written out here from the specification's table rather than taken from
// the renderer.
var refSamples = map[int][][2]int64{
	1: {{128, 128}},
	2: {{192, 192}, {64, 64}},
	4: {{96, 32}, {224, 96}, {32, 160}, {160, 224}},
}

// refInside is the top-left rule at point (px, py): inside every edge, or
// on an edge that is a top edge (horizontal, the triangle below it: y
// grows down the frame) or a left edge.
func refInside(t refTri, px, py int64) bool {
	x, y := t.x, t.y
	if (x[1]-x[0])*(y[2]-y[0])-(x[2]-x[0])*(y[1]-y[0]) < 0 {
		x[1], x[2] = x[2], x[1]
		y[1], y[2] = y[2], y[1]
	}
	for i := 0; i < 3; i++ {
		ax, ay, bx, by := x[i], y[i], x[(i+1)%3], y[(i+1)%3]
		w := (bx-ax)*(py-ay) - (by-ay)*(px-ax)
		if w < 0 {
			return false
		}
		if w == 0 {
			dx, dy := bx-ax, by-ay
			top := dy == 0 && dx > 0
			left := dy < 0
			if !top && !left {
				return false
			}
		}
	}
	return true
}

// refRender is the reference: per sample the nearest triangle covering
// it (the earliest of equals), per pixel the average of its samples,
// each channel rounded to nearest.
func refRender(tris []refTri, w, h, samples int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for py := 0; py < h; py++ {
		for px := 0; px < w; px++ {
			var sum [4]int
			for _, sp := range refSamples[samples] {
				X, Y := int64(px)*256+sp[0], int64(py)*256+sp[1]
				c := ClearColor
				best := 2.0
				for _, t := range tris {
					if t.z < best && refInside(t, X, Y) {
						best, c = t.z, t.c
					}
				}
				for k := 0; k < 4; k++ {
					sum[k] += int(c[k])
				}
			}
			for k := 0; k < 4; k++ {
				img.Pix[py*img.Stride+px*4+k] = uint8((sum[k] + samples/2) / samples)
			}
		}
	}
	return img
}

// flatScene draws tris with an orthographic camera that maps world x, y
// to window coordinates (a w×h frame, w and h powers of two so that the
// mapping is exact in float32) and world z in [-1, 1] to depth (1-z)/2.
func flatScene(tris []refTri, w, h int) *scene.Scene {
	s := &scene.Scene{Light: scene.Vec3{0, 0, 1}}
	s.Materials = []scene.Material{{Name: "flat", BaseColor: [4]float64{1, 1, 1, 1}, Texture: -1, Unlit: true, DoubleSided: true}}
	m := scene.Mesh{Name: "tris"}
	for _, t := range tris {
		col := [4]float32{float32(t.c[0]) / 255, float32(t.c[1]) / 255, float32(t.c[2]) / 255, 1}
		for i := 0; i < 3; i++ {
			m.Indices = append(m.Indices, uint32(len(m.Positions)))
			m.Positions = append(m.Positions, [3]float32{float32(t.x[i]) / 256, float32(t.y[i]) / 256, float32(1 - 2*t.z)})
			m.Colors = append(m.Colors, col)
		}
	}
	s.Meshes = []scene.Mesh{m}
	s.Instances = []scene.Instance{{Mesh: 0, Transform: scene.Identity()}}
	s.Camera = scene.Camera{Ortho: true, Left: 0, Right: float64(w), Bottom: float64(h), Top: 0, Near: -1, Far: 1}
	return s
}

// randomTris makes n triangles on the 1/16-pixel grid (exact through the
// camera), some with horizontal and vertical edges and shared vertices on
// sample positions, at distinct depths.
func randomTris(rng *rand.Rand, n, w, h int) []refTri {
	var tris []refTri
	for i := 0; i < n; i++ {
		var t refTri
		cx, cy := rng.Int63n(int64(w)*16), rng.Int63n(int64(h)*16)
		for k := 0; k < 3; k++ {
			t.x[k] = (cx + rng.Int63n(400) - 200) * 16
			t.y[k] = (cy + rng.Int63n(400) - 200) * 16
		}
		switch i % 4 {
		case 1: // a horizontal edge through sample rows
			t.y[1] = t.y[0]
		case 2: // a vertical edge on sample columns
			t.x[1] = t.x[0]
			t.x[0] = t.x[0]/256*256 + 96
			t.x[1] = t.x[0]
		}
		t.z = 0.05 + 0.9*float64(i)/float64(n)
		t.c = [4]uint8{uint8(rng.Intn(256)), uint8(rng.Intn(256)), uint8(rng.Intn(256)), 255}
		tris = append(tris, t)
	}
	rng.Shuffle(len(tris), func(i, j int) { tris[i], tris[j] = tris[j], tris[i] })
	return tris
}

// TestMSAAMatchesReference: with 1, 2 and 4 samples, every renderer (Mali
// tiles, Adreno in one bin and in several, Rogue's tiles, immediate mode)
// gives the reference rasteriser's image exactly: coverage at Vulkan's
// standard sample positions with the top-left rule, the depth test per
// sample, the average of the samples rounded to nearest. The colours are
// flat (k/255 through the default shaders, unlit and untextured), so that
// shading adds no rounding of its own: tolerance 0.
func TestMSAAMatchesReference(t *testing.T) {
	const w, h = 64, 32
	rng := rand.New(rand.NewSource(3))
	tris := randomTris(rng, 40, w, h)
	sc := flatScene(tris, w, h)
	for _, samples := range []int{1, 2, 4} {
		want := refRender(tris, w, h, samples)
		for _, c := range configs {
			f := render(t, gpu(t, c.gpu), sc, Options{Width: w, Height: h, Mode: c.mode, MSAA: samples}, 1)[0]
			if d := countDiff(f.Image, want); d != 0 {
				t.Errorf("%d samples, %s: %d of %d pixels differ from the reference", samples, c.name, d, w*h)
			}
			if f.Stats.Samples != samples {
				t.Errorf("%d samples, %s: the samples counter says %d", samples, c.name, f.Stats.Samples)
			}
		}
	}
	// The reference's edges are real: some pixels are partly covered.
	img := refRender(tris, w, h, 4)
	one := refRender(tris, w, h, 1)
	if d := countDiff(img, one); d < 50 {
		t.Errorf("4 samples differ from 1 in only %d pixels", d)
	}
}

// compressing is a preset with its frame-buffer compression set to kind.
func compressing(t testing.TB, name, kind string) *arch.GPU {
	g := *gpu(t, name)
	g.Tiling.FramebufferCompression = kind
	return &g
}

// frameOn renders frame 0 of a scene.
func frameOn(t *testing.T, g *arch.GPU, sc *scene.Scene, opt Options) FrameStats {
	t.Helper()
	return render(t, g, sc, opt, 1)[0].Stats
}

// TestMSAATraffic: 4x MSAA costs a tiled GPU little DRAM traffic — the
// samples live in the tile buffer or GMEM and are resolved on chip at
// write-back — while the immediate-mode baseline keeps multisampled
// colour and depth in memory and resolves through memory: about four
// times the colour traffic.
func TestMSAATraffic(t *testing.T) {
	sc := builtin(t, "spheres:3000")
	opt := Options{Width: 256, Height: 160}
	msaa := opt
	msaa.MSAA = 4
	for _, g := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		one, four := frameOn(t, gpu(t, g), sc, opt), frameOn(t, gpu(t, g), sc, msaa)
		a, b := one.DRAMReadBytes+one.DRAMWriteBytes, four.DRAMReadBytes+four.DRAMWriteBytes
		t.Logf("%s tiled: DRAM %d bytes at 1 sample, %d at 4 (%.3fx); frame buffer written %d, %d", g, a, b, float64(b)/float64(a), one.DRAMWrite.Framebuffer, four.DRAMWrite.Framebuffer)
		if float64(b) > 1.1*float64(a) {
			t.Errorf("%s tiled: 4x MSAA moved %d DRAM bytes, 1x %d", g, b, a)
		}
		imm1 := frameOn(t, gpu(t, g), sc, Options{Width: 256, Height: 160, Mode: Immediate})
		imm4 := frameOn(t, gpu(t, g), sc, Options{Width: 256, Height: 160, Mode: Immediate, MSAA: 4})
		f1 := imm1.DRAMRead.Framebuffer + imm1.DRAMWrite.Framebuffer
		f4 := imm4.DRAMRead.Framebuffer + imm4.DRAMWrite.Framebuffer
		t.Logf("%s immediate: frame-buffer DRAM %d bytes at 1 sample, %d at 4 (%.2fx)", g, f1, f4, float64(f4)/float64(f1))
		if float64(f4) < 3*float64(f1) {
			t.Errorf("%s immediate: 4x MSAA frame-buffer traffic %d, 1x %d: want about 4x", g, f4, f1)
		}
	}
}

// TestTileShrinksForSamples: a pixel's samples must fit the tile buffer.
// Bifrost's 256 bits hold 4 samples of RGBA8 and 32-bit depth at 16x16;
// Midgard's 128 bits do not, so its tiles halve to 16x8. A tile buffer of
// 32 bits a pixel halves the tile for plain RGBA8 and depth too, and the
// image stays the same.
func TestTileShrinksForSamples(t *testing.T) {
	sc := builtin(t, "cube")
	for _, tc := range []struct {
		gpu          string
		samples      int
		depth        string
		tileW, tileH int
	}{
		{"mali-g52", 4, "", 16, 16},
		{"mali-g52", 4, "d32fs8", 16, 8},
		{"mali-t760", 2, "", 16, 16},
		{"mali-t760", 4, "", 16, 8},
		{"mali-t760", 4, "d16", 16, 8},
		{"mali-32bit-tilebuffer.yaml", 1, "d16", 16, 8},
		{"mali-32bit-tilebuffer.yaml", 1, "", 16, 8},
		{"mali-32bit-tilebuffer.yaml", 4, "", 8, 4},
	} {
		st := frameOn(t, gpu(t, tc.gpu), sc, Options{Width: 48, Height: 32, MSAA: tc.samples, DepthFormat: tc.depth})
		if st.TileWidth != tc.tileW || st.TileHeight != tc.tileH {
			t.Errorf("%s, %d samples, depth %q: %dx%d tiles, want %dx%d", tc.gpu, tc.samples, tc.depth, st.TileWidth, st.TileHeight, tc.tileW, tc.tileH)
		}
	}
	small := render(t, gpu(t, "mali-32bit-tilebuffer.yaml"), sc, Options{Width: 48, Height: 32}, 1)[0]
	ref := render(t, gpu(t, "mali-g52"), sc, Options{Width: 48, Height: 32}, 1)[0]
	if d := countDiff(small.Image, ref.Image); d != 0 {
		t.Errorf("16x8 tiles: %d pixels differ from 16x16 tiles", d)
	}
	// A tile buffer that cannot hold even one quad is refused.
	tiny := userGPU(t, "tiny", "base: mali-g52\ntiling: {tile_width: 2, tile_height: 2, tile_buffer_bits_per_pixel: 32}\n")
	_, err := New(tiny, sc, Options{Width: 16, Height: 16})
	if err == nil || !strings.Contains(err.Error(), "cannot hold even a 2x2 tile of RGBA8 colour and d32f depth (64 bits per pixel)") || !IsUserError(err) {
		t.Errorf("2x2 tiles of 32 bits: %v", err)
	}
}

// TestDepthStoreAction: depth is dropped at the end of a tile or bin by
// default (store action don't-care); storing it writes every depth
// sample back: the frame-buffer DRAM writes grow by the depth attachment,
// width × height × bytes per sample × samples (in DRAM up to a tenth more
// where L2 writes a line back before the rest of it arrives: the GX6250's
// linear rows of 2-byte depth).
func TestDepthStoreAction(t *testing.T) {
	sc := builtin(t, "spheres:2000")
	const w, h = 128, 96
	for _, g := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		for _, tc := range []struct {
			depth   string
			bytes   int
			samples int
		}{{"", 4, 1}, {"d16", 2, 1}, {"d24s8", 4, 4}} {
			opt := Options{Width: w, Height: h, DepthFormat: tc.depth, MSAA: tc.samples}
			drop := frameOn(t, gpu(t, g), sc, opt)
			opt.DepthStore = StoreStore
			keep := frameOn(t, gpu(t, g), sc, opt)
			want := uint64(w * h * tc.bytes * tc.samples)
			got := keep.DRAMWrite.Framebuffer - drop.DRAMWrite.Framebuffer
			if got < want || float64(got) > 1.1*float64(want) || keep.AttachmentStoreBytes-drop.AttachmentStoreBytes != want {
				t.Errorf("%s, depth %q at %d samples: storing depth wrote %d more DRAM bytes (%d more attachment bytes), want %d",
					g, tc.depth, tc.samples, got, keep.AttachmentStoreBytes-drop.AttachmentStoreBytes, want)
			}
			opt.DepthStore = StoreDontCare
			if d := frameOn(t, gpu(t, g), sc, opt); d.DRAMWrite.Framebuffer != drop.DRAMWrite.Framebuffer {
				t.Errorf("%s: don't-care wrote %d frame-buffer bytes, the default %d", g, d.DRAMWrite.Framebuffer, drop.DRAMWrite.Framebuffer)
			}
		}
	}
}

// TestColorLoadAction: loading the colour attachment reads it from memory
// at every tile's or bin's start (the previous frame's image, which then
// shows through where nothing is drawn); don't-care neither reads nor
// clears in memory.
func TestColorLoadAction(t *testing.T) {
	sc := builtin(t, "spheres:2000")
	const w, h = 128, 96
	for _, name := range []string{"mali-g52", "adreno-640"} {
		g := compressing(t, name, "none")
		clearF := render(t, g, sc, Options{Width: w, Height: h}, 2)[1]
		loadF := render(t, g, sc, Options{Width: w, Height: h, ColorLoad: LoadLoad}, 2)[1]
		got := loadF.Stats.DRAMRead.Framebuffer - clearF.Stats.DRAMRead.Framebuffer
		if got < uint64(w*h*colorBytes) || loadF.Stats.AttachmentLoadBytes != uint64(w*h*colorBytes) {
			t.Errorf("%s: loading colour read %d more frame-buffer bytes (%d attachment bytes), want at least %d", name, got, loadF.Stats.AttachmentLoadBytes, w*h*colorBytes)
		}
		if d := countDiff(clearF.Image, loadF.Image); d != 0 {
			t.Errorf("%s: the spheres cover the frame, yet loading changed %d pixels", name, d)
		}
		dc := render(t, g, sc, Options{Width: w, Height: h, ColorLoad: LoadDontCare}, 1)[0]
		if dc.Stats.DRAMRead.Framebuffer != render(t, g, sc, Options{Width: w, Height: h}, 1)[0].Stats.DRAMRead.Framebuffer {
			t.Errorf("%s: don't-care read %d frame-buffer bytes", name, dc.Stats.DRAMRead.Framebuffer)
		}
	}
}

// TestDepthFormatPrecision: depth is quantised to the format before the
// test. Two overlapping squares 2^-18 apart in depth, the far one drawn
// first: 32-bit float depth and 24-bit depth keep them apart (the near one
// shows), 16-bit depth stores both as the same value, so LESS keeps the
// far one.
func TestDepthFormatPrecision(t *testing.T) {
	const w, h = 32, 32
	sq := func(z float64, c uint8) []refTri {
		return []refTri{
			{x: [3]int64{0, 32 * 256, 32 * 256}, y: [3]int64{0, 0, 32 * 256}, z: z, c: [4]uint8{c, 0, 0, 255}},
			{x: [3]int64{0, 32 * 256, 0}, y: [3]int64{0, 32 * 256, 32 * 256}, z: z, c: [4]uint8{c, 0, 0, 255}},
		}
	}
	const far, near = 0.5 + 1.0/(1<<18), 0.5
	sc := flatScene(append(sq(far, 100), sq(near, 200)...), w, h)
	for _, tc := range []struct {
		depth string
		want  uint8
	}{{"d32f", 200}, {"d24s8", 200}, {"d16", 100}} {
		for _, c := range configs {
			f := render(t, gpu(t, c.gpu), sc, Options{Width: w, Height: h, Mode: c.mode, DepthFormat: tc.depth}, 1)[0]
			if got := f.Image.Pix[(h/2)*f.Image.Stride+(w/2)*4]; got != tc.want {
				t.Errorf("%s on %s: the centre is red %d, want %d", tc.depth, c.name, got, tc.want)
			}
		}
	}
	if _, err := New(gpu(t, "mali-g52"), sc, Options{Width: w, Height: h, DepthFormat: "s8"}); err == nil || !IsUserError(err) || !strings.Contains(err.Error(), "does not model stencil") {
		t.Errorf("s8: %v", err)
	}
	if _, err := New(gpu(t, "mali-g52"), sc, Options{Width: w, Height: h, DepthFormat: "d15"}); err == nil || !IsUserError(err) || !strings.Contains(err.Error(), "d16, d24s8, d32f, d32fs8, none") {
		t.Errorf("d15: %v", err)
	}
	if _, err := New(gpu(t, "mali-g52"), sc, Options{Width: w, Height: h, MSAA: 3}); err == nil || !IsUserError(err) {
		t.Errorf("3 samples: %v", err)
	}
}

// TestCompressionEstimate: the payload estimate per block. A solid block
// is its header alone; a block of two colours in 4x4 sub-blocks costs per
// sub-block and channel an 8-bit base plus a 1-bit delta per pixel where
// the channel varies; noise costs the uncompressed block.
func TestCompressionEstimate(t *testing.T) {
	c := &fbCompression{kind: "afbc", bw: 16, bh: 16, sw: 4, sh: 4, header: 16, align: 1}
	a := &attachment{w: 16, h: 16, color: make([]uint32, 256)}
	ci := &compressedImage{c: c, bx: 1, by: 1, payload: make([]int, 1)}
	fill := func(f func(x, y int) uint32) {
		for y := 0; y < 16; y++ {
			for x := 0; x < 16; x++ {
				a.color[y*16+x] = f(x, y)
			}
		}
	}
	fill(func(x, y int) uint32 { return 0xff102030 })
	if p := ci.estimate(a, 0, 0, 16, 16); p != 0 {
		t.Errorf("solid block: payload %d", p)
	}
	// Checkerboard of two colours differing in red by 1: per sub-block
	// red 8+16 bits, the other channels 8 bits each: 48 bits, 6 bytes.
	fill(func(x, y int) uint32 { return 0xff102030 + uint32((x+y)%2) })
	if p := ci.estimate(a, 0, 0, 16, 16); p != 16*6 {
		t.Errorf("two colours: payload %d, want %d", p, 16*6)
	}
	// The checkerboard in one sub-block only: 6 bytes, and 4 (the bases)
	// for each of the 15 solid ones.
	fill(func(x, y int) uint32 {
		if x < 4 && y < 4 {
			return 0xff102030 + uint32((x+y)%2)
		}
		return 0xff102030
	})
	if p := ci.estimate(a, 0, 0, 16, 16); p != 66 {
		t.Errorf("one varied sub-block: payload %d, want 66", p)
	}
	rng := rand.New(rand.NewSource(1))
	fill(func(x, y int) uint32 { return rng.Uint32() })
	if p := ci.estimate(a, 0, 0, 16, 16); p != 1024 {
		t.Errorf("noise: payload %d, want the uncompressed 1024", p)
	}
	// UBWC-style rounding to 32-byte units.
	c.align = 32
	fill(func(x, y int) uint32 {
		if x < 4 && y < 4 {
			return 0xff102030 + uint32((x+y)%2)
		}
		return 0xff102030
	})
	if p := ci.estimate(a, 0, 0, 16, 16); p != 96 {
		t.Errorf("one varied sub-block, 32-byte granule: payload %d, want 96", p)
	}
}

// TestFramebufferCompression: AFBC (Mali-G52) and UBWC (Adreno 640)
// write the frame buffer back in fewer DRAM bytes than uncompressed, and
// the image is the same (the compression is lossless). The UI's flat
// panels compress best.
func TestFramebufferCompression(t *testing.T) {
	const w, h = 256, 160
	ratio := map[string]float64{}
	for _, sc := range []string{"spheres:3000", "ui", "cube"} {
		for _, tc := range []struct{ gpu, kind string }{{"mali-g52", "afbc"}, {"adreno-640", "ubwc"}} {
			off := render(t, compressing(t, tc.gpu, "none"), builtin(t, sc), Options{Width: w, Height: h}, 1)[0]
			on := render(t, gpu(t, tc.gpu), builtin(t, sc), Options{Width: w, Height: h}, 1)[0]
			if d := countDiff(off.Image, on.Image); d != 0 {
				t.Errorf("%s on %s: compression changed %d pixels", sc, tc.gpu, d)
			}
			a, b := off.Stats.DRAMWrite.Framebuffer, on.Stats.DRAMWrite.Framebuffer
			r := on.Stats.CompressionRatio()
			t.Logf("%s on %s (%s): frame-buffer DRAM writes %d -> %d (%.2fx); written back %d -> %d bytes (ratio %.2f)",
				sc, tc.gpu, tc.kind, a, b, float64(a)/float64(b), on.Stats.UncompressedBytes, on.Stats.CompressedBytes, r)
			if b >= a || r <= 1 || on.Stats.UncompressedBytes != off.Stats.AttachmentStoreBytes {
				t.Errorf("%s on %s: frame-buffer DRAM writes %d with %s, %d without; ratio %.2f", sc, tc.gpu, b, tc.kind, a, r)
			}
			ratio[sc+" "+tc.kind] = r
		}
	}
	for _, k := range []string{"afbc", "ubwc"} {
		if ratio["ui "+k] <= ratio["spheres:3000 "+k] {
			t.Errorf("%s: the UI compresses %.2fx, the spheres %.2fx", k, ratio["ui "+k], ratio["spheres:3000 "+k])
		}
	}
}

// TestHiddenSurfaceRemoval: Rogue's deferred rendering shades each
// covered opaque pixel once, where Mali and Adreno shade the overdraw
// their early depth test lets through. The depth test passes the same
// fragments on every GPU, so Mali's shaded fragments are exactly Rogue's
// plus the ones its HSR removed; the image is the same.
func TestHiddenSurfaceRemoval(t *testing.T) {
	const w, h = 256, 160
	sc := builtin(t, "spheres:3000")
	opt := Options{Width: w, Height: h}
	pvr := render(t, gpu(t, "powervr-gx6250"), sc, opt, 1)[0]
	// The pixels opaque geometry covers: those the scene without its
	// glass panes draws.
	noGlass := *sc
	noGlass.Instances = nil
	for _, in := range sc.Instances {
		if sc.Materials[sc.Meshes[in.Mesh].Material].Alpha != scene.Blend {
			noGlass.Instances = append(noGlass.Instances, in)
		}
	}
	covered := 0
	img := render(t, gpu(t, "mali-g52"), &noGlass, Options{Width: w, Height: h, Mode: Immediate}, 1)[0].Image
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] != ClearColor[0] || img.Pix[i+1] != ClearColor[1] || img.Pix[i+2] != ClearColor[2] {
			covered++
		}
	}
	noHSR := *gpu(t, "powervr-gx6250")
	noHSR.Tiling.HiddenSurfaceRemoval = false
	plain := render(t, &noHSR, sc, opt, 1)[0]
	mali := render(t, gpu(t, "mali-g52"), sc, opt, 1)[0]
	adreno := render(t, gpu(t, "adreno-640"), sc, opt, 1)[0]
	r, m, a := pvr.Stats, mali.Stats, adreno.Stats
	opaque := r.FragmentsShaded - r.Blended // the glass panes are blended, shaded in order
	t.Logf("fragments shaded: Rogue %d (%d opaque for %d covered pixels of %d, %d blended; %d removed by HSR), Rogue without HSR %d, Mali %d, Adreno %d",
		r.FragmentsShaded, opaque, covered, w*h, r.Blended, r.HSRRemoved, plain.Stats.FragmentsShaded, m.FragmentsShaded, a.FragmentsShaded)
	if opaque != uint64(covered) || covered < w*h*9/10 {
		t.Errorf("Rogue shaded %d opaque fragments for %d covered pixels", opaque, covered)
	}
	for _, o := range []FrameStats{m, a, plain.Stats} {
		if o.FragmentsShaded != r.FragmentsShaded+r.HSRRemoved || o.HSRRemoved != 0 {
			t.Errorf("shaded %d (HSR removed %d); want Rogue's %d + %d", o.FragmentsShaded, o.HSRRemoved, r.FragmentsShaded, r.HSRRemoved)
		}
	}
	if float64(m.FragmentsShaded) < 1.5*float64(r.FragmentsShaded) {
		t.Errorf("Mali shaded %d fragments, Rogue %d: the scene's overdraw is about 2", m.FragmentsShaded, r.FragmentsShaded)
	}
	for _, f := range []*Frame{plain, mali, adreno} {
		if d := countDiff(f.Image, pvr.Image); d != 0 {
			t.Errorf("%d pixels differ from Rogue's deferred image", d)
		}
	}
	if !(r.Cycles < plain.Stats.Cycles) {
		t.Errorf("HSR: %.0f cycles, without %.0f", r.Cycles, plain.Stats.Cycles)
	}
	// With 4 samples a pixel on an edge shows two primitives and is
	// shaded for each.
	ms := render(t, gpu(t, "powervr-gx6250"), sc, Options{Width: w, Height: h, MSAA: 4}, 1)[0].Stats
	if ms.FragmentsShaded-ms.Blended <= uint64(covered) || ms.FragmentsShaded >= m.FragmentsShaded {
		t.Errorf("4x MSAA: Rogue shaded %d opaque fragments for %d covered pixels", ms.FragmentsShaded-ms.Blended, covered)
	}
}

// TestParameterBufferOverflow: when a pass's polygon lists and
// transformed vertices outgrow tiling.parameter_buffer_kib, the tiles are
// rendered mid-frame (colour and depth stored) and loaded again when
// rendering resumes: each partial render costs a store and a load of
// both attachments, and the image is the same.
func TestParameterBufferOverflow(t *testing.T) {
	const w, h = 256, 160
	sc := builtin(t, "spheres:3000")
	opt := Options{Width: w, Height: h}
	base := *gpu(t, "powervr-gx6250")
	full := render(t, &base, sc, opt, 1)[0]
	// A third of what the pass needs: two or three partial renders (the
	// headers are in every render's share), then the final one.
	kib := int(full.Stats.ParameterBufferPeak/1024/3) + 1
	small := base
	small.Tiling.ParameterBufferKiB = kib
	over := render(t, &small, sc, opt, 1)[0]
	f, o := full.Stats, over.Stats
	t.Logf("parameter buffer: %d bytes at most unlimited, %d partial renders in %d KiB; frame-buffer DRAM %d -> %d bytes, cycles %.0f -> %.0f",
		f.ParameterBufferPeak, o.PartialRenders, kib, f.DRAMRead.Framebuffer+f.DRAMWrite.Framebuffer, o.DRAMRead.Framebuffer+o.DRAMWrite.Framebuffer, f.Cycles, o.Cycles)
	if f.PartialRenders != 0 || o.PartialRenders < 2 || o.ParameterBufferPeak > uint64(kib*1024)+2048 {
		t.Fatalf("partial renders: %d unlimited, %d in %d KiB (peak %d bytes)", f.PartialRenders, o.PartialRenders, kib, o.ParameterBufferPeak)
	}
	if d := countDiff(full.Image, over.Image); d != 0 {
		t.Errorf("partial renders changed %d pixels", d)
	}
	per := uint64(w*h) * uint64(colorBytes+4) // colour and 32-bit depth
	n := uint64(o.PartialRenders)
	if o.AttachmentStoreBytes-f.AttachmentStoreBytes != n*per || o.AttachmentLoadBytes-f.AttachmentLoadBytes != n*per {
		t.Errorf("%d partial renders stored %d and loaded %d more bytes; want %d each", n, o.AttachmentStoreBytes-f.AttachmentStoreBytes, o.AttachmentLoadBytes-f.AttachmentLoadBytes, n*per)
	}
	if extra := (o.DRAMRead.Framebuffer + o.DRAMWrite.Framebuffer) - (f.DRAMRead.Framebuffer + f.DRAMWrite.Framebuffer); extra < 2*n*per*9/10 {
		t.Errorf("partial renders moved %d more frame-buffer DRAM bytes; want about %d", extra, 2*n*per)
	}
	if !(o.Cycles > f.Cycles) || o.Passes != f.Passes+o.PartialRenders {
		t.Errorf("cycles %.0f -> %.0f, passes %d -> %d", f.Cycles, o.Cycles, f.Passes, o.Passes)
	}
	// A buffer too small for the lists' headers is refused.
	tiny := base
	tiny.Tiling.ParameterBufferKiB = 1
	if _, err := RenderFrames(&tiny, sc, Options{Width: 1024, Height: 1024}, 1); err == nil || !IsUserError(err) || !strings.Contains(err.Error(), "cannot hold the polygon-list headers") {
		t.Errorf("1 KiB: %v", err)
	}
}

// TestMultiPassScene: the shadows scene's three passes — a depth-only
// shadow map from the light, the main pass sampling it, a post-process
// pass sampling the main pass's colour — read each other's attachments
// from memory: the shadow map is stored (its depth written back) and its
// texels fetched; the main colour is fetched by the post-process pass,
// fewer bytes of it where AFBC compressed it (on the Mali-G52, whose
// 128 KB L2 does not hold the frame; the Adreno 640's 2 MB system-level
// cache does, so its DRAM reads do not show the colour). A shadow map with
// nothing in it lights everything; a main pass whose colour is not stored
// leaves the post-process pass what memory held before.
func TestMultiPassScene(t *testing.T) {
	const w, h = 192, 128
	sc := builtin(t, "shadows")
	opt := Options{Width: w, Height: h}
	for _, name := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		f := render(t, gpu(t, name), sc, opt, 1)[0]
		st := f.Stats
		if st.RenderPasses != 3 || !strings.HasPrefix(st.PassCycles[0].Name, "shadow: ") || !strings.HasPrefix(st.PassCycles[len(st.PassCycles)-1].Name, "bloom: ") {
			t.Errorf("%s: %d render passes, passes %v", name, st.RenderPasses, st.PassCycles)
		}
		// The shadow map's depth (512x512, 4 bytes) is stored.
		if st.AttachmentStoreBytes < 512*512*4 {
			t.Errorf("%s: %d attachment bytes stored; the shadow map alone is %d", name, st.AttachmentStoreBytes, 512*512*4)
		}
		plain := render(t, compressing(t, name, "none"), sc, opt, 1)[0].Stats
		t.Logf("%s: texture DRAM reads %d bytes (%d without compression), frame buffer written %d (%d), %d passes, %.0f cycles",
			name, st.DRAMRead.Texture, plain.DRAMRead.Texture, st.DRAMWrite.Framebuffer, plain.DRAMWrite.Framebuffer, len(st.PassCycles), st.Cycles)
		if name != "adreno-640" && plain.DRAMRead.Texture < uint64(w*h*colorBytes) {
			t.Errorf("%s: %d texture bytes read; the main pass's colour alone is %d", name, plain.DRAMRead.Texture, w*h*colorBytes)
		}
		if name == "mali-g52" && st.DRAMRead.Texture >= plain.DRAMRead.Texture {
			t.Errorf("%s: compressed, the passes read %d texture bytes; uncompressed %d", name, st.DRAMRead.Texture, plain.DRAMRead.Texture)
		}
	}
	g := gpu(t, "mali-g52")
	img := render(t, g, sc, opt, 1)[0].Image
	unlit := *sc
	unlit.Passes = append([]scene.Pass(nil), sc.Passes...)
	unlit.Passes[0].Instances = func(int) []scene.Instance { return nil }
	if d := countDiff(img, render(t, g, &unlit, opt, 1)[0].Image); d < w*h/50 {
		t.Errorf("an empty shadow map changed only %d pixels", d)
	}
	dropped := render(t, g, sc, Options{Width: w, Height: h, ColorStore: StoreDontCare}, 1)[0]
	if d := countDiff(img, dropped.Image); d < w*h/2 {
		t.Errorf("the main pass's colour not stored: only %d pixels changed", d)
	}
}
