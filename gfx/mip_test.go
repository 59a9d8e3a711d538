package gfx

import (
	"fmt"
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/gfx/scene"
	"github.com/pocketgpu/pocketgpu/ir"
)

// The mipmap tests draw a receding textured floor: one quad on the plane
// y = 0 seen from above at a low angle, its texture repeating every
// floorRepeat world units, unlit with the default shaders (so a pixel is
// the texture sample, times 1), up to a far edge at z = floorFar.
const (
	floorTex    = 256
	floorRepeat = 8.0
	floorHalfX  = 120.0
	floorNear   = 6.0
	floorFar    = -60.0
)

var floorEye, floorTarget = scene.Vec3{0, 1.5, 5}, scene.Vec3{0, 0.4, -8}

const floorFovY = 50 * math.Pi / 180

// floorTexture is deterministic noise: every texel differs from its
// neighbours, so a minified level-0 sample aliases and reads texels all
// over the texture.
func floorTexture() scene.Texture {
	t := scene.Texture{Name: "noise", Width: floorTex, Height: floorTex, Pixels: make([]byte, floorTex*floorTex*4)}
	x := uint32(12345)
	for i := range t.Pixels {
		if i%4 == 3 {
			t.Pixels[i] = 255
			continue
		}
		x = x*1664525 + 1013904223
		t.Pixels[i] = byte(x >> 24)
	}
	return t
}

func floorScene(smp scene.Sampler) *scene.Scene {
	u := func(x float64) float32 { return float32(x / floorRepeat) }
	m := scene.Mesh{Name: "floor", Material: 0,
		Positions: [][3]float32{{-floorHalfX, 0, floorNear}, {floorHalfX, 0, floorNear}, {floorHalfX, 0, floorFar}, {-floorHalfX, 0, floorFar}},
		Normals:   [][3]float32{{0, 1, 0}, {0, 1, 0}, {0, 1, 0}, {0, 1, 0}},
		TexCoords: [][2]float32{{u(-floorHalfX), u(floorNear)}, {u(floorHalfX), u(floorNear)}, {u(floorHalfX), u(floorFar)}, {u(-floorHalfX), u(floorFar)}},
		Indices:   []uint32{0, 1, 2, 0, 2, 3},
	}
	return &scene.Scene{Name: "floor", Meshes: []scene.Mesh{m},
		Materials: []scene.Material{{Name: "floor", BaseColor: [4]float64{1, 1, 1, 1}, Texture: 0, Sampler: smp, Unlit: true, DoubleSided: true}},
		Textures:  []scene.Texture{floorTexture()},
		Instances: []scene.Instance{{Mesh: 0, Transform: scene.Identity()}},
		Camera:    scene.Camera{Eye: floorEye, Target: floorTarget, Up: scene.Vec3{0, 1, 0}, FovY: floorFovY, Near: 0.5, Far: 100},
		Light:     scene.Vec3{0, 1, 0}}
}

// refMips is the reference mip chain, built here from the documented rule
// (a 2×2 box filter of the bytes, rounded; sizes halve down to 1×1).
func refMips(t scene.Texture) [][]byte {
	levels := [][]byte{t.Pixels}
	w, h := t.Width, t.Height
	for w > 1 || h > 1 {
		nw, nh := max(w/2, 1), max(h/2, 1)
		prev, next := levels[len(levels)-1], make([]byte, nw*nh*4)
		for y := 0; y < nh; y++ {
			for x := 0; x < nw; x++ {
				for c := 0; c < 4; c++ {
					sum := 0
					for _, d := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
						sx, sy := min(2*x+d[0], w-1), min(2*y+d[1], h-1)
						sum += int(prev[(sy*w+sx)*4+c])
					}
					next[(y*nw+x)*4+c] = byte((sum + 2) / 4)
				}
			}
		}
		levels = append(levels, next)
		w, h = nw, nh
	}
	return levels
}

// floorRef is an independent rasteriser and texturer for the floor scene:
// a ray through each pixel centre meets the plane y = 0 (the camera's
// basis from its eye, target and field of view; Vulkan's y down), the hit
// point's x and z over floorRepeat is the texture coordinate, rounded to
// float32 as a varying is. Each 2×2 quad (even-aligned, as the renderer's)
// takes its coordinates' coarse differences (top row, left column), the
// LOD is log2 of the largest of |du/dx|·256, |dv/dx|·256, |du/dy|·256,
// |dv/dy|·256, and the sample is trilinear with repeat on the reference
// mip chain, converted to 8 bits as the colour write does. It returns per
// pixel the colour and whether the ray hits the floor.
func floorRef(w, h int) ([][4]uint8, []bool) {
	levels := refMips(floorTexture())
	f := floorTarget.Sub(floorEye).Norm()
	r := f.Cross(scene.Vec3{0, 1, 0}).Norm()
	up := r.Cross(f)
	th := math.Tan(floorFovY / 2)
	aspect := float64(w) / float64(h)
	uvAt := func(px, py int) ([2]float32, bool) {
		nx := (float64(px)+0.5)/float64(w)*2 - 1
		ny := (float64(py)+0.5)/float64(h)*2 - 1
		d := f.Add(r.Scale(nx * th * aspect)).Add(up.Scale(-ny * th))
		t := -floorEye[1] / d[1]
		x, z := floorEye[0]+t*d[0], floorEye[2]+t*d[2]
		hit := t > 0 && math.Abs(x) <= floorHalfX && z <= floorNear && z >= floorFar
		return [2]float32{float32(x / floorRepeat), float32(z / floorRepeat)}, hit
	}
	texel := func(l, x, y, c int) float64 {
		n := floorTex >> l
		x, y = (x%n+n)%n, (y%n+n)%n
		return float64(levels[l][(y*n+x)*4+c]) / 255
	}
	bilinear := func(l int, uv [2]float32) [4]float64 {
		n := float64(int(floorTex) >> l)
		x, y := float64(uv[0])*n-0.5, float64(uv[1])*n-0.5
		x0, y0 := math.Floor(x), math.Floor(y)
		a, b := x-x0, y-y0
		var out [4]float64
		for c := range out {
			top := (1-a)*texel(l, int(x0), int(y0), c) + a*texel(l, int(x0)+1, int(y0), c)
			bot := (1-a)*texel(l, int(x0), int(y0)+1, c) + a*texel(l, int(x0)+1, int(y0)+1, c)
			out[c] = (1-b)*top + b*bot
		}
		return out
	}
	last := float64(len(levels) - 1)
	img := make([][4]uint8, w*h)
	hits := make([]bool, w*h)
	for qy := 0; qy < h; qy += 2 {
		for qx := 0; qx < w; qx += 2 {
			tl, _ := uvAt(qx, qy)
			tr, _ := uvAt(qx+1, qy)
			bl, _ := uvAt(qx, qy+1)
			rho := 0.0
			for k := 0; k < 2; k++ {
				rho = math.Max(rho, math.Abs(float64(tr[k]-tl[k]))*floorTex)
				rho = math.Max(rho, math.Abs(float64(bl[k]-tl[k]))*floorTex)
			}
			d := math.Min(math.Max(math.Log2(rho), 0), last)
			lo := math.Floor(d)
			delta := d - lo
			for k := 0; k < 4; k++ {
				px, py := qx+k&1, qy+k>>1
				if px >= w || py >= h {
					continue
				}
				uv, hit := uvAt(px, py)
				s := bilinear(int(lo), uv)
				if delta > 0 {
					s2 := bilinear(int(lo)+1, uv)
					for c := range s {
						s[c] = (1-delta)*s[c] + delta*s2[c]
					}
				}
				var px8 [4]uint8
				for c := range s {
					v := float64(float32(s[c]))
					px8[c] = uint8(math.Floor(math.Min(math.Max(v, 0), 1)*255 + 0.5))
				}
				img[py*w+px], hits[py*w+px] = px8, hit
			}
		}
	}
	return img, hits
}

// The floor rendered with trilinear mipmaps matches the independent
// reference. The reference finds each pixel's texture coordinate by
// intersecting a ray with the plane in float64; the renderer interpolates
// it from the vertices projected in float32 and snapped to 1/256 pixel,
// so the two coordinates differ by about 1/512 pixel's worth of texels at
// the level read, which moves a bilinear weight, and the LOD through the
// quad's differences, by a few thousandths: up to 2 of 255 in a channel on
// this high-contrast noise. Pixels next to the floor's far edge (where
// coverage itself depends on the snapping) are left out.
func TestMipmappedFloorMatchesReference(t *testing.T) {
	const w, h = 192, 108
	want, hits := floorRef(w, h)
	var first *Frame
	for _, c := range []struct {
		gpu  string
		mode Mode
	}{{"mali-g52", Tiled}, {"adreno-640", Tiled}, {"adreno-640", Immediate}} {
		f := render(t, gpu(t, c.gpu), floorScene(scene.Sampler{}), Options{Width: w, Height: h, Mode: c.mode}, 1)[0]
		if first == nil {
			first = f
		} else if n := countDiff(f.Image, first.Image); n != 0 {
			t.Errorf("%s %v: %d pixels differ from mali-g52 tiled", c.gpu, c.mode, n)
		}
	}
	compared, exact, worst := 0, 0, 0
	for y := 1; y < h-1; y++ {
		for x := 0; x < w; x++ {
			if !hits[y*w+x] || !hits[(y-1)*w+x] || !hits[(y+1)*w+x] {
				continue
			}
			got := first.Image.NRGBAAt(x, y)
			ref := want[y*w+x]
			diff := 0
			for c, g := range []uint8{got.R, got.G, got.B, got.A} {
				diff = max(diff, int(math.Abs(float64(int(g)-int(ref[c])))))
			}
			compared++
			if diff == 0 {
				exact++
			}
			worst = max(worst, diff)
			if diff > 2 {
				t.Errorf("pixel (%d,%d) = %v, reference %v", x, y, got, ref)
			}
		}
	}
	if compared < w*h/3 {
		t.Errorf("only %d pixels compared", compared)
	}
	t.Logf("%d floor pixels compared: %d exact, the largest difference %d/255", compared, exact, worst)
	st := first.Stats
	if st.TexSamplesTrilinear == 0 || st.TexSamplesMinified == 0 || st.TexLodAvg < 1 {
		t.Errorf("a receding floor: %d samples minified, %d trilinear, mean level %.2f", st.TexSamplesMinified, st.TexSamplesTrilinear, st.TexLodAvg)
	}
}

// Mipmaps exist to cut the traffic of a minified texture: the same floor
// sampled at level 0 only (glTF's LINEAR minification, no mipmaps) reads
// texels spread over the whole texture for each distant quad, so its
// texture-cache misses and texture DRAM bytes are several times those of
// the mipmapped floor, whose distant quads read small levels.
func TestMipmapsCutMinifiedTextureTraffic(t *testing.T) {
	const w, h = 192, 108
	for _, g := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		on := render(t, gpu(t, g), floorScene(scene.Sampler{}), Options{Width: w, Height: h}, 1)[0].Stats
		off := render(t, gpu(t, g), floorScene(scene.Sampler{Mipmap: scene.MipNone}), Options{Width: w, Height: h}, 1)[0].Stats
		t.Logf("%s: texture DRAM %d B with mipmaps, %d B level 0 only; texture cache misses %d vs %d, hit rate %.1f%% vs %.1f%%; mean level %.2f vs %.2f",
			g, on.DRAMRead.Texture, off.DRAMRead.Texture, on.TexCacheMisses, off.TexCacheMisses, 100*on.TexCacheHitRate, 100*off.TexCacheHitRate, on.TexLodAvg, off.TexLodAvg)
		if on.TextureSamples != off.TextureSamples {
			t.Errorf("%s: %d samples with mipmaps, %d without", g, on.TextureSamples, off.TextureSamples)
		}
		if 2*on.DRAMRead.Texture > off.DRAMRead.Texture {
			t.Errorf("%s: texture DRAM bytes %d with mipmaps, %d level 0 only: want less than half", g, on.DRAMRead.Texture, off.DRAMRead.Texture)
		}
		if on.TexCacheMisses >= off.TexCacheMisses {
			t.Errorf("%s: texture cache misses %d with mipmaps, %d level 0 only", g, on.TexCacheMisses, off.TexCacheMisses)
		}
		if off.TexLodAvg != 0 || off.TexSamplesTrilinear != 0 {
			t.Errorf("%s: level 0 only read mean level %.2f, %d trilinear samples", g, off.TexLodAvg, off.TexSamplesTrilinear)
		}
	}
}

// glTF's minFilter values map onto the sampler's minification filter and
// mipmap mode, and the sampler word the executor gets says the same.
func TestSamplerBits(t *testing.T) {
	for _, c := range []struct {
		s    scene.Sampler
		want string
	}{
		{scene.Sampler{}, "{Addressing:3 Normalized:true MagFilter:1 MinFilter:1 MipmapLinear:true MinLod:0 MaxLod:15.99609375}"},
		{scene.Sampler{Filter: scene.Nearest, MinFilter: scene.Nearest, Mipmap: scene.MipNearest, Wrap: scene.ClampToEdge},
			"{Addressing:1 Normalized:true MagFilter:0 MinFilter:0 MipmapLinear:false MinLod:0 MaxLod:15.99609375}"},
		{scene.Sampler{Mipmap: scene.MipNone, Wrap: scene.MirroredRepeat}, "{Addressing:4 Normalized:true MagFilter:1 MinFilter:1 MipmapLinear:false MinLod:0 MaxLod:0.25}"},
	} {
		if got := fmt.Sprintf("%+v", ir.DecodeSamplerState(samplerBits(c.s))); got != c.want {
			t.Errorf("%+v: %s, want %s", c.s, got, c.want)
		}
	}
}
