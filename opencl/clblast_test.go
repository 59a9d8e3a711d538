package opencl

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// CLBlast, a tuned BLAS library that takes its kernels' parameters from
// the device's name and vendor, runs through the ICD: testdata/host's
// clblast_check.c calls SGEMM (direct, then again in a second context from
// CLBlast's cached program binary, then a larger transposed one through the
// indirect path: pad, transpose, Xgemm, copy back) and SAXPY, checking the
// results on the host. On pocketgpu each event's duration is the simulated
// time of the kernels the device ran in it, as the report records them.
func TestCLBlastThroughICD(t *testing.T) {
	if _, err := os.Stat("/usr/include/clblast_c.h"); err != nil {
		t.Skip("skipping: CLBlast is not installed (Debian package libclblast-dev)")
	}
	needCompilers(t)
	vendors := buildICD(t)
	bin := filepath.Join(t.TempDir(), "clblast_check")
	if out, err := exec.Command("gcc", "-O1", "-o", bin, filepath.Join("testdata", "host", "clblast_check.c"),
		"-lclblast", "-lOpenCL", "-lm").CombinedOutput(); err != nil {
		t.Skipf("skipping: cannot build the CLBlast host program (gcc, libclblast-dev, ocl-icd-opencl-dev): %v\n%s", err, out)
	}
	routines := []string{"sgemm", "saxpy", "sgemm_binary", "sgemm_indirect"}
	const size = "256" // the indirect GEMM: 256 x 253 x 261
	if _, err := os.Stat("/etc/OpenCL/vendors/pocl.icd"); err == nil {
		res := parseCLBlast(t, "PoCL", runCLBlast(t, bin, size, "OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd"), routines)
		for _, r := range routines {
			if res[r].event[1] <= res[r].event[0] {
				t.Errorf("PoCL: %s's event has no duration: %v", r, res[r].event)
			}
		}
	} else {
		t.Log("PoCL not installed (pocl-opencl-icd): pocketgpu only")
	}
	for _, gpu := range []string{"mali-g52", "adreno-640"} {
		report := filepath.Join(t.TempDir(), "report.jsonl")
		out := runCLBlast(t, bin, size, "OCL_ICD_VENDORS="+vendors, "POCKETGPU_GPUS="+gpu, "POCKETGPU_REPORT="+report)
		res := parseCLBlast(t, gpu, out, routines)
		recs := readReport(t, report)
		for _, r := range routines {
			ev, span := res[r].event, res[r].span
			if ev[1] <= ev[0] {
				t.Errorf("%s: %s's event has no duration: %v", gpu, r, ev)
				continue
			}
			// CLBlast's event is its last kernel: that one kernel fills it.
			kernels, sum := 0, 0.0
			for _, rec := range recs {
				if rec.StartNS >= ev[0] && rec.EndNS <= ev[1] && rec.TimeNS > 0 {
					if rec.Command != "kernel" {
						t.Errorf("%s: %s's event holds a %s command", gpu, r, rec.Command)
					}
					kernels++
					sum += rec.TimeNS
				}
			}
			if kernels != 1 || math.Abs(sum-float64(ev[1]-ev[0])) > 0.5 {
				t.Errorf("%s: %s's event lasts %d ns; the report has %d kernels of %.1f ns in it", gpu, r, ev[1]-ev[0], kernels, sum)
			}
			// Between the markers: every command CLBlast enqueued, each
			// kernel's launch overhead included.
			kernels, sum = 0, 0
			for _, rec := range recs {
				if rec.StartNS >= span[0] && rec.EndNS <= span[1] && rec.TimeNS > 0 {
					kernels++
					sum += rec.TimeNS + rec.LaunchNS
				}
			}
			if math.Abs(sum-float64(span[1]-span[0])) > 0.5*float64(kernels) {
				t.Errorf("%s: %s's markers are %d ns apart; the report has %d commands of %.1f ns between them", gpu, r, span[1]-span[0], kernels, sum)
			}
			if r == "sgemm_indirect" && kernels < 3 {
				t.Errorf("%s: the %s x %s GEMM ran %d kernels; CLBlast's indirect path runs at least 3", gpu, size, size, kernels)
			}
		}
	}
}

type clblastResult struct{ event, span [2]uint64 }

// runCLBlast runs the CLBlast host program and returns its stdout; a
// failing exit status fails the test with stdout and stderr.
func runCLBlast(t *testing.T, bin, size string, env ...string) string {
	t.Helper()
	cmd := exec.Command(bin, size)
	cmd.Env = append(os.Environ(), env...)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("clblast_check %v: %v\n%s%s", env, err, out.String(), errOut.String())
	}
	if errOut.Len() > 0 {
		t.Errorf("clblast_check %v wrote to stderr:\n%s", env, errOut.String())
	}
	return out.String()
}

var clblastLine = regexp.MustCompile(`(?m)^(\w+) (max_rel_err|event|span) (\S+)(?: (\S+))?$`)

// parseCLBlast reads each routine's error (which must be within the
// program's tolerance) and its event's and markers' times.
func parseCLBlast(t *testing.T, where, out string, routines []string) map[string]clblastResult {
	t.Helper()
	res := map[string]clblastResult{}
	seen := map[string]bool{}
	for _, m := range clblastLine.FindAllStringSubmatch(out, -1) {
		r := res[m[1]]
		switch m[2] {
		case "max_rel_err":
			seen[m[1]] = true
			if m[4] != "ok" {
				t.Errorf("%s: %s's relative error %s is over the tolerance", where, m[1], m[3])
			}
		case "event", "span":
			a, _ := strconv.ParseUint(m[3], 10, 64)
			b, _ := strconv.ParseUint(m[4], 10, 64)
			if m[2] == "event" {
				r.event = [2]uint64{a, b}
			} else {
				r.span = [2]uint64{a, b}
			}
		}
		res[m[1]] = r
	}
	for _, r := range routines {
		if !seen[r] {
			t.Errorf("%s: no result for %s in\n%s", where, r, out)
		}
	}
	return res
}

// readReport reads the ICD's report: a JSON CommandRecord per line.
func readReport(t *testing.T, path string) []CommandRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []CommandRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec CommandRecord
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("report line %q: %v", sc.Text(), err)
		}
		recs = append(recs, rec)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}
