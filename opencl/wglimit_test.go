package opencl

import (
	"os"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/device"
)

// wgKernel builds the named kernel of the source file for the platform's
// one device and binds buffers of n floats to its pointer arguments and
// small values to the rest.
func wgKernel(t *testing.T, gpu, file, name string, defines string) (*Device, *Queue, *Kernel) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ctx, q := testQueueOn(t, gpu)
	prog, err := ctx.NewProgram(string(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := prog.Build(nil, defines); err != nil {
		_, log, _, _ := prog.BuildInfo(ctx.Devices[0])
		t.Fatalf("%v\n%s", err, log)
	}
	k, err := prog.NewKernel(name)
	if err != nil {
		t.Fatal(err)
	}
	buf, err := ctx.NewBuffer(MemReadWrite, 4<<16, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range k.Params {
		var err error
		if p.Kind == device.ParamGlobal || p.Kind == device.ParamConstant {
			err = k.SetArg(i, 8, nil, buf)
		} else {
			err = k.SetArg(i, 4, []byte{1, 0, 0, 0}, nil)
		}
		if err != nil {
			t.Fatalf("argument %d (%s): %v", i, p.Type, err)
		}
	}
	return ctx.Devices[0], q, k
}

func testQueueOn(t *testing.T, gpu string) (*Context, *Queue) {
	t.Helper()
	return testQueueWith(t, gpu, QueueProfiling)
}

// The work-group limits follow the vendors' rules: on the Adreno 640 a
// work-group may use the register files of an SP's three uSPTPs
// (workgroup_spans_cluster), so an ArchProbe-style float16 multiply-add
// chain (34 registers) runs 1024 work-items a group, as a real Adreno 640
// does; without the parameter one uSPTP's file caps it at 384 and the
// launch is refused. On the Mali-G52 a hotspot-style 16×16 stencil within
// 32 registers launches, and past 32 registers the limit halves to 192
// (Arm's Bifrost rule), refusing 384 with a clear error.
func TestWorkGroupLimitsFollowVendorRules(t *testing.T) {
	needCompilers(t)
	d, q, k := wgKernel(t, "adreno-640", "../device/testdata/kernels/gflops_vec.cl", "gflops", "-DVEC=16")
	info, err := k.WorkGroup(d)
	if err != nil {
		t.Fatal(err)
	}
	if info.Size != 1024 {
		t.Errorf("Adreno 640: CL_KERNEL_WORK_GROUP_SIZE %d, want 1024", info.Size)
	}
	if _, err := q.NDRange(k, 1, []int{2048}, []int{1024}, nil); err != nil {
		t.Errorf("Adreno 640: a work-group of 1024: %v", err)
	}
	d.GPU.WorkgroupSpansCluster = false // the limit moves with the parameter
	if info, _ := k.WorkGroup(d); info.Size != 384 {
		t.Errorf("Adreno 640 without workgroup_spans_cluster: CL_KERNEL_WORK_GROUP_SIZE %d, want 384", info.Size)
	}
	_, err = q.NDRange(k, 1, []int{2048}, []int{1024}, nil)
	wantStatus(t, "Adreno 640 without workgroup_spans_cluster, 1024 work-items", err, InvalidWorkGroupSize)
	if err != nil && !strings.Contains(err.Error(), "CL_KERNEL_WORK_GROUP_SIZE of 384") {
		t.Errorf("the refusal should name the limit: %v", err)
	}

	// More registers than an SP holds for 1024 work-items: refused.
	d, q, k = wgKernel(t, "adreno-640", "../device/testdata/kernels/gflops_vec.cl", "gflops", "-DVEC=16 -DWIDE")
	if info, _ := k.WorkGroup(d); info.Size >= 1024 {
		t.Errorf("Adreno 640, a kernel of %d registers: CL_KERNEL_WORK_GROUP_SIZE %d, want below 1024", k.loaded[k.Program.Ctx.sims[d]].Regs, info.Size)
	}
	_, err = q.NDRange(k, 1, []int{2048}, []int{1024}, nil)
	wantStatus(t, "Adreno 640, 1024 work-items over the SP's registers", err, InvalidWorkGroupSize)

	d, q, k = wgKernel(t, "mali-g52", "testdata/hotspot16.cl", "hotspot", "")
	if info, _ := k.WorkGroup(d); info.Size < 256 {
		t.Errorf("Mali-G52: hotspot's CL_KERNEL_WORK_GROUP_SIZE %d, want at least 256", info.Size)
	}
	if _, err := q.NDRange(k, 2, []int{64, 64}, []int{16, 16}, nil); err != nil {
		t.Errorf("Mali-G52: hotspot in 16×16 work-groups: %v", err)
	}
	d, q, k = wgKernel(t, "mali-g52", "../device/testdata/kernels/gflops_vec.cl", "gflops", "-DVEC=16")
	if info, _ := k.WorkGroup(d); info.Size != 192 {
		t.Errorf("Mali-G52, 34 registers: CL_KERNEL_WORK_GROUP_SIZE %d, want 192", info.Size)
	}
	_, err = q.NDRange(k, 1, []int{768}, []int{384}, nil)
	wantStatus(t, "Mali-G52, 34 registers, 384 work-items", err, InvalidWorkGroupSize)
}
