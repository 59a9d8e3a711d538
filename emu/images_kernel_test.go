package emu

import (
	"errors"
	"strings"
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

// Sampling with each addressing mode, normalized and unnormalized
// coordinates, nearest and linear filtering, on a 4x2 float image whose
// texel (x, y) is (x, y, 10x+y, 1).
func TestSamplers(t *testing.T) {
	mem := NewMemory()
	img := newTestImage(mem, spirv.Dim2D, 4, 2, 1, ChanF32, false)
	tex := func(x, y int) [4]float32 { return [4]float32{float32(x), float32(y), float32(10*x + y), 1} }
	for y := 0; y < 2; y++ {
		for x := 0; x < 4; x++ {
			v := tex(x, y)
			img.WriteTexel(x, y, 0, [4]float64{float64(v[0]), float64(v[1]), float64(v[2]), float64(v[3])})
		}
	}
	for _, c := range []struct {
		name    string
		sampler uint32 // CLK_NORMALIZED_COORDS_TRUE 1, ADDRESS_CLAMP_TO_EDGE 2, CLAMP 4, REPEAT 6, MIRRORED 8, FILTER_NEAREST 0x10, LINEAR 0x20
		x, y    float32
		want    [4]float32
	}{
		{"normalized repeat", 0x17, 1.25, 0.75, tex(1, 1)},
		{"normalized repeat negative", 0x17, -0.25, 0.25, tex(3, 0)},
		{"normalized mirrored repeat", 0x19, 1.25, 0.25, tex(3, 0)},
		{"clamp to edge", 0x12, 9, -3, tex(3, 0)},
		{"clamp to the border", 0x14, -1, 0.5, [4]float32{}},
		{"no addressing", 0x10, 1.5, 1.5, tex(1, 1)},
		{"normalized clamp to edge", 0x13, 0.6, 0.9, tex(2, 1)},
		// Linear: the four texels around (x - 0.5, y - 0.5), weighted.
		{"linear between two texels", 0x22, 1, 0.5, [4]float32{0.5, 0, 5, 1}},
		{"linear at a texel centre", 0x22, 2.5, 1.5, tex(2, 1)},
		{"linear into the border", 0x24, 0.5, 0, [4]float32{0, 0, 0, 0.5}},
	} {
		out := &kbuf{data: make([]byte, 16)}
		klaunch{file: "images.spv", entry: "sample", global: [3]int{1, 1, 1}, local: [3]int{1, 1, 1}, mem: mem,
			args: []any{img, ksampler(c.sampler), &kbuf{data: lef32(c.x, c.y)}, out}}.mustRun(t)
		for k := 0; k < 4; k++ {
			if got := atf32(out.data, k); got != c.want[k] {
				t.Errorf("%s at (%v, %v): channel %d = %v, want %v", c.name, c.x, c.y, k, got, c.want[k])
			}
		}
	}
}

// 3D images read at integer coordinates, 2D array images by layer, and
// the dimension, depth and array-size queries.
func TestVolumeAndArrayImages(t *testing.T) {
	mem := NewMemory()
	vol := newTestImage(mem, spirv.Dim3D, 2, 2, 2, ChanF32, false)
	arr := newTestImage(mem, spirv.Dim2D, 2, 1, 3, ChanF32, true)
	for z := 0; z < 2; z++ {
		for y := 0; y < 2; y++ {
			for x := 0; x < 2; x++ {
				vol.WriteTexel(x, y, z, [4]float64{float64(x), float64(y), float64(z), 100})
			}
		}
	}
	for l := 0; l < 3; l++ {
		for x := 0; x < 2; x++ {
			arr.WriteTexel(x, 0, l, [4]float64{float64(l), float64(x), -1, 200})
		}
	}
	out, q := &kbuf{data: make([]byte, 8*16)}, &kbuf{data: make([]byte, 5*4)}
	klaunch{file: "images.spv", entry: "volume", global: [3]int{3, 1, 1}, local: [3]int{3, 1, 1}, mem: mem,
		args: []any{vol, arr, out, q}}.mustRun(t)
	for i := 0; i < 3; i++ {
		wv := []float32{float32(i % 2), float32(i / 2 % 2), float32(i / 4), 100}
		wa := []float32{float32(i), float32(i % 2), -1, 200}
		for k := 0; k < 4; k++ {
			if got := atf32(out.data, 8*i+k); got != wv[k] {
				t.Errorf("3D read %d channel %d = %v, want %v", i, k, got, wv[k])
			}
			if got := atf32(out.data, 8*i+4+k); got != wa[k] {
				t.Errorf("array read %d channel %d = %v, want %v", i, k, got, wa[k])
			}
		}
	}
	for k, want := range []int32{2, 2, 2, 2, 3} {
		if got := at32(q.data, k); got != want {
			t.Errorf("query %d = %d, want %d", k, got, want)
		}
	}
}

// A write outside the image is a GPU fault naming the coordinates and the
// image's size.
func TestImageWriteOutsideFaults(t *testing.T) {
	mem := NewMemory()
	img := newTestImage(mem, spirv.Dim2D, 4, 1, 1, ChanF32, false)
	_, err := klaunch{file: "images.spv", entry: "outside", global: [3]int{1, 1, 1}, local: [3]int{1, 1, 1}, mem: mem,
		args: []any{img, kval(le32(5))}}.run(t)
	var f *Fault
	if !errors.As(err, &f) || !f.Write || !strings.Contains(err.Error(), "image write at (5,0,0) outside a 4x1x1 image") {
		t.Errorf("write at x = 5: %v", err)
	}
}
