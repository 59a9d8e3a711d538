package bench

import (
	"bytes"
	"flag"
	"fmt"
	"github.com/pocketgpu/pocketgpu/internal/docsync"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/kernel"
)

func lookupGPU(t testing.TB, id string) *arch.GPU {
	t.Helper()
	g, err := arch.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// userGPU is a preset with a user's YAML overrides.
func userGPU(t testing.TB, yaml string) *arch.GPU {
	t.Helper()
	g, err := arch.Parse([]byte(yaml), "user.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestKernelsFresh recompiles every module with the toolchain and compares
// it with the committed SPIR-V.
func TestKernelsFresh(t *testing.T) {
	for _, tool := range []string{"clang-14", "opt-14", "llvm-spirv-14", "spirv-val"} {
		if _, err := kernel.FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
	for _, m := range Modules() {
		t.Run(m.Name, func(t *testing.T) {
			spv, err := kernel.Compile(m.Source, kernel.Options{Defines: m.Defines, Light: true})
			if err != nil {
				t.Fatal(err)
			}
			want, err := SPIRV(m.Name)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(spv, want) {
				t.Errorf("kernels/%s.spv is stale: %s compiles to %d bytes that differ; run go generate ./bench", m.Name, m.Source, len(spv))
			}
		})
	}
}

// Every entry point the suite uses loads on a GPU of every family.
func TestKernelsLoad(t *testing.T) {
	entries := map[string]bool{}
	for _, g := range []string{"mali-g52", "mali-t860", "adreno-640", "adreno-615", "powervr-gx6250"} {
		c := newCtx(lookupGPU(t, g), Options{})
		for _, m := range Modules() {
			spv, err := SPIRV(m.Name)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entryPoints(t, spv) {
				if _, err := c.kernel(m.Name, e); err != nil {
					t.Errorf("%s: %s#%s: %v", g, m.Name, e, err)
				}
				entries[m.Name+"#"+e] = true
			}
		}
	}
	for _, want := range []string{"latency#chase_global", "latency#chase_image", "latency#chase_local", "latency#chase_constant",
		"bandwidth#bw_global", "bandwidth#bw_texture", "bandwidth#cs_stride", "rates#fp32_fma", "rates#int8x4_mul",
		"atomics#handoff_global", "atomics#add_local", "iloop_512#iloop", "occupancy#occupancy", "lbm#lbm_fma", "lbm#lbm_fp16s", "lbm3d#lbm3d_fma", "lbm3d#lbm3d_fp16s", "fx3d#fx_fma", "fx3d#fx_mad", "fx3d#fx_fp16s", "asynccopy#copy_fixed32", "cstore#cs_write", "cstore#burst_load"} {
		if !entries[want] {
			t.Errorf("entry point %s missing", want)
		}
	}
}

func entryPoints(t *testing.T, spv []byte) []string {
	t.Helper()
	out, err := device.EntryPoints(spv)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestLevels(t *testing.T) {
	pts := func(ys ...float64) []Point {
		var out []Point
		for i, y := range ys {
			out = append(out, Point{X: float64(int(1) << i), Y: y})
		}
		return out
	}
	tests := []struct {
		name string
		in   []Point
		want []level
	}{
		{"one plateau", pts(60, 60, 61), []level{{1, 4, 60, 3}}},
		{"two steps", pts(60, 60, 60, 113, 113, 252, 252), []level{{1, 4, 60, 3}, {8, 16, 113, 2}, {32, 64, 252, 2}}},
		{"transition point", pts(60, 60, 90, 113, 113), []level{{1, 2, 60, 2}, {8, 16, 113, 2}}},
		{"rising tail", pts(60, 60, 200, 300, 400), []level{{1, 2, 60, 2}}},
		{"single point", pts(47), []level{{1, 1, 47, 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := levels(tt.in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("levels = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestPlateaus(t *testing.T) {
	mk := func(xs []float64, ys ...float64) []Point {
		var out []Point
		for i, y := range ys {
			out = append(out, Point{X: xs[i], Y: y})
		}
		return out
	}
	xs := []float64{128, 256, 512, 768, 1024, 1280, 1536}
	tests := []struct {
		name string
		in   []Point
		ends []float64
	}{
		{"two dips", mk(xs, 93, 94.5, 95.3, 90.4, 90.6, 90.7, 48.6), []float64{512, 1280, 1536}},
		{"a rise is no dip", mk(xs, 80, 90, 95, 95, 95, 95, 95), []float64{1536}},
		{"flat", mk(xs, 50, 50, 50, 50, 50, 50, 50), []float64{1536}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ends []float64
			for _, lv := range plateaus(tt.in, 0.03) {
				ends = append(ends, lv.To)
			}
			if !slices.Equal(ends, tt.ends) {
				t.Errorf("plateau ends %v, want %v", ends, tt.ends)
			}
		})
	}
}

func TestSizeLabels(t *testing.T) {
	for _, tt := range []struct {
		b          float64
		label, key string
	}{
		{512, "512 B", "512B"}, {1024, "1 KB", "1KB"}, {1536, "1.5 KB", "1.5KB"}, {64 << 20, "64 MB", "64MB"}, {1.5 * (1 << 20), "1.5 MB", "1.5MB"},
	} {
		if got := sizeLabel(tt.b); got != tt.label {
			t.Errorf("sizeLabel(%v) = %q, want %q", tt.b, got, tt.label)
		}
		if got := sizeKey(tt.b); got != tt.key {
			t.Errorf("sizeKey(%v) = %q, want %q", tt.b, got, tt.key)
		}
	}
}

func TestLookupAndPlan(t *testing.T) {
	if _, err := Lookup("no-such-test"); err == nil || !strings.Contains(err.Error(), "latency-global") {
		t.Errorf("unknown test: %v; want the list of tests", err)
	}
	g52, rogue := lookupGPU(t, "mali-g52"), lookupGPU(t, "powervr-gx6250")
	cs, _ := Lookup("common-store")
	if _, err := Plan([]*arch.GPU{g52}, []*Test{cs}); err == nil || !strings.Contains(err.Error(), "does not apply to mali-g52") {
		t.Errorf("common-store on mali-g52: %v; want an error", err)
	}
	jobs, err := Plan([]*arch.GPU{g52, rogue}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, j := range jobs {
		names = append(names, j.Test.Name+"/"+j.GPU.ID)
	}
	for _, want := range []string{"icache/mali-g52", "common-store/powervr-gx6250", "latency-global/mali-g52", "latency-global/powervr-gx6250"} {
		if !slices.Contains(names, want) {
			t.Errorf("plan lacks %s: %v", want, names)
		}
	}
	for _, bad := range []string{"icache/powervr-gx6250", "common-store/mali-g52", "row-order/mali-g52"} {
		if slices.Contains(names, bad) {
			t.Errorf("plan has %s, which does not apply", bad)
		}
	}
	if n := Points(jobs, Options{}); n < len(jobs) {
		t.Errorf("%d points for %d jobs", n, len(jobs))
	}
}

// rogueKnownFailures are the Rogue figures the model does not reproduce
// yet (docs/validation.md says why); none at present. Listed so that any
// failure, or a listed one starting to hold, fails TestRogueRules.
var rogueKnownFailures = map[string]bool{}

// The Rogue tests are cheap: run them and check the guide's rules, the
// progress count and determinism.
func TestRogueRules(t *testing.T) {
	g := lookupGPU(t, "powervr-gx6250")
	jobs, err := ValidationJobs([]*arch.GPU{g})
	if err != nil {
		t.Fatal(err)
	}
	ticks := 0
	results, err := RunJobs(jobs, Options{Tick: func() { ticks++ }}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := Points(jobs, Options{}); ticks != want {
		t.Errorf("%d ticks, Points says %d", ticks, want)
	}
	v, err := Compare([]*arch.GPU{g}, results)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Figures) != 27 {
		t.Errorf("%d Rogue figures, want 27", len(v.Figures))
	}
	for _, c := range v.Figures {
		switch {
		case !c.Within && rogueKnownFailures[c.ID]:
			t.Logf("%s: simulated %.3g, published %s (%s): a known model error, docs/validation.md", c.ID, c.Simulated, c.Expected(), c.Source)
		case !c.Within:
			t.Errorf("%s: simulated %v, published %s (%s)", c.ID, c.Simulated, c.Expected(), c.Source)
		case rogueKnownFailures[c.ID]:
			t.Errorf("%s now holds (simulated %v): take it off rogueKnownFailures and docs/validation.md's list", c.ID, c.Simulated)
		}
	}
	again, err := RunJobs(jobs, Options{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range results {
		if fmt.Sprint(results[i].Metrics) != fmt.Sprint(again[i].Metrics) {
			t.Errorf("%s: two runs differ:\n%v\n%v", results[i].Test, results[i].Metrics, again[i].Metrics)
		}
	}
}

// Changing a parameter in a user's YAML moves the benchmark that measures
// it, the right way.
func TestUserYAMLMovesBenchmarks(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		measure func(c *ctx) (float64, error)
		ratio   float64 // user / preset, about
	}{
		{"twice the L1: a 24 KB chase stays in L1", "base: mali-g52\nl1: {size_kib: 32}\n",
			func(c *ctx) (float64, error) { return c.chase("chase_global", 24*kib) }, 60.4 / 113.4},
		{"twice the L2: a 192 KB chase stays in L2", "base: mali-g52\nl2: {size_kib: 256}\n",
			func(c *ctx) (float64, error) { return c.chase("chase_global", 192*kib) }, 113.4 / 252.2},
		{"texture cache of 16 KB: a 12 KB texture chase hits", "base: mali-g52\ntexture_cache: {size_kib: 16}\n",
			func(c *ctx) (float64, error) { return c.chase("chase_image", 12*kib) }, 70.4 / 123.4},
		{"twice the engines: twice the FMA rate", "base: mali-g52\nengines_per_core: 6\n",
			func(c *ctx) (float64, error) {
				v, _, err := c.rate("rates", rateKernel{"fp32_fma", 1, "f32", "0.999", "0.5"}, 4)
				return v, err
			}, 2},
		{"FMA at 1200 cycles a warp: half the 615's rate", "base: adreno-615\nops: {fp32_fma: {cycles_per_warp: 1200}}\n",
			func(c *ctx) (float64, error) {
				v, _, err := c.rate("rates", rateKernel{"fp32_fma", 1, "f32", "0.999", "0.5"}, 1)
				return v, err
			}, 0.5},
		{"skipping idle 64-lane passes: wave128 runs of 64 cost no more than uniform ones", "base: adreno-640\nexecution: {skips_idle_passes: true}\n",
			func(c *ctx) (float64, error) {
				r, err := divergence.Run(c.g, Options{})
				if err != nil {
					return 0, err
				}
				return r.Metrics["cost@64"], nil
			}, 0.5},
		{"half the DRAM transfer rate: half the bandwidth past the caches", "base: mali-g52\ndram: {transfer_mts: 1320}\n",
			func(c *ctx) (float64, error) {
				k, err := c.kernel("bandwidth", "bw_global")
				if err != nil {
					return 0, err
				}
				global, local := streamGrid(c.g)
				l, err := c.bind(k, global, local, "buf:f32x4:65536", fmt.Sprintf("buf:f32x4:%d", global), "u32:0", "u32:1")
				if err != nil {
					return 0, err
				}
				defer l.free()
				return c.stream(l, 2, 3, 16, 1*mib)
			}, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			user := userGPU(t, tt.yaml)
			base := lookupGPU(t, user.Base)
			a, err := tt.measure(newCtx(base, Options{}))
			if err != nil {
				t.Fatal(err)
			}
			b, err := tt.measure(newCtx(user, Options{}))
			if err != nil {
				t.Fatal(err)
			}
			if r := b / a; math.Abs(r-tt.ratio) > 0.1*tt.ratio {
				t.Errorf("%s: %.2f on %s, %.2f with the change: ratio %.3f, want about %.3f", tt.name, a, base.ID, b, r, tt.ratio)
			}
		})
	}
}

// A user's GPU is checked against its base preset's figures, and a change
// that contradicts a seed moves the figure off.
func TestUserGPUFigures(t *testing.T) {
	user := userGPU(t, "base: powervr-gx6250\nunified_store: {registers: 2560}\n")
	figs, err := Figures()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(FiguresFor(user, figs)); n != 27 {
		t.Fatalf("%d figures for a GPU built on powervr-gx6250, want 27", n)
	}
	// adreno-615 is built on adreno-640 but is a preset: its own figures.
	for _, f := range FiguresFor(lookupGPU(t, "adreno-615"), figs) {
		if f.GPU != "adreno-615" {
			t.Errorf("adreno-615 got figure %s of %s", f.ID, f.GPU)
		}
	}
	tt, _ := Lookup("occupancy")
	r, err := tt.Run(user, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err := Compare([]*arch.GPU{user}, []*Result{r})
	if err == nil {
		t.Fatalf("Compare with only the occupancy result should say which tests are missing, got %+v", v)
	}
	got := r.Metrics["threads@40"]
	if got != 1024 {
		t.Errorf("twice the unified store: %v threads at 40 registers, want 1024 (512 on the preset)", got)
	}
}

func TestValidationGPUs(t *testing.T) {
	ids, err := ValidationGPUs()
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"mali-g52", "adreno-615", "adreno-640", "powervr-gx6250", "adreno-530", "adreno-730", "mali-t860"}; !slices.Equal(ids, want) {
		t.Errorf("validation GPUs %v, want %v", ids, want)
	}
	if _, err := ValidationJobs([]*arch.GPU{lookupGPU(t, "mali-g72")}); err == nil || !strings.Contains(err.Error(), "no published figures for mali-g72") {
		t.Errorf("mali-g72: %v; want no figures", err)
	}
}

// TestValidateAll is the full validation: every figure, MAPE at most 10%,
// none off by more than 25% (issue 5). About half a minute; skipped with
// -short.
func TestValidateAll(t *testing.T) {
	if testing.Short() {
		t.Skip("the full validation takes about half a minute; run without -short")
	}
	// The package's three long tests run side by side: on two cores the
	// package then stays well inside go test's 10 minutes.
	t.Parallel()
	var gpus []*arch.GPU
	ids, err := ValidationGPUs()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		gpus = append(gpus, lookupGPU(t, id))
	}
	v, err := Validate(gpus, Options{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	figs, _ := Figures()
	if len(v.Figures) != len(figs) {
		t.Errorf("%d figures checked, %d published", len(v.Figures), len(figs))
	}
	var unheld, misses []string
	for _, c := range v.Figures {
		t.Logf("%-30s %-15s %12s %10.4g %-18s %s", c.ID, c.On, c.Expected(), c.Simulated, c.Unit, c.Verdict())
		switch {
		case c.Comparative() || math.Abs(c.ErrorPct) <= 15:
		case c.HeldOut():
			misses = append(misses, c.ID)
		default:
			t.Errorf("%s: %+.1f%% off (published %v, simulated %v); issue 15 allows none over 15%%", c.ID, c.ErrorPct, c.Published, c.Simulated)
		}
		if c.Comparative() && !c.Within {
			unheld = append(unheld, c.ID)
		}
		if s := c.Second; s != nil {
			switch {
			case !s.Agrees && s.Note == "":
				t.Errorf("%s: the second kernel (%s) is %+.1f%% off the figure's, beyond %d%%, and the figure gives no second_note saying why", c.ID, s.Metric, s.DiffPct, secondAgreementPct)
			case s.Agrees && s.Note != "":
				t.Errorf("%s: the second kernel now agrees (%+.1f%%): drop the figure's stale second_note", c.ID, s.DiffPct)
			}
		}
	}
	seed := subset(v.Figures, func(c Check) bool { return !c.HeldOut() })
	if seed.MAPE > 5 {
		t.Errorf("MAPE of the seeds' figures %.1f%%, want at most 5%%", seed.MAPE)
	}
	// Issue 25: the predicted figures (no parameter fitted to them) are
	// the model's test. Those that cite a seed are held to the same bound.
	if v.SeedPredicted.MAPE > 5 {
		t.Errorf("predicted MAPE of the seeds' figures %.1f%% over %d figures, want at most 5%%", v.SeedPredicted.MAPE, v.SeedPredicted.Numeric)
	}
	// The held-out figures (real-device results of third-party programs)
	// are kept however far off, each miss's note naming the mechanism it
	// points at: the list of those over 15% and their MAPE may only
	// shrink (lower the ceiling as mechanisms land; issue 25 asks for 5%).
	if !slices.Equal(misses, knownHeldOutMisses) {
		t.Errorf("held-out figures over 15%% off: %v; known: %v (update knownHeldOutMisses and the figures' notes)", misses, knownHeldOutMisses)
	}
	if v.HeldOut.MAPE > heldOutMAPECeiling {
		t.Errorf("held-out MAPE %.1f%% over %d figures, above its ceiling %v%%", v.HeldOut.MAPE, v.HeldOut.Numeric, heldOutMAPECeiling)
	}
	// Comparative figures that do not hold are model errors, each explained
	// in docs/validation.md; the list here is exactly those, so that a
	// figure that starts or stops holding is noticed.
	if !slices.Equal(unheld, knownUnheld) {
		t.Errorf("comparative figures not holding: %v; known: %v (update knownUnheld and docs/validation.md)", unheld, knownUnheld)
	}
	t.Logf("MAPE %.2f%% over %d numeric figures; %d of %d comparative figures hold; predicted %.2f%% over %d (held-out %.2f%% over %d), calibrated %.2f%% over %d", v.MAPE, v.Numeric, v.Held, v.Comparative, v.Predicted.MAPE, v.Predicted.Numeric, v.HeldOut.MAPE, v.HeldOut.Numeric, v.Calibrated.MAPE, v.Calibrated.Numeric)
	checkValidationDoc(t, v)
}

// knownUnheld are the comparative figures the model does not reproduce, in
// figures.yaml's order; docs/validation.md says why for each.
var knownUnheld = []string{
	"g52-fluid-fp16s", "a615-vs-g52-fluid",
}

// knownHeldOutMisses are the held-out figures more than 15% off, in
// figures.yaml's order; each figure's note names the mechanism its miss
// points at.
var knownHeldOutMisses = []string{
	"ap640-buffer-16b", "ap640-buffer-32b", "ap640-buffer-64b", "ap640-buffer-128b", "ap640-buffer-256b", "ap640-buffer-512b", "ap640-buffer-1kb", "ap640-buffer-256kb", "ap640-buffer-512kb", "ap640-buffer-1mb", "ap640-buffer-2mb", "ap640-buffer-8mb", "ap640-buffer-16mb", "ap640-buffer-32mb", "ap640-buffer-64mb", "ap640-constant-16b", "ap640-constant-32b", "ap640-constant-64b", "ap640-constant-128b", "ap640-constant-256b", "ap640-constant-512b", "ap640-constant-1kb", "ap640-local-16b", "ap640-local-32b", "ap640-local-64b", "ap640-image-16b", "ap640-image-32b", "ap640-image-64b", "ap640-image-128b", "ap640-image-256b", "ap640-image-512b", "ap640-image-1kb", "ap640-image-2kb", "ap640-image-4kb", "ap640-image-8kb", "ap640-image-16kb", "ap640-image-32kb", "ap640-image-64kb", "ap640-image-128kb", "ap640-image-512kb", "ap640-image-1mb", "ap640-gflops-f16x1", "cp-t860-bw-f32x1", "cp-t860-bw-f32x2", "cp-t860-bw-f32x4", "cp-t860-bw-f32x8", "cp-t860-bw-f32x16", "cp-t860-sp-x2", "cp-t860-sp-x8", "cp-t860-hp-x2", "cp-t860-hp-x4", "cp-t860-hp-x16", "cp-t860-int-x1", "cp-t860-int-x2", "cp-t860-int-x16",
}

// heldOutMAPECeiling is the held-out MAPE of the model, rounded up (91%
// as the held-out figures were added, 33.5% with issue 25's mechanisms in): a change that makes the
// model predict them worse fails TestValidateAll.
const heldOutMAPECeiling = 34.0

var updateValidationDoc = flag.Bool("update-validation-doc", false, "rewrite the table in docs/validation.md from this run")

// checkValidationDoc keeps docs/validation.md's table the table a run
// gives (the simulator is deterministic).
func checkValidationDoc(t *testing.T, v *Validation) {
	t.Helper()
	var b strings.Builder
	b.WriteString("| figure | GPU | kind | source | published | simulated | unit | error |\n|---|---|---|---|---|---|---|---|\n")
	outside := 0
	for _, c := range v.Figures {
		gpu := c.On
		if c.OverOn != "" {
			gpu += " / " + c.OverOn
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.4g | %s | %s |\n", c.ID, gpu, c.Kind(), c.Source, c.Expected(), c.Simulated, c.Unit, c.Verdict())
		if !c.Comparative() && !c.Within {
			outside++
		}
	}
	are := "figures are"
	if outside == 1 {
		are = "figure is"
	}
	for _, k := range []struct {
		kind string
		s    Subset
	}{{"Predicted", v.Predicted}, {"Held-out (predicted, citing a measurement reference)", v.HeldOut}, {"Seed-predicted (predicted, citing a seed)", v.SeedPredicted}, {"Calibrated", v.Calibrated}} {
		fmt.Fprintf(&b, "\n**%s: MAPE %.1f%% over %d numeric figures, the largest error %.1f%% (%s); %d of %d comparative figures hold.**\n", k.kind, k.s.MAPE, k.s.Numeric, k.s.MaxAbsErrorPct, k.s.Largest, k.s.Held, k.s.Comparative)
	}
	fmt.Fprintf(&b, "\n**All: MAPE %.1f%% over %d numeric figures; the largest error is %.1f%%; %d of %d comparative figures hold.** %d numeric %s", v.MAPE, v.Numeric, v.MaxAbsErrorPct, v.Held, v.Comparative, outside, are)
	docsync.Check(t, "../docs/validation.md", "<!-- BEGIN validate", "<!-- END validate -->", b.String(), *updateValidationDoc,
		"rerun with -update-validation-doc and check the prose around it")

	b.Reset()
	b.WriteString("| figure | GPU | the figure's kernel | value | second kernel | value | difference |\n|---|---|---|---|---|---|---|\n")
	var notes []string
	for _, c := range v.Figures {
		if c.Second == nil {
			continue
		}
		first, second := kernelShapes(c.Test)
		diff := fmt.Sprintf("%+.1f%%", c.Second.DiffPct)
		if !c.Second.Agrees {
			notes = append(notes, fmt.Sprintf("- **%s** (%+.1f%%): %s", c.ID, c.Second.DiffPct, c.Second.Note))
			diff += fmt.Sprintf(" (%d)", len(notes))
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.4g | %s | %.4g | %s |\n", c.ID, c.On, first, c.Simulated, second, c.Second.Value, diff)
	}
	fmt.Fprintf(&b, "\n**%d figures measured by two kernels: %d agree within %d%%, %d differ for the reasons below.**\n", v.SecondKernels, v.SecondAgree, secondAgreementPct, v.SecondExplained)
	for i, n := range notes {
		fmt.Fprintf(&b, "\n%d. %s", i+1, strings.TrimPrefix(n, "- "))
	}
	if len(notes) > 0 {
		b.WriteString("\n")
	}
	docsync.Check(t, "../docs/validation.md", "<!-- BEGIN second-kernels", "<!-- END second-kernels -->", b.String(), *updateValidationDoc,
		"rerun with -update-validation-doc and check the prose around it")
}

// kernelShapes names, for the tests whose figures have a second kernel, how
// the figure's kernel and the second one are written.
func kernelShapes(test string) (first, second string) {
	switch test {
	case "rates":
		return "8 chains, 128 ops a loop iteration", "2 chained vectors, 32 ops an iteration"
	case "bandwidth-global":
		return "grid-stride", "each work-group sweeps the footprint"
	case "bandwidth-local":
		return "float4 reads, 4 sums", "3 float4 reads feed a mad"
	case "texture-throughput":
		return "read_imageui, 4 sums", "read_imagef, pairs, 1 sum"
	}
	return test, "?"
}

// Every test runs on a Rogue with short sweeps, and the progress count
// each declares is the count it ticks.
func TestQuickSuiteTicks(t *testing.T) {
	g := lookupGPU(t, "powervr-gx6250")
	for _, tt := range suite {
		if !tt.AppliesTo(g) {
			continue
		}
		t.Run(tt.Name, func(t *testing.T) {
			o := Options{Quick: true}
			ticks := 0
			o.Tick = func() { ticks++ }
			r, err := tt.Run(g, o)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.Points(g, o); ticks != want {
				t.Errorf("%d ticks, Points says %d", ticks, want)
			}
			if r.Test != tt.Name || r.GPU != g.ID || len(r.Series) == 0 {
				t.Errorf("result %s on %s with %d series", r.Test, r.GPU, len(r.Series))
			}
		})
	}
}

// Every rate and bandwidth figure is measured by two kernels written
// differently (issue 15), except those that read no kernel: the clock, and
// the DRAM's theoretical bandwidth from the description.
func TestRateAndBandwidthFiguresHaveSecondKernels(t *testing.T) {
	figs, err := Figures()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		switch f.Test {
		case "rates", "bandwidth-global", "bandwidth-local", "texture-throughput":
		default:
			continue
		}
		if f.Metric == "clock_mhz" || f.Metric == "dram_theoretical_gbs" {
			continue
		}
		if f.Second == "" {
			t.Errorf("%s (%s): a rate or bandwidth figure names its second kernel's metric (second:)", f.ID, f.Test)
		}
	}
}
