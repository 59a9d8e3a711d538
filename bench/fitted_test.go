package bench

import (
	"math"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
)

// TestFittedNamesFigures: every `fitted:` tag in a preset names a figure
// of figures.yaml, and the description of the GPU that figure was measured
// on carries the tag (a figure calibrates the GPU it was measured on; a
// preset that inherits the fitted value from its base is not fitted to
// it).
func TestFittedNamesFigures(t *testing.T) {
	figs, err := Figures()
	if err != nil {
		t.Fatal(err)
	}
	gpuOf := map[string]string{}
	for _, f := range figs {
		gpuOf[f.ID] = f.GPU
	}
	type tag struct{ figure, gpu string }
	carried := map[tag]bool{}
	for _, g := range arch.Presets() {
		for id, paths := range g.Fitted() {
			if _, ok := gpuOf[id]; !ok {
				t.Errorf("%s: %v fitted to %q, which is not a figure of bench/figures.yaml", g.ID, paths, id)
			}
			carried[tag{id, g.ID}] = true
		}
	}
	for tg := range carried {
		if gpu := gpuOf[tg.figure]; gpu != "" && !carried[tag{tg.figure, gpu}] {
			t.Errorf("figure %s was measured on %s, whose description does not carry its fitted tag (%s's does)", tg.figure, gpu, tg.gpu)
		}
	}
}

// TestCompareCalibratedPredicted: a figure a parameter of the GPU is
// fitted to is calibrated, the others predicted; the tag, not a list kept
// here, decides (a description that restates the parameter without it
// moves the figure to predicted, one that adds it moves a figure to
// calibrated), and each MAPE is over its own figures.
func TestCompareCalibratedPredicted(t *testing.T) {
	figs := []Figure{
		{ID: "a640-l2-latency", GPU: "adreno-640", Test: "rates", Metric: "m", Published: 10, TolerancePct: 50},
		{ID: "free", GPU: "adreno-640", Test: "rates", Metric: "n", Published: 10, TolerancePct: 50},
		{ID: "a640-vs-a530-l2-bw", GPU: "adreno-640", Test: "rates", Metric: "m", Over: "n", Relation: "less", Published: 1},
	}
	results := func(id string) []*Result {
		return []*Result{{Test: "rates", GPU: id, Metrics: map[string]float64{"m": 11, "n": 13}}}
	}
	check := func(g *arch.GPU) *Validation {
		t.Helper()
		v, err := compare(figs, []*arch.GPU{g}, results(g.ID))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	kinds := func(v *Validation) []string {
		var out []string
		for _, c := range v.Figures {
			out = append(out, c.Kind())
		}
		return out
	}

	v := check(lookupGPU(t, "adreno-640"))
	if got, want := kinds(v), []string{"calibrated", "predicted", "calibrated"}; !slices.Equal(got, want) {
		t.Errorf("kinds %v, want %v", got, want)
	}
	if fb := v.Figures[0].FittedBy; !slices.Equal(fb, []string{"adreno-640 l2.latency_cycles"}) {
		t.Errorf("fitted_by %v", fb)
	}
	want := Subset{Numeric: 1, MAPE: 10, MaxAbsErrorPct: 10, Largest: "a640-l2-latency", Comparative: 1, Held: 1}
	if !approxSubset(v.Calibrated, want) {
		t.Errorf("calibrated %+v, want %+v", v.Calibrated, want)
	}
	want = Subset{Numeric: 1, MAPE: 30, MaxAbsErrorPct: 30, Largest: "free"}
	if !approxSubset(v.Predicted, want) {
		t.Errorf("predicted %+v, want %+v", v.Predicted, want)
	}
	if math.Abs(v.MAPE-20) > 1e-9 || v.Numeric != 2 {
		t.Errorf("overall MAPE %v over %d, want 20 over 2", v.MAPE, v.Numeric)
	}

	// The latency restated without its tag: the figure is predicted now.
	v = check(userGPU(t, "base: adreno-640\nl2:\n  latency_cycles: {value: 24, source: \"measured elsewhere\"}\n"))
	if got, want := kinds(v), []string{"predicted", "predicted", "calibrated"}; !slices.Equal(got, want) {
		t.Errorf("untagged: kinds %v, want %v", got, want)
	}
	if v.Predicted.Numeric != 2 || math.Abs(v.Predicted.MAPE-20) > 1e-9 || v.Calibrated.Numeric != 0 || v.Calibrated.MAPE != 0 {
		t.Errorf("untagged: predicted %+v, calibrated %+v", v.Predicted, v.Calibrated)
	}
	// A parameter tagged with the other figure makes it calibrated.
	v = check(userGPU(t, "base: adreno-640\nclock_mhz: {value: 585, source: \"s\", fitted: [free]}\n"))
	if got, want := kinds(v), []string{"calibrated", "calibrated", "calibrated"}; !slices.Equal(got, want) {
		t.Errorf("tagged: kinds %v, want %v", got, want)
	}
	if v.Predicted.Numeric != 0 || v.Calibrated.Numeric != 2 {
		t.Errorf("tagged: predicted %+v, calibrated %+v", v.Predicted, v.Calibrated)
	}
}

func approxSubset(a, b Subset) bool {
	return a.Numeric == b.Numeric && math.Abs(a.MAPE-b.MAPE) < 1e-9 && math.Abs(a.MaxAbsErrorPct-b.MaxAbsErrorPct) < 1e-9 &&
		a.Largest == b.Largest && a.Comparative == b.Comparative && a.Held == b.Held
}

// TestReferencesDocumented holds docs/references.md's "Measurements on real
// devices" to bench.References: every name a figure may cite is described
// there, and every one described there may be cited.
func TestReferencesDocumented(t *testing.T) {
	data, err := os.ReadFile("../docs/references.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	start := strings.Index(doc, "## Measurements on real devices")
	if start < 0 {
		t.Fatal(`docs/references.md has no "## Measurements on real devices" section`)
	}
	section := doc[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	var documented []string
	for _, m := range regexp.MustCompile("`ref ([a-z0-9-]+)`").FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	if !slices.Equal(documented, References) {
		t.Errorf("docs/references.md describes references %v; bench.References is %v", documented, References)
	}
	figs, err := Figures()
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, f := range figs {
		if f.HeldOut() {
			used[f.reference()] = true
		}
	}
	for _, r := range References {
		if !used[r] {
			t.Errorf("reference %s is cited by no figure", r)
		}
	}
}

// TestFigureSourceReference: a figure may cite a seed or a listed
// measurement reference, and nothing else.
func TestFigureSourceReference(t *testing.T) {
	fig := func(source string) string {
		return "figures:\n  - id: x\n    gpu: adreno-640\n    test: archprobe-gflops\n    metric: f32x1.gflops\n    published: 890\n    unit: GFLOPS\n    tolerance_pct: 10\n    source: \"" + source + "\"\n    wording: \"w\"\n"
	}
	for _, c := range []struct{ source, want string }{
		{"ref archprobe-pixel4 Gflops.csv", ""},
		{"ref nowhere Gflops.csv", `reference "nowhere" is not one of`},
		{"ref", "must name a seed"},
		{"a blog", "must name a seed"},
	} {
		figs, err := parseFigures([]byte(fig(c.source)))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%q: %v", c.source, err)
		case c.want == "" && !figs[0].HeldOut():
			t.Errorf("%q: not held out", c.source)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%q: error %v, want %q", c.source, err, c.want)
		}
	}
}

// TestCompareHeldOut: the figures that cite a measurement reference are
// summarised apart (held_out), and the predicted figures that cite a seed
// (seed_predicted) are the rest of the predicted ones.
func TestCompareHeldOut(t *testing.T) {
	figs := []Figure{
		{ID: "a640-l2-latency", GPU: "adreno-640", Test: "rates", Metric: "m", Published: 10, TolerancePct: 50, Source: "seed 001 §L2 Cache and Beyond"},
		{ID: "free", GPU: "adreno-640", Test: "rates", Metric: "n", Published: 10, TolerancePct: 50, Source: "seed 001 §L2 Cache and Beyond"},
		{ID: "held", GPU: "adreno-640", Test: "rates", Metric: "m", Published: 5, TolerancePct: 50, Source: "ref archprobe-pixel4 Gflops.csv"},
	}
	g := lookupGPU(t, "adreno-640")
	v, err := compare(figs, []*arch.GPU{g}, []*Result{{Test: "rates", GPU: g.ID, Metrics: map[string]float64{"m": 11, "n": 13}}})
	if err != nil {
		t.Fatal(err)
	}
	if want := (Subset{Numeric: 1, MAPE: 120, MaxAbsErrorPct: 120, Largest: "held"}); !approxSubset(v.HeldOut, want) {
		t.Errorf("held out %+v, want %+v", v.HeldOut, want)
	}
	if want := (Subset{Numeric: 1, MAPE: 30, MaxAbsErrorPct: 30, Largest: "free"}); !approxSubset(v.SeedPredicted, want) {
		t.Errorf("seed-predicted %+v, want %+v", v.SeedPredicted, want)
	}
	if v.Predicted.Numeric != 2 || math.Abs(v.Predicted.MAPE-75) > 1e-9 {
		t.Errorf("predicted %+v, want both predicted figures (MAPE 75)", v.Predicted)
	}
}
