package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBenchJSONAndOut(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "charts")
	code, out, errOut := runCLI(t, "bench", "--gpu", "powervr-gx6250", "--test", "common-store,row-order", "--out", dir, "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res []struct {
		Test    string             `json:"test"`
		GPU     string             `json:"gpu"`
		Unit    string             `json:"unit"`
		Metrics map[string]float64 `json:"metrics"`
		Series  []struct {
			Name   string `json:"name"`
			Points []struct {
				Label string  `json:"label"`
				Y     float64 `json:"y"`
			} `json:"points"`
		} `json:"series"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(res) != 2 || res[0].Test != "common-store" || res[1].Test != "row-order" || res[0].GPU != "powervr-gx6250" {
		t.Fatalf("results: %+v", res)
	}
	if math.Abs(res[0].Metrics["stride16.pct"]-6.25) > 1e-9 || res[1].Metrics["hits"] != 15 {
		t.Errorf("metrics: %v, %v", res[0].Metrics, res[1].Metrics)
	}
	for _, f := range []string{"results.csv", "results.json", "common-store.png", "common-store.svg"} {
		if st, err := os.Stat(filepath.Join(dir, f)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "row-order.png")); err == nil {
		t.Error("row-order is a table and has no chart")
	}
	if !strings.Contains(errOut, "wrote 4 files to "+dir) {
		t.Errorf("stderr: %q", errOut)
	}
	if strings.Contains(errOut, "benchmarks") {
		t.Errorf("a progress bar on a non-terminal stderr: %q", errOut)
	}
}

func TestBenchTablesTwoGPUs(t *testing.T) {
	code, out, errOut := runCLI(t, "bench", "--gpu", "mali-g52", "--gpu", "adreno-640", "--test", "latency-local", "--progress")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "latency-local: Local memory latency") || !strings.Contains(lines[1], "mali-g52") || !strings.Contains(lines[1], "adreno-640") {
		t.Errorf("table:\n%s", out)
	}
	if !strings.Contains(out, "32 KB") {
		t.Errorf("no 32 KB row:\n%s", out)
	}
	if !strings.Contains(errOut, "benchmarks") {
		t.Errorf("--progress shows no bar: %q", errOut)
	}
}

func TestBenchBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--test", "rates"}, `required flag(s) "gpu"`},
		{[]string{"bench", "--gpu", "mali-g52", "--test", "speed"}, `unknown test "speed"; the tests are: latency-global`},
		{[]string{"bench", "--gpu", "mali-g52", "--test", "common-store"}, "does not apply to mali-g52 (bifrost)"},
		{[]string{"bench", "--gpu", "no-such-gpu"}, "unknown GPU"},
		{[]string{"bench", "--gpu", "mali-g52", "--gpu", "mali-g52"}, "given twice"},
		{[]string{"bench", "--gpu", "mali-g52", "--jobs", "0"}, "--jobs 0"},
		{[]string{"bench", "--gpu", "mali-g52", "extra"}, "unknown command"},
		{[]string{"validate", "--gpu", "mali-g72"}, "no published figures for mali-g72"},
		{[]string{"validate", "--gpu", "nope.yaml"}, "nope.yaml"},
		{[]string{"demo", "--gpu", "mali-t999"}, "unknown GPU"},
	}
	for _, tt := range tests {
		code, _, errOut := runCLI(t, tt.args...)
		if code != exitBadInput || !strings.Contains(errOut, tt.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 mentioning %q", tt.args, code, errOut, tt.want)
		}
	}
}

func TestValidateJSON(t *testing.T) {
	code, out, errOut := runCLI(t, "validate", "--gpu", "powervr-gx6250", "--json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var v struct {
		Figures     []map[string]any `json:"figures"`
		MAPE        *float64         `json:"mape_pct"`
		Comparative int              `json:"comparative"`
		Held        *int             `json:"comparative_held"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if len(v.Figures) != 27 || v.MAPE == nil || *v.MAPE > 1 || v.Comparative == 0 || v.Held == nil {
		t.Fatalf("figures %d, MAPE %v, comparative %d held %v", len(v.Figures), v.MAPE, v.Comparative, v.Held)
	}
	for _, f := range v.Figures {
		for _, k := range []string{"id", "gpu", "source", "published", "simulated", "unit", "error_pct"} {
			if _, ok := f[k]; !ok {
				t.Errorf("figure %v lacks %q", f["id"], k)
			}
		}
		if !strings.HasPrefix(f["source"].(string), "seed 003 §") {
			t.Errorf("figure %v: source %v", f["id"], f["source"])
		}
		// Comparative figures say whether they hold; numeric ones do not.
		if _, held := f["held"]; held != (f["relation"] != nil) {
			t.Errorf("figure %v: relation %v, held %v", f["id"], f["relation"], f["held"])
		}
	}
}

// A user's GPU is validated against its base preset's figures; giving the
// USC twice the unified store moves the two occupancy figures off.
func TestValidateUserGPU(t *testing.T) {
	file := filepath.Join(t.TempDir(), "big-us.yaml")
	if err := os.WriteFile(file, []byte("base: powervr-gx6250\nunified_store: {registers: 2560}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "validate", "--gpu", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var occ string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "rogue-occupancy-10-regs") {
			occ = l
		}
	}
	if !strings.Contains(occ, "big-us (as powervr-gx6250)") || !strings.Contains(occ, "1024") || !strings.Contains(occ, "+100.0% *") {
		t.Errorf("occupancy row: %q\n%s", occ, out)
	}
	if !strings.Contains(out, "MAPE ") || !strings.Contains(out, "2 outside their tolerance") {
		t.Errorf("summary:\n%s", out)
	}
}

func TestDemoOneGPU(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "demo")
	code, out, errOut := runCLI(t, "demo", "--out", dir, "--gpu", "powervr-gx6250")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "rogue-cs-stride16") || !strings.Contains(out, "open "+filepath.ToSlash(filepath.Join(dir, "index.html"))) {
		t.Errorf("output:\n%s", out)
	}
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<img src="latency-global.png"`, `<img src="common-store.png"`, "Published figures against the simulator", `<a href="run/index.html">`} {
		if !strings.Contains(string(html), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if !strings.Contains(out, "the run's report: "+filepath.ToSlash(filepath.Join(dir, "run", "index.html"))) {
		t.Errorf("demo does not name the run's report:\n%s", out)
	}
	run, err := os.ReadFile(filepath.Join(dir, "run", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<th>powervr-gx6250</th>", `id="timeline"`, `id="roofline"`, `id="hotspots"`, "bw_global"} {
		if !strings.Contains(string(run), want) {
			t.Errorf("the run's report lacks %q", want)
		}
	}
	for _, f := range []string{"latency-global.png", "latency-global.svg", "rates.png", "bandwidth-global.png", "results.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

// The demo as the README runs it: three GPUs, under two minutes here.
func TestDemoReadme(t *testing.T) {
	if testing.Short() {
		t.Skip("the full demo takes about 7 s; run without -short")
	}
	dir := filepath.Join(t.TempDir(), "pocketgpu-demo")
	code, out, errOut := runCLI(t, "demo", "--out", dir)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"mali-g52, adreno-640, powervr-gx6250", "g52-l2-step", "a640-l2-latency", "MAPE "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// A GPU validated alone skips, with a note, the figures that compare it
// with a GPU not in the run, instead of failing; comparative figures print
// their relation and whether it holds.
func TestValidateSkipsOtherGPU(t *testing.T) {
	file := filepath.Join(t.TempDir(), "my-530.yaml")
	if err := os.WriteFile(file, []byte("base: adreno-530\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "validate", "--gpu", file)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "skipped on my-530: compares with adreno-640, which this run does not validate (add --gpu adreno-640): a530-dram-vs-a640-slc-latency") {
		t.Errorf("no skip note:\n%s", out)
	}
	var emulated string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "a530-int8-emulated") {
			emulated = l
		}
	}
	// The verdict, then the second kernel's difference (an INT8 rate has one).
	f := strings.Fields(emulated)
	if !strings.Contains(emulated, "< 1") || strings.Contains(emulated, "not held") || len(f) < 2 || f[len(f)-2] != "held" || !strings.HasSuffix(f[len(f)-1], "%") {
		t.Errorf("comparative row: %q", emulated)
	}
	if !strings.Contains(out, "comparative figures hold (not in the MAPE)") {
		t.Errorf("summary:\n%s", out)
	}
}
