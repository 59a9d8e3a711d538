package oclref

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/kernel"
)

func needOpenCL(t *testing.T) {
	t.Helper()
	if err := Available(); err != nil {
		if !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "pocl-opencl-icd and ocl-icd-libopencl1") {
			t.Fatalf("Available() = %v: does not wrap ErrUnavailable or name the packages", err)
		}
		t.Skipf("skipping: %v", err)
	}
}

func parseArgs(t *testing.T, specs ...string) ([]kernel.Arg, [][]byte) {
	t.Helper()
	var args []kernel.Arg
	var init [][]byte
	for _, s := range specs {
		a, err := kernel.ParseArg(s)
		if err != nil {
			t.Fatal(err)
		}
		d, err := a.Materialize("")
		if err != nil {
			t.Fatal(err)
		}
		args = append(args, a)
		init = append(init, d)
	}
	return args, init
}

const testSource = `
__kernel void saxpy(float a, __global const float *x, __global float *y, uint n)
{
    uint i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}

// Sums each work-group's inputs through local memory.
__kernel void groupsum(__global const uint *in, __global uint *out, __local uint *tmp)
{
    uint l = get_local_id(0), n = get_local_size(0);
    tmp[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0) {
        uint s = 0;
        for (uint i = 0; i < n; i++)
            s += tmp[i];
        out[get_group_id(0)] = s;
    }
}

__constant sampler_t smp = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;

__kernel void images(read_only image1d_buffer_t ib, read_only image2d_t im, __global uint4 *o1, __global float4 *o2)
{
    int x = get_global_id(0), y = get_global_id(1), w = get_global_size(0);
    o2[y * w + x] = read_imagef(im, smp, (int2)(x, y));
    if (y == 0)
        o1[x] = read_imageui(ib, x) + (uint4)(1, 2, 3, 4);
}
`

func f32s(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func u32s(b []byte) []uint32 {
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(b[4*i:])
	}
	return out
}

func TestRunBuffersScalars(t *testing.T) {
	needOpenCL(t)
	args, init := parseArgs(t, "f32:2", "buf:f32:100=iota", "buf:f32:100=fill:1", "u32:90")
	res, err := Run([]byte(testSource), "-cl-std=CL1.2", "saxpy", []int{128}, nil, args, init)
	if err != nil {
		t.Fatal(err)
	}
	if res.Args[0] != nil || res.Args[3] != nil {
		t.Errorf("scalars should have no final contents")
	}
	if !strings.Contains(res.Device, "Portable Computing Language") {
		t.Logf("device is %q, not PoCL", res.Device)
	}
	y := f32s(res.Args[2])
	for i, v := range y {
		want := float32(1)
		if i < 90 {
			want = 2*float32(i) + 1
		}
		if v != want {
			t.Fatalf("y[%d] = %v, want %v", i, v, want)
		}
	}
	if x := f32s(res.Args[1]); x[99] != 99 {
		t.Errorf("x was changed: x[99] = %v", x[99])
	}
	if res.Seconds <= 0 {
		t.Errorf("Seconds = %v", res.Seconds)
	}
}

func TestRunLocal(t *testing.T) {
	needOpenCL(t)
	args, init := parseArgs(t, "buf:u32:256=iota", "buf:u32:4", "local:256")
	res, err := Run([]byte(testSource), "", "groupsum", []int{256}, []int{64}, args, init)
	if err != nil {
		t.Fatal(err)
	}
	for g, v := range u32s(res.Args[1]) {
		want := uint32(0)
		for i := 64 * g; i < 64*(g+1); i++ {
			want += uint32(i)
		}
		if v != want {
			t.Errorf("group %d sum = %d, want %d", g, v, want)
		}
	}
}

func TestRunImages(t *testing.T) {
	needOpenCL(t)
	args, init := parseArgs(t, "image1d_buffer:u32:8=iota", "image2d:f32:8x4=random:3", "buf:u32x4:8", "buf:f32x4:32")
	res, err := Run([]byte(testSource), "", "images", []int{8, 4}, nil, args, init)
	if err != nil {
		t.Fatal(err)
	}
	o1 := u32s(res.Args[2])
	for i, v := range o1 {
		if want := uint32(i) + uint32(i%4) + 1; v != want {
			t.Fatalf("o1 component %d = %d, want %d", i, v, want)
		}
	}
	if string(res.Args[3]) != string(init[1]) {
		t.Errorf("read_imagef did not return the image2d texels")
	}
	if string(res.Args[1]) != string(init[1]) {
		t.Errorf("image2d read back differs from its contents")
	}
}

func TestRunErrors(t *testing.T) {
	args, init := parseArgs(t, "f32:2", "buf:f32:100", "buf:f32:100", "u32:90")
	tests := []struct {
		name          string
		src, entry    string
		global, local []int
		init          [][]byte
		want          string
		needCL        bool
	}{
		{"no entry", testSource, "", []int{1}, nil, init, "no kernel entry point", false},
		{"4 dims", testSource, "saxpy", []int{1, 1, 1, 1}, nil, init, "1 to 3", false},
		{"zero size", testSource, "saxpy", []int{0}, nil, init, "not positive", false},
		{"local dims", testSource, "saxpy", []int{64}, []int{8, 8}, init, "has 2 dimensions", false},
		{"local divides", testSource, "saxpy", []int{100}, []int{64}, init, "does not divide", false},
		{"initial count", testSource, "saxpy", []int{64}, nil, init[:2], "2 initial contents for 4 arguments", false},
		{"initial size", testSource, "saxpy", []int{64}, nil, [][]byte{nil, make([]byte, 8), init[2], nil}, "8 bytes of initial contents, want 400", false},
		{"build", "__kernel void k(__global int *a) { a[0] = nope; }", "k", []int{1}, nil, init, "nope", true},
		{"entry", testSource, "saxpi", []int{64}, nil, init, `kernel "saxpi" not found`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needCL {
				needOpenCL(t)
			}
			_, err := Run([]byte(tt.src), "", tt.entry, tt.global, tt.local, args, tt.init)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// TestNoPlatform runs this test binary again with the OpenCL ICD loader
// pointed at an empty vendor directory, so that no platform exists, and
// checks that Available then says what to install.
func TestNoPlatform(t *testing.T) {
	if os.Getenv("OCLREF_CHILD") == "1" {
		err := Available()
		fmt.Printf("child: %v\n", err)
		if err == nil || !errors.Is(err, ErrUnavailable) {
			os.Exit(3)
		}
		return
	}
	needOpenCL(t) // only meaningful where the library loads at all
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoPlatform$")
	cmd.Env = append(os.Environ(), "OCLREF_CHILD=1", "OCL_ICD_VENDORS="+t.TempDir(), "OCL_ICD_FILENAMES=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "install the Debian packages pocl-opencl-icd and ocl-icd-libopencl1 (no OpenCL platform") {
		t.Errorf("child output:\n%s", out)
	}
}
