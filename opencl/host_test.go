package opencl

import (
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// hostProgram compiles one of testdata/host's C programs against the
// OpenCL ICD loader, or skips when gcc or the loader is missing.
func hostProgram(t *testing.T, name string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), strings.TrimSuffix(name, ".c"))
	out, err := exec.Command("gcc", "-O1", "-o", bin, filepath.Join("testdata", "host", name), "-lOpenCL").CombinedOutput()
	if err != nil {
		t.Skipf("skipping: cannot build an OpenCL host program (gcc, ocl-icd-opencl-dev): %v\n%s", err, out)
	}
	return bin
}

func runHost(t *testing.T, bin string, env ...string) string {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", filepath.Base(bin), env, err, out)
	}
	return string(out)
}

var kernelNS = regexp.MustCompile(`(?m)^kernel_ns (\d+)$`)

// An unmodified OpenCL C program runs on the simulated GPUs through the
// ICD: the same results as PoCL running it on the CPU, and its profiling
// event measures the simulated kernel: the time the device API gives the
// same launch.
func TestHostProgramOnSimulatedGPUs(t *testing.T) {
	needCompilers(t)
	vendors := buildICD(t)
	bin := hostProgram(t, "saxpy.c")
	results := func(out string) string { return kernelNS.ReplaceAllString(out, "") }
	var reference string
	if _, err := os.Stat("/etc/OpenCL/vendors/pocl.icd"); err == nil {
		reference = results(runHost(t, bin, "OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd"))
	} else {
		t.Log("PoCL not installed (pocl-opencl-icd): results checked by the program itself only")
	}
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		out := runHost(t, bin, "OCL_ICD_VENDORS="+vendors, "POCKETGPU_GPUS="+gpu)
		if reference != "" && results(out) != reference {
			t.Errorf("%s: output differs from PoCL's:\n%s\nPoCL:\n%s", gpu, out, reference)
		}
		m := kernelNS.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%s: no kernel time in\n%s", gpu, out)
		}
		got, _ := strconv.ParseUint(m[1], 10, 64)
		if want := saxpyEventNS(t, gpu); got != want {
			t.Errorf("%s: the host program's event says %d ns, the platform's Go API %d ns", gpu, got, want)
		}
	}
}

// saxpyEventNS times testdata/host/saxpy.c's kernel and launch through
// the Go API.
func saxpyEventNS(t *testing.T, gpu string) uint64 {
	t.Helper()
	src := "__kernel void saxpy(__global const float *x, __global float *y, float a)\n{ size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n"
	p, _ := NewPlatform([]string{gpu})
	ctx, _ := p.NewContext(p.Devices)
	q, _ := ctx.NewQueue(p.Devices[0], QueueProfiling)
	const n = 4096
	x, y := make([]float32, n), make([]float32, n)
	for i := range x {
		x[i], y[i] = float32(i)*0.5, float32(n-i)
	}
	bx, _ := ctx.NewBuffer(MemReadOnly|MemCopyHostPtr, 4*n, floatBytes(x))
	by, _ := ctx.NewBuffer(MemReadWrite, 4*n, nil)
	q.Write(by, 0, floatBytes(y))
	prog, _ := ctx.NewProgram(src)
	if err := prog.Build(nil, "-cl-mad-enable"); err != nil {
		t.Fatal(err)
	}
	k, err := prog.NewKernel("saxpy")
	if err != nil {
		t.Fatal(err)
	}
	k.SetArg(0, 8, nil, bx)
	k.SetArg(1, 8, nil, by)
	k.SetArg(2, 4, binary.LittleEndian.AppendUint32(nil, math.Float32bits(2)), nil)
	ev, err := q.NDRange(k, 1, []int{n}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ev.End - ev.Start
}
