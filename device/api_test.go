package device

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/emu"
)

// The host API's own types describe what the internals hold: parameters,
// entry points, the fixed work-group size and local memory of a kernel.
func TestKernelDescription(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	dev := Open(g)
	spv, err := os.ReadFile("testdata/kernels/async.spv")
	if err != nil {
		t.Fatal(err)
	}
	names, err := EntryPoints(spv)
	if err != nil || !slices.Contains(names, "copy_fixed") || !slices.Contains(names, "copy_free") {
		t.Fatalf("entry points %v, %v", names, err)
	}
	if _, err := EntryPoints([]byte("not SPIR-V")); err == nil {
		t.Error("EntryPoints of bytes that are not SPIR-V: no error")
	}
	fixed, err := dev.Load(spv, "copy_fixed", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if size, ok := fixed.RequiredLocalSize(); !ok || size != [3]int{64, 1, 1} {
		t.Errorf("copy_fixed: required local size %v, %v; want [64 1 1]", size, ok)
	}
	free, err := dev.Load(spv, "copy_free", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := free.RequiredLocalSize(); ok {
		t.Error("copy_free: a required local size")
	}
	if free.LocalBytes() != 2048 {
		t.Errorf("copy_free: %d bytes of local memory, want 2048", free.LocalBytes())
	}
	ps := free.Params()
	if len(ps) != 2 || ps[0].Kind != ParamGlobal || ps[0].Size != 8 || ps[0].Elem != "f32" || ps[0].ElemSize != 4 {
		t.Fatalf("copy_free's parameters: %#v", ps)
	}
	if got := ps[1].String(); got != "a global buffer of f32" {
		t.Errorf("parameter 1 described as %q", got)
	}
	ps[0].Elem = "changed"
	if free.Params()[0].Elem != "f32" {
		t.Error("Params hands out the kernel's own slice")
	}

	stream := loadTestKernel(t, dev, "stream.spv")
	n := stream.Params()[2]
	if n.Kind != ParamValue || n.Size != 4 || n.String() != "a u32 value of 4 bytes" {
		t.Errorf("stream's n: %+v (%s)", n, n)
	}
	_, err = dev.Dispatch(stream, NDRange{Global: [3]int{64}}, []Arg{BufferArg(dev.Alloc(16, "in")), LocalArg(16), ValueArg([]byte{1, 0, 0, 0})}, Options{})
	var ae *ArgError
	if !errors.As(err, &ae) || ae.Index != 1 || ae.Param.Kind != ParamGlobal || !strings.Contains(err.Error(), "a global buffer of f32x4") {
		t.Errorf("local memory for a buffer: %v", err)
	}
	_, err = dev.Dispatch(stream, NDRange{Global: [3]int{64}}, []Arg{BufferArg(&Buffer{}), BufferArg(nil), ValueArg([]byte{1, 0, 0, 0})}, Options{})
	if !errors.As(err, &ae) || ae.Index != 0 {
		t.Errorf("a Buffer not from Alloc: %v", err)
	}
	if s := ArgKind(9).String(); s != "argument kind 9" {
		t.Errorf("ArgKind(9) is %q", s)
	}
	if s := ParamKind(9).String(); s != "ParamKind(9)" {
		t.Errorf("ParamKind(9) is %q", s)
	}
}

// device's sentinels are the executor's, so errors.Is matches either.
func TestSentinels(t *testing.T) {
	if !errors.Is(ErrStopped, emu.ErrStopped) || !errors.Is(emu.ErrStopped, ErrStopped) || !errors.Is(ErrBudget, emu.ErrBudget) {
		t.Error("device's sentinels differ from the executor's")
	}
	if Unlimited != emu.Unlimited {
		t.Error("Unlimited differs from the executor's")
	}
}

// A slice of a buffer is its memory at its address plus the offset.
func TestBufferSlice(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	dev := Open(g)
	b := dev.AllocFrom([]byte("0123456789"), "digits")
	s, err := b.Slice(3, 4)
	if err != nil {
		t.Fatal(err)
	}
	if s.Addr() != b.Addr()+3 || s.Len() != 4 || string(s.Bytes()) != "3456" || s.Name() != "digits" {
		t.Errorf("slice at %#x (buffer %#x), %q", s.Addr(), b.Addr(), s.Bytes())
	}
	s.Bytes()[0] = 'x'
	if string(b.Bytes()) != "012x456789" {
		t.Errorf("a write through the slice: %q", b.Bytes())
	}
	for _, c := range [][2]int{{-1, 2}, {8, 3}, {0, 11}, {3, -1}} {
		if _, err := b.Slice(c[0], c[1]); err == nil {
			t.Errorf("Slice(%d, %d) of 10 bytes: no error", c[0], c[1])
		}
	}
	dev.Free(nil)
}

func TestImages(t *testing.T) {
	g, err := arch.Lookup("mali-g52")
	if err != nil {
		t.Fatal(err)
	}
	dev := Open(g)
	rgba8 := ImageFormat{Channels: 4, Type: ChanUNorm8}
	img, err := dev.NewImage(ImageDesc{Dim: Image2D, Width: 3, Height: 2, Depth: 1}, rgba8, nil, "img")
	if err != nil {
		t.Fatal(err)
	}
	if d := img.Desc(); d.RowPitch != 12 || d.SlicePitch != 24 || img.Buffer().Len() != 24 || img.Format() != rgba8 {
		t.Errorf("tight 3x2 RGBA8: %+v, %d bytes, %+v", d, img.Buffer().Len(), img.Format())
	}
	for _, c := range []struct {
		desc ImageDesc
		f    ImageFormat
		data []byte
		want string
	}{
		{ImageDesc{Dim: Image2D, Width: 2, Height: 2, Depth: 1}, ImageFormat{Channels: 5, Type: ChanF32}, nil, "5 channels"},
		{ImageDesc{Dim: Image2D, Width: 0, Height: 2, Depth: 1}, rgba8, nil, "size 0x2x1"},
		{ImageDesc{Dim: Image2D, Width: 2, Height: 2, Depth: 1}, ImageFormat{Channels: 4, Type: 99}, nil, "channel type 99"},
		{ImageDesc{Dim: Image2D, Width: 2, Height: 2, Depth: 1}, rgba8, make([]byte, 15), "15 bytes of data"},
		{ImageDesc{Dim: Image2D, Width: 2, Height: 2, Depth: 1, RowPitch: 4}, rgba8, nil, "row pitch 4"},
	} {
		if _, err := dev.NewImage(c.desc, c.f, c.data, "bad"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewImage(%+v, %+v): %v, want %q", c.desc, c.f, err, c.want)
		}
	}
	// An image over part of a buffer's memory, with padded rows.
	buf := dev.Alloc(40, "storage")
	on, err := NewImageOn(buf, ImageDesc{Dim: Image2D, Width: 2, Height: 3, Depth: 1, RowPitch: 16}, rgba8)
	if err != nil {
		t.Fatal(err)
	}
	if on.Buffer() != buf || on.Desc().SlicePitch != 48 {
		t.Errorf("image on a buffer: %+v", on.Desc())
	}
	if _, err := NewImageOn(buf, ImageDesc{Dim: Image2D, Width: 2, Height: 4, Depth: 1, RowPitch: 16}, rgba8); err == nil {
		t.Error("an image larger than its buffer: no error")
	}
	if _, err := NewImageOn(nil, ImageDesc{Dim: Image1D, Width: 1, Height: 1, Depth: 1}, rgba8); err == nil {
		t.Error("an image on no buffer: no error")
	}

	texel, err := ImageFormat{Channels: 4, Type: ChanUNorm8, BGRA: true}.Encode([4]float64{1, 0.5, 0, 2})
	if err != nil || !bytes.Equal(texel, []byte{0, 128, 255, 255}) {
		t.Errorf("BGRA UNORM8 texel of (1, 0.5, 0, 2): %v, %v", texel, err)
	}
	texel, err = ImageFormat{Channels: 1, Type: ChanS16}.Encode([4]float64{-40000})
	if err != nil || !bytes.Equal(texel, []byte{0x00, 0x80}) {
		t.Errorf("R S16 texel of -40000: %v, %v", texel, err)
	}
	if _, err := (ImageFormat{Channels: 3, Type: ChanU8, BGRA: true}).Encode([4]float64{}); err == nil {
		t.Error("BGRA with 3 channels: no error")
	}
	if ChanF16.Bytes() != 2 || !ChanUNorm16.Float() || ChanU32.Float() || !ChanS8.Signed() || ChannelType(99).Bytes() != 0 {
		t.Error("channel type properties")
	}
	if Image1D.String() != "1D" || ImageBuffer.String() != "Buffer" {
		t.Errorf("dims %s, %s", Image1D, ImageBuffer)
	}
}

// A kernel's Occupancy is the residency its launches get: the same as a
// prepared launch's, and fewer work-items resident with local memory than
// without on a GPU that keeps one such work-group a core.
func TestKernelOccupancy(t *testing.T) {
	g, _ := arch.Lookup("mali-g52")
	dev := Open(g)
	k := loadTestEntry(t, dev, "async.spv", "copy_free")
	buf := dev.Alloc(4*4096, "data")
	plan, err := dev.Prepare(k, NDRange{Dims: 1, Global: [3]int{4096, 1, 1}, Local: [3]int{64, 1, 1}}, []Arg{BufferArg(buf), BufferArg(buf)}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer plan.Close()
	occ, err := k.Occupancy(g, 64, k.LocalBytes())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(occ, plan.Occupancy) {
		t.Errorf("Occupancy %+v, a prepared launch's %+v", occ, plan.Occupancy)
	}
	// The G52 keeps one work-group with local memory a core.
	none, err := k.Occupancy(g, 64, 0)
	if err != nil {
		t.Fatal(err)
	}
	if occ.ResidentThreads != g.Cores*64 || none.ResidentThreads <= occ.ResidentThreads {
		t.Errorf("%d resident threads with %d B of local memory, %d without", occ.ResidentThreads, k.LocalBytes(), none.ResidentThreads)
	}
}
