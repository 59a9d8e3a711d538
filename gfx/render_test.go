package gfx

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/gfx/layout"
	"github.com/pocketgpu/pocketgpu/gfx/scene"
)

var updateGoldens = flag.Bool("update-gfx", false, "rewrite the golden images in testdata/golden")

func gpu(t testing.TB, name string) *arch.GPU {
	t.Helper()
	if strings.HasSuffix(name, ".yaml") {
		name = filepath.Join("testdata", "gpus", name)
	}
	g, err := arch.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func builtin(t testing.TB, spec string) *scene.Scene {
	t.Helper()
	s, err := scene.Builtin(spec)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func render(t testing.TB, g *arch.GPU, s *scene.Scene, opt Options, frames int) []*Frame {
	t.Helper()
	fs, err := RenderFrames(g, s, opt, frames)
	if err != nil {
		t.Fatalf("%s: %v", g.ID, err)
	}
	return fs
}

func testShader(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "shaders", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// configs are the renderers every golden image is checked on: each family's
// tiled path (Mali Bifrost and Midgard; Adreno with one bin, with hardware
// binning over several bins, and with direct rendering; Rogue's flat
// tiling) and the immediate-mode baseline.
var configs = []struct {
	name string
	gpu  string
	mode Mode
}{
	{"mali-g52 tiled", "mali-g52", Tiled},
	{"mali-g52 immediate", "mali-g52", Immediate},
	{"mali-t760 tiled", "mali-t760", Tiled},
	{"adreno-640 tiled", "adreno-640", Tiled},
	{"adreno several bins", "adreno-16k-gmem.yaml", Tiled},
	{"adreno direct", "adreno-1k-gmem.yaml", Tiled},
	{"adreno-640 immediate", "adreno-640", Immediate},
	{"powervr tiled", "powervr-gx6250", Tiled},
}

func encodePNG(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// TestGoldenImages renders each scene on every configuration: all images
// must equal the golden PNG exactly (the rasteriser is deterministic, so
// tiled and immediate rendering agree to the bit).
func TestGoldenImages(t *testing.T) {
	goldens := []struct {
		name   string
		scene  string
		w, h   int
		vs, fs string
	}{
		{"cube", "cube", 96, 64, "", ""},
		{"spheres", "spheres:3000", 128, 80, "", ""},
		{"ui", "ui", 112, 72, "", ""},
		{"user-shaders", "cube", 96, 64, "uvcolor.vert.spv", "stripes.frag.spv"},
		{"shadows", "shadows", 128, 80, "", ""},
	}
	for _, gd := range goldens {
		path := filepath.Join("testdata", "golden", gd.name+".png")
		var want *image.NRGBA
		for i, c := range configs {
			opt := Options{Width: gd.w, Height: gd.h, Mode: c.mode}
			if gd.vs != "" {
				opt.VS, opt.VSName = testShader(t, gd.vs), gd.vs
				opt.FS, opt.FSName = testShader(t, gd.fs), gd.fs
			}
			f := render(t, gpu(t, c.gpu), builtin(t, gd.scene), opt, 1)[0]
			if i == 0 && *updateGoldens {
				if err := os.WriteFile(path, encodePNG(f.Image), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if want == nil {
				b, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run go test ./gfx -run TestGoldenImages -update-gfx)", err)
				}
				img, err := png.Decode(bytes.NewReader(b))
				if err != nil {
					t.Fatal(err)
				}
				want = image.NewNRGBA(img.Bounds())
				for y := 0; y < gd.h; y++ {
					for x := 0; x < gd.w; x++ {
						want.Set(x, y, img.At(x, y))
					}
				}
			}
			if diff := countDiff(f.Image, want); diff != 0 {
				t.Errorf("%s on %s: %d pixels differ from %s", gd.name, c.name, diff, path)
				_ = os.WriteFile(filepath.Join(t.TempDir(), gd.name+".png"), encodePNG(f.Image), 0o644)
			}
			if f.Stats.FragmentsShaded == 0 {
				t.Errorf("%s on %s: nothing shaded", gd.name, c.name)
			}
		}
	}
}

func countDiff(a, b *image.NRGBA) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	for i := 0; i+3 < len(a.Pix); i += 4 {
		if !bytes.Equal(a.Pix[i:i+4], b.Pix[i:i+4]) {
			n++
		}
	}
	return n
}

// TestStaticSceneWritesNoTilesTheSecondTime: with the camera still, the
// second frame's tiles all match their CRCs, so Mali writes none of them;
// the image read back from memory is still right.
func TestStaticSceneWritesNoTilesTheSecondTime(t *testing.T) {
	for _, g := range []string{"mali-g52", "mali-t760"} {
		fs := render(t, gpu(t, g), builtin(t, "spheres:2000"), Options{Width: 96, Height: 64}, 2)
		a, b := fs[0].Stats, fs[1].Stats
		if a.TilesWritten != a.TilesTotal || a.TilesEliminated != 0 {
			t.Errorf("%s frame 0: %d of %d tiles written, %d eliminated", g, a.TilesWritten, a.TilesTotal, a.TilesEliminated)
		}
		if b.TilesWritten != 0 || b.TilesEliminated != b.TilesTotal || b.TilesTotal != 24 {
			t.Errorf("%s frame 1: %d of %d tiles written, %d eliminated", g, b.TilesWritten, b.TilesTotal, b.TilesEliminated)
		}
		if b.DRAMWrite.Framebuffer >= a.DRAMWrite.Framebuffer/10 {
			t.Errorf("%s: frame 1 wrote %d frame-buffer bytes, frame 0 %d", g, b.DRAMWrite.Framebuffer, a.DRAMWrite.Framebuffer)
		}
		if countDiff(fs[0].Image, fs[1].Image) != 0 {
			t.Errorf("%s: the static frames differ", g)
		}
		for _, s := range fs[1].Tiles.State {
			if s != TileEliminated {
				t.Fatalf("%s: tile state %v in the second frame", g, s)
			}
		}
	}
	// An orbiting camera changes (nearly) every tile.
	fs := render(t, gpu(t, "mali-g52"), builtin(t, "spheres:2000"), Options{Width: 96, Height: 64, OrbitDeg: 10}, 2)
	if st := fs[1].Stats; st.TilesWritten < st.TilesTotal/2 {
		t.Errorf("orbiting: only %d of %d tiles written", st.TilesWritten, st.TilesTotal)
	}
}

// TestOneDrawSceneOrbits: a scene of one draw gets each frame's uniforms.
// The renderer once kept the uniform block of "draw 0" from the frame
// before, so the orbiting cube drew the same image every frame.
func TestOneDrawSceneOrbits(t *testing.T) {
	for _, mode := range []Mode{Tiled, Immediate} {
		fs := render(t, gpu(t, "mali-g52"), builtin(t, "cube"), Options{Width: 48, Height: 32, OrbitDeg: 30, Mode: mode}, 2)
		if d := countDiff(fs[0].Image, fs[1].Image); d < 100 {
			t.Errorf("%s: frames 0 and 1 differ in %d pixels; the camera turned 30 degrees", mode, d)
		}
		still := render(t, gpu(t, "mali-g52"), builtin(t, "cube"), Options{Width: 48, Height: 32, OrbitDeg: 30, Mode: mode}, 1)[0]
		if d := countDiff(fs[0].Image, still.Image); d != 0 {
			t.Errorf("%s: frame 0 of two differs from a render of one frame in %d pixels", mode, d)
		}
	}
}

// TestUIWritesOnlyChangedTiles: in the static-UI scene, the tiles the
// second frame writes are exactly those whose pixels changed.
func TestUIWritesOnlyChangedTiles(t *testing.T) {
	const w, h = 160, 96
	fs := render(t, gpu(t, "mali-g52"), builtin(t, "ui"), Options{Width: w, Height: h}, 3)
	for f := 1; f < 3; f++ {
		prev, cur := fs[f-1].Image, fs[f].Image
		changed := 0
		for ty := 0; ty < h/16; ty++ {
			for tx := 0; tx < w/16; tx++ {
				diff := false
				for y := ty * 16; y < ty*16+16 && !diff; y++ {
					for x := tx * 16; x < tx*16+16; x++ {
						if prev.NRGBAAt(x, y) != cur.NRGBAAt(x, y) {
							diff = true
							break
						}
					}
				}
				want := TileEliminated
				if diff {
					want = TileWritten
					changed++
				}
				if got := fs[f].Tiles.State[ty*(w/16)+tx]; got != want {
					t.Errorf("frame %d tile (%d,%d): state %d, want %d", f, tx, ty, got, want)
				}
			}
		}
		st := fs[f].Stats
		if changed == 0 || st.TilesWritten != changed || changed > st.TilesTotal/6 {
			t.Errorf("frame %d: %d tiles changed, %d written of %d", f, changed, st.TilesWritten, st.TilesTotal)
		}
	}
}

// TestTiledMovesFewerFramebufferBytes: on the overdraw scene, tiling cuts
// the frame-buffer DRAM traffic of the immediate-mode baseline, on Mali
// and on Adreno (several bins).
func TestTiledMovesFewerFramebufferBytes(t *testing.T) {
	for _, g := range []string{"mali-g52", "adreno-16k-gmem.yaml", "adreno-640"} {
		s := builtin(t, "spheres:3000")
		tiled := render(t, gpu(t, g), s, Options{Width: 160, Height: 96}, 1)[0].Stats
		imm := render(t, gpu(t, g), s, Options{Width: 160, Height: 96, Mode: Immediate}, 1)[0].Stats
		tb := tiled.DRAMRead.Framebuffer + tiled.DRAMWrite.Framebuffer
		ib := imm.DRAMRead.Framebuffer + imm.DRAMWrite.Framebuffer
		if tb*2 > ib {
			t.Errorf("%s: tiled moves %d frame-buffer bytes, immediate %d", g, tb, ib)
		}
		if imm.Overdraw < 1.2 {
			t.Errorf("%s: overdraw %.2f: the scene should overdraw", g, imm.Overdraw)
		}
		if tiled.FragmentsShaded != imm.FragmentsShaded {
			t.Errorf("%s: %d fragments shaded tiled, %d immediate", g, tiled.FragmentsShaded, imm.FragmentsShaded)
		}
		if tiled.TileMemoryBytes == 0 || tiled.Cycles <= 0 || tiled.FPS <= 0 {
			t.Errorf("%s: tile memory %d, cycles %v, fps %v", g, tiled.TileMemoryBytes, tiled.Cycles, tiled.FPS)
		}
	}
}

func TestAdrenoPasses(t *testing.T) {
	// 128x64 at 8 bytes per pixel in 16 KiB of GMEM: four bins of 32x64,
	// so 1 binning pass + 4 bin passes (seed 004 §Optimizing Tiled
	// Rendering: four tiles, five passes).
	fs := render(t, gpu(t, "adreno-16k-gmem.yaml"), builtin(t, "spheres:2000"), Options{Width: 128, Height: 64}, 1)
	st := fs[0].Stats
	if st.Bins != 4 || st.Passes != 5 || len(st.PassCycles) != 5 || st.PassCycles[0].Name != "binning" {
		t.Fatalf("bins %d, passes %d, pass cycles %+v", st.Bins, st.Passes, st.PassCycles)
	}
	if st.VisibilityStreams == 0 || st.DRAMWrite.Binning == 0 || st.PrimitiveRefs < st.PrimitivesBinned {
		t.Errorf("visibility streams %d bytes, binning writes %d, refs %d of %d binned", st.VisibilityStreams, st.DRAMWrite.Binning, st.PrimitiveRefs, st.PrimitivesBinned)
	}
	// The vertices of primitives visible in several bins are shaded again
	// in each: more than the binning pass's count.
	if st.VerticesShaded <= 2*uint64(fs[0].Stats.Draws) {
		t.Errorf("vertices shaded %d", st.VerticesShaded)
	}
	if st.TilesWritten != 4 || st.TilesEliminated != 0 || st.DirectRendering {
		t.Errorf("tiles written %d, eliminated %d, direct %v", st.TilesWritten, st.TilesEliminated, st.DirectRendering)
	}
	// Direct rendering: one pass, no bins.
	d := render(t, gpu(t, "adreno-1k-gmem.yaml"), builtin(t, "cube"), Options{Width: 64, Height: 48}, 1)[0].Stats
	if !d.DirectRendering || d.Passes != 1 || d.Bins != 0 {
		t.Errorf("direct: %v, passes %d, bins %d", d.DirectRendering, d.Passes, d.Bins)
	}
}

// TestConcurrentBinning: on Adreno 7xx, BV bins a frame while BR renders
// the previous one, so a steady frame costs less than binning plus
// rendering; a 6xx part pays both.
// Frames streamed back to back: Adreno 7xx's BV bins the next frame while
// BR renders this one, so from the second frame on the interval between
// frames is shorter than a frame; Adreno 6xx's SQE runs one after the
// other, so it is not. Mali's job slots overlap a frame's fragment job with
// the next frame's vertex and tiler job the same way.
func TestConcurrentBinning(t *testing.T) {
	for _, tc := range []struct {
		gpu     string
		overlap bool
	}{{"adreno-730-16k-gmem.yaml", true}, {"adreno-16k-gmem.yaml", false}, {"mali-g52", true}} {
		fs := render(t, gpu(t, tc.gpu), builtin(t, "spheres:2000"), Options{Width: 128, Height: 64}, 2)
		if c0 := fs[0].Stats; c0.IntervalCycles != c0.Cycles {
			t.Errorf("%s first frame: %v cycles, interval %v", tc.gpu, c0.Cycles, c0.IntervalCycles)
		}
		c1 := fs[1].Stats
		if shorter := c1.IntervalCycles < c1.Cycles*0.99; shorter != tc.overlap || c1.IntervalCycles <= 0 {
			t.Errorf("%s second frame: %v cycles, interval %v (overlap %v)", tc.gpu, c1.Cycles, c1.IntervalCycles, tc.overlap)
		}
	}
}

func TestHierarchicalTiling(t *testing.T) {
	s := builtin(t, "ui")
	bif := render(t, gpu(t, "mali-g52"), s, Options{Width: 160, Height: 96}, 1)[0].Stats
	// The full-screen background lands in a large bin, not in every tile.
	if len(bif.HierarchyLevelUses) != gpu(t, "mali-g52").Tiling.HierarchyLevels || bif.HierarchyLevelUses[0] == len(bif.HierarchyLevelUses) {
		t.Fatalf("levels used %v", bif.HierarchyLevelUses)
	}
	high := 0
	for l := 3; l < len(bif.HierarchyLevelUses); l++ {
		high += bif.HierarchyLevelUses[l]
	}
	if high == 0 {
		t.Errorf("no primitive in a bin of 128x128 or larger: %v", bif.HierarchyLevelUses)
	}
	if bif.PolygonListBytes == 0 || bif.PrimitiveRefs == 0 || bif.PrimitiveRefsMax == 0 {
		t.Errorf("polygon list %d bytes, refs %d (max %d)", bif.PolygonListBytes, bif.PrimitiveRefs, bif.PrimitiveRefsMax)
	}
	// Midgard reserves polygon-list memory for every bin up front;
	// Bifrost allocates as lists grow (seed 000).
	mid := render(t, gpu(t, "mali-t760"), s, Options{Width: 160, Height: 96}, 1)[0].Stats
	if mid.PolygonListAlloc <= 2*bif.PolygonListAlloc {
		t.Errorf("polygon-list memory: midgard %d, bifrost %d", mid.PolygonListAlloc, bif.PolygonListAlloc)
	}
	// Flat tiling (Rogue preset) duplicates big primitives into every tile.
	flat := render(t, gpu(t, "powervr-gx6250"), s, Options{Width: 160, Height: 96}, 1)[0].Stats
	if flat.HierarchyLevelUses != nil || flat.TileWidth != 32 {
		t.Errorf("flat tiling: levels %v, tile %d", flat.HierarchyLevelUses, flat.TileWidth)
	}
}

func TestTinyTrianglesDroppedByMaliTiler(t *testing.T) {
	// A mesh of triangles far smaller than a pixel, away from pixel
	// centres: Mali's tiler drops them, Adreno bins them.
	s := builtin(t, "cube")
	m := scene.Mesh{Name: "dust", Material: 0}
	for i := 0; i < 50; i++ {
		x := float32(-0.9 + 0.03*float32(i))
		m.Positions = append(m.Positions, [3]float32{x, 0.8, 0}, [3]float32{x + 0.0005, 0.8, 0}, [3]float32{x, 0.8005, 0})
		m.Indices = append(m.Indices, uint32(3*i), uint32(3*i+1), uint32(3*i+2))
	}
	s.Meshes = append(s.Meshes, m)
	s.Materials[0].DoubleSided = true
	s.Instances = append(s.Instances, scene.Instance{Mesh: 1, Transform: scene.Identity()})
	s.Camera = scene.Camera{Ortho: true, Left: -1, Right: 1, Bottom: -1, Top: 1, Near: -1, Far: 1}
	mali := render(t, gpu(t, "mali-g52"), s, Options{Width: 64, Height: 64}, 1)[0].Stats
	if mali.PrimitivesCulled.NoSample < 40 {
		t.Errorf("mali dropped %d sample-less triangles", mali.PrimitivesCulled.NoSample)
	}
	adr := render(t, gpu(t, "adreno-640"), s, Options{Width: 64, Height: 64}, 1)[0].Stats
	if adr.PrimitivesCulled.NoSample != 0 {
		t.Errorf("adreno dropped %d", adr.PrimitivesCulled.NoSample)
	}
}

func TestLayoutOption(t *testing.T) {
	s := builtin(t, "cube")
	g := compressing(t, "mali-g52", "none") // AFBC writes blocks whatever the layout
	a := render(t, g, s, Options{Width: 40, Height: 24}, 1)[0]
	b := render(t, g, s, Options{Width: 40, Height: 24, Layout: layout.Linear, LayoutSet: true}, 1)[0]
	if countDiff(a.Image, b.Image) != 0 {
		t.Error("the layout changes the image")
	}
	// u-interleaved writes whole 1 KiB tiles (padding included), linear
	// only the frame's rows.
	if a.Stats.DRAMWrite.Framebuffer <= b.Stats.DRAMWrite.Framebuffer {
		t.Errorf("frame-buffer writes: u-interleaved %d, linear %d", a.Stats.DRAMWrite.Framebuffer, b.Stats.DRAMWrite.Framebuffer)
	}
}

func TestBadInput(t *testing.T) {
	g := gpu(t, "mali-g52")
	s := builtin(t, "cube")
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{"too wide", Options{Width: 20000, Height: 10}, "over mali-g52's limit of 16384"},
		{"zero size", Options{Width: 0, Height: 10}, "at least 1"},
		{"type mismatch", Options{Width: 8, Height: 8, FS: testShader(t, "mismatch.frag.spv"), FSName: "mismatch.frag.spv"}, "shader interface mismatch at location 2"},
		{"missing varying", Options{Width: 8, Height: 8, FS: testShader(t, "missing.frag.spv"), FSName: "missing.frag.spv"}, "location 5"},
		{"two outputs", Options{Width: 8, Height: 8, FS: testShader(t, "mrt.frag.spv"), FSName: "mrt.frag.spv"}, "one colour attachment"},
		{"extra resource", Options{Width: 8, Height: 8, FS: testShader(t, "extra_resource.frag.spv"), FSName: "extra_resource.frag.spv"}, "binding 2 is not provided"},
		{"no position", Options{Width: 8, Height: 8, VS: testShader(t, "noposition.vert.spv"), VSName: "noposition.vert.spv"}, "does not write gl_Position"},
		{"stage swapped", Options{Width: 8, Height: 8, VS: testShader(t, "stripes.frag.spv"), VSName: "stripes.frag.spv"}, "has no Vertex entry point"},
		{"not spir-v", Options{Width: 8, Height: 8, FS: []byte("hello"), FSName: "hello.spv"}, "hello.spv"},
	}
	for _, tt := range tests {
		_, err := New(g, s, tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
			continue
		}
		if !IsUserError(err) {
			t.Errorf("%s: %v is not reported as the user's error", tt.name, err)
		}
	}
	if _, err := ParseMode("deferred"); err == nil || !IsUserError(err) {
		t.Errorf("ParseMode: %v", err)
	}
	var ie *InputError
	if errors.As(fmt.Errorf("x: %w", &InputError{Msg: "m"}), &ie) != true {
		t.Error("InputError does not unwrap")
	}
}

// TestRandomTrianglesAgreeEverywhere draws soups of random triangles —
// crossing the near and far planes, the guard band and each other, both
// windings, opaque, alpha-tested and blended — and checks that every
// tiled path gives the immediate-mode image exactly.
func TestRandomTrianglesAgreeEverywhere(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 4; trial++ {
		s := builtin(t, "cube")
		s.Materials = append(s.Materials,
			scene.Material{Name: "blend", BaseColor: [4]float64{0.3, 0.9, 0.4, 0.5}, Texture: 0, Alpha: scene.Blend, DoubleSided: true},
			scene.Material{Name: "mask", BaseColor: [4]float64{1, 1, 1, 1}, Texture: 0, Alpha: scene.Mask, AlphaCutoff: 0.5, DoubleSided: true, Sampler: scene.Sampler{Filter: scene.Nearest}})
		// Make the checker's red squares transparent for the mask.
		tex := &s.Textures[0]
		for i := 0; i < len(tex.Pixels); i += 4 {
			if tex.Pixels[i+1] < 100 {
				tex.Pixels[i+3] = 0
			}
		}
		for m := 0; m < 3; m++ {
			mesh := scene.Mesh{Name: fmt.Sprintf("soup-%d", m), Material: m}
			for k := 0; k < 60; k++ {
				spread := 3.0
				if k%10 == 0 {
					spread = 60 // far past the guard band
				}
				for v := 0; v < 3; v++ {
					mesh.Positions = append(mesh.Positions, [3]float32{float32((rng.Float64() - 0.5) * spread), float32((rng.Float64() - 0.5) * spread), float32(rng.Float64()*12 - 9)})
					mesh.TexCoords = append(mesh.TexCoords, [2]float32{rng.Float32() * 2, rng.Float32() * 2})
					mesh.Normals = append(mesh.Normals, [3]float32{0, 0, 1})
				}
				mesh.Indices = append(mesh.Indices, uint32(3*k), uint32(3*k+1), uint32(3*k+2))
			}
			s.Meshes = append(s.Meshes, mesh)
			s.Instances = append(s.Instances, scene.Instance{Mesh: len(s.Meshes) - 1, Transform: scene.Identity()})
		}
		s.Camera = scene.Camera{Eye: scene.Vec3{0, 0, 2}, Target: scene.Vec3{0, 0, -1}, Up: scene.Vec3{0, 1, 0}, FovY: 1.2, Near: 0.5, Far: 8}
		w, h := 72+8*trial, 40+6*trial
		want := render(t, gpu(t, "mali-g52"), s, Options{Width: w, Height: h, Mode: Immediate}, 1)[0]
		if want.Stats.PrimitivesClipped == 0 || want.Stats.Blended == 0 || want.Stats.Discarded == 0 || want.Stats.FragmentsWritten < uint64(w*h/2) {
			t.Fatalf("trial %d does not exercise clipping, blending and discard: %+v", trial, want.Stats)
		}
		for _, c := range configs {
			if c.mode == Immediate {
				continue
			}
			got := render(t, gpu(t, c.gpu), s, Options{Width: w, Height: h}, 1)[0]
			if d := countDiff(got.Image, want.Image); d != 0 {
				t.Errorf("trial %d, %s: %d pixels differ from immediate mode", trial, c.name, d)
			}
		}
	}
}
