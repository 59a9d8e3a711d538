package ir_test

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/spirv"
)

func newImage(mem *emu.Memory, dim spirv.Dim, w, h int, ct emu.ChannelType) *emu.Image {
	img := &emu.Image{Dim: dim, Width: w, Height: h, Depth: 1, Channels: 4, Type: ct}
	img.RowPitch = w * img.TexelBytes()
	img.SlicePitch = img.RowPitch * h
	img.Buf = mem.Alloc(img.SlicePitch, "image", false)
	return img
}

// Image reads through a literal sampler (OpConstantSampler) and an
// argument sampler (clamp to a border), sampler-less reads, writes of
// float, int and uint texels with the channel type's saturation, and the
// size queries.
func TestImages(t *testing.T) {
	for _, file := range both("images") {
		mem := emu.NewMemory()
		const w, h = 4, 3
		src, dst := newImage(mem, spirv.Dim2D, w, h, emu.ChanF32), newImage(mem, spirv.Dim2D, w, h, emu.ChanF32)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				src.WriteTexel(x, y, 0, [4]float64{float64(x), float64(y), float64(x * y), 1})
			}
		}
		dims := zeros(16)
		launch{file: file, entry: "fcopy", global: [3]int{w, h, 1}, local: [3]int{2, 1, 1}, mem: mem,
			args: []any{src, dst, sampler(0x14), dims}}.mustRun(t)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				a := src.Texel(x, y, 0)
				var b [4]float64 // CLK_ADDRESS_CLAMP: the border is 0 for RGBA
				if x+1 < w {
					b = src.Texel(x+1, y, 0)
				}
				got := dst.Texel(x, y, 0)
				for c := range got {
					if got[c] != a[c]+2*b[c] {
						t.Errorf("%s fcopy (%d,%d) channel %d = %v, want %v", file, x, y, c, got[c], a[c]+2*b[c])
					}
				}
			}
		}
		for k, want := range []int32{w, h, w, h} {
			if got := getI32(dims.data, k); got != want {
				t.Errorf("%s size query %d = %d, want %d", file, k, got, want)
			}
		}

		isrc, idst := newImage(mem, spirv.Dim2D, w, h, emu.ChanS16), newImage(mem, spirv.Dim2D, w, h, emu.ChanS16)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				isrc.WriteTexel(x, y, 0, [4]float64{float64(x*100 - 150), float64(-32768 + x), float64(y * 1000), 32767})
			}
		}
		launch{file: file, entry: "icopy", global: [3]int{w, h, 1}, local: [3]int{2, 1, 1}, mem: mem,
			args: []any{isrc, idst}}.mustRun(t)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				v := isrc.Texel(x, y, 0)
				got := idst.Texel(x, y, 0)
				for c, d := range []float64{100, 200, 300, 400} {
					want := min(max(v[c]-d, -32768), 32767)
					if got[c] != want {
						t.Errorf("%s write_imagei (%d,%d) channel %d = %v, want %v - %v = %v", file, x, y, c, got[c], v[c], d, want)
					}
				}
			}
		}

		usrc, udst := newImage(mem, spirv.Dim1D, 8, 1, emu.ChanU8), newImage(mem, spirv.Dim1D, 8, 1, emu.ChanU8)
		for x := 0; x < 8; x++ {
			usrc.WriteTexel(x, 0, 0, [4]float64{float64(x), float64(100 + x*20), 255, 0})
		}
		out := zeros(16 * 8)
		launch{file: file, entry: "ucopy", global: [3]int{8, 1, 1}, local: [3]int{4, 1, 1}, mem: mem,
			args: []any{usrc, udst, out}}.mustRun(t)
		for x := 0; x < 8; x++ {
			v := usrc.Texel(x, 0, 0)
			got := udst.Texel(x, 0, 0)
			for c := 0; c < 4; c++ {
				if r := getU32(out.data, 4*x+c); float64(r) != v[c] {
					t.Errorf("%s read_imageui %d channel %d = %d, want %v", file, x, c, r, v[c])
				}
				if want := min(2*v[c]+float64(x), 255); got[c] != want {
					t.Errorf("%s write_imageui %d channel %d = %v, want %v", file, x, c, got[c], want)
				}
			}
		}
	}
}
