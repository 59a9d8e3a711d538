package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Bad probe command lines exit 2 with a message, before anything runs.
func TestProbeBadInput(t *testing.T) {
	dir := t.TempDir()
	aFile := filepath.Join(dir, "a-file")
	if err := os.WriteFile(aFile, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"probe"}, "name the device: --gpu GPU"},
		{[]string{"probe", "--gpu", "mali-g52", "--opencl"}, "probe one device at a time"},
		{[]string{"probe", "--gpu", "nosuch"}, `unknown GPU "nosuch"`},
		{[]string{"probe", "--gpu", "mali-g52", "--device", "x"}, "they go with --opencl"},
		{[]string{"probe", "--gpu", "mali-g52", "--out", filepath.Join(dir, "no", "g.yaml")}, "does not exist"},
		{[]string{"probe", "--gpu", "mali-g52", "--report", aFile}, "a file is in the way"},
		{[]string{"probe", "--gpu", "mali-g52", "--base", "nosuch"}, `unknown GPU "nosuch"`},
		{[]string{"probe", "--opencl", "--platform", "no such platform, surely"}, "--opencl: "},
		{[]string{"probe", "--gpu", "mali-g52", "extra"}, "unknown command"},
	} {
		code, _, stderr := runCLI(t, tt.args...)
		if code != exitBadInput || !strings.Contains(stderr, tt.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and %q", tt.args, code, stderr, tt.want)
		}
	}
}

// A simulated GPU probes the same twice: the summary, the description and
// the report's measurements.
func TestProbeDeterministic(t *testing.T) {
	var outs, yamls, jsons [2]string
	for i := range 2 {
		dir := t.TempDir()
		y := filepath.Join(dir, "g31.yaml")
		code, out, stderr := runCLI(t, "probe", "--gpu", "mali-g31", "--out", y, "--report", filepath.Join(dir, "rep"))
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(y)
		if err != nil {
			t.Fatal(err)
		}
		j, err := os.ReadFile(filepath.Join(dir, "rep", "probe.json"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"report.txt", "probe-latency.png", "probe-latency.svg", "probe-rates.svg", "probe-warp.svg"} {
			if _, err := os.Stat(filepath.Join(dir, "rep", f)); err != nil {
				t.Errorf("the report has no %s: %v", f, err)
			}
		}
		outs[i], yamls[i], jsons[i] = out, string(b), string(j)
	}
	if outs[0] != outs[1] || yamls[0] != yamls[1] || jsons[0] != jsons[1] {
		t.Errorf("two probes of mali-g31 differ:\n%s\n%s", yamls[0], yamls[1])
	}
}

// validateMAPE runs validate --gpu gpu --json and returns its MAPE.
func validateMAPE(t *testing.T, gpu string) float64 {
	t.Helper()
	code, out, stderr := runCLI(t, "validate", "--gpu", gpu, "--json")
	if code != 0 && code != exitFailure {
		t.Fatalf("validate --gpu %s: exit %d: %s", gpu, code, stderr)
	}
	var v struct {
		MAPE float64 `json:"mape_pct"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("validate --json: %v\n%s", err, out)
	}
	return v.MAPE
}

// The description probe writes for the Mali-G52 loads (spec), and
// validate gives it a MAPE within 2 points of the preset's.
func TestProbeValidateMAPE(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping: validate runs the suite twice (about 25 s)")
	}
	y := filepath.Join(t.TempDir(), "g52.yaml")
	if code, _, stderr := runCLI(t, "probe", "--gpu", "mali-g52", "--out", y); code != 0 {
		t.Fatalf("probe: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "spec", y); code != 0 {
		t.Fatalf("spec %s: exit %d: %s", y, code, stderr)
	}
	preset, probed := validateMAPE(t, "mali-g52"), validateMAPE(t, y)
	t.Logf("validate MAPE: preset %.2f%%, probed description %.2f%%", preset, probed)
	if math.Abs(probed-preset) > 2 {
		t.Errorf("validate MAPE of the probed description %.2f%%, of the preset %.2f%%: more than 2 points apart", probed, preset)
	}
}
