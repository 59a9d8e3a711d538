package opencl

import (
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"testing"
)

// sameAsPoCL runs a C host program of testdata/host on PoCL and on the
// simulated GPUs and requires the same output, line by line; without
// PoCL the program runs on pocketgpu alone.
func sameAsPoCL(t *testing.T, name string, gpus ...string) {
	t.Helper()
	needCompilers(t)
	vendors := buildICD(t)
	bin := hostProgram(t, name)
	var want string
	if _, err := os.Stat("/etc/OpenCL/vendors/pocl.icd"); err == nil {
		want = runHost(t, bin, "OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd")
	} else {
		t.Log("PoCL not installed (pocl-opencl-icd): the outputs are not compared")
	}
	for _, gpu := range gpus {
		got := runHost(t, bin, "OCL_ICD_VENDORS="+vendors, "POCKETGPU_GPUS="+gpu)
		// Lines of "spec" checks (where PoCL is more lenient than the
		// specification) must pass on pocketgpu and are not compared.
		for _, l := range strings.Split(got, "\n") {
			if strings.HasPrefix(l, "spec FAIL") {
				t.Errorf("%s on %s: %s", name, gpu, l)
			}
		}
		if want == "" {
			continue
		}
		g, w := strings.Split(notSpec(stdoutLines(got)), "\n"), strings.Split(notSpec(want), "\n")
		for i := 0; i < max(len(g), len(w)); i++ {
			var gl, wl string
			if i < len(g) {
				gl = g[i]
			}
			if i < len(w) {
				wl = w[i]
			}
			if gl != wl {
				t.Errorf("%s on %s, line %d: got %q, PoCL %q", name, gpu, i+1, gl, wl)
			}
		}
	}
}

func notSpec(out string) string {
	var keep []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(l, "spec ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

// stdoutLines drops pocketgpu's messages (stderr, mixed in by
// CombinedOutput) about the error cases the programs try on purpose.
func stdoutLines(out string) string {
	var keep []string
	for _, l := range strings.SplitAfter(out, "\n") {
		if !strings.HasPrefix(l, "pocketgpu: ") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "")
}

// Sub-buffers, rectangular transfers, maps, USE_HOST_PTR memory used in
// place, migration and destructor callbacks behave as on PoCL.
func TestMemHostBuffers(t *testing.T) {
	sameAsPoCL(t, "mem_buffers.c", "mali-g52", "adreno-640")
}

// Images of every dimensionality through kernels and samplers, image
// commands and the image and sampler errors behave as on PoCL.
func TestImageHostKernels(t *testing.T) {
	sameAsPoCL(t, "image_kernels.c", "mali-g52", "adreno-640")
}

func memContext(t *testing.T) (*Context, *Queue, *[]CommandRecord) {
	t.Helper()
	return memContextOn(t, "mali-g52")
}

// memContextOn is memContext on the given GPU.
func memContextOn(t *testing.T, gpu string) (*Context, *Queue, *[]CommandRecord) {
	t.Helper()
	p, err := NewPlatform([]string{gpu})
	if err != nil {
		t.Fatal(err)
	}
	var recs []CommandRecord
	p.Recorder = func(r CommandRecord) { recs = append(recs, r) }
	ctx, err := p.NewContext(p.Devices)
	if err != nil {
		t.Fatal(err)
	}
	q, err := ctx.NewQueue(p.Devices[0], QueueProfiling)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, q, &recs
}

func wantStatus(t *testing.T, what string, err error, want Status) {
	t.Helper()
	e, _ := err.(*Error)
	switch {
	case want == Success && err != nil:
		t.Errorf("%s: %v", what, err)
	case want != Success && (e == nil || e.Status != want):
		t.Errorf("%s: got %v, want status %d", what, err, want)
	}
}

// Sub-buffers share their parent's storage, start on the device's base
// alignment and inherit what they leave out.
func TestMemSubBuffer(t *testing.T) {
	ctx, q, _ := memContext(t)
	parent, _ := ctx.NewBuffer(MemWriteOnly|MemHostReadOnly, 1024, nil)
	sub, err := parent.SubBuffer(0, 256, 128)
	wantStatus(t, "sub-buffer", err, Success)
	if sub.Flags != MemWriteOnly|MemHostReadOnly {
		t.Errorf("inherited flags %#x", sub.Flags)
	}
	_, err = parent.SubBuffer(0, 100, 8)
	wantStatus(t, "misaligned", err, MisalignedSubBufferOffset)
	_, err = parent.SubBuffer(MemReadOnly, 0, 8)
	wantStatus(t, "more access", err, InvalidValue)
	_, err = parent.SubBuffer(MemHostWriteOnly, 0, 8)
	wantStatus(t, "more host access", err, InvalidValue)
	_, err = sub.SubBuffer(0, 0, 8)
	wantStatus(t, "nested", err, InvalidMemObject)
	_, err = q.Write(sub, 0, []byte{1})
	wantStatus(t, "write to host read-only", err, InvalidOperation)
	rw, _ := ctx.NewBuffer(0, 1024, nil)
	s2, _ := rw.SubBuffer(0, 512, 16)
	if _, err := q.Fill(s2, []byte{7}, 0, 16); err != nil {
		t.Fatal(err)
	}
	got := make([]byte, 1024)
	q.Read(rw, 0, got)
	if got[511] != 0 || got[512] != 7 || got[527] != 7 || got[528] != 0 {
		t.Errorf("fill through a sub-buffer: %v", got[510:530])
	}
	if v, err := s2.view(q.sim); err != nil || v.Addr() != rw.root().copies[q.sim].Addr()+512 || v.Len() != 16 {
		t.Errorf("a sub-buffer argument is at %#x (%d bytes), %v", v.Addr(), v.Len(), err)
	}
	bits, err := q.Device.DeviceInfo(0x1019, 0) // CL_DEVICE_MEM_BASE_ADDR_ALIGN
	if err != nil || int(binary.LittleEndian.Uint32(bits)) != memBaseAlign*8 {
		t.Errorf("CL_DEVICE_MEM_BASE_ADDR_ALIGN %v bits, sub-buffers align to %d bytes", bits, memBaseAlign)
	}
}

// A USE_HOST_PTR buffer's host memory holds its contents after every
// command, and maps of it are that memory; other buffers map a copy.
func TestMemUseHostPtrAndMaps(t *testing.T) {
	ctx, q, recs := memContext(t)
	host := make([]byte, 256)
	b, err := ctx.NewBuffer(MemUseHostPtr, 256, host)
	wantStatus(t, "use host ptr", err, Success)
	q.Fill(b, []byte{1, 2}, 0, 8)
	other, _ := ctx.NewBuffer(0, 256, nil)
	q.Fill(other, []byte{9}, 0, 256)
	q.Copy(other, b, 0, 100, 4)
	if host[0] != 1 || host[7] != 2 || host[100] != 9 || host[104] != 0 {
		t.Errorf("host memory after fill and copy: %v", host[:8])
	}
	m, _, err := q.MapBuffer(b, MapRead|MapWrite, 16, 32, nil)
	wantStatus(t, "map", err, Success)
	if !m.ZeroCopy || &m.Mem[0] != &host[16] || b.MapCount() != 1 {
		t.Errorf("a map of a USE_HOST_PTR buffer is not its memory at the offset")
	}
	_, err = q.Unmap(m)
	wantStatus(t, "unmap", err, Success)
	_, err = q.Unmap(m)
	wantStatus(t, "unmap twice", err, InvalidValue)
	_, _, err = q.MapBuffer(b, MapRead|MapWriteInvalidateRegion, 0, 8, nil)
	wantStatus(t, "read and invalidate", err, InvalidValue)
	staging := make([]byte, 8)
	m, _, err = q.MapBuffer(other, MapWriteInvalidateRegion, 8, 8, func(n int) []byte { return staging[:n] })
	wantStatus(t, "map staged", err, Success)
	if m.ZeroCopy || staging[0] != 0 {
		t.Errorf("an invalidating map copied the contents: %v", staging)
	}
	copy(m.Mem, "abcdefgh")
	q.Unmap(m)
	got := make([]byte, 16)
	q.Read(other, 0, got)
	if string(got[8:]) != "abcdefgh" || got[7] != 9 {
		t.Errorf("after unmap: %q", got)
	}
	var names []string
	for _, r := range *recs {
		names = append(names, fmt.Sprintf("%s:%d", r.Command, r.Bytes))
	}
	// The G52 is not zero-copy: a map and an unmap move the whole buffer.
	want := "fill:8 fill:256 copy:4 map:256 unmap:256 map:0 unmap:256 read:16"
	if strings.Join(names, " ") != want {
		t.Errorf("records %v, want %s", names, want)
	}
}

// Rectangles: pitch defaults, bounds and the overlap test.
func TestMemRects(t *testing.T) {
	ctx, q, _ := memContext(t)
	b, _ := ctx.NewBuffer(0, 64, nil)
	src := []byte("0123456789ab")
	_, err := q.WriteRect(b, Rect{Origin: [3]int{1, 1, 0}, Row: 8}, Rect{}, [3]int{3, 2, 2}, src)
	wantStatus(t, "write rect", err, Success)
	got := make([]byte, 64)
	q.Read(b, 0, got)
	// Buffer slices default to 2 rows of 8 bytes: slice 1 starts at 16.
	if string(got[9:12]) != "012" || string(got[17:20]) != "345" || string(got[25:28]) != "678" || string(got[33:36]) != "9ab" {
		t.Errorf("rect landed as %q", got)
	}
	_, err = q.ReadRect(b, Rect{Origin: [3]int{0, 0, 3}, Row: 8}, Rect{}, [3]int{8, 2, 2}, make([]byte, 32))
	wantStatus(t, "past the end", err, InvalidValue)
	_, err = q.CopyRect(b, b, Rect{Row: 8}, Rect{Origin: [3]int{4, 0, 0}, Row: 8}, [3]int{4, 2, 1})
	wantStatus(t, "side by side", err, Success)
	_, err = q.CopyRect(b, b, Rect{Row: 8}, Rect{Origin: [3]int{0, 1, 0}, Row: 8}, [3]int{4, 2, 1})
	wantStatus(t, "overlapping rows", err, MemCopyOverlap)
	if HostExtent(Rect{Origin: [3]int{1, 0, 0}}, [3]int{4, 2, 3}) != 25 {
		t.Errorf("host extent %d", HostExtent(Rect{Origin: [3]int{1, 0, 0}}, [3]int{4, 2, 3}))
	}
}

// TestMapCost: on a zero-copy GPU (the Adreno 640) a map and an unmap take
// no time and move nothing; on the Mali-G52 a map of 64 bytes of a 1 MiB
// buffer takes as long as reading the whole buffer back, its unmap as long
// as writing it (seed 000: its driver copies entire buffers).
func TestMapCost(t *testing.T) {
	for _, gpu := range []string{"adreno-640", "mali-g52"} {
		ctx, q, records := memContextOn(t, gpu)
		const size = 1 << 20
		b, err := ctx.NewBuffer(0, size, nil)
		wantStatus(t, "buffer", err, Success)
		m, _, err := q.MapBuffer(b, MapRead|MapWrite, 4096, 64, func(n int) []byte { return make([]byte, n) })
		wantStatus(t, "map", err, Success)
		_, err = q.Unmap(m)
		wantStatus(t, "unmap", err, Success)
		q.Read(b, 0, make([]byte, size))
		q.Write(b, 0, make([]byte, size))
		recs := *records
		if len(recs) != 4 {
			t.Fatalf("%s: %d records, want 4", gpu, len(recs))
		}
		mapRec, unmapRec, read, write := recs[0], recs[1], recs[2], recs[3]
		if q.Device.GPU.HostCopy.ZeroCopy {
			if mapRec.TimeNS != 0 || unmapRec.TimeNS != 0 || mapRec.Bytes != 0 || unmapRec.Bytes != 0 {
				t.Errorf("%s (zero-copy): map %v ns %d B, unmap %v ns %d B; want nothing", gpu, mapRec.TimeNS, mapRec.Bytes, unmapRec.TimeNS, unmapRec.Bytes)
			}
			continue
		}
		if read.TimeNS <= 0 || mapRec.TimeNS != read.TimeNS || unmapRec.TimeNS != write.TimeNS || mapRec.Bytes != size || unmapRec.Bytes != size {
			t.Errorf("%s: map %v ns %d B (a whole read: %v ns), unmap %v ns %d B (a whole write: %v ns)", gpu, mapRec.TimeNS, mapRec.Bytes, read.TimeNS, unmapRec.TimeNS, unmapRec.Bytes, write.TimeNS)
		}
	}
}
