package opencl

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The conformance-style host programs (testdata/host: prog_*, kernel_*
// (kernel_printf: a kernel's printf output among the program's lines),
// event_*, ctx_*, and a C++ one through the Khronos bindings) run on PoCL
// and on pocketgpu; they print only what the specification defines, so
// the outputs must be equal, and neither may print a FAIL line.
func TestProgKernelEventCtxHostPrograms(t *testing.T) {
	needCompilers(t)
	vendors := buildICD(t)
	pocl := "/etc/OpenCL/vendors/pocl.icd"
	if _, err := os.Stat(pocl); err != nil {
		t.Log("PoCL not installed (pocl-opencl-icd): outputs checked for FAIL lines only")
		pocl = ""
	}
	progs := []string{"prog_build.c", "prog_link.c", "kernel_args.c", "event_user.c", "event_mem.c", "ctx_queue.c", "kernel_printf.c", "cpp_pipeline.cpp"}
	for _, name := range progs {
		t.Run(strings.TrimSuffix(strings.TrimSuffix(name, ".c"), ".cpp"), func(t *testing.T) {
			bin := compileHost(t, name)
			var want string
			if pocl != "" {
				want, _ = runStdout(t, bin, "OCL_ICD_VENDORS="+pocl)
			}
			got, stderr := runStdout(t, bin, "OCL_ICD_VENDORS="+vendors, "POCKETGPU_GPUS=mali-g52")
			if strings.Contains(got, "FAIL") {
				t.Errorf("pocketgpu:\n%s\nstderr:\n%s", got, stderr)
			}
			if want != "" && got != want {
				t.Errorf("pocketgpu's output differs from PoCL's:\n%s\nPoCL:\n%s\nstderr:\n%s", got, want, stderr)
			}
			if name == "kernel_printf.c" && !strings.Contains(got, "between them\nwork-item 0 of 4\nwork-item 1 of 4\nwork-item 2 of 4\nwork-item 3 of 4\nafter them\n") {
				t.Errorf("the kernels' printf lines are not in their place:\n%s", got)
			}
			if name == "ctx_queue.c" && !strings.Contains(stderr, "pfn_notify called: 1") {
				t.Errorf("errors did not reach the context's pfn_notify:\n%s", stderr)
			}
		})
	}
}

// compileHost builds a C or C++ host program of testdata/host, or skips.
func compileHost(t testing.TB, name string) string {
	t.Helper()
	cc := "gcc"
	if strings.HasSuffix(name, ".cpp") {
		cc = "g++"
		if _, err := os.Stat("/usr/include/CL/opencl.hpp"); err != nil {
			t.Skip("skipping: the Khronos C++ bindings are not installed (Debian package opencl-clhpp-headers)")
		}
	}
	bin := filepath.Join(t.TempDir(), strings.TrimSuffix(name, filepath.Ext(name)))
	out, err := exec.Command(cc, "-O1", "-o", bin, filepath.Join("testdata", "host", name), "-lOpenCL").CombinedOutput()
	if err != nil {
		t.Skipf("skipping: cannot build an OpenCL host program (%s, ocl-icd-opencl-dev): %v\n%s", cc, err, out)
	}
	return bin
}

// runStdout runs a host program and returns its stdout and stderr; a
// failing exit status fails the test.
func runStdout(t *testing.T, bin string, env ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Errorf("%s %v: %v\n%s%s", filepath.Base(bin), env, err, out.String(), errOut.String())
	}
	return out.String(), errOut.String()
}
