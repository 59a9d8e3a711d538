package opencl

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const clICDHeader = "/usr/include/CL/cl_icd.h"

// buildICD builds the ICD library (opencl/icd) into a temporary vendors
// directory, or skips when the C toolchain or the OpenCL headers are
// missing.
func buildICD(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("skipping: gcc not installed (Debian package gcc)")
	}
	if _, err := os.Stat(clICDHeader); err != nil {
		t.Skip("skipping: OpenCL headers not installed (Debian package opencl-c-headers)")
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "libpocketgpu-icd.so")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-o", lib, "./icd")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the ICD: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "pocketgpu.icd"), []byte(lib+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// clinfo, through the ICD loader, lists one pocketgpu device per GPU with
// the properties of its description, and survives the calls pocketgpu does
// not implement yet.
func TestClinfoListsSimulatedGPUs(t *testing.T) {
	if _, err := exec.LookPath("clinfo"); err != nil {
		t.Skip("skipping: clinfo not installed (Debian package clinfo)")
	}
	vendors := buildICD(t)
	cmd := exec.Command("clinfo")
	cmd.Env = append(os.Environ(), "OCL_ICD_VENDORS="+vendors, "POCKETGPU_GPUS=mali-g52,adreno-640,powervr-gx6250")
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("clinfo: %v\n%s%s", err, out.String(), errOut.String())
	}
	text := regexp.MustCompile(`[ \t]+`).ReplaceAllString(out.String(), " ")
	for _, want := range []string{
		"Number of platforms 1", "Platform Name pocketgpu", "Number of devices 3",
		"Device Name Mali-G52 MP2", "Device Vendor ARM", "Max clock frequency 800MHz",
		"Device Name QUALCOMM Adreno(TM) 640", "Device Vendor QUALCOMM", "Max compute units 2",
		"Device Name PowerVR GX6250", "Local memory size 4096 (4KiB)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("clinfo output lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("clinfo output:\n%s", out.String())
	}
}

// Error codes for misuse, and CL_INVALID_OPERATION for what is not
// implemented yet, from a C program: never a crash.
func TestHostProgramErrors(t *testing.T) {
	needCompilers(t)
	vendors := buildICD(t)
	bin := hostProgram(t, "errors.c")
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "OCL_ICD_VENDORS="+vendors, "POCKETGPU_GPUS=mali-g52")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Errorf("%v\n%s", err, out)
	}
	for _, want := range []string{"ok release twice", "ok unsupported native kernel", "pocketgpu: clEnqueueNativeKernel is not supported yet"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A bad POCKETGPU_GPUS gives no platform and a message, not a crash.
func TestICDBadGPUList(t *testing.T) {
	if _, err := exec.LookPath("clinfo"); err != nil {
		t.Skip("skipping: clinfo not installed (Debian package clinfo)")
	}
	vendors := buildICD(t)
	cmd := exec.Command("clinfo", "-l")
	cmd.Env = append(os.Environ(), "OCL_ICD_VENDORS="+vendors, "POCKETGPU_GPUS=mali-g5")
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), `POCKETGPU_GPUS="mali-g5"`) || strings.Contains(string(out), "Platform #0: pocketgpu") {
		t.Errorf("clinfo with a bad GPU list:\n%s", out)
	}
}

// stubs.c is what stubgen makes of the installed header.
func TestStubsFresh(t *testing.T) {
	if _, err := os.Stat(clICDHeader); err != nil {
		t.Skip("skipping: OpenCL headers not installed (Debian package opencl-c-headers)")
	}
	cmd := exec.Command("go", "run", "./internal/stubgen", clICDHeader, ".")
	cmd.Dir = "icd"
	got, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("icd/stubs.c")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("icd/stubs.c is stale: run go generate ./opencl/icd")
	}
}
