package opencl

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// 30,000 enqueues, each with an event the program releases, keep the
// process's memory flat: nothing is kept per command (released handles
// are recycled after a bounded quarantine).
func TestEnqueueLoopMemoryFlat(t *testing.T) {
	needCompilers(t)
	vendors := buildICD(t)
	bin := compileHost(t, "enqueue_loop.c")
	cmd := exec.Command(bin, "30000")
	cmd.Env = append(os.Environ(), "OCL_ICD_VENDORS="+vendors, "POCKETGPU_GPUS=mali-g52")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out, errOut.String())
	}
	if !strings.Contains(string(out), "a[0] = 30000 after 30000 launches") {
		t.Errorf("output %q", out)
	}
	var early, late int
	if _, err := fmt.Sscanf(errOut.String()[strings.Index(errOut.String(), "rss_kb"):], "rss_kb %d %d", &early, &late); err != nil {
		t.Fatalf("no rss line: %q", errOut.String())
	}
	// Garbage collection moves the figure by a few MiB either way; a
	// leak of 300 bytes per command would add 8 MiB.
	if late-early > 8<<10 {
		t.Errorf("resident memory grew from %d KiB after 3,000 launches to %d KiB after 30,000", early, late)
	}
	t.Logf("resident memory: %d KiB after 3,000 launches, %d KiB after 30,000", early, late)
}

// BenchmarkEnqueue measures what a kernel launch costs the host: in
// process through package opencl (model-ns: the simulation and the
// platform's bookkeeping) and through the ICD from a C program (icd-ns:
// the same plus the loader, cgo and handles). Their difference is the
// price of being an OpenCL platform; it is within the noise of the two
// (a few µs), so both are reported. Results only (functional), a
// 64-work-item kernel, so the simulation is small.
func BenchmarkEnqueue(b *testing.B) {
	p, err := NewPlatform([]string{"mali-g52"})
	if err != nil {
		b.Fatal(err)
	}
	ctx, _ := p.NewContext(p.Devices)
	q, _ := ctx.NewQueue(p.Devices[0], 0)
	q.Functional = true
	buf, _ := ctx.NewBuffer(MemReadWrite, 64*4, nil)
	prog, _ := ctx.NewProgram("__kernel void inc(__global int *a) { a[get_global_id(0)] += 1; }")
	if err := prog.Build(nil, ""); err != nil {
		b.Skipf("skipping: cannot build (compilers missing?): %v", err)
	}
	k, err := prog.NewKernel("inc")
	if err != nil {
		b.Fatal(err)
	}
	if err := k.SetArg(0, 8, nil, buf); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := q.NDRange(k, 1, []int{64}, nil, nil); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	model := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	b.ReportMetric(model, "model-ns")

	vendors, bin, ok := icdLoopProgram(b)
	if !ok {
		return
	}
	cmd := exec.Command(bin, fmt.Sprint(max(b.N, 2000)))
	cmd.Env = append(os.Environ(), "OCL_ICD_VENDORS="+vendors, "POCKETGPU_GPUS=mali-g52", "POCKETGPU_FUNCTIONAL=1")
	var errOut strings.Builder
	cmd.Stderr = &errOut
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v\n%s", err, errOut.String())
	}
	var icd float64
	i := strings.Index(errOut.String(), "ns_per_launch")
	if i < 0 {
		b.Fatalf("no timing: %s", errOut.String())
	}
	fmt.Sscanf(errOut.String()[i:], "ns_per_launch %g", &icd)
	b.ReportMetric(icd, "icd-ns")
}

// icdLoopProgram builds the ICD and enqueue_loop.c for a benchmark; ok is
// false (and the ICD figures are left out) when the tools are missing.
func icdLoopProgram(b *testing.B) (vendors, bin string, ok bool) {
	for _, tool := range []string{"gcc", "clang-14"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Logf("no %s: the ICD figures are left out", tool)
			return "", "", false
		}
	}
	return buildICD(b), compileHost(b, "enqueue_loop.c"), true
}
