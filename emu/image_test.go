package emu

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// Arrays: the layer is the coordinate after the spatial ones, rounded and
// clamped; get_image_array_size sees the layer count.
func TestImageArrays(t *testing.T) {
	m := NewMemory()
	img := &Image{Dim: spirv.Dim1D, Width: 2, Height: 1, Depth: 3, Channels: 1, Type: ChanU8, Arrayed: true, RowPitch: 2, SlicePitch: 2}
	img.Buf = m.Alloc(6, "arr", false)
	copy(img.Buf.Data, []byte{1, 2, 3, 4, 5, 6})
	if img.querySize(0) != 2 || img.querySize(1) != 3 {
		t.Errorf("1D array sizes %d %d", img.querySize(0), img.querySize(1))
	}
	for _, c := range []struct {
		coord float64
		float bool
		want  int
	}{{1.5, true, 2}, {2.5, true, 2}, {-4, true, 0}, {9, false, 2}, {1, false, 1}} {
		if got := img.layer(c.coord, c.float); got != c.want {
			t.Errorf("layer(%v, %v) = %d, want %d", c.coord, c.float, got, c.want)
		}
	}
	if v := img.texel(1, 0, 2); v[0] != 6 {
		t.Errorf("texel 1 of layer 2 = %v", v)
	}
	img.Dim, img.Height, img.RowPitch, img.SlicePitch = spirv.Dim2D, 1, 2, 2
	if img.querySize(2) != 3 {
		t.Errorf("2D array layers %d", img.querySize(2))
	}
}

// BGRA swaps storage order both ways; integer writes saturate; borders
// have alpha 1 only without an alpha channel.
func TestImageConversions(t *testing.T) {
	m := NewMemory()
	img := &Image{Dim: spirv.Dim2D, Width: 1, Height: 1, Depth: 1, Channels: 4, Type: ChanUNorm8, BGRA: true, RowPitch: 4, SlicePitch: 4}
	img.Buf = m.Alloc(4, "bgra", false)
	img.WriteTexel(0, 0, 0, [4]float64{1, 0, 0, 1})
	if d := img.Buf.Data; d[0] != 0 || d[2] != 255 {
		t.Errorf("red in BGRA stored as %v", d)
	}
	if v := img.Texel(0, 0, 0); v != [4]float64{1, 0, 0, 1} {
		t.Errorf("read back %v", v)
	}
	if img.border() != [4]float64{} {
		t.Errorf("RGBA border %v", img.border())
	}
	s := &Image{Dim: spirv.Dim1D, Width: 1, Height: 1, Depth: 1, Channels: 2, Type: ChanS8, RowPitch: 2, SlicePitch: 2}
	s.Buf = m.Alloc(2, "s8", false)
	s.WriteTexel(0, 0, 0, [4]float64{300, -300})
	if v := s.Texel(0, 0, 0); v[0] != 127 || v[1] != -128 {
		t.Errorf("saturated writes read %v", v)
	}
	if s.border() != [4]float64{0, 0, 0, 1} {
		t.Errorf("RG border %v", s.border())
	}
	n := &Image{Dim: spirv.Dim1D, Width: 1, Height: 1, Depth: 1, Channels: 1, Type: ChanSNorm16, RowPitch: 2, SlicePitch: 2}
	n.Buf = m.Alloc(2, "sn16", false)
	n.WriteTexel(0, 0, 0, [4]float64{-0.5})
	if v := n.Texel(0, 0, 0); v[0] > -0.49 || v[0] < -0.51 {
		t.Errorf("snorm16 -0.5 read %v", v[0])
	}
}

// Repeat and mirrored repeat wrap normalized coordinates by OpenCL's
// formulas; linear filtering in 3D weighs eight texels.
func TestImageNormalizedWrapAndTrilinear(t *testing.T) {
	for _, c := range []struct {
		s          float64
		mode, want int
	}{{-0.25, addrMirrored, 1}, {1.1, addrMirrored, 3}, {0.99, addrMirrored, 3}, {-0.25, addrRepeat, 3}, {1.3, addrRepeat, 1}} {
		if got := wrapNormalized(c.s, 4, c.mode); got != c.want {
			t.Errorf("wrapNormalized(%v, 4, %d) = %d, want %d", c.s, c.mode, got, c.want)
		}
	}
	m := NewMemory()
	img := &Image{Dim: spirv.Dim3D, Width: 2, Height: 2, Depth: 2, Channels: 1, Type: ChanF32, RowPitch: 8, SlicePitch: 16}
	img.Buf = m.Alloc(32, "3d", false)
	img.WriteTexel(1, 1, 1, [4]float64{8})
	v, addrs := sampleLinearAt(img, [3]float64{1, 1, 1}, 3, addrClampToEdge, false, 0, nil)
	if v[0] != 1 || len(addrs) != 8 {
		t.Errorf("trilinear centre = %v from %d texels, want 1 from 8", v[0], len(addrs))
	}
}
