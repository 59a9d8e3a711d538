package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type specJSON struct {
	ID         string `json:"id"`
	Family     string `json:"family"`
	Base       string `json:"base"`
	Parameters map[string]struct {
		Value  any    `json:"value"`
		Unit   string `json:"unit"`
		Source string `json:"source"`
	} `json:"parameters"`
	Derived map[string]float64 `json:"derived"`
}

func specOf(t *testing.T, gpu string) specJSON {
	t.Helper()
	code, out, errOut := runCLI(t, "spec", gpu, "--json")
	if code != exitOK {
		t.Fatalf("spec %s: exit %d: %s", gpu, code, errOut)
	}
	var s specJSON
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("spec %s: not JSON: %v", gpu, err)
	}
	return s
}

// The checks of issue 2, through the command line.
func TestSpecIssueChecks(t *testing.T) {
	g52 := specOf(t, "mali-g52")
	if g52.ID != "mali-g52" || g52.Family != "bifrost" {
		t.Errorf("id %q family %q", g52.ID, g52.Family)
	}
	for k, want := range map[string]float64{"max_resident_threads": 768, "fp32_fma_per_clock": 48, "fp32_ops_per_clock": 96, "fp16_ops_per_clock": 192} {
		if got := g52.Derived[k]; got != want {
			t.Errorf("mali-g52 %s = %v, want %v", k, got, want)
		}
	}
	if g52.Derived["fp16_ops_per_clock"] != 2*g52.Derived["fp32_ops_per_clock"] {
		t.Errorf("mali-g52 FP16 is not twice FP32")
	}
	cores := g52.Parameters["cores"]
	if cores.Value != 2.0 || cores.Unit != "cores" || !strings.HasPrefix(cores.Source, "seed 000") {
		t.Errorf("mali-g52 cores parameter = %+v", cores)
	}
	if _, ok := g52.Derived["peak_fp32_gflops"]; !ok {
		t.Error("no derived peak_fp32_gflops")
	}

	a640 := specOf(t, "adreno-640")
	if a640.Derived["usptps"] != 6 || a640.Derived["fp32_ops_per_clock"] != 768 || a640.Parameters["clock_mhz"].Value != 585.0 {
		t.Errorf("adreno-640: usptps %v, fp32 ops/clk %v, clock %v", a640.Derived["usptps"], a640.Derived["fp32_ops_per_clock"], a640.Parameters["clock_mhz"].Value)
	}
	if a640.Derived["fp16_ops_per_clock"] != 2*a640.Derived["fp32_ops_per_clock"] {
		t.Errorf("adreno-640 FP16 is not double rate")
	}

	a615 := specOf(t, "adreno-615")
	if got := a615.Derived["peak_fp32_gflops"]; math.Abs(got-110) > 1 {
		t.Errorf("adreno-615 peak %v GFLOPS, want about 110", got)
	}

	for name, want := range map[string]string{"7212": "mali-g52", "0x6221": "mali-g72", "720": "mali-t720", "860": "mali-t860", "640": "adreno-640"} {
		if got := specOf(t, name).ID; got != want {
			t.Errorf("spec %s is %s, want %s", name, got, want)
		}
	}
}

func TestSpecUserFileDoublesPeak(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "big-g52.yaml")
	if err := os.WriteFile(path, []byte("base: mali-g52\ncores: 4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	user, base := specOf(t, path), specOf(t, "mali-g52")
	if user.Derived["peak_fp32_gflops"] != 2*base.Derived["peak_fp32_gflops"] {
		t.Errorf("peak %v, want twice %v", user.Derived["peak_fp32_gflops"], base.Derived["peak_fp32_gflops"])
	}
	if user.ID != "big-g52" || user.Base != "mali-g52" || user.Parameters["cores"].Source != "user: "+path {
		t.Errorf("id %q base %q cores source %q", user.ID, user.Base, user.Parameters["cores"].Source)
	}
}

func TestSpecText(t *testing.T) {
	code, out, errOut := runCLI(t, "spec", "mali-g52")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	golden(t, "spec-mali-g52.txt", out)
	code, out, _ = runCLI(t, "spec", "powervr-gx6250")
	if code != exitOK || !strings.Contains(out, "unified_store.registers") || !strings.Contains(out, "register_file_kib_per_core") {
		t.Errorf("spec powervr-gx6250: exit %d\n%s", code, out)
	}
}

// Every bad-input case of issue 2 exits with code 2 and one clear message
// naming the file, the field and what is allowed.
func TestSpecBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown preset", []string{"spec", "mali-g53"}, []string{`unknown GPU "mali-g53"`, "nearest presets:", "mali-g52"}},
		{"unknown GPU ID", []string{"spec", "0x9999"}, []string{`unknown GPU "0x9999"`}},
		{"no GPU", []string{"spec"}, []string{"accepts 1 arg"}},
		{"missing file", []string{"spec", filepath.Join(dir, "none.yaml")}, []string{"none.yaml", "cannot read"}},
		{"directory", []string{"spec", dir + "/"}, []string{"cannot read"}},
		{"not yaml", []string{"spec", write("broken.yaml", "base: mali-g52\ncores: [4\n")}, []string{"broken.yaml:1:", "not valid YAML"}},
		{"unknown field", []string{"spec", write("field.yaml", "base: mali-g52\nl2:\n  sise_kib: 4\n")}, []string{"field.yaml:3:", "l2.sise_kib", "did you mean size_kib", "allowed here"}},
		{"wrong type", []string{"spec", write("type.yaml", "base: mali-g52\ncores: four\n")}, []string{"type.yaml:2:", "cores", "want a whole number"}},
		{"zero cores", []string{"spec", write("zero.yaml", "base: mali-g52\ncores: 0\n")}, []string{"zero.yaml:2:", "cores", "1 to 1024"}},
		{"out of range", []string{"spec", write("range.yaml", "base: mali-g52\nclock_mhz: 100000\n")}, []string{"range.yaml:2:", "clock_mhz", "allowed: 1 to 10000"}},
		{"warp not power of two", []string{"spec", write("warp.yaml", "base: mali-g52\nwarp_sizes: [12]\n")}, []string{"warp.yaml:2:", "warp_sizes[0]", "power of two"}},
		{"cache smaller than a line", []string{"spec", write("line.yaml", "base: mali-g52\nl1:\n  size_kib: 1\n  line_bytes: 2048\n")}, []string{"line.yaml:", "l1.", "smaller than one 2048-byte line"}},
		{"derived field", []string{"spec", write("derived.yaml", "base: mali-g52\nfp32_ops_per_clock: 200\n")}, []string{"derived.yaml:2:", "fp32_ops_per_clock", "derived"}},
		{"unknown base", []string{"spec", write("base.yaml", "base: mali-g99\n")}, []string{"base.yaml:1:", "base", "nearest presets"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tt.args...)
			if code != exitBadInput {
				t.Errorf("exit %d, want 2; stderr %q", code, errOut)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
				t.Errorf("want one line, got %q", errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
}
