package main

import (
	"encoding/binary"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const kdir = "testdata/kernels/"
const corpusDir = "../../internal/corpus/kernels/"

func vecaddArgs() []string {
	return []string{"--global", "1024", "--local", "64",
		"--arg", "buf:f32:1000=random:1", "--arg", "buf:f32:1000=random:2", "--arg", "buf:f32:1000", "--arg", "u32:1000"}
}

func TestRunJSON(t *testing.T) {
	args := append([]string{"run", "--gpu", "mali-g52", "--functional", corpusDir + "vecadd.spv", "--json", "--print", "2:3"}, vecaddArgs()...)
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"gpu", "kernel", "entry", "global", "local", "warp_width", "workgroups", "warps",
		"thread_instructions", "warp_instructions", "host_seconds"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if r["warp_width"].(float64) != 8 || r["workgroups"].(float64) != 16 || r["warps"].(float64) != 128 {
		t.Errorf("mali-g52 vecadd: warp width %v, %v work-groups, %v warps; want 8, 16, 128", r["warp_width"], r["workgroups"], r["warps"])
	}
}

// TestRunDump checks --dump against a Go computation of the same sum.
func TestRunDump(t *testing.T) {
	out := filepath.Join(t.TempDir(), "c.bin")
	a := filepath.Join(t.TempDir(), "a.bin")
	args := append([]string{"run", "--gpu", "adreno-640", "--functional", corpusDir + "vecadd.spv", "--dump", "2=" + out, "--dump", "0=" + a}, vecaddArgs()...)
	if code, _, errOut := runCLI(t, args...); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	c, err := os.ReadFile(out)
	if err != nil || len(c) != 4000 {
		t.Fatalf("dump: %d bytes, %v", len(c), err)
	}
	av, _ := os.ReadFile(a)
	for i := 0; i < 1000; i++ {
		x := math.Float32frombits(binary.LittleEndian.Uint32(av[4*i:]))
		y := math.Float32frombits(binary.LittleEndian.Uint32(c[4*i:]))
		if x <= 0 || y <= x {
			t.Fatalf("element %d: a=%v c=%v (c = a + b with b in [0,1))", i, x, y)
		}
	}
}

func TestRunJobFile(t *testing.T) {
	dir := t.TempDir()
	spv, _ := os.ReadFile(corpusDir + "vecadd.spv")
	os.WriteFile(filepath.Join(dir, "k.spv"), spv, 0o644)
	job := `gpu: [mali-g52, powervr-gx6250]
kernel: k.spv
global: [1024]
local: [64]
functional: true
args:
  - buf:f32:1000=random:1
  - buf:f32:1000=random:2
  - buf:f32:1000
  - u32:1000
dump: {2: out.bin}
print: ["2:2"]
`
	os.WriteFile(filepath.Join(dir, "job.yaml"), []byte(job), 0o644)
	code, out, errOut := runCLI(t, "run", filepath.Join(dir, "job.yaml"), "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Runs []map[string]any `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil || len(r.Runs) != 2 {
		t.Fatalf("want two runs: %v\n%s", err, out)
	}
	if r.Runs[1]["warp_width"].(float64) != 32 {
		t.Errorf("powervr-gx6250 runs tasks of 32, got %v", r.Runs[1]["warp_width"])
	}
	if _, err := os.Stat(filepath.Join(dir, "out.bin")); err != nil {
		t.Errorf("dump relative to the job file: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "bad.yaml"), []byte("kernel: k.spv\nglobl: [4]\n"), 0o644)
	code, _, errOut = runCLI(t, "run", filepath.Join(dir, "bad.yaml"))
	if code != exitBadInput || !strings.Contains(errOut, "globl") {
		t.Errorf("unknown job key: exit %d: %s", code, errOut)
	}
}

func TestRunPrintf(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--gpu", "mali-g52", "--functional", kdir+"printf.spv", "--global", "4", "--arg", "buf:f32:4=iota")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"item 0: x=0.00 v=0,-1\n", "item 1: x=1.00 v=1,-1\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("printf output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "item 2") {
		t.Errorf("work-item 2 should not print:\n%s", out)
	}
}

// TestRunBadInput covers every bad-input case of issue 3: each gives exit
// code 2 and a message saying what is wrong.
func TestRunBadInput(t *testing.T) {
	cases := []struct {
		name string
		args []string
		want []string
	}{
		{"not spir-v", []string{kdir + "notspirv.spv", "--global", "1"}, []string{"not SPIR-V"}},
		{"truncated", []string{kdir + "truncated.spv", "--global", "1"}, []string{"word 9", "past the end"}},
		{"unsupported capability", []string{kdir + "unsupported.spv", "--global", "1"}, []string{"capability Groups"}},
		{"geometry shader", []string{kdir + "geom.spv", "--global", "1"}, []string{"capability Geometry"}},
		{"ill-typed op", []string{kdir + "rawop.spv", "--global", "1"}, []string{"OpTranspose", "word 40"}},
		{"no such entry", []string{kdir + "oob.spv", "--entry", "nope", "--global", "1"}, []string{`no entry point "nope"`, `"oob"`}},
		{"too few args", []string{kdir + "oob.spv", "--global", "64", "--arg", "buf:f32:64"}, []string{"takes 2 argument specs, 1 given"}},
		{"wrong kind", []string{kdir + "oob.spv", "--global", "64", "--arg", "u32:1", "--arg", "u32:64"}, []string{"argument 0", "a scalar was given", "global buffer of f32"}},
		{"wrong element", []string{kdir + "oob.spv", "--global", "64", "--arg", "buf:i16:64", "--arg", "u32:64"}, []string{"holds f32", "gives i16"}},
		{"wrong scalar", []string{kdir + "oob.spv", "--global", "64", "--arg", "buf:f32:64", "--arg", "u64:64"}, []string{"argument 1", "4 bytes"}},
		{"bad spec", []string{kdir + "oob.spv", "--global", "64", "--arg", "buf:f31:64", "--arg", "u32:64"}, []string{"argument 0", "f31"}},
		{"local not dividing", []string{kdir + "oob.spv", "--global", "64", "--local", "5", "--arg", "buf:f32:64", "--arg", "u32:64"}, []string{"not a multiple of the local size 5"}},
		{"local over max", []string{kdir + "oob.spv", "--global", "1024", "--local", "1024", "--arg", "buf:f32:1024", "--arg", "u32:64"}, []string{"over mali-g52's maximum of 384"}},
		{"out of bounds", []string{kdir + "oob.spv", "--global", "64", "--arg", "buf:f32:64", "--arg", "u32:64"},
			[]string{"GPU fault in kernel oob", "work-item (63,0,0)", "write of 4 bytes", "past the end of buffer"}},
		{"divergent barrier", []string{kdir + "barrier_div.spv", "--global", "8", "--local", "8", "--arg", "buf:u32:8"}, []string{"barrier reached by only some work-items", "work-item (1,0,0)"}},
		{"early exit before barrier", []string{kdir + "early_exit.spv", "--global", "64", "--local", "64", "--arg", "buf:u32:64", "--arg", "u32:60"}, []string{"barrier reached by only some work-items"}},
		{"never finishes", []string{kdir + "spin.spv", "--global", "1", "--arg", "buf:u32:1", "--max-instructions", "100000"}, []string{"did not finish within 100000 warp instructions", "--max-instructions"}},
		{"no gpu", []string{"--gpu", "mali-g99", kdir + "oob.spv", "--global", "1"}, []string{"mali-g99"}},
		{"no global", []string{kdir + "oob.spv"}, []string{"no global size"}},
		{"bad global", []string{kdir + "oob.spv", "--global", "4,x"}, []string{"--global"}},
		{"print out of range", []string{kdir + "oob.spv", "--global", "4", "--arg", "buf:f32:64", "--arg", "u32:64", "--print", "7"}, []string{"--print 7"}},
		{"print a scalar", []string{corpusDir + "vecadd.spv", "--global", "1024", "--local", "64", "--arg", "buf:f32:1000", "--arg", "buf:f32:1000", "--arg", "buf:f32:1000", "--arg", "u32:1000", "--print", "3"}, []string{"no contents"}},
		{"missing file", []string{kdir + "nothere.spv", "--global", "1"}, []string{"nothere.spv"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			if args[0] != "--gpu" {
				args = append([]string{"--gpu", "mali-g52", "--functional"}, args...)
			}
			code, _, errOut := runCLI(t, append([]string{"run"}, args...)...)
			if code != exitBadInput {
				t.Fatalf("exit %d, want %d: %s", code, exitBadInput, errOut)
			}
			for _, w := range c.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("message lacks %q: %s", w, errOut)
				}
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "panic") {
				t.Errorf("stack trace in the message: %s", errOut)
			}
		})
	}
}

// bytes:HEX passes a struct by value as its raw bytes; a wrong size is
// refused with the struct's layout.
func TestRunStructByValue(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--gpu", "mali-g52", "--functional", kdir+"byval.spv", "--global", "4",
		"--arg", "buf:f32:4", "--arg", "bytes:03000000_0000003f_00002041_00008040_02000000_00000000", "--print", "0:4")
	// a=3, b=0.5, c=(10,4), n=2: (3 + 2i) * 0.5 + 10 - 4.
	if code != exitOK || !strings.Contains(out, "arg 0 (buf:f32:4): 7.5 8.5 9.5 10.5") {
		t.Errorf("exit %d: %s%s", code, out, errOut)
	}
	code, _, errOut = runCLI(t, "run", "--gpu", "mali-g52", "--functional", kdir+"byval.spv", "--global", "4",
		"--arg", "buf:f32:4", "--arg", "bytes:0300")
	if code != exitBadInput || !strings.Contains(errOut, "is 24 bytes; 2 bytes were given") {
		t.Errorf("wrong size: exit %d: %s", code, errOut)
	}
}

// A source is compiled per GPU as its driver would: double literals are
// float, with clang's warning, on a GPU without fp64, and double on one
// with it.
func TestRunCompilesForEachGPUsFP64(t *testing.T) {
	needCompilers(t)
	code, out, errOut := runCLI(t, "run", "--gpu", "mali-g52", "--gpu", "mali-t760", "--functional", kdir+"doubles.cl",
		"--global", "4", "--arg", "buf:f32:4=iota", "--print", "0:4")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"mali-g52 arg 0 (buf:f32:4=iota): 0.1 0.43333334 0.7666667 1.1", "mali-t760 arg 0 (buf:f32:4=iota): 0.1 0.43333334 0.76666665 1.1"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errOut, "double precision constant requires cl_khr_fp64, casting to single precision") {
		t.Errorf("no warning: %s", errOut)
	}
}

// TestRunLocalOutOfBounds: a kernel that writes past its work-group's
// local memory runs on with a warning naming its source line (and in
// --json's warnings); --strict makes it a fault, exit status 2.
func TestRunLocalOutOfBounds(t *testing.T) {
	args := []string{"run", "--gpu", "mali-g52", "../../device/testdata/kernels/localoob.spv", "--global", "256", "--local", "64", "--arg", "buf:i32:256"}
	code, out, errOut := runCLI(t, append(args, "--json")...)
	if code != 0 || !strings.Contains(errOut, "warning: kernel localoob: 4 local-memory accesses") || !strings.Contains(errOut, "localoob.cl:6") {
		t.Errorf("exit %d, stderr:\n%s\nwant 0 and a warning naming localoob.cl:6", code, errOut)
	}
	if !strings.Contains(out, `"warnings"`) {
		t.Errorf("--json has no warnings:\n%s", out)
	}
	code, _, errOut = runCLI(t, append(args, "--strict")...)
	if code != 2 || !strings.Contains(errOut, "GPU fault in kernel localoob") || !strings.Contains(errOut, "localoob.cl:6") {
		t.Errorf("--strict: exit %d, stderr:\n%s\nwant 2 and a fault at localoob.cl:6", code, errOut)
	}
}
