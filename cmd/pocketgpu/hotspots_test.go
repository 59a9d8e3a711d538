package main

//go:generate go run . compile -g ../../examples/hotspot.cl -o testdata/kernels/hotspot.spv

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func hotspotArgs() []string {
	return []string{"--global", "8192", "--arg", "buf:f32:1048576=random", "--arg", "buf:f32:8192", "--arg", "i32:4099", "--arg", "i32:1048575"}
}

// run --hotspots on a module built with -g (examples/hotspot.cl) prints the
// source with the strided load's line marked hottest, and --json carries
// the per-line and per-instruction tables and the roofline.
func TestRunHotspots(t *testing.T) {
	args := append([]string{"run", "--gpu", "mali-g52", kdir + "hotspot.spv", "--hotspots"}, hotspotArgs()...)
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var hot string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), ">1 ") {
			hot = l
		}
	}
	if !strings.Contains(hot, " 9 ") || !strings.Contains(hot, "float b = in[(i * stride) & mask];") || !strings.Contains(hot, "(memory)") {
		t.Errorf("the hottest line is %q, want line 9, the strided load, with memory stalls\n%s", hot, out)
	}
	if !strings.Contains(out, "__kernel void gather") {
		t.Errorf("the source is not shown:\n%s", out)
	}

	code, out, errOut = runCLI(t, append(args, "--json")...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r struct {
		Hotspots struct {
			HasLines bool `json:"has_lines"`
			Total    struct {
				Issue float64 `json:"issue_cycles"`
			} `json:"total"`
			Lines []struct {
				Line   int                `json:"line"`
				Issue  float64            `json:"issue_cycles"`
				Stalls map[string]float64 `json:"stall_cycles"`
				Reqs   float64            `json:"mem_requests"`
			} `json:"lines"`
			Instructions []struct {
				SPIRV string `json:"spirv"`
			} `json:"instructions"`
		} `json:"hotspots"`
		Roofline struct {
			Compute []any `json:"compute"`
			Memory  []any `json:"memory"`
			Point   struct {
				Bound string `json:"bound"`
			} `json:"point"`
		} `json:"roofline"`
		Counters map[string]float64 `json:"counters"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	h := r.Hotspots
	if !h.HasLines || len(h.Lines) == 0 || len(h.Instructions) == 0 || h.Total.Issue <= 0 {
		t.Fatalf("hotspots section: %+v", h)
	}
	best, bestCycles := 0, 0.0
	var reqs float64
	for _, l := range h.Lines {
		c := l.Issue
		for _, v := range l.Stalls {
			c += v
		}
		if c > bestCycles {
			best, bestCycles = l.Line, c
		}
		reqs += l.Reqs
	}
	if best != 9 {
		t.Errorf("JSON: the hottest line is %d, want 9", best)
	}
	if want := r.Counters["mem_loads"] + r.Counters["mem_stores"]; reqs != want {
		t.Errorf("JSON: %v requests over the lines, the counters have %v", reqs, want)
	}
	if len(r.Roofline.Compute) == 0 || len(r.Roofline.Memory) == 0 || r.Roofline.Point.Bound != "dram" {
		t.Errorf("roofline section: %+v", r.Roofline)
	}
}

// A module without line information gets the instruction view.
func TestRunHotspotsWithoutLines(t *testing.T) {
	args := append([]string{"run", "--gpu", "adreno-640", corpusDir + "vecadd.spv", "--hotspots"}, vecaddArgs()...)
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"no line information", ">1", "OpLoad", "LoadGlobal"} {
		if !strings.Contains(out, want) {
			t.Errorf("the instruction view lacks %q:\n%s", want, out)
		}
	}
}

// --roofline writes a chart per GPU, with the GPU in the name when there
// are several, and summarises the point.
func TestRunRoofline(t *testing.T) {
	dir := t.TempDir()
	chart := filepath.Join(dir, "r.svg")
	args := append([]string{"run", "--gpu", "mali-g52", "--gpu", "powervr-gx6250", corpusDir + "vecadd.spv", "--roofline", chart}, vecaddArgs()...)
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, g := range []string{"mali-g52", "powervr-gx6250"} {
		f := filepath.Join(dir, "r-"+g+".svg")
		b, err := os.ReadFile(f)
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: %v", f, err)
		}
		if !strings.Contains(out, "roofline: vecadd on "+g+", written to "+f) {
			t.Errorf("no summary for %s:\n%s", g, out)
		}
	}
}

func TestRunHotspotsBadInput(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"hotspots functional", []string{"--hotspots", "--functional"}, "--functional has none"},
		{"roofline functional", []string{"--roofline", filepath.Join(dir, "r.png"), "--functional"}, "--functional has no timing"},
		{"roofline extension", []string{"--roofline", filepath.Join(dir, "r.jpg")}, "must end in .png or .svg"},
		{"roofline directory", []string{"--roofline", filepath.Join(dir, "nope", "r.png")}, "does not exist"},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append(append([]string{"run", "--gpu", "mali-g52", corpusDir + "vecadd.spv"}, c.args...), vecaddArgs()...)
			code, _, errOut := runCLI(t, args...)
			if code != exitBadInput || !strings.Contains(errOut, c.want) {
				t.Errorf("exit %d, want %d with %q: %s", code, exitBadInput, c.want, errOut)
			}
		})
	}
}
