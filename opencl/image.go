package opencl

import (
	"math"
	"sync/atomic"

	"github.com/pocketgpu/pocketgpu/device"
)

// Image errors and memory object types (cl.h).
const (
	ImageFormatMismatch         Status = -9
	ImageFormatNotSupported     Status = -10
	InvalidImageFormatDescriptr Status = -39
	InvalidImageSize            Status = -40
	InvalidSampler              Status = -41
	InvalidImageDescriptor      Status = -65

	MemObjectBuffer        = 0x10F0
	MemObjectImage2D       = 0x10F1
	MemObjectImage3D       = 0x10F2
	MemObjectImage2DArray  = 0x10F3
	MemObjectImage1D       = 0x10F4
	MemObjectImage1DArray  = 0x10F5
	MemObjectImage1DBuffer = 0x10F6
)

// Image commands (cl_command_type).
const (
	CommandReadImage         = 0x11F6
	CommandWriteImage        = 0x11F7
	CommandCopyImage         = 0x11F8
	CommandCopyImageToBuffer = 0x11F9
	CommandCopyBufferToImage = 0x11FA
	CommandFillImage         = 0x1208
)

// ImageDesc is cl_image_desc: sizes in texels, pitches in bytes (0: tight),
// and the buffer of a 1D buffer image.
type ImageDesc struct {
	Type                        uint32
	Width, Height, Depth, Array int
	RowPitch, SlicePitch        int
	MipLevels, Samples          int
	Buffer                      *Buffer
}

// Image is a cl_mem image: its format and description, and its texels in
// a Buffer (the storage that buffers have: per-device copies, the program's
// memory for CL_MEM_USE_HOST_PTR). Rows lie RowPitch apart and slices (3D
// slices, array layers) SlicePitch apart; those are the host's pitches for
// CL_MEM_USE_HOST_PTR, so the host memory is the image, and tight
// otherwise. A 1D buffer image's storage is its buffer.
type Image struct {
	Ctx    *Context
	Flags  uint64
	Format ImageFormat
	Desc   ImageDesc // with the pitches the storage has
	Elem   int       // bytes per texel
	Mem    *Buffer
	maps   atomic.Int32
}

// NewImage makes an image (clCreateImage); host is the host memory the
// flags ask to copy or use, spanning the pitches desc gives.
func (c *Context) NewImage(flags uint64, f ImageFormat, d ImageDesc, host []byte) (*Image, error) {
	if flags == 0 {
		flags = MemReadWrite
	}
	if d.Type == MemObjectImage1DBuffer && d.Buffer != nil && flags&memAccess == 0 {
		flags |= d.Buffer.Flags & memAccess
	}
	if err := checkMemFlags(flags, host != nil); err != nil {
		return nil, err
	}
	elem, err := f.check()
	if err != nil {
		return nil, err
	}
	if err := d.check(elem, host != nil, c.imageMaxBuffer()); err != nil {
		return nil, err
	}
	img := &Image{Ctx: c, Flags: flags, Format: f, Desc: d, Elem: elem}
	// The pitches the host memory has, and the storage's.
	hostRow, hostSlice := d.pitches(elem)
	img.Desc.RowPitch, img.Desc.SlicePitch = hostRow, hostSlice
	if flags&MemUseHostPtr == 0 {
		img.Desc.RowPitch, img.Desc.SlicePitch = d.Width*elem, d.Width*elem*d.rows()
	}
	size := img.Desc.SlicePitch * d.slices()
	switch {
	case d.Type == MemObjectImage1DBuffer:
		if d.Buffer.Ctx != c {
			return nil, errorf(InvalidContext, "the image's buffer belongs to another context")
		}
		if flags&memHostPtr != 0 {
			return nil, errorf(InvalidValue, "a 1D buffer image takes its memory from its buffer, not from host pointer flags")
		}
		if d.Buffer.Size < d.Width*elem {
			return nil, errorf(InvalidImageSize, "a %d-texel image needs %d bytes; the buffer has %d", d.Width, d.Width*elem, d.Buffer.Size)
		}
		img.Mem = d.Buffer
	case host != nil && len(host) < hostSlice*d.slices():
		return nil, errorf(InvalidHostPtr, "the host memory holds %d bytes, the image %d", len(host), hostSlice*d.slices())
	case flags&MemUseHostPtr != 0:
		img.Mem = c.newStorage(flags, size, host)
	default:
		img.Mem = c.newStorage(flags&^MemCopyHostPtr, size, nil)
		if host != nil {
			copyRect(img.Mem.host, img.rect([3]int{}), host, Rect{Row: hostRow, Slice: hostSlice}, img.byteRegion(d.region()))
		}
	}
	return img, nil
}

// ImageFormat is cl_image_format.
type ImageFormat struct{ Order, Type uint32 }

// Channel orders and types (cl.h).
const (
	ChanR        = 0x10B0
	ChanRG       = 0x10B2
	ChanRGB      = 0x10B4
	ChanRGBA     = 0x10B5
	ChanBGRA     = 0x10B6
	ChanARGB     = 0x10B7
	ChanRGBx     = 0x10BC
	ChanInt      = 0x10B8 // CL_INTENSITY
	ChanLum      = 0x10B9 // CL_LUMINANCE
	SNormInt8    = 0x10D0
	SNormInt16   = 0x10D1
	UNormInt8    = 0x10D2
	UNormInt16   = 0x10D3
	UNormShort   = 0x10D4 // 565; 555 and 101010 follow
	SignedInt8   = 0x10D7
	SignedInt16  = 0x10D8
	SignedInt32  = 0x10D9
	UnsignedInt8 = 0x10DA
	UnsignedInt6 = 0x10DB
	UnsignedI32  = 0x10DC
	HalfFloat    = 0x10DD
	Float        = 0x10DE
)

// channelTypes are the channel types the executor stores.
var channelTypes = map[uint32]device.ChannelType{
	SNormInt8: device.ChanSNorm8, SNormInt16: device.ChanSNorm16, UNormInt8: device.ChanUNorm8, UNormInt16: device.ChanUNorm16,
	SignedInt8: device.ChanS8, SignedInt16: device.ChanS16, SignedInt32: device.ChanS32,
	UnsignedInt8: device.ChanU8, UnsignedInt6: device.ChanU16, UnsignedI32: device.ChanU32,
	HalfFloat: device.ChanF16, Float: device.ChanF32,
}

var orderChannels = map[uint32]int{ChanR: 1, ChanRG: 2, ChanRGBA: 4, ChanBGRA: 4}

// SupportedImageFormats are the formats every device reports, for every
// image type and access. The seeds say nothing of the formats Mali,
// Adreno or PowerVR drivers list; assumed: R, RG and RGBA with every
// channel type the executor stores, and BGRA with UNORM_INT8: a superset
// of the OpenCL 1.2 minimum list (RGBA with the ten types it names, BGRA
// UNORM_INT8), close to what Mali drivers report.
func SupportedImageFormats() []ImageFormat {
	var out []ImageFormat
	types := []uint32{SNormInt8, SNormInt16, UNormInt8, UNormInt16, SignedInt8, SignedInt16, SignedInt32,
		UnsignedInt8, UnsignedInt6, UnsignedI32, HalfFloat, Float}
	for _, o := range []uint32{ChanR, ChanRG, ChanRGBA} {
		for _, t := range types {
			out = append(out, ImageFormat{o, t})
		}
	}
	return append(out, ImageFormat{ChanBGRA, UNormInt8})
}

// check validates a format as the specification does (an impossible
// combination is a bad descriptor; a possible one pocketgpu lacks is not
// supported) and returns its texel size.
func (f ImageFormat) check() (int, error) {
	packed := f.Type >= UNormShort && f.Type <= UNormShort+2
	switch {
	case f.Order < ChanR || f.Order > ChanRGBx || f.Type < SNormInt8 || f.Type > Float,
		(f.Order == ChanRGB || f.Order == ChanRGBx) != packed,
		(f.Order == ChanBGRA || f.Order == ChanARGB) && f.Type != UNormInt8 && f.Type != SNormInt8 && f.Type != SignedInt8 && f.Type != UnsignedInt8,
		(f.Order == ChanInt || f.Order == ChanLum) && f.Type > UNormInt16 && f.Type != HalfFloat && f.Type != Float:
		return 0, errorf(InvalidImageFormatDescriptr, "image format order %#x type %#x is not a valid combination", f.Order, f.Type)
	}
	for _, s := range SupportedImageFormats() {
		if s == f {
			return orderChannels[f.Order] * channelTypes[f.Type].Bytes(), nil
		}
	}
	return 0, errorf(ImageFormatNotSupported, "image format order %#x type %#x is not supported; see clGetSupportedImageFormats", f.Order, f.Type)
}

// rows and slices are how many rows a slice has and how many slices (3D
// slices or array layers) the image has.
func (d ImageDesc) rows() int {
	if d.Type == MemObjectImage2D || d.Type == MemObjectImage2DArray || d.Type == MemObjectImage3D {
		return d.Height
	}
	return 1
}

func (d ImageDesc) slices() int {
	switch d.Type {
	case MemObjectImage3D:
		return d.Depth
	case MemObjectImage1DArray, MemObjectImage2DArray:
		return d.Array
	}
	return 1
}

// region is the whole image in texels, rows and slices.
func (d ImageDesc) region() [3]int { return [3]int{d.Width, d.rows(), d.slices()} }

// pitches are the host pitches desc gives, with their defaults.
func (d ImageDesc) pitches(elem int) (row, slice int) {
	row, slice = d.RowPitch, d.SlicePitch
	if row == 0 {
		row = d.Width * elem
	}
	if slice == 0 || d.slices() == 1 {
		slice = row * d.rows()
	}
	return row, slice
}

// imageMaxBuffer is the widest 1D buffer image every device of the
// context accepts (CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, the smallest of them).
func (c *Context) imageMaxBuffer() int {
	n := math.MaxInt
	for _, d := range c.Devices {
		n = min(n, d.GPU.ImageMaxBufferTexels())
	}
	return n
}

// check validates a description against the device limits (info.go);
// maxBuffer is the widest 1D buffer image the devices accept.
func (d ImageDesc) check(elem int, hasHost bool, maxBuffer int) error {
	bad := func(format string, args ...any) error { return errorf(InvalidImageDescriptor, format, args...) }
	limits := map[uint32][3]int{
		MemObjectImage1D: {image2DMaxSide, 1, 1}, MemObjectImage1DBuffer: {maxBuffer, 1, 1},
		MemObjectImage1DArray: {image2DMaxSide, 1, imageMaxArray}, MemObjectImage2D: {image2DMaxSide, image2DMaxSide, 1},
		MemObjectImage2DArray: {image2DMaxSide, image2DMaxSide, imageMaxArray}, MemObjectImage3D: {image3DMaxSide, image3DMaxSide, image3DMaxSide},
	}
	lim, ok := limits[d.Type]
	if !ok {
		return bad("image type %#x is not an image type", d.Type)
	}
	if d.MipLevels != 0 || d.Samples != 0 {
		return bad("mipmapped and multisampled images are not supported (num_mip_levels and num_samples must be 0)")
	}
	if (d.Buffer != nil) != (d.Type == MemObjectImage1DBuffer) {
		return bad("a buffer goes with CL_MEM_OBJECT_IMAGE1D_BUFFER, and only with it")
	}
	r := d.region()
	for i, n := range r {
		if n < 1 {
			return errorf(InvalidImageSize, "image size %v: every dimension the type has is at least 1", r)
		}
		if n > lim[i] {
			return errorf(InvalidImageSize, "image size %v is over the device's limit %v", r, lim)
		}
	}
	if !hasHost && (d.RowPitch != 0 || d.SlicePitch != 0) {
		return bad("pitches go with a host pointer; without one they must be 0")
	}
	row, slice := d.pitches(elem)
	if row < d.Width*elem || row%elem != 0 {
		return bad("row pitch %d: a multiple of the %d-byte texel, at least the width (%d bytes)", row, elem, d.Width*elem)
	}
	if d.slices() > 1 && (slice < row*d.rows() || slice%row != 0) {
		return bad("slice pitch %d: a multiple of the row pitch %d, at least %d", slice, row, row*d.rows())
	}
	return nil
}

// rect is the storage rectangle of a texel origin (x, row, slice).
func (img *Image) rect(origin [3]int) Rect {
	return Rect{Origin: [3]int{origin[0] * img.Elem, origin[1], origin[2]}, Row: img.Desc.RowPitch, Slice: img.Desc.SlicePitch}
}

// byteRegion is a texel region with x in bytes.
func (img *Image) byteRegion(r [3]int) [3]int { return [3]int{r[0] * img.Elem, r[1], r[2]} }

// Origins and regions as the API gives them have the layer of a 1D array
// second; storage has it third.
func (img *Image) storageOrder(v [3]int) [3]int {
	if img.Desc.Type == MemObjectImage1DArray {
		return [3]int{v[0], v[2], v[1]}
	}
	return v
}

// checkRegion validates an API origin and region and returns them in
// storage order.
func (img *Image) checkRegion(origin, region [3]int) ([3]int, [3]int, error) {
	o, r := img.storageOrder(origin), img.storageOrder(region)
	if img.Desc.Type == MemObjectImage1DArray && (origin[2] != 0 || region[2] != 1) {
		return o, r, errorf(InvalidValue, "a 1D image array's origin[2] is 0 and region[2] is 1")
	}
	full := img.Desc.region()
	for i := range o {
		if r[i] < 1 || o[i] < 0 || o[i]+r[i] > full[i] {
			return o, r, errorf(InvalidValue, "origin %v region %v is outside the image (%v) or empty", origin, region, full)
		}
	}
	return o, r, nil
}

// Bytes is CL_MEM_SIZE: the bytes the texels take.
func (img *Image) Bytes() int { return img.Desc.SlicePitch * img.Desc.slices() }

// Type is CL_MEM_TYPE.
func (img *Image) Type() uint32 { return img.Desc.Type }

// MapCount is CL_MEM_MAP_COUNT.
func (img *Image) MapCount() int { return int(img.maps.Load()) }

// devFormat is the format as the simulated device stores it.
func (f ImageFormat) devFormat() device.ImageFormat {
	return device.ImageFormat{Channels: orderChannels[f.Order], Type: channelTypes[f.Type], BGRA: f.Order == ChanBGRA}
}

// dim is the image's dimensionality and arrayedness as kernels see them.
func (d ImageDesc) dim() (dim device.ImageDim, arrayed bool) {
	switch d.Type {
	case MemObjectImage1D, MemObjectImage1DArray:
		return device.Image1D, d.Type == MemObjectImage1DArray
	case MemObjectImage1DBuffer:
		return device.ImageBuffer, false
	case MemObjectImage3D:
		return device.Image3D, false
	}
	return device.Image2D, d.Type == MemObjectImage2DArray
}

// onDevice is the image as a kernel argument on sim: its storage's copy
// there with the image's pitches. The caller holds the storage's lock.
func (img *Image) onDevice(sim *simDevice) (*device.Image, error) {
	d := img.Desc
	buf, err := img.Mem.view(sim)
	if err != nil {
		return nil, err
	}
	dim, arrayed := d.dim()
	return device.NewImageOn(buf, device.ImageDesc{Dim: dim, Arrayed: arrayed, Width: d.Width, Height: d.rows(), Depth: d.slices(),
		RowPitch: d.RowPitch, SlicePitch: d.SlicePitch}, img.Format.devFormat())
}

// ReadImage copies a region of the image (texels, rows, slices or layers)
// into host memory with the given pitches (0: tight).
func (q *Queue) ReadImage(img *Image, origin, region [3]int, row, slice int, dst []byte) (*Event, error) {
	o, r, hr, err := q.imageTransfer(img, origin, region, row, slice, len(dst), false)
	if err != nil {
		return nil, err
	}
	n := r[0] * r[1] * r[2]
	return q.run(CommandReadImage, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = n
		defer lockRoots(img.Mem)()
		copyRect(dst, hr, img.Mem.bytesNow(), img.rect(o), r)
		return q.copyNS(sim, rec, n, false), nil
	})
}

// WriteImage copies host memory into a region of the image.
func (q *Queue) WriteImage(img *Image, origin, region [3]int, row, slice int, src []byte) (*Event, error) {
	o, r, hr, err := q.imageTransfer(img, origin, region, row, slice, len(src), true)
	if err != nil {
		return nil, err
	}
	n := r[0] * r[1] * r[2]
	return q.run(CommandWriteImage, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = n
		defer lockRoots(img.Mem)()
		copyRect(img.Mem.bytesOn(sim), img.rect(o), src, hr, r)
		return q.copyNS(sim, rec, n, true), nil
	})
}

// imageTransfer checks a host transfer and returns the storage origin, the
// byte region and the host rectangle.
func (q *Queue) imageTransfer(img *Image, origin, region [3]int, row, slice, hostLen int, write bool) ([3]int, [3]int, Rect, error) {
	var hr Rect
	if err := q.sameImage(img); err != nil {
		return origin, region, hr, err
	}
	if err := img.Mem.hostCan(write); err != nil {
		return origin, region, hr, err
	}
	o, r, err := img.checkRegion(origin, region)
	if err != nil {
		return o, r, hr, err
	}
	hr, br, err := img.hostRect(r, row, slice)
	if err != nil {
		return o, br, hr, err
	}
	if hr.End(br) > hostLen {
		return o, br, hr, errorf(InvalidValue, "the host memory is smaller than the region")
	}
	return o, br, hr, nil
}

// hostRect is the host side of a transfer of region (storage order) with
// the given pitches, and the region with x in bytes.
func (img *Image) hostRect(r [3]int, row, slice int) (Rect, [3]int, error) {
	if img.Desc.Type == MemObjectImage1DArray && slice == 0 {
		slice = row // each 1D image of the array is a row
	}
	hr, br := Rect{Row: row, Slice: slice}, img.byteRegion(r)
	return hr, br, hr.normalize(br, "host")
}

// HostExtent is how many bytes of host memory a read or write of region
// (API order) with the given pitches spans, or 0 if it is invalid.
func (img *Image) HostExtent(region [3]int, row, slice int) int {
	hr, br, err := img.hostRect(img.storageOrder(region), row, slice)
	if err != nil || checkRegion(br) != nil {
		return 0
	}
	return hr.End(br)
}

// HostBytes is how many bytes of host memory an image of the description
// takes from its host pointer (at least 1, so that a pointer given with
// an invalid description is still a pointer).
func (d ImageDesc) HostBytes(f ImageFormat) int {
	elem, err := f.check()
	if err != nil || d.check(elem, true, math.MaxInt) != nil {
		return 1
	}
	_, slice := d.pitches(elem)
	return slice * d.slices()
}

func (q *Queue) sameImage(img *Image) error {
	if img == nil {
		return errorf(InvalidMemObject, "not an image")
	}
	if img.Ctx != q.Ctx {
		return errorf(InvalidContext, "the image belongs to another context")
	}
	return nil
}

// CopyImage copies a region between images of the same format.
func (q *Queue) CopyImage(src, dst *Image, so, do, region [3]int) (*Event, error) {
	if err := q.sameImage(src); err != nil {
		return nil, err
	}
	if err := q.sameImage(dst); err != nil {
		return nil, err
	}
	if src.Format != dst.Format {
		return nil, errorf(ImageFormatMismatch, "the images have different formats")
	}
	s, r, err := src.checkRegion(so, region)
	if err != nil {
		return nil, err
	}
	d, _, err := dst.checkRegion(do, dst.apiRegion(r))
	if err != nil {
		return nil, err
	}
	br := src.byteRegion(r)
	if src.Mem.root() == dst.Mem.root() && rectsOverlap(src.Mem.Offset, src.rect(s), dst.Mem.Offset, dst.rect(d), br) {
		return nil, errorf(MemCopyOverlap, "the source and destination regions overlap")
	}
	n := br[0] * br[1] * br[2]
	return q.run(CommandCopyImage, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = n
		defer lockRoots(src.Mem, dst.Mem)()
		copyRect(dst.Mem.bytesOn(sim), dst.rect(d), src.Mem.bytesOn(sim), src.rect(s), br)
		return q.copyNS(sim, rec, 2*n, true), nil
	})
}

// apiRegion turns a storage-order region of another image into the API
// order of this one (a 2D region copied into a 1D array keeps its rows as
// layers).
func (img *Image) apiRegion(r [3]int) [3]int {
	if img.Desc.Type == MemObjectImage1DArray {
		return [3]int{r[0], r[1] * r[2], 1}
	}
	return r
}

// CopyImageToBuffer copies a region of an image to a buffer, tightly
// packed from offset; toImage copies the other way.
func (q *Queue) CopyImageToBuffer(img *Image, b *Buffer, origin, region [3]int, offset int, toImage bool) (*Event, error) {
	if err := q.sameImage(img); err != nil {
		return nil, err
	}
	if err := q.sameContext(b); err != nil {
		return nil, err
	}
	o, r, err := img.checkRegion(origin, region)
	if err != nil {
		return nil, err
	}
	br := img.byteRegion(r)
	n := br[0] * br[1] * br[2]
	if err := b.checkRange(offset, n); err != nil {
		return nil, err
	}
	if img.Mem.root() == b.root() {
		return nil, errorf(MemCopyOverlap, "the image's storage is the buffer")
	}
	tight := Rect{Origin: [3]int{offset, 0, 0}, Row: br[0], Slice: br[0] * br[1]}
	cmd := uint32(CommandCopyImageToBuffer)
	if toImage {
		cmd = CommandCopyBufferToImage
	}
	return q.run(cmd, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = n
		defer lockRoots(img.Mem, b)()
		if toImage {
			copyRect(img.Mem.bytesOn(sim), img.rect(o), b.bytesOn(sim), tight, br)
		} else {
			copyRect(b.bytesOn(sim), tight, img.Mem.bytesOn(sim), img.rect(o), br)
		}
		return q.copyNS(sim, rec, 2*n, true), nil
	})
}

// FillImage fills a region with a colour: four float32s for float and
// normalized formats, four int32s or uint32s for integer ones (16 bytes),
// converted as write_image would.
func (q *Queue) FillImage(img *Image, color []byte, origin, region [3]int) (*Event, error) {
	if err := q.sameImage(img); err != nil {
		return nil, err
	}
	if len(color) < 16 {
		return nil, errorf(InvalidValue, "a fill colour is 16 bytes")
	}
	o, r, err := img.checkRegion(origin, region)
	if err != nil {
		return nil, err
	}
	texel, err := img.encode(color)
	if err != nil {
		return nil, errorf(InvalidImageFormatDescriptr, "%v", err)
	}
	br := img.byteRegion(r)
	n := br[0] * br[1] * br[2]
	return q.run(CommandFillImage, func(sim *simDevice, rec *CommandRecord) (float64, error) {
		rec.Bytes = n
		defer lockRoots(img.Mem)()
		data, at := img.Mem.bytesOn(sim), img.rect(o)
		for z := 0; z < br[2]; z++ {
			for y := 0; y < br[1]; y++ {
				row := at.offset() + z*at.Slice + y*at.Row
				for x := 0; x < br[0]; x += img.Elem {
					copy(data[row+x:], texel)
				}
			}
		}
		return q.copyNS(sim, rec, n, true), nil
	})
}

// encode is a fill colour as one texel of the image's format.
func (img *Image) encode(color []byte) ([]byte, error) {
	t := channelTypes[img.Format.Type]
	var v [4]float64
	for c := range v {
		bits := uint32(color[4*c]) | uint32(color[4*c+1])<<8 | uint32(color[4*c+2])<<16 | uint32(color[4*c+3])<<24
		switch {
		case t.Float(): // half, float and the normalized types
			v[c] = float64(math.Float32frombits(bits))
		case t.Signed():
			v[c] = float64(int32(bits))
		default:
			v[c] = float64(bits)
		}
	}
	return img.Format.devFormat().Encode(v)
}

// MapImage maps a region of the image; the mapping's pitches are the
// image_row_pitch and image_slice_pitch the host gets.
func (q *Queue) MapImage(img *Image, flags uint64, origin, region [3]int, alloc func(n int) []byte) (*Mapping, *Event, error) {
	if err := q.sameImage(img); err != nil {
		return nil, nil, err
	}
	o, r, err := img.checkRegion(origin, region)
	if err != nil {
		return nil, nil, err
	}
	return q.mapRect(CommandMapImage, img.Mem, &img.maps, flags, img.rect(o), img.byteRegion(r), alloc)
}
