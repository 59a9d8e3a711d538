package emu

// Mipmapped sampling and fragment-quad derivatives, on GLSL fragment
// shaders (testdata/frag) and an OpenCL 2.0 kernel (testdata/cl20) run
// through Load and a Dispatch as gfx runs them: quads in lanes 4k..4k+3
// (top-left, top-right, bottom-left, bottom-right).
//
// The reference is written here from the Vulkan rules, not from the
// executor's helpers: the test texture's texel (x, y) of level L is
// (x, y, L, width of L), a linear function of the position, so a bilinear
// sample at normalised (u, v) with clamp-to-edge is exactly
// (clamp(u·w − 0.5, 0, w − 1), clamp(v·h − 0.5, 0, h − 1), L, w), a nearest
// one the texel u·w falls in, and a blend of two levels shows its level
// weight in the third channel. Inputs are chosen so the arithmetic is
// exact (dyadic coordinates, LODs whose blend weights are dyadic), and
// results are compared exactly.
//
//go:generate sh -c "for f in testdata/frag/*.frag; do glslangValidator -V --target-env vulkan1.1 -o $DOLLAR{f}.spv $DOLLAR{f} >/dev/null || exit 1; done"
//go:generate go run ../cmd/pocketgpu compile testdata/cl20/mip.cl --clang-flag=-cl-std=CL2.0 -o testdata/cl20/mip.spv

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// mipSizes are the test texture's levels: a full chain of 16×8.
var mipSizes = [][2]int{{16, 8}, {8, 4}, {4, 2}, {2, 1}, {1, 1}}

// newMipImage builds the test texture by hand, its levels deliberately
// out of order in the buffer with gaps between them (level 0 first, as the
// executor requires; then 3, 1, 4, 2), so that sampling must follow each
// level's own offset and pitch.
func newMipImage(mem *Memory) *Image {
	const tb = 16 // RGBA float32
	order := []int{0, 3, 1, 4, 2}
	offsets := make([]int, len(mipSizes))
	pitch := make([]int, len(mipSizes))
	end := 0
	for _, l := range order {
		s := mipSizes[l]
		pitch[l] = s[0]*tb + 32 // 32 bytes of padding per row
		offsets[l] = end
		end += pitch[l]*s[1] + 48 // and 48 between levels
	}
	img := &Image{Dim: spirv.Dim2D, Width: 16, Height: 8, Depth: 1, Channels: 4, Type: ChanF32, RowPitch: pitch[0], SlicePitch: pitch[0] * 8}
	img.Buf = mem.Alloc(end, "mip", true)
	for l, s := range mipSizes {
		if l > 0 {
			img.Mips = append(img.Mips, Level{Width: s[0], Height: s[1], Depth: 1, Offset: offsets[l], RowPitch: pitch[l], SlicePitch: pitch[l] * s[1]})
		}
		for y := 0; y < s[1]; y++ {
			for x := 0; x < s[0]; x++ {
				o := offsets[l] + y*pitch[l] + x*tb
				for c, v := range []float32{float32(x), float32(y), float32(l), float32(s[0])} {
					binary.LittleEndian.PutUint32(img.Buf.Data[o+4*c:], math.Float32bits(v))
				}
			}
		}
	}
	return img
}

// refLevel is the reference sample of level l at (u, v): bilinear or
// nearest, clamp to edge, from the texture's formula.
func refLevel(l int, u, v float64, linear bool) [4]float64 {
	w, h := float64(mipSizes[l][0]), float64(mipSizes[l][1])
	if linear {
		return [4]float64{math.Min(math.Max(u*w-0.5, 0), w-1), math.Min(math.Max(v*h-0.5, 0), h-1), float64(l), w}
	}
	return [4]float64{math.Min(math.Max(math.Floor(u*w), 0), w-1), math.Min(math.Max(math.Floor(v*h), 0), h-1), float64(l), w}
}

// refBlend is (1 − δ)·level a + δ·level b.
func refBlend(a, b int, delta, u, v float64, linear bool) [4]float64 {
	x, y := refLevel(a, u, v, linear), refLevel(b, u, v, linear)
	var out [4]float64
	for c := range out {
		out[c] = (1-delta)*x[c] + delta*y[c]
	}
	return out
}

// fragRun is one warp of a fragment shader from testdata/frag over whole
// quads, with its inputs per lane (by name), its outputs, its trace and
// its texture counters.
type fragRun struct {
	prog    *Program
	out     map[string][][4]float32 // output name → per lane
	addrs   [][]uint64              // per texture instruction: its addresses
	tex     TexStats
	samples int
}

func runFrag(t *testing.T, file string, img *Image, sampler uint64, lanes int, in func(lane int, name string) []float32) *fragRun {
	t.Helper()
	r, err := runFragErr(t, file, img, sampler, lanes, in)
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return r
}

// runFragErr is runFrag returning the warp's fault.
func runFragErr(t *testing.T, file string, img *Image, sampler uint64, lanes int, in func(lane int, name string) []float32) (*fragRun, error) {
	t.Helper()
	p := loadKernel(t, "frag/"+file+".spv", "")
	if p.Model != spirv.ExecutionModelFragment {
		t.Fatalf("%s is a %s", file, p.Model)
	}
	d := &Dispatch{Prog: p, Mem: NewMemory(), Width: lanes, Dims: 1, Global: [3]int{lanes, 1, 1}, Local: [3]int{lanes, 1, 1}}
	for _, par := range p.Params {
		if par.Kind != ir.ParamImage {
			t.Fatalf("%s: parameter %s", file, par.Name)
		}
		d.Params = append(d.Params, ParamValue{Slots: []uint64{0, sampler}})
		d.Images = []*Image{img}
	}
	d.InitLane = func(w *Warp, lane int, frame []byte) {
		for _, v := range p.IO {
			if v.Output || v.IsBuiltin {
				continue
			}
			for k, x := range in(lane, v.Name) {
				binary.LittleEndian.PutUint32(frame[v.Offset+4*k:], math.Float32bits(x))
			}
		}
	}
	if err := d.Init(); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	wg := d.NewPartialWorkGroup(0, lanes)
	w := wg.Warps[0]
	var tr Trace
	w.Trace = &tr
	r := &fragRun{prog: p, out: map[string][][4]float32{}}
	for {
		st := w.Step()
		for _, a := range tr.Accesses {
			if a.Kind == AccessTexture {
				r.addrs = append(r.addrs, append([]uint64(nil), tr.Addrs[a.Start:a.Start+a.N]...))
			}
		}
		if st == Faulted {
			err := w.Err()
			d.Release(wg)
			return nil, err
		}
		if st == Done {
			break
		}
	}
	for _, v := range p.IO {
		if !v.Output {
			continue
		}
		for l := 0; l < lanes; l++ {
			var o [4]float32
			for k := 0; k < v.Type.Slots && k < 4; k++ {
				o[k] = math.Float32frombits(binary.LittleEndian.Uint32(w.Private(l)[v.Offset+4*k:]))
			}
			r.out[v.Name] = append(r.out[v.Name], o)
		}
	}
	r.tex = w.Tex
	d.Release(wg)
	return r, nil
}

func trilinear() ir.SamplerState {
	return ir.SamplerState{Addressing: addrClampToEdge, Normalized: true, MagFilter: filterLinear, MinFilter: filterLinear, MipmapLinear: true, MaxLod: ir.MaxSamplerLod}
}

// quadUV is a quad at (u0, v0) stepping du per pixel right and dv per
// pixel down: lane k of the quad gets (u0 + (k&1)·du, v0 + (k>>1)·dv).
func quadUV(u0, v0, du, dv float64) func(k int) [2]float64 {
	return func(k int) [2]float64 { return [2]float64{u0 + float64(k&1)*du, v0 + float64(k>>1)*dv} }
}

func checkSample(t *testing.T, what string, got [4]float32, want [4]float64) {
	t.Helper()
	for c := range want {
		if float64(got[c]) != want[c] {
			t.Errorf("%s = %v, want %v", what, got, want)
			return
		}
	}
}

// texture() picks the LOD from the quad's coarse derivatives of the
// coordinates: log2 of the largest of |du/dx|·w, |dv/dx|·h, |du/dy|·w,
// |dv/dy|·h (rho_x and rho_y each approximated by their largest
// component, which the Vulkan spec allows).
func TestImplicitLod(t *testing.T) {
	img := newMipImage(NewMemory())
	cases := []struct {
		name           string
		u0, v0, du, dv float64
		sampler        ir.SamplerState
		want           func(k int, uv [2]float64) [4]float64
	}{
		// 4 texels per pixel across (0.25 of 16), nothing down: LOD 2,
		// level 2 (4×2) alone. At level 2's texel centres the samples are
		// its texels: (0,0,2,4) and (1,0,2,4).
		{"4 texels per pixel picks level 2", 0.125, 0.25, 0.25, 0, trilinear(), func(k int, uv [2]float64) [4]float64 {
			return [4]float64{float64(k & 1), 0, 2, 4}
		}},
		// The larger of the two axes wins: 2 texels per pixel down (v steps
		// 0.25 of 8) and 1 across: LOD 1.
		{"the longer axis wins", 0.5, 0.25, 1.0 / 16, 0.25, trilinear(), func(k int, uv [2]float64) [4]float64 {
			return refLevel(1, uv[0], uv[1], true)
		}},
		// 64 texels per pixel: LOD 6, clamped to the last level (1×1).
		{"beyond the last level", 0.25, 0.5, 4, 0, trilinear(), func(k int, uv [2]float64) [4]float64 {
			return [4]float64{0, 0, 4, 1}
		}},
		// Half a texel per pixel: magnified (LOD −1), level 0 with the
		// magnification filter, here nearest while minification is linear.
		{"magnified uses the magnification filter", 0.40625, 0.3125, 1.0 / 32, 1.0 / 16,
			ir.SamplerState{Addressing: addrClampToEdge, Normalized: true, MagFilter: filterNearest, MinFilter: filterLinear, MipmapLinear: true, MaxLod: ir.MaxSamplerLod},
			func(k int, uv [2]float64) [4]float64 { return refLevel(0, uv[0], uv[1], false) }},
		// Two texels per pixel: minified (LOD 1), the minification filter
		// (linear) on level 1.
		{"minified uses the minification filter", 0.40625, 0.3125, 1.0 / 8, 0,
			ir.SamplerState{Addressing: addrClampToEdge, Normalized: true, MagFilter: filterNearest, MinFilter: filterLinear, MaxLod: ir.MaxSamplerLod},
			func(k int, uv [2]float64) [4]float64 { return refLevel(1, uv[0], uv[1], true) }},
		// The sampler's maxLod 1 clamps LOD 2 to level 1; its minLod 3
		// raises it to level 3.
		{"sampler maxLod", 0.125, 0.25, 0.25, 0, withLod(trilinear(), 0, 1), func(k int, uv [2]float64) [4]float64 {
			return refLevel(1, uv[0], uv[1], true)
		}},
		{"sampler minLod", 0.125, 0.25, 0.25, 0, withLod(trilinear(), 3, ir.MaxSamplerLod), func(k int, uv [2]float64) [4]float64 {
			return refLevel(3, uv[0], uv[1], true)
		}},
	}
	for _, c := range cases {
		at := quadUV(c.u0, c.v0, c.du, c.dv)
		r := runFrag(t, "mip.frag", img, c.sampler.Encode(), 8, func(lane int, name string) []float32 {
			if name == "uv" {
				uv := at(lane % 4)
				return []float32{float32(uv[0]), float32(uv[1])}
			}
			return make([]float32, 4)
		})
		for l := 0; l < 8; l++ {
			checkSample(t, c.name+": lane "+string(rune('0'+l)), r.out["implicitLod"][l], c.want(l%4, at(l%4)))
		}
	}
}

func withLod(s ir.SamplerState, lo, hi float64) ir.SamplerState {
	s.MinLod, s.MaxLod = lo, hi
	return s
}

// textureLod, texture with a bias, textureGrad and the queries, each lane
// of two quads with its own inputs.
func TestExplicitLodBiasGrad(t *testing.T) {
	img := newMipImage(NewMemory())
	type lane struct {
		lod, bias float32
		grads     [4]float32
	}
	// The quad steps 4 texels per pixel across (implicit LOD 2).
	at := quadUV(0.3125, 0.4375, 0.25, 0)
	lanes := []lane{
		{lod: 0, bias: -1, grads: [4]float32{1.0 / 16, 0, 0, 1.0 / 8}},       // LOD 1 (bias), grad LOD 0
		{lod: 1, bias: 0.5, grads: [4]float32{0.25, 0, 0, 1.0 / 16}},         // LOD 2.5 (blend), grad LOD 2 (ρx 4 > ρy 0.5)
		{lod: 1.25, bias: 1, grads: [4]float32{0, 1.0 / 16, 0.5, 0}},         // LOD 3; grad ρy = 8: LOD 3
		{lod: 2.5, bias: -2.75, grads: [4]float32{-1.0 / 8, 0, 0, -1.0 / 4}}, // LOD −0.75: magnified; grad ρ = 2: LOD 1
		{lod: 3.75, bias: 0, grads: [4]float32{}},                            // zero gradients: LOD −inf, level 0
		{lod: 9, bias: 0, grads: [4]float32{}},                               // LOD beyond the chain: last level
		{lod: -2, bias: 0, grads: [4]float32{}},
		{lod: 0.5, bias: 0, grads: [4]float32{}},
	}
	r := runFrag(t, "mip.frag", img, trilinear().Encode(), 8, func(l int, name string) []float32 {
		switch name {
		case "uv":
			uv := at(l % 4)
			return []float32{float32(uv[0]), float32(uv[1])}
		case "lodBias":
			return []float32{lanes[l].lod, lanes[l].bias}
		case "grads":
			return lanes[l].grads[:]
		}
		t.Fatalf("input %s", name)
		return nil
	})
	level := func(lam float64) (int, int, float64) {
		d := math.Min(math.Max(lam, 0), 4)
		hi := int(math.Floor(d))
		return hi, min(hi+1, 4), d - math.Floor(d)
	}
	gradLod := []float64{0, 2, 3, 1, math.Inf(-1), math.Inf(-1), math.Inf(-1), math.Inf(-1)}
	for l, ln := range lanes {
		uv := at(l % 4)
		name := "lane " + string(rune('0'+l))
		a, b, delta := level(float64(ln.lod))
		checkSample(t, name+" textureLod", r.out["explicitLod"][l], refBlend(a, b, delta, uv[0], uv[1], true))
		a, b, delta = level(2 + float64(ln.bias))
		checkSample(t, name+" texture with bias", r.out["biased"][l], refBlend(a, b, delta, uv[0], uv[1], true))
		a, b, delta = level(gradLod[l])
		checkSample(t, name+" textureGrad", r.out["gradient"][l], refBlend(a, b, delta, uv[0], uv[1], true))
		lod := min(max(int(ln.lod), 0), 4)
		wantSize := [2]float32{float32(mipSizes[lod][0]), float32(mipSizes[lod][1])}
		if got := r.out["levels"][l]; got[0] != 5 || got[1] != wantSize[0] || got[2] != wantSize[1] {
			t.Errorf("%s: textureQueryLevels, textureSize(lod %d) = %v, want 5 levels and %v", name, lod, got, wantSize)
		}
	}
	// Four sampling instructions over 8 lanes; textureLod's LODs 1.25,
	// 2.5, 3.75 and 0.5 (lanes 2, 3, 4, 7) and the bias to 2.5 (lane 1)
	// blend two levels.
	if r.tex.Samples != 32 || r.tex.TwoLevels != 5 {
		t.Errorf("texture counters %+v, want 32 samples of which 5 blend two levels", r.tex)
	}
}

// The level-selection corner cases: a nearest mipmap rounds d = 0.5 down
// (Vulkan's preferred ceil(d + 0.5) − 1), LOD 1.25 blends levels 1 and 2
// by a quarter, and the MinLod operand raises the floor.
func TestMipmapModes(t *testing.T) {
	img := newMipImage(NewMemory())
	nearest := trilinear()
	nearest.MipmapLinear = false
	uv := [2]float64{0.59375, 0.65625}
	lods := []float32{0.5, 0.5000001, 1.25, 1.5, 1.75, 2.5, 3.5, 4.5}
	want := []int{0, 1, 1, 1, 2, 2, 3, 4}
	r := runFrag(t, "mip.frag", img, nearest.Encode(), 8, func(l int, name string) []float32 {
		switch name {
		case "uv":
			return []float32{float32(uv[0]), float32(uv[1])}
		case "lodBias":
			return []float32{lods[l], 0}
		}
		return make([]float32, 4)
	})
	for l := range lods {
		checkSample(t, "nearest mipmap at LOD "+ftoa(lods[l]), r.out["explicitLod"][l], refLevel(want[l], uv[0], uv[1], true))
	}
	// The counters see the levels read: 14 for textureLod's lanes, 0 for
	// the other instructions (constant coordinates and zero gradients: LOD
	// −inf, level 0).
	if r.tex.LevelSum != 14 || r.tex.TwoLevels != 0 || r.tex.Minified != 8 {
		t.Errorf("nearest mipmap counters %+v, want levels summing to 14, none blended, 8 minified (every LOD above 0)", r.tex)
	}
	r = runFrag(t, "mip.frag", img, trilinear().Encode(), 8, func(l int, name string) []float32 {
		switch name {
		case "uv":
			return []float32{float32(uv[0]), float32(uv[1])}
		case "lodBias":
			return []float32{lods[l], 0}
		}
		return make([]float32, 4)
	})
	checkSample(t, "linear mipmap at LOD 1.25", r.out["explicitLod"][2], refBlend(1, 2, 0.25, uv[0], uv[1], true))
	// MinLod 2.5 raises the implicit LOD 1 of a quad stepping 2 texels.
	at := quadUV(0.3125, 0.4375, 1.0/8, 0)
	r = runFrag(t, "minlod.frag", img, trilinear().Encode(), 4, func(l int, name string) []float32 {
		if name == "uv" {
			p := at(l)
			return []float32{float32(p[0]), float32(p[1])}
		}
		return []float32{[]float32{0, 2.5, 0.5, 7}[l]}
	})
	for l, lo := range []float64{0, 2.5, 0.5, 7} {
		p := at(l)
		d := math.Min(math.Max(1, lo), 4)
		hi := int(d)
		checkSample(t, "MinLod "+ftoa(float32(lo)), r.out["clamped"][l], refBlend(hi, min(hi+1, 4), d-float64(hi), p[0], p[1], true))
	}
}

func ftoa(f float32) string { return strconv.FormatFloat(float64(f), 'g', -1, 32) }

// A trilinear sample reads eight texels, four in each of two levels, and
// they are in the trace; a level-0-only sampler reads four.
func TestTrilinearTrace(t *testing.T) {
	img := newMipImage(NewMemory())
	levelOf := func(a uint64) int {
		o := int(a - img.Buf.Base)
		if o < img.SlicePitch {
			return 0
		}
		for i, m := range img.Mips {
			if o >= m.Offset && o < m.Offset+m.SlicePitch {
				return i + 1
			}
		}
		return -1
	}
	// Explicit LOD 1.5 in every lane.
	r := runFrag(t, "mip.frag", img, trilinear().Encode(), 4, func(l int, name string) []float32 {
		switch name {
		case "uv":
			return []float32{0.5, 0.5}
		case "lodBias":
			return []float32{1.5, 0}
		}
		return make([]float32, 4)
	})
	if len(r.addrs) != 4 {
		t.Fatalf("%d texture accesses, want 4", len(r.addrs))
	}
	explicit := r.addrs[2] // implicit, biased, explicit, gradient
	perLevel := map[int]int{}
	for _, a := range explicit {
		perLevel[levelOf(a)]++
	}
	if len(explicit) != 32 || perLevel[1] != 16 || perLevel[2] != 16 {
		t.Errorf("textureLod 1.5 over 4 lanes touched %d texels by level %v, want 16 in level 1 and 16 in level 2", len(explicit), perLevel)
	}
	// Level 0 only (maxLod 0): four texels of level 0 per lane.
	r = runFrag(t, "mip.frag", img, withLod(trilinear(), 0, 0).Encode(), 4, func(l int, name string) []float32 {
		switch name {
		case "uv":
			return []float32{0.5, 0.5}
		case "lodBias":
			return []float32{1.5, 0}
		}
		return make([]float32, 4)
	})
	for _, a := range r.addrs[2] {
		if levelOf(a) != 0 {
			t.Fatalf("maxLod 0 read level %d", levelOf(a))
		}
	}
	if len(r.addrs[2]) != 16 {
		t.Errorf("maxLod 0: %d texels, want 16", len(r.addrs[2]))
	}
}

// dFdx, dFdy and fwidth, coarse and fine, across two quads whose values
// are not linear in the position, so that fine and coarse differ.
func TestFragmentDerivatives(t *testing.T) {
	// Quad values (TL, TR, BL, BR) of p = (x, y).
	quads := [][4][2]float32{
		{{1, 10}, {3, 11}, {2, 14}, {7, 19}},
		{{-1, 0.5}, {-1.5, 0.25}, {4, 0}, {0, -8}},
	}
	r := runFrag(t, "deriv.frag", nil, 0, 8, func(l int, name string) []float32 {
		p := quads[l/4][l%4]
		return []float32{p[0], p[1]}
	})
	for qi, q := range quads {
		sub := func(a, b int) [2]float32 { return [2]float32{q[b][0] - q[a][0], q[b][1] - q[a][1]} }
		cdx, cdy := sub(0, 1), sub(0, 2) // coarse: top row, left column
		for k := 0; k < 4; k++ {
			l := 4*qi + k
			row, col := k>>1, k&1
			fdx, fdy := sub(2*row, 2*row+1), sub(col, col+2)
			abs := func(x float32) float32 { return float32(math.Abs(float64(x))) }
			check := func(what string, got [4]float32, want [4]float32) {
				if got != want {
					t.Errorf("quad %d lane %d %s = %v, want %v", qi, k, what, got, want)
				}
			}
			check("dFdx, dFdy (coarse)", r.out["d"][l], [4]float32{cdx[0], cdx[1], cdy[0], cdy[1]})
			check("fine", r.out["fine"][l], [4]float32{fdx[0], fdx[1], fdy[0], fdy[1]})
			check("coarse", r.out["coarse"][l], [4]float32{cdx[0], cdx[1], cdy[0], cdy[1]})
			prod := func(i int) float32 { return q[i][0] * q[i][1] }
			check("fwidth", r.out["widths"][l], [4]float32{abs(cdx[0]) + abs(cdy[0]), abs(fdx[0]) + abs(fdy[0]), abs(cdx[0]) + abs(cdy[0]), prod(1) - prod(0)})
		}
	}
	// Spelled out for the first quad: fine dFdx of the bottom row is
	// 7 − 2 = 5, fine dFdy of the right column 19 − 11 = 8, fwidthFine at
	// the bottom-right |5| + |4| = 9.
	if r.out["fine"][3] != [4]float32{5, 5, 4, 8} || r.out["widths"][3][1] != 9 {
		t.Errorf("bottom-right fine %v, fwidthFine %v", r.out["fine"][3], r.out["widths"][3][1])
	}
}

// OpenCL 2.0's read_imagef with a LOD or gradients (cl_khr_mipmap_image)
// on a mipmapped image: a sampler from CLK_* bits has OpenCL's mipmap
// defaults, nearest mipmap and no LOD clamp.
func TestOpenCLMipmapRead(t *testing.T) {
	mem := NewMemory()
	img := newMipImage(mem)
	const clk = 0x23 // normalized, clamp to edge, linear
	in := []float32{0.3125, 0.5625, 1.25, 0, 0.3125, 0.5625, 1.75, 0, 0.5, 0.5, 7, 0, 0.5, 0.5, -3, 0}
	out := &kbuf{data: make([]byte, 16*4)}
	klaunch{file: "cl20/mip.spv", entry: "lod", global: [3]int{4, 1, 1}, local: [3]int{4, 1, 1}, mem: mem,
		args: []any{img, ksampler(clk), &kbuf{data: lef32(in...)}, out}}.mustRun(t)
	for i, lv := range []int{1, 2, 4, 0} {
		var got [4]float32
		for c := range got {
			got[c] = atf32(out.data, 4*i+c)
		}
		checkSample(t, "read_imagef with LOD "+ftoa(in[4*i+2]), got, refLevel(lv, float64(in[4*i]), float64(in[4*i+1]), true))
	}
	// Gradients: ρ = max(0.25·16, 0.125·8) = 4: level 2.
	g := []float32{0.3125, 0.5625, 0.25, 0, 0, 0.125}
	out = &kbuf{data: make([]byte, 16)}
	klaunch{file: "cl20/mip.spv", entry: "grad", global: [3]int{1, 1, 1}, local: [3]int{1, 1, 1}, mem: mem,
		args: []any{img, ksampler(clk), &kbuf{data: lef32(g...)}, out}}.mustRun(t)
	checkSample(t, "read_imagef with gradients", [4]float32{atf32(out.data, 0), atf32(out.data, 1), atf32(out.data, 2), atf32(out.data, 3)},
		refLevel(2, float64(g[0]), float64(g[1]), true))
}

// texelFetch reads a level's own texel grid; a level the image does not
// have stops the warp with an error naming it, not a crash.
func TestFetchLevels(t *testing.T) {
	img := newMipImage(NewMemory())
	texels := [][3]float32{{5, 3, 0}, {7, 3, 1}, {1, 1, 2}, {0, 0, 4}}
	r := runFrag(t, "fetch.frag", img, trilinear().Encode(), 4, func(l int, name string) []float32 {
		if name == "texel" {
			return texels[l][:2]
		}
		return texels[l][2:]
	})
	for l, tx := range texels {
		lv := int(tx[2])
		want := [4]float64{float64(tx[0]), float64(tx[1]), float64(lv), float64(mipSizes[lv][0])}
		checkSample(t, "texelFetch level "+strconv.Itoa(lv), r.out["fetched"][l], want)
	}
	for _, bad := range []float32{5, -1} {
		_, err := runFragErr(t, "fetch.frag", img, trilinear().Encode(), 4, func(l int, name string) []float32 {
			if name == "texel" {
				return []float32{0, 0}
			}
			return []float32{bad}
		})
		if err == nil || !strings.Contains(err.Error(), "mip level "+ftoa(bad)+" of an image with 5 levels") {
			t.Errorf("texelFetch at level %v: %v", bad, err)
		}
	}
}

// MipChain lays the levels out after level 0, packed; Check refuses
// levels that do not fit the buffer, and Init refuses such an image.
func TestMipChainAndCheck(t *testing.T) {
	mem := NewMemory()
	img := &Image{Dim: spirv.Dim2D, Width: 5, Height: 3, Depth: 1, Channels: 4, Type: ChanUNorm8, RowPitch: 20, SlicePitch: 60}
	levels, size := MipChain(img)
	want := []Level{{2, 1, 1, 60, 8, 8}, {1, 1, 1, 68, 4, 4}}
	if len(levels) != len(want) || size != 72 {
		t.Fatalf("chain of 5x3: %+v, %d bytes", levels, size)
	}
	for i := range want {
		if levels[i] != want[i] {
			t.Errorf("level %d: %+v, want %+v", i+1, levels[i], want[i])
		}
	}
	img.Mips = levels
	img.Buf = mem.Alloc(size, "chain", true)
	if err := img.Check(); err != nil {
		t.Errorf("a laid-out chain: %v", err)
	}
	img.Buf = mem.Alloc(size-1, "short", true)
	if err := img.Check(); err == nil || !strings.Contains(err.Error(), "mip level 2") {
		t.Errorf("a chain one byte short: %v", err)
	}
	img.Buf = mem.Alloc(size, "chain", true)
	img.Mips = append(img.Mips, Level{Width: 0, Height: 1})
	if err := img.Check(); err == nil || !strings.Contains(err.Error(), "mip level 3") {
		t.Errorf("an empty level: %v", err)
	}
	p := loadKernel(t, "frag/mip.frag.spv", "")
	d := &Dispatch{Prog: p, Mem: mem, Width: 4, Global: [3]int{4, 1, 1}, Local: [3]int{4, 1, 1},
		Params: []ParamValue{{Slots: []uint64{0, trilinear().Encode()}}}, Images: []*Image{img}}
	if err := d.Init(); err == nil || !strings.Contains(err.Error(), "image 0") {
		t.Errorf("Init with a bad image: %v", err)
	}
	// A 3D chain halves the depth; an array keeps its layers.
	vol := &Image{Dim: spirv.Dim3D, Width: 4, Height: 4, Depth: 2, Channels: 1, Type: ChanU8, RowPitch: 4, SlicePitch: 16}
	if l, n := MipChain(vol); len(l) != 2 || l[0].Depth != 1 || l[1].Offset != 36 || n != 37 {
		t.Errorf("3D chain %+v, %d bytes", l, n)
	}
	arr := &Image{Dim: spirv.Dim2D, Arrayed: true, Width: 4, Height: 2, Depth: 3, Channels: 1, Type: ChanU8, RowPitch: 4, SlicePitch: 8}
	if l, n := MipChain(arr); len(l) != 2 || l[0].Depth != 3 || l[0].Offset != 24 || l[1].Offset != 24+6 || n != 33 {
		t.Errorf("array chain %+v, %d bytes", l, n)
	}
}

// The sampler word keeps what each field holds, and the OpenCL encoding
// (EncodeSampler) decodes to one filter for both and no LOD clamp.
func TestSamplerStateRoundTrip(t *testing.T) {
	for _, s := range []ir.SamplerState{
		trilinear(),
		{Addressing: addrRepeat, Normalized: true, MagFilter: filterLinear, MinFilter: filterNearest, MinLod: 0.25, MaxLod: 3.5},
		{Addressing: addrMirrored, MagFilter: filterNearest, MinFilter: filterLinear, MipmapLinear: true, MinLod: 15, MaxLod: 15.5},
	} {
		if got := ir.DecodeSamplerState(s.Encode()); got != s {
			t.Errorf("round trip of %+v: %+v", s, got)
		}
	}
	s := ir.DecodeSamplerState(ir.EncodeSampler(addrClamp, true, filterLinear))
	if s.MinFilter != filterLinear || s.MagFilter != filterLinear || s.MipmapLinear || s.MinLod != 0 || s.MaxLod != ir.MaxSamplerLod {
		t.Errorf("OpenCL sampler decodes as %+v", s)
	}
}
