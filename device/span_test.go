package device

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// A work-group that one Adreno 640 uSPTP cannot hold (1024 work-items of
// an ArchProbe-style float16 multiply-add chain, 34 registers) spreads its
// warps over the three uSPTPs of an SP (workgroup_spans_cluster): alone on
// the GPU it launches warps on cores 0-2 and none on 3-5.
func TestWorkgroupSpansCluster(t *testing.T) {
	for _, tool := range []string{"clang-14", "llvm-spirv-14"} {
		if _, err := kernel.FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
	spv, err := kernel.Compile("testdata/kernels/gflops_vec.cl", kernel.Options{Defines: []string{"VEC=16"}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := arch.Lookup("adreno-640")
	if err != nil {
		t.Fatal(err)
	}
	dev := Open(g)
	k, err := dev.Load(spv, "gflops", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if size, _ := k.MaxWorkgroupSize(g, 0); size != 1024 {
		t.Fatalf("CL_KERNEL_WORK_GROUP_SIZE %d with %d registers, want 1024 (the SP's register files)", size, k.Regs)
	}
	out := dev.Alloc(4*1024, "out")
	r, err := dev.Time(k, NDRange{Dims: 1, Global: [3]int{1024, 1, 1}, Local: [3]int{1024, 1, 1}}, []Arg{BufferArg(out), ValueArg([]byte{0, 0, 128, 63})}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Timing.PerCore) != g.Cores {
		t.Fatalf("%d cores' counters, want %d", len(r.Timing.PerCore), g.Cores)
	}
	for c, set := range r.Timing.PerCore {
		n := 0.0
		for _, it := range set {
			if it.Name == "warps_launched" {
				n = it.Value
			}
		}
		if inSP := c < g.CoresPerCluster; inSP != (n > 0) {
			t.Errorf("core %d launched %g warps; the work-group should spread over cores 0-%d only", c, n, g.CoresPerCluster-1)
		}
	}
}
