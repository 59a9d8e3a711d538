package main

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var updateAnalyzeGoldens = flag.Bool("update-analyze-goldens", false, "rewrite the analyze goldens in testdata/analyze")

const adir = "testdata/analyze/"

func analyzeGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "analyze", name)
	if *updateAnalyzeGoldens {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update-analyze-goldens to create it)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("output differs from %s (rerun with -update-analyze-goldens if the change is intended)\n--- got ---\n%s", path, got)
	}
}

// The side-by-side report of one kernel on a GPU of each family.
func TestAnalyzeText(t *testing.T) {
	tests := []struct {
		golden string
		args   []string
	}{
		{"mix-four-families.txt", []string{"--gpu", "mali-g52", "--gpu", "adreno-640", "--gpu", "powervr-gx6250", "--gpu", "mali-t760", adir + "mix.spv"}},
		{"fma8-g52-615.txt", []string{"--gpu", "mali-g52", "--gpu", "615", corpusDir + "fma8.spv"}},
		{"vecadd-640-wave64.txt", []string{"--gpu", "adreno-640", "--warp-width", "64", corpusDir + "vecadd.spv"}},
	}
	for _, tt := range tests {
		code, out, errOut := runCLI(t, append([]string{"analyze"}, tt.args...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", tt.args, code, errOut)
		}
		analyzeGolden(t, tt.golden, out)
	}
}

// --json: one report, or {"reports": [...]} for several GPUs, with the keys
// docs/timing.md documents.
func TestAnalyzeJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "analyze", "--gpu", "mali-g52", adir+"mix.spv", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	for _, k := range []string{"gpu", "family", "entry", "warp_width", "registers", "spill_bytes", "occupancy", "code_bytes",
		"groups", "operations", "pipes", "shortest_path_bound", "longest_path_bound", "has_loops", "bifrost"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	b := r["bifrost"].(map[string]any)
	if b["clauses"].(float64) < 1 || b["tuples"].(float64) < b["clauses"].(float64) {
		t.Errorf("bifrost section %v", b)
	}
	pipes := r["pipes"].([]any)
	first := pipes[0].(map[string]any)
	for _, k := range []string{"name", "instructions", "total_cycles", "shortest_path_cycles", "longest_path_cycles"} {
		if _, ok := first[k]; !ok {
			t.Errorf("pipe lacks %q: %v", k, first)
		}
	}

	code, out, errOut = runCLI(t, "analyze", "--gpu", "adreno-640", "--gpu", "powervr-gx6250", adir+"mix.spv", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var many struct {
		Reports []map[string]any `json:"reports"`
	}
	if err := json.Unmarshal([]byte(out), &many); err != nil || len(many.Reports) != 2 {
		t.Fatalf("want {\"reports\": [2]}: %v\n%s", err, out)
	}
	if many.Reports[0]["adreno"].(map[string]any)["wave_size"].(float64) != 128 || many.Reports[1]["rogue"] == nil {
		t.Errorf("family sections: %v / %v", many.Reports[0]["adreno"], many.Reports[1]["rogue"])
	}
}

// Bad input exits 2 with a message saying what is wrong.
func TestAnalyzeErrors(t *testing.T) {
	tests := []struct {
		args []string
		msg  string
	}{
		{[]string{adir + "mix.spv"}, `required flag(s) "gpu"`},
		{[]string{"--gpu", "mali-g53", adir + "mix.spv"}, "mali-g5"},
		{[]string{"--gpu", "mali-g52", adir + "missing.spv"}, "missing.spv"},
		{[]string{"--gpu", "mali-g52", kdir + "notspirv.spv"}, "SPIR-V"},
		{[]string{"--gpu", "mali-g52", adir + "mix.spv", "--entry", "nope"}, "nope"},
		{[]string{"--gpu", "mali-g52", adir + "fp64.spv"}, "mali-g52 cannot execute fp64_"},
		{[]string{"--gpu", "adreno-640", adir + "fp64.spv"}, "adreno-640 cannot execute fp64_"},
		{[]string{"--gpu", "mali-g52", "--warp-width", "16", adir + "mix.spv"}, "--warp-width 16: mali-g52 runs warps of 8 only"},
		{[]string{"--gpu", "mali-g52", "--warp-width", "-1", adir + "mix.spv"}, "--warp-width -1"},
		{[]string{"--gpu", "mali-g52", "--spec", "x", adir + "mix.spv"}, "--spec"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, append([]string{"analyze"}, tt.args...)...)
		if code != exitBadInput || !strings.Contains(errOut, tt.msg) {
			t.Errorf("%v: exit %d, %q; want exit 2 mentioning %q", tt.args, code, errOut, tt.msg)
		}
	}
	// Midgard has FP64.
	if code, _, errOut := runCLI(t, "analyze", "--gpu", "mali-t760", adir+"fp64.spv"); code != exitOK {
		t.Errorf("fp64 on mali-t760: exit %d: %s", code, errOut)
	}
}
