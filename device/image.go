package device

import (
	"fmt"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// ImageDim is an image's dimensionality (its values are SPIR-V's Dim).
type ImageDim uint8

const (
	Image1D   = ImageDim(spirv.Dim1D)
	Image2D   = ImageDim(spirv.Dim2D)
	Image3D   = ImageDim(spirv.Dim3D)
	ImageCube = ImageDim(spirv.DimCube)
	// ImageBuffer is a 1D image over a buffer (OpenCL image1d_buffer_t).
	ImageBuffer = ImageDim(spirv.DimBuffer)
)

// String is the SPIR-V name: "1D", "2D", "3D", "Cube", "Buffer".
func (d ImageDim) String() string { return spirv.Dim(d).String() }

// ChannelType is how an image stores each channel.
type ChannelType uint8

const (
	ChanU8      = ChannelType(emu.ChanU8)
	ChanS8      = ChannelType(emu.ChanS8)
	ChanU16     = ChannelType(emu.ChanU16)
	ChanS16     = ChannelType(emu.ChanS16)
	ChanU32     = ChannelType(emu.ChanU32)
	ChanS32     = ChannelType(emu.ChanS32)
	ChanF16     = ChannelType(emu.ChanF16)
	ChanF32     = ChannelType(emu.ChanF32)
	ChanUNorm8  = ChannelType(emu.ChanUNorm8)
	ChanSNorm8  = ChannelType(emu.ChanSNorm8)
	ChanUNorm16 = ChannelType(emu.ChanUNorm16)
	ChanSNorm16 = ChannelType(emu.ChanSNorm16)
)

func (c ChannelType) valid() bool { return c <= ChanSNorm16 }

// Bytes per channel (0 for a type that is not one of the constants).
func (c ChannelType) Bytes() int {
	if !c.valid() {
		return 0
	}
	return emu.ChannelType(c).Bytes()
}

// Float reports channel types kernels read as floats (half, float and the
// normalized types).
func (c ChannelType) Float() bool { return c.valid() && emu.ChannelType(c).Float() }

// Signed reports the signed integer channel types.
func (c ChannelType) Signed() bool { return c == ChanS8 || c == ChanS16 || c == ChanS32 }

// ImageFormat is an image's channel count (R, RG, RGB, RGBA), type and
// order.
type ImageFormat struct {
	Channels int
	Type     ChannelType
	// BGRA stores four channels as B, G, R, A; kernels still see R, G, B, A.
	BGRA bool
}

// TexelBytes is the size of one texel.
func (f ImageFormat) TexelBytes() int { return f.Channels * f.Type.Bytes() }

func (f ImageFormat) check() error {
	if f.Channels < 1 || f.Channels > 4 {
		return fmt.Errorf("%d channels (1 to 4 are possible)", f.Channels)
	}
	if !f.Type.valid() {
		return fmt.Errorf("channel type %d is not one of device's Chan constants", f.Type)
	}
	if f.BGRA && f.Channels != 4 {
		return fmt.Errorf("BGRA order with %d channels (it has 4)", f.Channels)
	}
	return nil
}

// Encode is one texel of the format holding v (R, G, B, A) as write_image
// stores it: clamped and rounded to the channel type. Integer types take
// their integer values, normalized ones values in [0, 1] or [-1, 1].
func (f ImageFormat) Encode(v [4]float64) ([]byte, error) {
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("image format: %v", err)
	}
	n := f.TexelBytes()
	one := &emu.Image{Dim: spirv.Dim2D, Width: 1, Height: 1, Depth: 1, Channels: f.Channels, Type: emu.ChannelType(f.Type),
		Buf: &emu.Buffer{Data: make([]byte, n)}, RowPitch: n, SlicePitch: n, BGRA: f.BGRA}
	one.WriteTexel(0, 0, 0, v)
	return one.Buf.Data, nil
}

// ImageDesc is an image's shape and layout in memory.
type ImageDesc struct {
	Dim ImageDim
	// Arrayed images (OpenCL 1D and 2D arrays) take one more coordinate,
	// the layer; Depth is then the layer count.
	Arrayed              bool
	Width, Height, Depth int
	// RowPitch and SlicePitch are the bytes between rows and between
	// slices (3D slices, array layers); 0 means tightly packed.
	RowPitch, SlicePitch int
}

// Image is a device image: a description and format over a buffer.
type Image struct {
	img *emu.Image
	buf *Buffer
}

// layout checks desc and f and fills in the pitches; size is the bytes
// from the first texel to one past the last.
func layout(desc ImageDesc, f ImageFormat) (ImageDesc, int, error) {
	if err := f.check(); err != nil {
		return desc, 0, err
	}
	if desc.Width < 1 || desc.Height < 1 || desc.Depth < 1 {
		return desc, 0, fmt.Errorf("size %dx%dx%d", desc.Width, desc.Height, desc.Depth)
	}
	row := desc.Width * f.TexelBytes()
	if desc.RowPitch == 0 {
		desc.RowPitch = row
	}
	if desc.SlicePitch == 0 {
		desc.SlicePitch = desc.RowPitch * desc.Height
	}
	if desc.RowPitch < row || (desc.Depth > 1 && desc.SlicePitch < desc.RowPitch*desc.Height) {
		return desc, 0, fmt.Errorf("row pitch %d and slice pitch %d are smaller than a %dx%d layer of %d-byte texels", desc.RowPitch, desc.SlicePitch, desc.Width, desc.Height, f.TexelBytes())
	}
	return desc, (desc.Depth-1)*desc.SlicePitch + (desc.Height-1)*desc.RowPitch + row, nil
}

func newImage(desc ImageDesc, f ImageFormat, b *Buffer) *Image {
	return &Image{img: &emu.Image{Dim: spirv.Dim(desc.Dim), Arrayed: desc.Arrayed, Width: desc.Width, Height: desc.Height, Depth: desc.Depth,
		Channels: f.Channels, Type: emu.ChannelType(f.Type), Buf: b.b, RowPitch: desc.RowPitch, SlicePitch: desc.SlicePitch, BGRA: f.BGRA}, buf: b}
}

// NewImage allocates an image and copies data into it when given: the
// image's memory as the pitches lay it out (SlicePitch times Depth bytes;
// tightly packed rows when the pitches are 0).
func (d *Device) NewImage(desc ImageDesc, f ImageFormat, data []byte, name string) (*Image, error) {
	desc, _, err := layout(desc, f)
	if err != nil {
		return nil, fmt.Errorf("image %s: %v", name, err)
	}
	size := desc.SlicePitch * desc.Depth
	if data != nil && len(data) != size {
		return nil, fmt.Errorf("image %s: %d bytes of data for a %dx%dx%d image of %d-byte texels (%d bytes)", name, len(data), desc.Width, desc.Height, desc.Depth, f.TexelBytes(), size)
	}
	b := d.Alloc(size, name)
	copy(b.b.Data, data)
	return newImage(desc, f, b), nil
}

// NewImageOn is an image whose texels are b's memory from its first byte,
// as desc lays them out (for images that share a buffer's memory, such as
// OpenCL's 1D buffer images, or that live in memory the caller manages).
func NewImageOn(b *Buffer, desc ImageDesc, f ImageFormat) (*Image, error) {
	if b == nil {
		return nil, fmt.Errorf("image: no buffer")
	}
	desc, need, err := layout(desc, f)
	if err != nil {
		return nil, fmt.Errorf("image on %s: %v", b.Name(), err)
	}
	if need > b.Len() {
		return nil, fmt.Errorf("image on %s: %dx%dx%d texels with pitches %d and %d take %d bytes; the buffer has %d", b.Name(), desc.Width, desc.Height, desc.Depth, desc.RowPitch, desc.SlicePitch, need, b.Len())
	}
	return newImage(desc, f, b), nil
}

// Desc is the image's shape and layout, with its pitches.
func (img *Image) Desc() ImageDesc {
	e := img.img
	return ImageDesc{Dim: ImageDim(e.Dim), Arrayed: e.Arrayed, Width: e.Width, Height: e.Height, Depth: e.Depth, RowPitch: e.RowPitch, SlicePitch: e.SlicePitch}
}

// Format is the image's format.
func (img *Image) Format() ImageFormat {
	return ImageFormat{Channels: img.img.Channels, Type: ChannelType(img.img.Type), BGRA: img.img.BGRA}
}

// Buffer is the memory holding the image's texels.
func (img *Image) Buffer() *Buffer { return img.buf }
