package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/pocketgpu/pocketgpu/opencl"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// testICD builds the ICD (and clock shim) once for the package's tests.
var testICD struct {
	once sync.Once
	dir  string
	err  error
}

// icdForTest returns a directory with a freshly built ICD, or skips when
// the tools to build it or to run OpenCL programs are missing.
func icdForTest(t *testing.T) string {
	t.Helper()
	needCompilers(t)
	if _, err := os.Stat("/usr/include/CL/cl_icd.h"); err != nil {
		t.Skip("skipping: OpenCL headers not installed (opencl-c-headers)")
	}
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("skipping: no gcc")
	}
	testICD.once.Do(func() {
		root, err := moduleRoot()
		if err != nil {
			testICD.err = err
			return
		}
		testICD.dir, testICD.err = os.MkdirTemp("", "pocketgpu-icd-")
		if testICD.err == nil {
			testICD.err = buildICDInto(t.Context(), root, testICD.dir)
		}
	})
	if testICD.err != nil {
		t.Fatal(testICD.err)
	}
	return testICD.dir
}

// hostBinary compiles an OpenCL C host program against the ICD loader.
func hostBinary(t *testing.T, src string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "prog")
	if out, err := exec.Command("gcc", "-O2", "-o", bin, src, "-lOpenCL").CombinedOutput(); err != nil {
		t.Skipf("skipping: cannot build an OpenCL host program (ocl-icd-opencl-dev): %v\n%s", err, out)
	}
	return bin
}

var hostTimedLine = regexp.MustCompile(`(?m)^(clock_gettime|gettimeofday)\s+(\d+) ns, its event (\d+) ns$`)

// A program that times kernels with the host clock measures the simulated
// GPU under --virtual-clock: the event's time plus the host's own time
// around the call (a few µs on an idle machine, under 1%; more when the
// machine is loaded and the program waits for a CPU, so the test allows
// half the event time — simulating the kernel takes about a second, which
// a missing shift would show), and the simulator without it.
func TestExecVirtualClock(t *testing.T) {
	dir := icdForTest(t)
	bin := hostBinary(t, "../../examples/hosttimed.c")
	// Kernels of 1.7 to 3.1 ms: the ICD's own host time per call (a few
	// µs, as a real driver's) stays well under 1%.
	for gpu, n := range map[string]string{"mali-g52": "1048576", "adreno-640": "4194304"} {
		code, out, errOut := runCLI(t, "exec", "--icd", dir, "--gpu", gpu, "--virtual-clock", "--", bin, n)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s%s", gpu, code, out, errOut)
		}
		lines := hostTimedLine.FindAllStringSubmatch(out, -1)
		if len(lines) != 2 {
			t.Fatalf("%s: output has no timings:\n%s", gpu, out)
		}
		for _, m := range lines {
			host, _ := strconv.ParseFloat(m[2], 64)
			event, _ := strconv.ParseFloat(m[3], 64)
			if event <= 0 || host < 0.99*event || host > 1.5*event {
				t.Errorf("%s: %s measured %.0f ns around a kernel whose event says %.0f ns", gpu, m[1], host, event)
			}
		}
	}
}

// --report gathers every command into one JSON document whose kernel has
// the same cycles as pocketgpu run gives the same kernel and sizes.
func TestExecReportMatchesRun(t *testing.T) {
	dir := icdForTest(t)
	bin := hostBinary(t, "../../examples/hosttimed.c")
	report := filepath.Join(t.TempDir(), "report.json")
	code, out, errOut := runCLI(t, "exec", "--icd", dir, "--gpu", "adreno-640", "--report", report, "--", bin, "4096")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	rep := readExecReport(t, report)
	// Two kernels, then the read of the result.
	var kernels []float64
	for i, c := range rep.Commands {
		if c.Seq != uint64(i+1) {
			t.Errorf("command %d has seq %d", i, c.Seq)
		}
		if c.Command == "kernel" {
			if c.Kernel != "triad" || len(c.Global) != 1 || c.Global[0] != 4096 || c.Counters.Value("cycles") != c.Cycles {
				t.Errorf("kernel record %+v", c)
			}
			kernels = append(kernels, c.Cycles)
		}
	}
	if len(kernels) != 2 || len(rep.Commands) != 3 || rep.Commands[2].Command != "read" || rep.Commands[2].Bytes != 4096*4 {
		t.Fatalf("report holds %d commands (%d kernels), want 2 kernels and a read of 16384 bytes", len(rep.Commands), len(kernels))
	}
	var total float64
	for _, row := range rep.Summary {
		total += row.Share
		if row.Name == "triad" && (row.Count != 2 || row.TimeNS != kernelNS(rep.Commands)) {
			t.Errorf("summary row %+v: want 2 launches and their time", row)
		}
	}
	if math.Abs(total-1) > 1e-9 {
		t.Errorf("summary shares add up to %v", total)
	}
	src := filepath.Join(t.TempDir(), "triad.cl")
	triad := "__kernel void triad(__global const float *x, __global const float *y, __global float *z, float a)\n" +
		"{ size_t i = get_global_id(0); z[i] = a * x[i] + y[i]; }\n"
	if err := os.WriteFile(src, []byte(triad), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, "run", "--gpu", "adreno-640", src, "--global", "4096", "--local", "64",
		"--arg", "buf:f32:4096=iota", "--arg", "buf:f32:4096=iota", "--arg", "buf:f32:4096", "--arg", "f32:3", "--json")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	var r runResult
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Cycles != kernels[0] {
		t.Errorf("the first kernel through the ICD took %v cycles, pocketgpu run %v", kernels[0], r.Cycles)
	}
}

// exec exits with the program's status, and refuses bad input with 2.
func TestExecExitStatus(t *testing.T) {
	dir := icdForTest(t)
	if code, _, errOut := runCLI(t, "exec", "--icd", dir, "--", "sh", "-c", "exit 3"); code != 3 {
		t.Errorf("exit status %d, want the program's 3 (%s)", code, errOut)
	}
	for _, args := range [][]string{
		{"exec", "--icd", dir, "--gpu", "mali-g999", "--", "true"},
		{"exec", "--icd", dir, "--", "no-such-program-here"},
		{"exec", "--icd", t.TempDir(), "--", "true"},
		{"exec", "--icd", dir, "--report", "/no/such/dir/r.json", "--", "true"},
	} {
		if code, _, errOut := runCLI(t, args...); code != exitBadInput || errOut == "" {
			t.Errorf("%v: exit %d (%q), want 2 and a message", args, code, errOut)
		}
	}
}

func kernelNS(cmds []opencl.CommandRecord) float64 {
	var ns float64
	for _, c := range cmds {
		if c.Command == "kernel" {
			ns += c.TimeNS
		}
	}
	return ns
}

// The README's pyopencl example runs unchanged on the simulated GPU.
func TestExecPyOpenCL(t *testing.T) {
	dir := icdForTest(t)
	python := "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import pyopencl, numpy").Run(); err != nil {
		t.Skip("skipping: no pyopencl for /usr/bin/python3 (Debian package python3-pyopencl)")
	}
	code, out, errOut := runCLI(t, "exec", "--icd", dir, "--gpu", "adreno-640", "--", python, "../../examples/saxpy.py")
	if code != 0 {
		t.Fatalf("exit %d:\n%s%s", code, out, errOut)
	}
	for _, want := range []string{"platform: pocketgpu\n", "device: QUALCOMM Adreno(TM) 640\n", "correct: True\n", "kernel: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(errOut, "Warning") || strings.Contains(errOut, "pocketgpu:") {
		t.Errorf("stderr:\n%s", errOut)
	}
}

// A program killed mid-run leaves a report of what it ran and nothing
// that stops the next run.
func TestExecKilledProgram(t *testing.T) {
	dir := icdForTest(t)
	bin := filepath.Join(t.TempDir(), "loop")
	if out, err := exec.Command("gcc", "-O2", "-I", "../../opencl/testdata/host", "-o", bin, "../../opencl/testdata/host/enqueue_loop.c", "-lOpenCL").CombinedOutput(); err != nil {
		t.Skipf("skipping: cannot build an OpenCL host program: %v\n%s", err, out)
	}
	report := filepath.Join(t.TempDir(), "report.json")
	script := bin + " 100000000 & sleep 2; kill -9 $!; wait $!; exit 0"
	code, out, errOut := runCLI(t, "exec", "--icd", dir, "--report", report, "--", "sh", "-c", script)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	var rep execReport
	data, err := os.ReadFile(report)
	if err != nil || json.Unmarshal(data, &rep) != nil || len(rep.Commands) < 10 {
		t.Fatalf("report of the killed program: %d commands, %v", len(rep.Commands), err)
	}
	code, out, errOut = runCLI(t, "exec", "--icd", dir, "--", bin, "100")
	if code != 0 || !strings.Contains(out, "a[0] = 100 after 100 launches") {
		t.Errorf("the run after: exit %d: %s%s", code, out, errOut)
	}
}

// pyopencl's array library (generated reductions, scans and elementwise
// kernels, sized by the kernels' work-group answers) gives numpy's results.
func TestExecPyOpenCLArrays(t *testing.T) {
	dir := icdForTest(t)
	python := "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import pyopencl, numpy").Run(); err != nil {
		t.Skip("skipping: no pyopencl for /usr/bin/python3 (Debian package python3-pyopencl)")
	}
	// pyopencl caches binaries and scan sizes: a fresh cache, each run.
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		code, out, errOut := runCLI(t, "exec", "--icd", dir, "--gpu", gpu, "--", python, "testdata/opencl/arrays.py")
		if code != 0 {
			t.Fatalf("%s: exit %d:\n%s%s", gpu, code, out, errOut)
		}
		for _, name := range []string{"sum", "dot", "max", "expression", "exp", "elementwise", "reduction", "cumsum"} {
			if !strings.Contains(out, name+" True\n") {
				t.Errorf("%s: %s is not True:\n%s%s", gpu, name, out, errOut)
			}
		}
	}
}

// exec --trace: a slice per command on the queue's track at its profiling
// times, engine tracks whose groups add up to the report's groups_issued,
// and the same bytes from a second run.
func TestExecTrace(t *testing.T) {
	dir := icdForTest(t)
	bin := hostBinary(t, "../../examples/hosttimed.c")
	tmp := t.TempDir()
	var first []byte
	for run := 0; run < 2; run++ {
		file := filepath.Join(tmp, fmt.Sprintf("t%d.pftrace", run))
		report := filepath.Join(tmp, fmt.Sprintf("r%d.json", run))
		code, out, errOut := runCLI(t, "exec", "--icd", dir, "--gpu", "mali-g52", "--trace", file, "--trace-interval", "500", "--report", report, "--", bin, "8192")
		if code != 0 || !strings.Contains(errOut, "wrote trace "+file) {
			t.Fatalf("exit %d: %s%s", code, out, errOut)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if run == 1 {
			if !bytes.Equal(data, first) {
				t.Errorf("two runs gave different traces (%d and %d bytes)", len(first), len(data))
			}
			break
		}
		first = data
		var rep execReport
		if raw, err := os.ReadFile(report); err != nil || json.Unmarshal(raw, &rep) != nil {
			t.Fatalf("report: %v", err)
		}
		d, slices, err := trace.DecodeSlices(data)
		if err != nil {
			t.Fatal(err)
		}
		var cmds []trace.DecodedSlice
		var groups uint64
		engines := 0
		for _, s := range slices {
			p := d.Path(s.Track)
			switch {
			case p == "Mali-G52 MP2/OpenCL commands":
				cmds = append(cmds, s)
			case strings.HasPrefix(p, "Mali-G52 MP2/Core ") && strings.Contains(p, "/engine "):
				engines++
				groups += s.Args["groups"].(uint64)
			}
		}
		if len(cmds) != len(rep.Commands) {
			t.Fatalf("%d command slices for %d commands", len(cmds), len(rep.Commands))
		}
		var want uint64
		for i, c := range rep.Commands {
			name := c.Kernel
			if c.Command == "read" {
				name = "read buffer"
			}
			s := cmds[i]
			if s.Name != name || s.Start != c.StartNS || s.End != c.EndNS {
				t.Errorf("command %d: slice %q %d..%d, report %q %d..%d", i, s.Name, s.Start, s.End, name, c.StartNS, c.EndNS)
			}
			want += uint64(c.Counters.Value("groups_issued"))
		}
		if engines == 0 || groups != want || want == 0 {
			t.Errorf("%d engine slices hold %d groups, the report's groups_issued %d", engines, groups, want)
		}
	}
}

// Bad --trace input is refused before the program runs.
func TestExecTraceBadInput(t *testing.T) {
	dir := t.TempDir()           // not an ICD: every case must fail before it matters
	prog, err := os.Executable() // a program that exists, with only Go on PATH too
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"exec", "--icd", dir, "--trace", "/no/such/dir/t.pftrace", "--", prog},
		{"exec", "--icd", dir, "--trace", filepath.Join(dir, "t.pftrace"), "--trace-interval", "0", "--", prog},
		{"exec", "--icd", dir, "--trace", filepath.Join(dir, "t.pftrace"), "--trace-interval", "NaN", "--", prog},
		{"exec", "--icd", dir, "--trace-interval", "100", "--", prog},
		{"exec", "--icd", dir, "--trace", filepath.Join(dir, "t.pftrace"), "--functional", "--", prog},
	} {
		if code, _, errOut := runCLI(t, args...); code != exitBadInput || !strings.Contains(errOut, "trace") {
			t.Errorf("%v: exit %d (%q), want 2 and a message", args, code, errOut)
		}
	}
}

// A program that releases its context and ends with _exit (no atexit
// hooks) has its trace from the release: each device's commands on its
// own group.
func TestExecTraceReleaseExit(t *testing.T) {
	dir := icdForTest(t)
	bin := hostBinary(t, "testdata/opencl/release_exit.c")
	file := filepath.Join(t.TempDir(), "t.pftrace")
	code, out, errOut := runCLI(t, "exec", "--icd", dir, "--gpu", "mali-g52", "--gpu", "adreno-640", "--trace", file, "--", bin)
	if code != 0 || out != "done\n" {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	d, slices, err := trace.DecodeSlices(data)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, s := range slices {
		got[d.Path(s.Track)] = append(got[d.Path(s.Track)], s.Name)
	}
	want := map[string][]string{
		"Mali-G52 MP2/OpenCL commands":            {"write buffer", "read buffer"},
		"QUALCOMM Adreno(TM) 640/OpenCL commands": {"write buffer", "write buffer", "read buffer"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("command tracks %q, want %q", got, want)
	}
}

// TestExecDetail: a program that repeats launches prints the same event
// times and results whether exec reuses the repeats' figures (--detail
// auto, the default) or simulates every launch (--detail full, or
// POCKETGPU_DETAIL=full), and the report counts the reused launches.
func TestExecDetail(t *testing.T) {
	dir := icdForTest(t)
	bin := hostBinary(t, "testdata/opencl/repeat.c")
	runs := map[string]execReport{}
	outs := map[string]string{}
	for _, mode := range []string{"auto", "full", "env"} {
		report := filepath.Join(t.TempDir(), mode+".json")
		args := []string{"exec", "--icd", dir, "--gpu", "adreno-640", "--report", report}
		if mode != "env" {
			args = append(args, "--detail", mode)
		} else {
			t.Setenv("POCKETGPU_DETAIL", "full")
		}
		code, out, errOut := runCLI(t, append(args, "--", bin)...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s%s", mode, code, out, errOut)
		}
		runs[mode], outs[mode] = readExecReport(t, report), out
	}
	if outs["auto"] != outs["full"] || outs["env"] != outs["full"] {
		t.Errorf("the program's output differs:\n--detail auto:\n%s\n--detail full:\n%s\nPOCKETGPU_DETAIL=full:\n%s", outs["auto"], outs["full"], outs["env"])
	}
	reused := map[string]int{}
	for mode, rep := range runs {
		for _, row := range rep.Summary {
			reused[mode+" "+row.Name] = row.Reused
		}
	}
	// scale leaves its buffers as they were after its first launch; acc's
	// input is put back before each launch: both reach a fixed point.
	for _, name := range []string{"scale", "acc"} {
		if reused["auto "+name] < 3 || reused["full "+name] != 0 || reused["env "+name] != 0 {
			t.Errorf("%s: reused launches auto %d, full %d, env %d; want 3 or more, 0, 0", name, reused["auto "+name], reused["full "+name], reused["env "+name])
		}
	}
	if code, _, errOut := runCLI(t, "exec", "--icd", dir, "--detail", "some", "--", bin); code != exitBadInput || !strings.Contains(errOut, "want auto or full") {
		t.Errorf("--detail some: exit %d: %s", code, errOut)
	}
}

// TestExecFDTD2D runs examples/fdtd2d.c, a PolyBench-style solver of three
// kernels a time step, on a small grid: its results must match its own
// host computation (it exits non-zero otherwise).
func TestExecFDTD2D(t *testing.T) {
	dir := icdForTest(t)
	src := "../../examples/fdtd2d.c"
	bin := filepath.Join(t.TempDir(), "fdtd2d")
	if out, err := exec.Command("gcc", "-O2", "-o", bin, src, "-lOpenCL", "-lm").CombinedOutput(); err != nil {
		t.Skipf("skipping: cannot build an OpenCL host program (ocl-icd-opencl-dev): %v\n%s", err, out)
	}
	code, out, errOut := runCLI(t, "exec", "--icd", dir, "--gpu", "mali-g52", "--", bin, "64", "4")
	if code != 0 || !strings.Contains(out, "fdtd-2d 64x64, 4 steps") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
}

// TestExecLocalOutOfBounds runs a program whose kernel writes one int past
// its work-group's local memory (testdata/opencl/localoob.c). It runs to
// its end, as on a GPU and on PoCL, printing what they print, with a
// warning naming program.cl's line and the count in the report; with
// --strict the kernel faults there and the program sees the error.
func TestExecLocalOutOfBounds(t *testing.T) {
	dir := icdForTest(t)
	bin := hostBinary(t, "testdata/opencl/localoob.c")
	report := filepath.Join(t.TempDir(), "r.json")
	code, out, errOut := runCLI(t, "exec", "--icd", dir, "--gpu", "mali-g52", "--report", report, "--", bin)
	if code != 0 || out != "out[1] = 0, out[63] = 62, out[65] = 0\n" {
		t.Errorf("exit %d, printed %q; want 0 and what PoCL prints\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "warning: kernel shift: 4 local-memory accesses") || !strings.Contains(errOut, "program.cl:4") {
		t.Errorf("no warning naming program.cl:4:\n%s", errOut)
	}
	rep := readExecReport(t, report)
	var n uint64
	for _, c := range rep.Commands {
		n += c.LocalOutOfBounds
	}
	if n != 4 {
		t.Errorf("the report counts %d accesses out of bounds, want 4", n)
	}
	code, out, errOut = runCLI(t, "exec", "--icd", dir, "--strict", "--gpu", "mali-g52", "--", bin)
	if code != 3 || !strings.Contains(out, "the kernel failed") || !strings.Contains(errOut, "GPU fault in kernel shift") || !strings.Contains(errOut, "program.cl:4") {
		t.Errorf("--strict: exit %d, printed %q\n%s\nwant the kernel to fault at program.cl:4", code, out, errOut)
	}
}

// readExecReport reads the JSON report exec --report wrote to path.
func readExecReport(t *testing.T, path string) execReport {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep execReport
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatalf("%s is not exec's JSON report: %v", path, err)
	}
	return rep
}
