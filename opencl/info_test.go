package opencl

import (
	"encoding/binary"
	"errors"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

func deviceOf(t *testing.T, gpu string) *Device {
	t.Helper()
	p, err := NewPlatform([]string{gpu})
	if err != nil {
		t.Fatal(err)
	}
	return p.Devices[0]
}

func infoU64(t *testing.T, d *Device, param uint32) uint64 {
	t.Helper()
	b, err := d.DeviceInfo(param, 0)
	if err != nil {
		t.Fatalf("%#x: %v", param, err)
	}
	switch len(b) {
	case 4:
		return uint64(binary.LittleEndian.Uint32(b))
	case 8:
		return binary.LittleEndian.Uint64(b)
	}
	t.Fatalf("%#x: %d bytes", param, len(b))
	return 0
}

func infoString(t *testing.T, d *Device, param uint32) string {
	t.Helper()
	b, err := d.DeviceInfo(param, 0)
	if err != nil {
		t.Fatalf("%#x: %v", param, err)
	}
	if len(b) == 0 || b[len(b)-1] != 0 {
		t.Fatalf("%#x: %q is not NUL-terminated", param, b)
	}
	return string(b[:len(b)-1])
}

// Each device reports what its description says, counted as its vendor's
// driver counts.
func TestDeviceInfoFromDescription(t *testing.T) {
	for _, tc := range []struct {
		gpu                 string
		units, clock, local uint64
		localType           uint64
		vendor, nameHas     string
		fp64, fp16          bool
	}{
		{"mali-g52", 2, 800, 32 << 10, 2, "ARM", "Mali-G52", false, true},
		{"adreno-640", 2, 585, 32 << 10, 1, "QUALCOMM", "Adreno(TM) 640", false, true},
		{"powervr-gx6250", 2, 0, 4 << 10, 1, "Imagination Technologies", "GX6250", false, true},
		{"mali-t760", 0, 0, 0, 2, "ARM", "T760", true, true},
	} {
		d := deviceOf(t, tc.gpu)
		g := d.GPU
		if tc.units != 0 && infoU64(t, d, 0x1002) != tc.units {
			t.Errorf("%s: %d compute units, want %d", tc.gpu, infoU64(t, d, 0x1002), tc.units)
		}
		if got := infoU64(t, d, 0x100C); got != uint64(g.ClockMHz) || (tc.clock != 0 && got != tc.clock) {
			t.Errorf("%s: clock %d", tc.gpu, got)
		}
		if got := infoU64(t, d, 0x1023); got != uint64(g.LocalMemory.MaxPerWorkgroupKiB)<<10 || (tc.local != 0 && got != tc.local) {
			t.Errorf("%s: local memory %d", tc.gpu, got)
		}
		if got := infoU64(t, d, 0x1022); got != tc.localType {
			t.Errorf("%s: local memory type %d, want %d", tc.gpu, got, tc.localType)
		}
		if got := infoU64(t, d, 0x1004); got != uint64(g.MaxWorkgroupSize) {
			t.Errorf("%s: work-group size %d", tc.gpu, got)
		}
		if got := infoString(t, d, 0x102C); got != tc.vendor {
			t.Errorf("%s: vendor %q", tc.gpu, got)
		}
		if got := infoString(t, d, 0x102B); !strings.Contains(got, tc.nameHas) {
			t.Errorf("%s: name %q lacks %q", tc.gpu, got, tc.nameHas)
		}
		ext := infoString(t, d, 0x1030)
		if strings.Contains(ext, "cl_khr_fp64") != tc.fp64 || (infoU64(t, d, 0x1032) != 0) != tc.fp64 {
			t.Errorf("%s: fp64 %v, extensions %q", tc.gpu, !tc.fp64, ext)
		}
		if strings.Contains(ext, "cl_khr_fp16") != tc.fp16 {
			t.Errorf("%s: fp16 want %v, extensions %q", tc.gpu, tc.fp16, ext)
		}
		if !strings.HasPrefix(infoString(t, d, 0x102F), "OpenCL 1.2 ") {
			t.Errorf("%s: version %q", tc.gpu, infoString(t, d, 0x102F))
		}
	}
}

// Changing the description changes the answers: a user's GPU with more
// cores and a faster clock reports them.
func TestDeviceInfoFollowsUserGPU(t *testing.T) {
	d := deviceOf(t, "../examples/my-g52.yaml")
	if infoU64(t, d, 0x1002) != 4 || infoU64(t, d, 0x100C) != 850 || infoU64(t, d, 0x101E) != 256<<10 {
		t.Errorf("my-g52: units %d, clock %d, cache %d", infoU64(t, d, 0x1002), infoU64(t, d, 0x100C), infoU64(t, d, 0x101E))
	}
}

// Every OpenCL 1.2 device query has an answer; later ones are refused with
// CL_INVALID_VALUE, and so is nonsense.
func TestDeviceInfoCoversOpenCL12(t *testing.T) {
	d := deviceOf(t, "adreno-640")
	for param := uint32(0x1000); param <= 0x1049; param++ {
		if _, err := d.DeviceInfo(param, 0); err != nil {
			t.Errorf("param %#x: %v", param, err)
		}
	}
	for _, param := range []uint32{0x1053 /* SVM_CAPABILITIES, 2.0 */, 0, 0xdead} {
		if _, err := d.DeviceInfo(param, 0); !errors.Is(err, ErrInvalidValue) {
			t.Errorf("param %#x: %v, want CL_INVALID_VALUE", param, err)
		}
	}
	var p Platform
	for _, param := range []uint32{PlatformProfileParam, PlatformVersionParam, PlatformNameParam, PlatformVendorParam, PlatformExtensionsParam, PlatformICDSuffixParam} {
		if b, err := p.PlatformInfo(param); err != nil || len(b) < 2 {
			t.Errorf("platform param %#x: %q %v", param, b, err)
		}
	}
}

func TestNewPlatformErrors(t *testing.T) {
	if _, err := NewPlatform(nil); err == nil {
		t.Error("no GPUs accepted")
	}
	if _, err := NewPlatform([]string{"mali-g5"}); err == nil || !strings.Contains(err.Error(), "mali-g5") {
		t.Errorf("unknown GPU: %v", err)
	}
}

// CL_DEVICE_IMAGE_MAX_BUFFER_SIZE is each preset's texture.buffer_max_texels
// (Arm's and Imagination's drivers 65536 texels, Qualcomm's 2^27), and a
// 1D buffer image wider than the smallest of a context's devices' is
// refused while one within it is made.
func TestImageMaxBufferSizePerPreset(t *testing.T) {
	want := map[string]uint64{
		"mali-t720": 65536, "mali-t760": 65536, "mali-t820": 65536, "mali-t830": 65536, "mali-t860": 65536, "mali-t880": 65536,
		"mali-g31": 65536, "mali-g51": 65536, "mali-g52": 65536, "mali-g72": 65536, "mali-g76": 65536,
		"adreno-530": 1 << 27, "adreno-615": 1 << 27, "adreno-640": 1 << 27, "adreno-730": 1 << 27,
		"powervr-gx6250": 65536,
	}
	for _, id := range arch.PresetIDs() {
		w, ok := want[id]
		if !ok {
			t.Errorf("%s: no expected CL_DEVICE_IMAGE_MAX_BUFFER_SIZE in this test", id)
			continue
		}
		if got := infoU64(t, deviceOf(t, id), 0x1040); got != w {
			t.Errorf("%s: CL_DEVICE_IMAGE_MAX_BUFFER_SIZE = %d, want %d", id, got, w)
		}
	}
	const wide = 100000 // over 65536, within 2^27
	make1D := func(gpus ...string) error {
		p, err := NewPlatform(gpus)
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := p.NewContext(p.Devices)
		if err != nil {
			t.Fatal(err)
		}
		buf, err := ctx.NewBuffer(MemReadWrite, 4*wide, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = ctx.NewImage(MemReadWrite, ImageFormat{ChanR, UnsignedI32}, ImageDesc{Type: MemObjectImage1DBuffer, Width: wide, Buffer: buf}, nil)
		return err
	}
	wantStatus(t, "a 100000-texel buffer image on the Adreno 640", make1D("adreno-640"), Success)
	wantStatus(t, "a 100000-texel buffer image on the Mali-G52", make1D("mali-g52"), InvalidImageSize)
	wantStatus(t, "a 100000-texel buffer image in a context of both (the smaller limit)", make1D("adreno-640", "mali-g52"), InvalidImageSize)
}
