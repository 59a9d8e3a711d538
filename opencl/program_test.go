package opencl

import (
	"encoding/binary"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/kernel"
)

func needCompilers(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"clang-14", "llvm-spirv-14", "spirv-val"} {
		if _, err := kernel.FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
}

func floats(b []byte) []float32 {
	out := make([]float32, len(b)/4)
	for i := range out {
		out[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return out
}

func floatBytes(v []float32) []byte {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

// A host program's sequence — context, queue, buffers, program from
// source, kernel, arguments, NDRange with no local size, read back — gives
// the right results, and the kernel's event lasts exactly the simulated
// time the same launch takes through the device API (as pocketgpu run).
func TestSaxpyThroughThePlatform(t *testing.T) {
	needCompilers(t)
	src, err := os.ReadFile("../examples/saxpy.cl")
	if err != nil {
		t.Fatal(err)
	}
	const n = 4096
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i)*0.5, float32(n-i)
	}
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		p, err := NewPlatform([]string{gpu})
		if err != nil {
			t.Fatal(err)
		}
		ctx, err := p.NewContext(p.Devices)
		if err != nil {
			t.Fatal(err)
		}
		q, err := ctx.NewQueue(p.Devices[0], QueueProfiling)
		if err != nil {
			t.Fatal(err)
		}
		bx, err := ctx.NewBuffer(MemReadOnly|MemCopyHostPtr, 4*n, floatBytes(x))
		if err != nil {
			t.Fatal(err)
		}
		by, err := ctx.NewBuffer(MemReadWrite, 4*n, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := q.Write(by, 0, floatBytes(y)); err != nil {
			t.Fatal(err)
		}
		prog, err := ctx.NewProgram(string(src))
		if err != nil {
			t.Fatal(err)
		}
		if err := prog.Build(nil, "-cl-mad-enable"); err != nil {
			_, log, _, _ := prog.BuildInfo(p.Devices[0])
			t.Fatalf("%v\n%s", err, log)
		}
		k, err := prog.NewKernel("saxpy")
		if err != nil {
			t.Fatal(err)
		}
		a := binary.LittleEndian.AppendUint32(nil, math.Float32bits(2))
		for i, set := range []error{k.SetArg(0, 8, nil, bx), k.SetArg(1, 8, nil, by), k.SetArg(2, 4, a, nil)} {
			if set != nil {
				t.Fatalf("arg %d: %v", i, set)
			}
		}
		ev, err := q.NDRange(k, 1, []int{n}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := make([]byte, 4*n)
		if _, err := q.Read(by, 0, out); err != nil {
			t.Fatal(err)
		}
		for i, v := range floats(out) {
			if want := 2*x[i] + y[i]; v != want {
				t.Fatalf("%s: y[%d] = %g, want %g", gpu, i, v, want)
			}
		}
		// The same launch through the device API, as `pocketgpu run` makes it.
		dev := device.Open(p.Devices[0].GPU)
		dk, err := dev.Load(prog.executable(p.Devices[0]).SPIRV, "saxpy", device.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		r, err := dev.Time(dk, device.NDRange{Dims: 1, Global: [3]int{n, 1, 1}},
			[]device.Arg{device.BufferArg(dev.AllocFrom(floatBytes(x), "x")), device.BufferArg(dev.AllocFrom(floatBytes(y), "y")), device.ValueArg(a)}, device.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := ev.End - ev.Start; got != uint64(math.Round(r.Timing.TimeNS)) || got == 0 {
			t.Errorf("%s: kernel event %d ns, device API %.0f ns", gpu, got, r.Timing.TimeNS)
		}
		if ev.Start == 0 || ev.Start < ev.Queued {
			t.Errorf("%s: kernel event starts at %d (queued %d): the writes before it took no time", gpu, ev.Start, ev.Queued)
		}
	}
}

// Misuse gets the OpenCL error code and a message, never a panic.
func TestPlatformErrors(t *testing.T) {
	p, _ := NewPlatform([]string{"mali-g52"})
	ctx, _ := p.NewContext(p.Devices)
	q, _ := ctx.NewQueue(p.Devices[0], 0)
	status := func(err error) Status {
		var e *Error
		if errors.As(err, &e) {
			return e.Status
		}
		return Success
	}
	_, err := ctx.NewBuffer(MemReadOnly|MemWriteOnly, 16, nil)
	if status(err) != InvalidValue {
		t.Errorf("two access flags: %v", err)
	}
	_, err = ctx.NewBuffer(0, 0, nil)
	if status(err) != InvalidBufferSize {
		t.Errorf("empty buffer: %v", err)
	}
	_, err = ctx.NewBuffer(MemCopyHostPtr, 16, nil)
	if status(err) != InvalidHostPtr {
		t.Errorf("copy with no host pointer: %v", err)
	}
	b, _ := ctx.NewBuffer(0, 16, nil)
	if _, err := q.Read(b, 8, make([]byte, 16)); status(err) != InvalidValue {
		t.Errorf("read past the end: %v", err)
	}
	if _, err := q.Copy(b, b, 0, 4, 8); status(err) != MemCopyOverlap {
		t.Errorf("overlapping copy: %v", err)
	}
	if _, err := q.Fill(b, []byte{1, 2, 3}, 0, 12); status(err) != InvalidValue {
		t.Errorf("3-byte pattern: %v", err)
	}
	if _, err := ctx.NewQueue(p.Devices[0], 1<<2); status(err) != InvalidQueueProperties {
		t.Errorf("bad queue property: %v", err)
	}
	if _, err := parseOptions("-O3", buildOptions); status(err) != InvalidBuildOptions {
		t.Errorf("-O3: %v", err)
	}
	needCompilers(t)
	prog, _ := ctx.NewProgram("__kernel void k(__global float *a) { a[0] = missing; }")
	if err := prog.Build(nil, ""); status(err) != BuildProgramFailure {
		t.Errorf("broken source: %v", err)
	}
	if st, log, _, _ := prog.BuildInfo(p.Devices[0]); st != BuildError || !strings.Contains(log, "missing") {
		t.Errorf("build log: %d %q", st, log)
	}
	if _, err := prog.NewKernel("k"); status(err) != InvalidProgramExecutable {
		t.Errorf("kernel of a failed build: %v", err)
	}
	good, _ := ctx.NewProgram("__kernel void k(__global float *a, float s, __local float *l) { a[get_global_id(0)] *= s; }")
	if err := good.Build(nil, "-D N=4 -I."); err != nil {
		t.Fatal(err)
	}
	if _, err := good.NewKernel("nope"); status(err) != InvalidKernelName {
		t.Errorf("unknown kernel: %v", err)
	}
	k, err := good.NewKernel("k")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		err  error
		want Status
	}{
		{k.SetArg(3, 4, nil, nil), InvalidArgIndex},
		{k.SetArg(0, 4, nil, b), InvalidArgSize},
		{k.SetArg(1, 8, []byte{0, 0, 0, 0, 0, 0, 0, 0}, nil), InvalidArgSize},
		{k.SetArg(2, 64, []byte{1}, nil), InvalidArgValue},
	} {
		if status(tc.err) != tc.want {
			t.Errorf("SetArg: %v, want %d", tc.err, tc.want)
		}
	}
	if _, err := q.NDRange(k, 1, []int{64}, nil, nil); status(err) != InvalidKernelArgs {
		t.Errorf("args not set: %v", err)
	}
	k.SetArg(0, 8, nil, b)
	k.SetArg(1, 4, []byte{0, 0, 128, 63}, nil)
	k.SetArg(2, 64, nil, nil)
	if _, err := q.NDRange(k, 1, []int{64}, []int{48}, nil); status(err) != InvalidWorkGroupSize {
		t.Errorf("local size not dividing: %v", err)
	}
	if _, err := q.NDRange(k, 4, []int{1, 1, 1, 1}, nil, nil); status(err) != InvalidWorkDimension {
		t.Errorf("4 dimensions: %v", err)
	}
	if _, err := q.NDRange(k, 1, []int{4}, nil, nil); err != nil {
		t.Errorf("a good launch: %v", err)
	}
}
