package bench

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

var update = flag.Bool("update", false, "rewrite the testdata goldens")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bench -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run go test ./bench -update to accept):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// sample results: a latency curve on two GPUs (different footprints) and
// a bar test.
func sampleResults() []*Result {
	mk := func(gpu string, clock float64, ys ...float64) *Result {
		r := &Result{Test: "latency-global", GPU: gpu, Title: "Global memory latency (pointer chase)", Chart: Curve,
			XLabel: "footprint", XUnit: "B", YLabel: "latency", Unit: "cycles", ClockMHz: clock, LogX: true, PlotNS: true}
		for i, y := range ys {
			r.add(gpu, Point{X: float64(int(kib) << (2 * i)), Y: y})
		}
		latencyMetrics(r, r.Series[0].Points, clock)
		return r
	}
	a := mk("mali-g52", 800, 60.375, 60.375, 113.4, 113.4, 252.2, 252.2)
	b := mk("adreno-640", 585, 47, 47, 47, 146)
	rates := &Result{Test: "rates", GPU: "mali-g52", Title: "Instruction rates", Chart: Bars, YLabel: "throughput", Unit: "Gops/s", ClockMHz: 800}
	rates.add("mali-g52", Point{Label: "FP32 add", Y: 72.28, Note: "90.4/clk"})
	rates.add("mali-g52", Point{Label: "FP32 fma()", Y: 37.24, Note: "46.5/clk"})
	rates2 := &Result{Test: "rates", GPU: "adreno-640", Title: "Instruction rates", Chart: Bars, YLabel: "throughput", Unit: "Gops/s", ClockMHz: 585}
	rates2.add("adreno-640", Point{Label: "FP32 add", Y: 422.9})
	rates2.add("adreno-640", Point{Label: "FP32 fma()", Y: 0.749})
	rates2.Notes = []string{"fma() has no fast path"}
	return []*Result{a, b, rates, rates2}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	for _, g := range ByTest(sampleResults()) {
		if err := WriteTable(&b, g); err != nil {
			t.Fatal(err)
		}
		b.WriteString("\n")
	}
	golden(t, "tables.txt", b.String())
}

func TestLatencyMetricsOfSample(t *testing.T) {
	r := sampleResults()[0]
	for name, want := range map[string]float64{"level1_end_kib": 4, "level1_cycles": 60.375, "level2_end_kib": 64, "level2_cycles": 113.4, "level3_end_kib": 1024} {
		if got := r.Metrics[name]; got != want {
			t.Errorf("%s = %v, want %v (metrics %v)", name, got, want, r.Metrics)
		}
	}
}

func TestWriteCSVAndJSON(t *testing.T) {
	res := sampleResults()
	var c bytes.Buffer
	if err := WriteCSV(&c, res); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+6+4+2+2 {
		t.Errorf("%d CSV records, want a header and 14 points", len(recs))
	}
	if strings.Join(recs[0], ",") != "test,gpu,series,x,label,value,unit,note" || recs[1][3] != "1024" || recs[11][4] != "FP32 add" {
		t.Errorf("CSV: %v", recs[:2])
	}
	var j bytes.Buffer
	if err := WriteJSON(&j, res); err != nil {
		t.Fatal(err)
	}
	var back []map[string]any
	if err := json.Unmarshal(j.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back[0]["test"] != "latency-global" || back[0]["metrics"].(map[string]any)["level2_end_kib"] != 64.0 {
		t.Errorf("JSON: %v", back[0])
	}
}

func TestChartsAndIndex(t *testing.T) {
	dir := t.TempDir()
	res := sampleResults()
	files, err := WriteAll(dir, res)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 6 {
		t.Errorf("files %v, want CSV, JSON and two charts in PNG and SVG", files)
	}
	f, err := os.Open(filepath.Join(dir, "latency-global.png"))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 600 || b.Dy() < 300 {
		t.Errorf("chart %v is too small", b)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "rates.svg"))
	if err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("FP32 fma()")) {
		t.Errorf("rates.svg: %v, %.80q", err, svg)
	}
	v := &Validation{Figures: []Check{{Figure: Figure{ID: "g52-x", GPU: "mali-g52", Source: "seed 000 §Memory Pipeline", Published: 2, Unit: "x"}, On: "mali-g52", Simulated: 2.2, ErrorPct: 10}}, MAPE: 10,
		Predicted: Subset{Numeric: 1, MAPE: 10, MaxAbsErrorPct: 10, Largest: "g52-x"}}
	idx, err := WriteIndex(dir, IndexPage{Title: "t", GPUs: []string{"mali-g52", "adreno-640"}, Results: res, Validation: v})
	if err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(idx)
	for _, want := range []string{`<img src="latency-global.png"`, `<img src="rates.png"`, "seed 000 §Memory Pipeline", "10.0%", "mean absolute percentage error <b>10.0%</b> over 1 figures (largest 10.0%, g52-x)", "All: <b>10.0%</b>", "<td title=\"\">predicted</td>"} {
		if !bytes.Contains(html, []byte(want)) {
			t.Errorf("index.html lacks %q", want)
		}
	}
	if bytes.Contains(html, []byte("held-out")) {
		t.Error("index.html has a held-out line for a run without held-out figures")
	}
	// With held-out figures, the page gives their MAPE apart.
	v.HeldOut = Subset{Numeric: 3, MAPE: 12, MaxAbsErrorPct: 30, Largest: "ap640-x"}
	v.SeedPredicted = Subset{Numeric: 1, MAPE: 10}
	idx, err = WriteIndex(t.TempDir(), IndexPage{Title: "t", GPUs: []string{"mali-g52"}, Results: res, Validation: v})
	if err != nil {
		t.Fatal(err)
	}
	html, _ = os.ReadFile(idx)
	if want := "<b>12.0%</b> over 3 figures (largest 30.0%, ap640-x); predicted figures that cite a seed: <b>10.0%</b> over 1"; !bytes.Contains(html, []byte(want)) {
		t.Errorf("index.html lacks %q", want)
	}
}

func TestPlotRefusesMixedTests(t *testing.T) {
	res := sampleResults()
	if _, err := Plot([]*Result{res[0], res[2]}); err == nil {
		t.Error("a chart of two tests should be refused")
	}
	if _, err := Plot(nil); err == nil {
		t.Error("a chart of nothing should be refused")
	}
	tab := &Result{Test: "atomics", Chart: Table}
	if p, err := Plot([]*Result{tab}); p != nil || err != nil {
		t.Errorf("a table test has no chart: %v, %v", p, err)
	}
}

func TestFiguresFile(t *testing.T) {
	figs, err := Figures()
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]Figure{}
	for _, f := range figs {
		ids[f.ID] = f
		g := lookupGPU(t, f.GPU)
		tt, err := Lookup(f.Test)
		if err != nil {
			t.Fatal(err)
		}
		if !tt.AppliesTo(g) {
			t.Errorf("figure %s: test %s does not run on %s", f.ID, f.Test, f.GPU)
		}
		if f.Over != "" {
			ot, err := Lookup(f.overTest())
			if err != nil {
				t.Fatal(err)
			}
			if !ot.AppliesTo(lookupGPU(t, f.overGPU())) {
				t.Errorf("figure %s: over test %s does not run on %s", f.ID, f.overTest(), f.overGPU())
			}
		}
	}
	// Every figure issue 5 lists.
	for _, id := range []string{
		"g52-fp32-fma", "g52-fp32-add", "g52-fp16-rate", "g52-rsqrt-rate", "g52-texture-bw", "g52-global-bw", "g52-local-bw",
		"g52-texture-step", "g52-loadstore-step", "g52-l2-step", "g52-dram-theoretical", "g52-host-copy", "g52-icache-dip1", "g52-icache-dip2",
		"a615-mad-gflops", "a615-texture-bw", "a615-l2-bw", "a615-fma-cycles", "a615-sfu-rate",
		"a640-fp32-per-usptp", "a640-fp16-rate", "a640-sfu-rate", "a640-fp16-rsqrt", "a640-int-add-rate", "a640-l2-latency",
		"a640-slc-bw", "a640-dram-bw", "a640-local-per-workgroup", "a640-local-active",
		"rogue-cs-stride1", "rogue-cs-stride16", "rogue-cs-float4", "rogue-row-misses", "rogue-row-hits", "rogue-occupancy-10-regs",
	} {
		if _, ok := ids[id]; !ok {
			t.Errorf("figure %s missing from figures.yaml", id)
		}
	}
	// Seed 004 corrects seed 001 on the Adreno 640's FP16 rate.
	if f := ids["a640-fp16-rate"]; !strings.HasPrefix(f.Source, "seed 004") || f.Published != 2 {
		t.Errorf("a640-fp16-rate: %s, %v; want seed 004's double rate", f.Source, f.Published)
	}
}

func TestParseFiguresErrors(t *testing.T) {
	ok := "figures:\n  - {id: a, gpu: mali-g52, test: rates, metric: m, published: 1, unit: u, tolerance_pct: 5, source: \"seed 000 §Memory Pipeline\", wording: w}\n"
	if _, err := parseFigures([]byte(ok)); err != nil {
		t.Fatalf("valid file: %v", err)
	}
	tests := []struct{ name, yaml, want string }{
		{"unknown key", strings.Replace(ok, "unit: u", "unit: u, colour: red", 1), "colour"},
		{"no source", strings.Replace(ok, `source: "seed 000 §Memory Pipeline", `, "", 1), "required"},
		{"not a seed", strings.Replace(ok, "seed 000 §Memory Pipeline", "a blog", 1), "must name a seed"},
		{"unknown test", strings.Replace(ok, "test: rates", "test: speed", 1), `unknown test "speed"`},
		{"zero value", strings.Replace(ok, "published: 1", "published: 0", 1), "must be positive"},
		{"no tolerance", strings.Replace(ok, "tolerance_pct: 5", "tolerance_pct: 0", 1), "tolerance_pct"},
		{"duplicate", ok + strings.TrimPrefix(ok, "figures:\n"), "id used twice"},
		{"not YAML", "figures: [", "figures.yaml"},
		{"not a preset", strings.Replace(ok, "gpu: mali-g52", "gpu: mali-g99", 1), "not a preset"},
		{"over_gpu not a preset", strings.Replace(ok, "metric: m,", "metric: m, over: m, over_gpu: nope, relation: less,", 1), `over_gpu "nope"`},
		{"over_gpu without over", strings.Replace(ok, "metric: m,", "metric: m, over_gpu: adreno-640,", 1), "give over"},
		{"cross-GPU without relation", strings.Replace(ok, "metric: m,", "metric: m, over: m, over_gpu: adreno-640,", 1), "give a relation"},
		{"unknown relation", strings.Replace(ok, "metric: m,", "metric: m, relation: faster,", 1), `relation "faster"`},
		{"unknown over_test", strings.Replace(ok, "metric: m,", "metric: m, over: m, over_test: speed,", 1), `unknown test "speed"`},
		{"about needs a tolerance", strings.Replace(ok, "tolerance_pct: 5", "tolerance_pct: 0, relation: about", 1), "tolerance_pct"},
		{"less by 100%", strings.Replace(ok, "tolerance_pct: 5", "tolerance_pct: 100, relation: less", 1), "under 100"},
		{"second_over without second", strings.Replace(ok, "metric: m,", "metric: m, over: m, second_over: s,", 1), "give second and over"},
		{"ratio without second_over", strings.Replace(ok, "metric: m,", "metric: m, over: m, second: s,", 1), "give second_over"},
		{"second_note without second", strings.Replace(ok, "metric: m,", "metric: m, second_note: why,", 1), "give second"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := parseFigures([]byte(tt.yaml))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestSimulatedMetric(t *testing.T) {
	r := &Result{Test: "rates", Metrics: map[string]float64{"a": 6, "b": 3, "z": 0}}
	for _, tt := range []struct {
		f    Figure
		want float64
		err  string
	}{
		{Figure{Test: "rates", Metric: "a"}, 6, ""},
		{Figure{Test: "rates", Metric: "a", Over: "b"}, 2, ""},
		{Figure{Test: "rates", Metric: "c"}, 0, `no metric "c"`},
		{Figure{Test: "rates", Metric: "a", Over: "z"}, 0, "is zero"},
	} {
		got, err := tt.f.simulated(r, r)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%+v: error %v, want %q", tt.f, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%+v: %v, %v; want %v", tt.f, got, err, tt.want)
		}
	}
}

func TestParseComparative(t *testing.T) {
	y := "figures:\n  - {id: a, gpu: adreno-640, test: bandwidth-local, metric: f32x4.gbs, over: f32x4.gbs, over_gpu: adreno-530, relation: greater, published: 1, unit: x, tolerance_pct: 0, source: \"seed 001 §Local Memory\", wording: w}\n"
	figs, err := parseFigures([]byte(y))
	if err != nil {
		t.Fatal(err)
	}
	if f := figs[0]; !f.Comparative() || !f.crossGPU() || f.overTest() != "bandwidth-local" || f.overGPU() != "adreno-530" {
		t.Errorf("%+v", f)
	}
}

func TestRelations(t *testing.T) {
	for _, tt := range []struct {
		rel      string
		pub, tol float64
		sim      float64
		holds    bool
		expected string
	}{
		{"", 10, 10, 10.9, true, "10"},
		{"", 10, 10, 11.1, false, "10"},
		{"about", 2, 15, 1.75, true, "≈ 2 ±15%"},
		{"about", 2, 15, 1.6, false, "≈ 2 ±15%"},
		{"greater", 1, 0, 1.01, true, "> 1"},
		{"greater", 1, 0, 1, false, "> 1"},
		{"greater", 2, 10, 2.1, false, "> 2.2"},
		{"less", 1, 0, 0.99, true, "< 1"},
		{"less", 1, 0, 0.9999999999, false, "< 1"},
		{"greater", 1, 0, 1.0000000001, false, "> 1"},
		{"less", 1, 50, 0.6, false, "< 0.5"},
		{"at_least", 48, 0, 48, true, "≥ 48"},
		{"at_least", 48, 0, 47.9, false, "≥ 48"},
		{"at_most", 1, 5, 1.04, true, "≤ 1.05"},
		{"at_most", 1, 5, 1.06, false, "≤ 1.05"},
	} {
		f := Figure{Relation: tt.rel, Published: tt.pub, TolerancePct: tt.tol}
		if got := f.Holds(tt.sim); got != tt.holds {
			t.Errorf("%s %v ±%v: Holds(%v) = %v", tt.rel, tt.pub, tt.tol, tt.sim, got)
		}
		if got := f.Expected(); got != tt.expected {
			t.Errorf("%s %v ±%v: Expected() = %q, want %q", tt.rel, tt.pub, tt.tol, got, tt.expected)
		}
	}
}

// Figures over another GPU: the jobs run the over test on that GPU, the
// check reads both, and a run without the other GPU skips the figure with
// a note instead of failing. Comparative figures stay out of the MAPE.
func TestCompareAcrossGPUs(t *testing.T) {
	figs := []Figure{
		{ID: "num", GPU: "adreno-640", Test: "rates", Metric: "m", Published: 10, TolerancePct: 10},
		{ID: "cross", GPU: "adreno-640", Test: "bandwidth-local", Metric: "bw", Over: "bw", OverGPU: "adreno-530", Relation: "about", Published: 1, TolerancePct: 10},
		{ID: "tests", GPU: "adreno-640", Test: "bandwidth-local", Metric: "bw", Over: "l2", OverTest: "bandwidth-global", Relation: "less", Published: 1},
	}
	a640, a530 := lookupGPU(t, "adreno-640"), lookupGPU(t, "adreno-530")
	user := userGPU(t, "base: adreno-640\nclock_mhz: 600\n")
	jobs, err := validationJobs(figs, []*arch.GPU{a640, a530})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, j := range jobs {
		names = append(names, j.Test.Name+"/"+j.GPU.ID)
	}
	if want := []string{"bandwidth-global/adreno-640", "bandwidth-local/adreno-640", "rates/adreno-640", "bandwidth-local/adreno-530"}; !slices.Equal(names, want) {
		t.Errorf("jobs %v, want %v", names, want)
	}
	res := func(test, gpu string, m map[string]float64) *Result { return &Result{Test: test, GPU: gpu, Metrics: m} }
	results := []*Result{
		res("rates", "adreno-640", map[string]float64{"m": 11}),
		res("bandwidth-local", "adreno-640", map[string]float64{"bw": 20}),
		res("bandwidth-global", "adreno-640", map[string]float64{"l2": 40}),
		res("bandwidth-local", "adreno-530", map[string]float64{"bw": 10}),
	}
	v, err := compare(figs, []*arch.GPU{a640, a530}, results)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Figures) != 3 || v.Numeric != 1 || v.Comparative != 2 || v.Held != 1 || v.MAPE != 10 || len(v.Skipped) != 0 {
		t.Fatalf("%+v", v)
	}
	cross := v.Figures[1]
	if cross.Simulated != 2 || cross.OverOn != "adreno-530" || cross.Held == nil || *cross.Held || cross.Verdict() != "not held" {
		t.Errorf("cross: %+v", cross)
	}
	if c := v.Figures[2]; c.Simulated != 0.5 || c.OverOn != "" || !*c.Held || c.Verdict() != "held" {
		t.Errorf("tests: %+v", c)
	}
	if c := v.Figures[0]; c.Held != nil || c.Verdict() != "+10.0%" {
		t.Errorf("numeric: %+v", c)
	}
	// A user's GPU built on the 640, alone: the cross-GPU figure is
	// skipped and no job runs the 530's test.
	jobs, err = validationJobs(figs, []*arch.GPU{user})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		if j.GPU != user {
			t.Errorf("job %s on %s", j.Test.Name, j.GPU.ID)
		}
	}
	for i := range results {
		if results[i].GPU == "adreno-640" {
			results[i].GPU = user.ID
		}
	}
	v, err = compare(figs, []*arch.GPU{user}, results)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Figures) != 2 || len(v.Skipped) != 1 || v.Skipped[0].ID != "cross" || !strings.Contains(v.Skipped[0].Reason, "--gpu adreno-530") {
		t.Errorf("user GPU alone: %+v", v)
	}
	// A short sweep that lacks a figure's point skips it (the demo).
	quick := []*Result{{Test: "rates", GPU: "adreno-640", Metrics: map[string]float64{}, Quick: true}}
	v, err = compare(figs[:1], []*arch.GPU{a640}, quick)
	if err != nil || len(v.Figures) != 0 || len(v.Skipped) != 1 || !strings.Contains(v.Skipped[0].Reason, "short sweep") {
		t.Errorf("quick result without the metric: %+v, %v", v, err)
	}
	quick[0].Quick = false
	if _, err := compare(figs[:1], []*arch.GPU{a640}, quick); err == nil || !strings.Contains(err.Error(), `no metric "m"`) {
		t.Errorf("full result without the metric: %v", err)
	}
	// The 530 alone: it has no figures of its own, but it is another's
	// comparison, so it is no error; nothing to run.
	if jobs, err := validationJobs(figs, []*arch.GPU{a530}); err != nil || len(jobs) != 0 {
		t.Errorf("530 alone: %v, %v", jobs, err)
	}
	if _, err := validationJobs(figs, []*arch.GPU{lookupGPU(t, "mali-g72")}); err == nil {
		t.Error("a GPU no figure names should be an error")
	}
}
