package opencl

import (
	"encoding/binary"
	"math"
	"testing"
)

// Formats: impossible combinations, possible ones pocketgpu lacks, and
// sizes over the limits the device reports.
func TestImageFormatsAndLimits(t *testing.T) {
	ctx, _, _ := memContext(t)
	d2 := ImageDesc{Type: MemObjectImage2D, Width: 4, Height: 4}
	for _, c := range []struct {
		f    ImageFormat
		d    ImageDesc
		want Status
	}{
		{ImageFormat{ChanRGBA, Float}, d2, Success},
		{ImageFormat{ChanRGB, UNormShort}, d2, ImageFormatNotSupported},
		{ImageFormat{ChanRGB, Float}, d2, InvalidImageFormatDescriptr},
		{ImageFormat{ChanBGRA, Float}, d2, InvalidImageFormatDescriptr},
		{ImageFormat{ChanRGBA, Float}, ImageDesc{Type: MemObjectImage2D, Width: image2DMaxSide + 1, Height: 1}, InvalidImageSize},
		{ImageFormat{ChanRGBA, Float}, ImageDesc{Type: MemObjectImage3D, Width: 2, Height: 2, Depth: image3DMaxSide + 1}, InvalidImageSize},
		{ImageFormat{ChanRGBA, Float}, ImageDesc{Type: MemObjectImage2DArray, Width: 2, Height: 2, Array: imageMaxArray + 1}, InvalidImageSize},
		{ImageFormat{ChanRGBA, Float}, ImageDesc{Type: MemObjectImage2D, Width: 4, Height: 4, RowPitch: 64}, InvalidImageDescriptor},
		{ImageFormat{ChanRGBA, Float}, ImageDesc{Type: MemObjectBuffer, Width: 4}, InvalidImageDescriptor},
	} {
		_, err := ctx.NewImage(0, c.f, c.d, nil)
		wantStatus(t, "image", err, c.want)
	}
	dev := ctx.Devices[0]
	for param, want := range map[uint32]int{0x1011: image2DMaxSide, 0x1013: image3DMaxSide, 0x1040: dev.GPU.ImageMaxBufferTexels(), 0x1041: imageMaxArray} {
		b, _ := dev.DeviceInfo(param, 0)
		if got := int(binary.LittleEndian.Uint64(b)); got != want {
			t.Errorf("device info %#x = %d, images are checked against %d", param, got, want)
		}
	}
}

// Host pitches: a USE_HOST_PTR image keeps the host's, others are tight;
// fills convert the colour like write_image, BGRA swapped.
func TestImagePitchesAndFill(t *testing.T) {
	ctx, q, _ := memContext(t)
	host := make([]byte, 3*40)
	img, err := ctx.NewImage(MemUseHostPtr, ImageFormat{ChanBGRA, UNormInt8}, ImageDesc{Type: MemObjectImage2D, Width: 5, Height: 3, RowPitch: 40}, host)
	wantStatus(t, "use host ptr image", err, Success)
	if img.Desc.RowPitch != 40 || img.Bytes() != 120 {
		t.Errorf("row pitch %d, %d bytes", img.Desc.RowPitch, img.Bytes())
	}
	color := make([]byte, 16)
	for i, v := range []float32{1, 0.5, 0, 1} {
		binary.LittleEndian.PutUint32(color[4*i:], math.Float32bits(v))
	}
	_, err = q.FillImage(img, color, [3]int{1, 1, 0}, [3]int{2, 2, 1})
	wantStatus(t, "fill", err, Success)
	if got := host[40+4 : 40+8]; got[0] != 0 || got[1] != 128 || got[2] != 255 || got[3] != 255 {
		t.Errorf("BGRA texel (1,1) in host memory: %v", got)
	}
	if host[0] != 0 || host[80+12] != 0 {
		t.Error("the fill went outside its region")
	}
	tight, _ := ctx.NewImage(MemCopyHostPtr, ImageFormat{ChanR, UnsignedInt8}, ImageDesc{Type: MemObjectImage1DArray, Width: 3, Array: 2, RowPitch: 4, SlicePitch: 8}, []byte("abc_....def_...."))
	if tight.Desc.RowPitch != 3 || tight.Desc.SlicePitch != 3 {
		t.Errorf("a copied 1D array's pitches %d %d", tight.Desc.RowPitch, tight.Desc.SlicePitch)
	}
	out := make([]byte, 6)
	_, err = q.ReadImage(tight, [3]int{0, 0, 0}, [3]int{3, 2, 1}, 0, 0, out)
	if err != nil || string(out) != "abcdef" {
		t.Errorf("1D array layers read back as %q (%v)", out, err)
	}
}

// Samplers: the CLK_* bits kernels see, and the properties' defaults.
func TestSamplerBits(t *testing.T) {
	ctx, _, _ := memContext(t)
	s, _ := ctx.NewSampler(true, AddressRepeat, FilterLinear)
	if s.bits() != 1|6|0x20 {
		t.Errorf("bits %#x", s.bits())
	}
	s, _ = ctx.NewSamplerProps(nil)
	if !s.Normalized || s.Addressing != AddressClamp || s.Filter != FilterNearest || s.bits() != 1|4|0x10 {
		t.Errorf("default sampler %+v", s)
	}
	_, err := ctx.NewSamplerProps([][2]uint64{{0x1155, 0}})
	wantStatus(t, "mip filter property", err, InvalidValue)
	_, err = ctx.NewSampler(false, 0x1135, FilterNearest)
	wantStatus(t, "addressing mode", err, InvalidValue)
}
