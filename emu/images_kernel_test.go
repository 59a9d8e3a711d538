package emu

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/spirv"
)

func newTestImage(mem *Memory, dim spirv.Dim, w, h, d int, ct ChannelType, arrayed bool) *Image {
	img := &Image{Dim: dim, Width: w, Height: h, Depth: d, Channels: 4, Type: ct, Arrayed: arrayed}
	img.RowPitch = w * img.TexelBytes()
	img.SlicePitch = img.RowPitch * h
	img.Buf = mem.Alloc(img.SlicePitch*d, "image", false)
	return img
}

// write_imagei's int4 reaches the executor tagged unsigned (OpenCL
// integers are signless in SPIR-V): negative components were written as
// large positive ones and saturated to the type's maximum. They are read
// signed for signed channel types and saturate at both ends.
func TestWriteImageSigned(t *testing.T) {
	for _, c := range []struct {
		ct     ChannelType
		lo, hi float64
	}{{ChanS8, -128, 127}, {ChanS16, -32768, 32767}, {ChanS32, -2147483648, 2147483647}} {
		mem := NewMemory()
		img := newTestImage(mem, spirv.Dim2D, 2, 2, 1, c.ct, false)
		vals := []int32{-1, -129, 200, 0, -40000, 40000, 7, -7, -2147483648, 2147483647, 1, 2, -5, 5, -100, 100}
		klaunch{file: "images.spv", entry: "iwrite", global: [3]int{2, 2, 1}, local: [3]int{2, 1, 1}, mem: mem,
			args: []any{img, &kbuf{data: le32(vals...)}}}.mustRun(t)
		for i := 0; i < 4; i++ {
			got := img.Texel(i%2, i/2, 0)
			for k := 0; k < 4; k++ {
				want := min(max(float64(vals[4*i+k]), c.lo), c.hi)
				if got[k] != want {
					t.Errorf("type %d texel %d channel %d = %v, want %v", c.ct, i, k, got[k], want)
				}
			}
		}
	}
}
