package bench

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/pocketgpu/pocketgpu/arch"
)

// figures.yaml holds the measurements the seed documents publish, each with
// the benchmark metric that reproduces it.
//
//go:embed figures.yaml
var figuresYAML []byte

// Figure is one published measurement, or one comparative claim.
type Figure struct {
	// ID names the figure ("g52-fp32-fma").
	ID string `yaml:"id" json:"id"`
	// GPU is the preset it was measured on.
	GPU string `yaml:"gpu" json:"gpu"`
	// Test and Metric name the benchmark result that reproduces it; Over,
	// when set, is a metric the first is divided by (a rate relative to
	// another). Over is read from OverTest on OverGPU when those are set
	// (by default the same test on the same GPU), so that a claim that
	// compares two GPUs, or two tests, is a ratio like any other.
	Test     string `yaml:"test" json:"test"`
	Metric   string `yaml:"metric" json:"metric"`
	Over     string `yaml:"over,omitempty" json:"over,omitempty"`
	OverGPU  string `yaml:"over_gpu,omitempty" json:"over_gpu,omitempty"`
	OverTest string `yaml:"over_test,omitempty" json:"over_test,omitempty"`
	// Relation, when set, makes the figure comparative: the seed states an
	// ordering or a proportion ("barely increases", "regresses", "about
	// doubled"), not a value to reproduce to the digit. The simulated value
	// holds or does not; it is left out of the MAPE.
	//
	//   about     |simulated − published| ≤ tolerance_pct of published
	//   greater   simulated > published × (1 + tolerance_pct/100): the
	//             margin the wording demands ("more than doubles": 2, 0)
	//   less      simulated < published × (1 − tolerance_pct/100)
	//   at_least  simulated ≥ published × (1 − tolerance_pct/100): a bound
	//             ("48 or higher"), tolerance_pct its slack
	//   at_most   simulated ≤ published × (1 + tolerance_pct/100)
	Relation string `yaml:"relation,omitempty" json:"relation,omitempty"`
	// Published is the seed's value, in Unit (for a comparative figure,
	// the value the relation compares with).
	Published float64 `yaml:"published" json:"published"`
	Unit      string  `yaml:"unit" json:"unit"`
	// TolerancePct is how far the simulated value may be from Published
	// for the figure to count as reproduced; the seed's wording ("about",
	// "just over") sets it. For greater and less it is a margin, for
	// at_least and at_most a slack (see Relation).
	TolerancePct float64 `yaml:"tolerance_pct" json:"tolerance_pct"`
	// Source is the seed file and section, or a measurement reference
	// ("ref NAME FILE", NAME one of References) for a held-out figure;
	// Wording the seed's own words, or the reference's row as it gives it.
	Source  string `yaml:"source" json:"source"`
	Wording string `yaml:"wording" json:"wording"`
	// Note says how the benchmark reads the figure, where that needs saying.
	Note string `yaml:"note,omitempty" json:"note,omitempty"`
	// Second names the same quantity measured by a second kernel written
	// another way (grid-stride against sweep, scalar against vector, loop
	// unrolled or not): a metric of the same test, over SecondOver when the
	// figure is a ratio (read where Over is read). The figure's value comes
	// from the kernel that matches the seed's method; the second must agree
	// within secondAgreementPct, or SecondNote says why it does not.
	Second     string `yaml:"second,omitempty" json:"second,omitempty"`
	SecondOver string `yaml:"second_over,omitempty" json:"second_over,omitempty"`
	SecondNote string `yaml:"second_note,omitempty" json:"second_note,omitempty"`
}

// secondAgreementPct is how far a figure's second kernel may be from its
// first without an explanation (issue 15: "within 10%").
const secondAgreementPct = 10

// The relations a comparative figure may state.
var relations = []string{"about", "greater", "less", "at_least", "at_most"}

// References are the published measurements on real devices that figures
// may cite besides the seeds ("ref NAME FILE"), each resolved in
// docs/references.md ("Measurements on real devices"): results of
// third-party programs that no preset value was taken from, so that their
// figures check the model on work it was not written from.
var References = []string{"archprobe-pixel4", "clpeak-t860-rk3399"}

// HeldOut reports whether the figure cites a measurement reference rather
// than a seed: one of the held-out figures (docs/validation.md).
func (f Figure) HeldOut() bool { return strings.HasPrefix(f.Source, "ref ") }

// reference is the name a held-out figure's source cites.
func (f Figure) reference() string {
	fields := strings.Fields(f.Source)
	if len(fields) < 2 {
		return ""
	}
	return fields[1]
}

// Comparative reports whether the figure states a relation rather than a
// value (it then holds or not and stays out of the MAPE).
func (f Figure) Comparative() bool { return f.Relation != "" }

// overGPU is the preset the Over metric is read on.
func (f Figure) overGPU() string {
	if f.OverGPU != "" {
		return f.OverGPU
	}
	return f.GPU
}

// overTest is the test the Over metric is read from.
func (f Figure) overTest() string {
	if f.OverTest != "" {
		return f.OverTest
	}
	return f.Test
}

// crossGPU reports whether the figure needs a second GPU.
func (f Figure) crossGPU() bool { return f.Over != "" && f.overGPU() != f.GPU }

// Holds reports whether a simulated value satisfies the figure's relation
// (for a numeric figure: lies within its tolerance).
// Values within a millionth of each other are equal: two GPUs whose model
// gives the same ratio but for rounding are not ordered.
func (f Figure) Holds(sim float64) bool {
	p, t := f.Published, f.TolerancePct/100
	const eps = 1e-6
	switch f.Relation {
	case "greater":
		return sim > p*(1+t)*(1+eps)
	case "less":
		return sim < p*(1-t)*(1-eps)
	case "at_least":
		return sim >= p*(1-t)*(1-eps)
	case "at_most":
		return sim <= p*(1+t)*(1+eps)
	}
	return math.Abs(sim-p) <= t*p
}

// Expected is the published side of the figure as a reader wants it: the
// value, or the relation a comparative figure asks for ("> 2", "≈ 1 ±10%").
func (f Figure) Expected() string {
	v := fmt.Sprintf("%.4g", f.Published)
	t := f.TolerancePct / 100
	switch f.Relation {
	case "about":
		return fmt.Sprintf("≈ %s ±%g%%", v, f.TolerancePct)
	case "greater":
		return "> " + fmt.Sprintf("%.4g", f.Published*(1+t))
	case "less":
		return "< " + fmt.Sprintf("%.4g", f.Published*(1-t))
	case "at_least":
		return "≥ " + fmt.Sprintf("%.4g", f.Published*(1-t))
	case "at_most":
		return "≤ " + fmt.Sprintf("%.4g", f.Published*(1+t))
	}
	return v
}

// Figures returns the published figures, in file order.
func Figures() ([]Figure, error) { return parseFigures(figuresYAML) }

func parseFigures(data []byte) ([]Figure, error) {
	var doc struct {
		Figures []Figure `yaml:"figures"`
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("figures.yaml: %w", err)
	}
	presets := arch.PresetIDs()
	seen := map[string]bool{}
	for i, f := range doc.Figures {
		where := fmt.Sprintf("figures.yaml: figure %d (%s)", i+1, f.ID)
		bound := f.Relation == "greater" || f.Relation == "less" || f.Relation == "at_least" || f.Relation == "at_most"
		switch {
		case f.ID == "":
			return nil, fmt.Errorf("%s: no id", where)
		case seen[f.ID]:
			return nil, fmt.Errorf("%s: id used twice", where)
		case f.GPU == "" || f.Test == "" || f.Metric == "" || f.Unit == "" || f.Source == "" || f.Wording == "":
			return nil, fmt.Errorf("%s: gpu, test, metric, unit, source and wording are required", where)
		case !slices.Contains(presets, f.GPU):
			return nil, fmt.Errorf("%s: gpu %q is not a preset (%s)", where, f.GPU, strings.Join(presets, ", "))
		case f.OverGPU != "" && !slices.Contains(presets, f.OverGPU):
			return nil, fmt.Errorf("%s: over_gpu %q is not a preset (%s)", where, f.OverGPU, strings.Join(presets, ", "))
		case (f.OverGPU != "" || f.OverTest != "") && f.Over == "":
			return nil, fmt.Errorf("%s: over_gpu and over_test name where the over metric is read; give over", where)
		case f.Relation != "" && !slices.Contains(relations, f.Relation):
			return nil, fmt.Errorf("%s: relation %q is not one of %s", where, f.Relation, strings.Join(relations, ", "))
		case f.crossGPU() && f.Relation == "":
			// Two GPUs' values make a ratio no seed states to the digit.
			return nil, fmt.Errorf("%s: a figure over another GPU compares them: give a relation (%s)", where, strings.Join(relations, ", "))
		case f.Published <= 0 || math.IsInf(f.Published, 0) || math.IsNaN(f.Published):
			return nil, fmt.Errorf("%s: published value %v must be positive", where, f.Published)
		case f.TolerancePct < 0 || (!bound && f.TolerancePct == 0) || f.TolerancePct >= 100 && f.Relation == "less":
			return nil, fmt.Errorf("%s: tolerance_pct %v: must be positive (0 allowed as the margin of greater, less, at_least, at_most; under 100 for less)", where, f.TolerancePct)
		case f.SecondOver != "" && (f.Second == "" || f.Over == ""):
			return nil, fmt.Errorf("%s: second_over divides the second kernel's metric as over divides the first's: give second and over", where)
		case f.Over != "" && f.Second != "" && f.SecondOver == "":
			return nil, fmt.Errorf("%s: the figure is a ratio: give second_over, the second kernel's divisor", where)
		case f.SecondNote != "" && f.Second == "":
			return nil, fmt.Errorf("%s: second_note explains a second kernel's disagreement: give second", where)
		case !strings.HasPrefix(f.Source, "seed ") && !strings.HasPrefix(f.Source, "ref "):
			return nil, fmt.Errorf("%s: source %q must name a seed (\"seed NNN §Section\") or a measurement reference (\"ref NAME FILE\", NAME one of %s)", where, f.Source, strings.Join(References, ", "))
		case f.HeldOut() && !slices.Contains(References, f.reference()):
			return nil, fmt.Errorf("%s: source %q: reference %q is not one of %s (docs/references.md lists them)", where, f.Source, f.reference(), strings.Join(References, ", "))
		}
		for _, name := range []string{f.Test, f.overTest()} {
			if _, err := Lookup(name); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
		}
		seen[f.ID] = true
	}
	return doc.Figures, nil
}

// Check is one figure compared with the simulator.
type Check struct {
	Figure
	// On is the GPU the benchmark ran on (the preset, or a user's GPU built
	// on it); OverOn the GPU the over metric ran on, when that is another.
	On     string `json:"on"`
	OverOn string `json:"over_on,omitempty"`
	// Simulated is the metric (over the other, for a ratio).
	Simulated float64 `json:"simulated"`
	// ErrorPct is (simulated − published) / published × 100; for a
	// comparative figure only a guide (it is not in the MAPE).
	ErrorPct float64 `json:"error_pct"`
	// Within: a numeric figure is within its tolerance, or a comparative
	// one holds.
	Within bool `json:"within_tolerance"`
	// Held is set for comparative figures only: whether the relation holds.
	Held *bool `json:"held,omitempty"`
	// Second is the second kernel's measurement, for figures that name one.
	Second *SecondCheck `json:"second_kernel,omitempty"`
	// Calibrated: a parameter of the description the figure ran on (or of
	// the other GPU's, for a figure over another) was fitted to it — its
	// value written in from the figure or backed out of it, which the
	// description says with `fitted: [ID]` beside the parameter's source
	// (arch.GPU.Fitted). Such a figure shows the description was written
	// down right; a predicted one (not calibrated) tests the model.
	// FittedBy names those parameters ("adreno-640 l2.latency_cycles").
	Calibrated bool     `json:"calibrated"`
	FittedBy   []string `json:"fitted_by,omitempty"`
}

// Kind is "calibrated" or "predicted" (see Calibrated).
func (c Check) Kind() string {
	if c.Calibrated {
		return "calibrated"
	}
	return "predicted"
}

// SecondCheck is a figure's quantity as its second kernel measures it.
type SecondCheck struct {
	Metric string  `json:"metric"`
	Value  float64 `json:"value"`
	// DiffPct is (second − first) / first × 100.
	DiffPct float64 `json:"diff_pct"`
	// Agrees: within secondAgreementPct of the figure's own kernel.
	Agrees bool `json:"agrees"`
	// Note is the figure's explanation of a difference.
	Note string `json:"note,omitempty"`
}

// Verdict is the check's last column: the error of a numeric figure, held
// or not held for a comparative one.
func (c Check) Verdict() string {
	if c.Held != nil {
		if *c.Held {
			return "held"
		}
		return "not held"
	}
	return fmt.Sprintf("%+.1f%%", c.ErrorPct)
}

// Skip is a figure left out of a run, and why.
type Skip struct {
	ID     string `json:"id"`
	On     string `json:"on"`
	Reason string `json:"reason"`
}

// Validation is every check and the mean absolute percentage error of the
// numeric ones.
type Validation struct {
	Figures []Check `json:"figures"`
	// MAPE and MaxAbsErrorPct are over the numeric figures (Numeric of
	// them); comparative figures count in Comparative and, those that
	// hold, in Held.
	MAPE           float64 `json:"mape_pct"`
	MaxAbsErrorPct float64 `json:"max_abs_error_pct"`
	Numeric        int     `json:"numeric"`
	Comparative    int     `json:"comparative"`
	Held           int     `json:"comparative_held"`
	// Calibrated and Predicted are the same summary over the figures a
	// parameter was fitted to and over the others (Check.Calibrated): the
	// predicted MAPE is the one that says how well the model predicts.
	Calibrated Subset `json:"calibrated"`
	Predicted  Subset `json:"predicted"`
	// HeldOut is the summary over the figures that cite a measurement
	// reference rather than a seed (Figure.HeldOut), all of them predicted;
	// SeedPredicted over the predicted figures that cite a seed.
	HeldOut       Subset `json:"held_out"`
	SeedPredicted Subset `json:"seed_predicted"`
	// Skipped are figures that need a GPU this run does not validate.
	Skipped []Skip `json:"skipped,omitempty"`
	// SecondKernels counts the figures measured by a second kernel too;
	// SecondAgree those within secondAgreementPct, SecondExplained those
	// outside it whose figure says why.
	SecondKernels   int `json:"second_kernels"`
	SecondAgree     int `json:"second_agree"`
	SecondExplained int `json:"second_explained"`
}

// Subset summarises some of a validation's figures: the MAPE of its
// numeric figures, the largest error and the figure it is on, and how many
// of its comparative figures hold.
type Subset struct {
	Numeric        int     `json:"numeric"`
	MAPE           float64 `json:"mape_pct"`
	MaxAbsErrorPct float64 `json:"max_abs_error_pct"`
	Largest        string  `json:"largest_error_figure,omitempty"`
	Comparative    int     `json:"comparative"`
	Held           int     `json:"comparative_held"`
}

// subset summarises the checks that keep says to.
func subset(checks []Check, keep func(Check) bool) Subset {
	var s Subset
	sum := 0.0
	for _, c := range checks {
		if !keep(c) {
			continue
		}
		if c.Comparative() {
			s.Comparative++
			if c.Within {
				s.Held++
			}
			continue
		}
		s.Numeric++
		e := math.Abs(c.ErrorPct)
		sum += e
		if s.Largest == "" || e > s.MaxAbsErrorPct {
			s.MaxAbsErrorPct, s.Largest = e, c.ID
		}
	}
	if s.Numeric > 0 {
		s.MAPE = sum / float64(s.Numeric)
	}
	return s
}

// fittedBy lists the parameters of g (and of h, the GPU a figure over
// another reads its divisor on) fitted to figure id, each after its GPU.
func fittedBy(id string, g, h *arch.GPU) []string {
	gpus := []*arch.GPU{g}
	if h != nil && h != g {
		gpus = append(gpus, h)
	}
	var out []string
	for _, x := range gpus {
		for _, p := range x.Fitted()[id] {
			out = append(out, x.ID+" "+p)
		}
	}
	return out
}

// as is the preset whose figures apply to g: its own id, or, for a user's
// GPU built on a preset, the preset's.
func as(g *arch.GPU) string {
	if !slices.Contains(arch.PresetIDs(), g.ID) && g.Base != "" {
		return g.Base
	}
	return g.ID
}

// FiguresFor returns the figures measured on g (those of its own id, or,
// for a user's GPU built on a preset, the preset's), including comparative
// ones whose other GPU may not be in the run.
func FiguresFor(g *arch.GPU, all []Figure) []Figure {
	id := as(g)
	var out []Figure
	for _, f := range all {
		if f.GPU == id {
			out = append(out, f)
		}
	}
	return out
}

// involves reports whether any figure reads a metric on g.
func involves(g *arch.GPU, all []Figure) bool {
	id := as(g)
	for _, f := range all {
		if f.GPU == id || (f.Over != "" && f.overGPU() == id) {
			return true
		}
	}
	return false
}

// find is the GPU of gpus that stands for preset id: the preset itself, or
// else the first GPU built on it.
func find(gpus []*arch.GPU, id string) *arch.GPU {
	for _, g := range gpus {
		if g.ID == id {
			return g
		}
	}
	for _, g := range gpus {
		if as(g) == id {
			return g
		}
	}
	return nil
}

// ValidationGPUs are the presets that figures read metrics on, in file
// order (a GPU named only as another's comparison is one).
func ValidationGPUs() ([]string, error) {
	figs, err := Figures()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range figs {
		for _, id := range []string{f.GPU, f.overGPU()} {
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out, nil
}

// ValidationJobs lists the tests behind the figures of each GPU: for each
// figure, its test on its GPU and its over test on the other GPU when that
// GPU is in gpus (a figure whose other GPU is not is skipped by Compare).
func ValidationJobs(gpus []*arch.GPU) ([]Job, error) {
	figs, err := Figures()
	if err != nil {
		return nil, err
	}
	return validationJobs(figs, gpus)
}

func validationJobs(figs []Figure, gpus []*arch.GPU) ([]Job, error) {
	need := map[*arch.GPU][]string{}
	for _, g := range gpus {
		if !involves(g, figs) {
			return nil, fmt.Errorf("no published figures for %s; the seeds publish figures for %s (a GPU file with base: one of them gets its figures)", g.ID, strings.Join(gpuList(figs), ", "))
		}
		for _, f := range FiguresFor(g, figs) {
			h := g
			if f.crossGPU() {
				if h = find(gpus, f.overGPU()); h == nil {
					continue
				}
			}
			need[g] = append(need[g], f.Test)
			if f.Over != "" {
				need[h] = append(need[h], f.overTest())
			}
		}
	}
	var jobs []Job
	for _, g := range gpus {
		for _, name := range testsOf(need[g]) {
			t, _ := Lookup(name)
			jobs = append(jobs, Job{Test: t, GPU: g})
		}
	}
	return jobs, nil
}

// testsOf is names without repeats, in suite order.
func testsOf(names []string) []string {
	var out []string
	for _, n := range names {
		if !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	order := map[string]int{}
	for i, t := range suite {
		order[t.Name] = i
	}
	sort.Slice(out, func(i, j int) bool { return order[out[i]] < order[out[j]] })
	return out
}

// Validate runs, on each GPU, the tests behind its figures (on up to
// `workers` goroutines) and compares them with the published values.
func Validate(gpus []*arch.GPU, o Options, workers int) (*Validation, error) {
	jobs, err := ValidationJobs(gpus)
	if err != nil {
		return nil, err
	}
	results, err := RunJobs(jobs, o, workers)
	if err != nil {
		return nil, err
	}
	return Compare(gpus, results)
}

// Compare checks the figures of each GPU against results (which must hold
// the tests behind them, run on that GPU and, for a figure over another
// GPU, on that one). A figure whose other GPU is not in gpus is skipped,
// with the reason.
func Compare(gpus []*arch.GPU, results []*Result) (*Validation, error) {
	figs, err := Figures()
	if err != nil {
		return nil, err
	}
	return compare(figs, gpus, results)
}

func compare(figs []Figure, gpus []*arch.GPU, results []*Result) (*Validation, error) {
	result := func(f Figure, g *arch.GPU, test string) (*Result, error) {
		for _, x := range results {
			if x.GPU == g.ID && x.Test == test {
				return x, nil
			}
		}
		return nil, fmt.Errorf("figure %s: test %s was not run on %s", f.ID, test, g.ID)
	}
	v := &Validation{Figures: []Check{}}
	for _, g := range gpus {
		for _, f := range FiguresFor(g, figs) {
			h := g
			if f.crossGPU() {
				if h = find(gpus, f.overGPU()); h == nil {
					v.Skipped = append(v.Skipped, Skip{ID: f.ID, On: g.ID,
						Reason: fmt.Sprintf("compares with %s, which this run does not validate (add --gpu %s)", f.overGPU(), f.overGPU())})
					continue
				}
			}
			r, err := result(f, g, f.Test)
			if err != nil {
				return nil, err
			}
			var over *Result
			if f.Over != "" {
				if over, err = result(f, h, f.overTest()); err != nil {
					return nil, err
				}
			}
			sim, err := f.simulated(r, over)
			var missing *missingMetric
			if errors.As(err, &missing) && missing.quick {
				// The demo's short sweeps leave out points some figures read.
				v.Skipped = append(v.Skipped, Skip{ID: f.ID, On: g.ID, Reason: "the short sweep leaves out the points they read"})
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("figure %s on %s: %w", f.ID, g.ID, err)
			}
			e := 100 * (sim - f.Published) / f.Published
			c := Check{Figure: f, On: g.ID, Simulated: sim, ErrorPct: e, Within: f.Holds(sim)}
			c.FittedBy = fittedBy(f.ID, g, h)
			c.Calibrated = len(c.FittedBy) > 0
			if h != g {
				c.OverOn = h.ID
			}
			if f.Comparative() {
				held := c.Within
				c.Held = &held
			}
			if f.Second != "" {
				sf := f
				sf.Metric, sf.Over = f.Second, f.SecondOver
				second, err := sf.simulated(r, over)
				switch {
				case errors.As(err, &missing) && missing.quick:
					// The short sweeps do not run the second kernels.
				case err != nil:
					return nil, fmt.Errorf("figure %s on %s, second kernel: %w", f.ID, g.ID, err)
				default:
					d := 100 * (second - sim) / sim
					c.Second = &SecondCheck{Metric: f.Second, Value: second, DiffPct: d, Agrees: math.Abs(d) <= secondAgreementPct, Note: f.SecondNote}
				}
			}
			v.Figures = append(v.Figures, c)
		}
	}
	sum := 0.0
	for _, c := range v.Figures {
		if c.Second != nil {
			v.SecondKernels++
			switch {
			case c.Second.Agrees:
				v.SecondAgree++
			case c.Second.Note != "":
				v.SecondExplained++
			}
		}
		if c.Comparative() {
			v.Comparative++
			if c.Within {
				v.Held++
			}
			continue
		}
		v.Numeric++
		sum += math.Abs(c.ErrorPct)
		v.MaxAbsErrorPct = math.Max(v.MaxAbsErrorPct, math.Abs(c.ErrorPct))
	}
	if v.Numeric > 0 {
		v.MAPE = sum / float64(v.Numeric)
	}
	v.Calibrated = subset(v.Figures, func(c Check) bool { return c.Calibrated })
	v.Predicted = subset(v.Figures, func(c Check) bool { return !c.Calibrated })
	v.HeldOut = subset(v.Figures, func(c Check) bool { return c.HeldOut() })
	v.SeedPredicted = subset(v.Figures, func(c Check) bool { return !c.Calibrated && !c.HeldOut() })
	return v, nil
}

func gpuList(figs []Figure) []string {
	var out []string
	for _, f := range figs {
		if !slices.Contains(out, f.GPU) {
			out = append(out, f.GPU)
		}
	}
	return out
}

// missingMetric is a metric a result lacks; quick when the result is of
// the short sweeps.
type missingMetric struct {
	name, msg string
	quick     bool
}

func (e *missingMetric) Error() string { return e.msg }

// simulated reads the figure's metric from r, over its over metric from
// over (nil when the figure has none).
func (f Figure) simulated(r, over *Result) (float64, error) {
	get := func(r *Result, name string) (float64, error) {
		v, ok := r.Metrics[name]
		if !ok {
			return 0, &missingMetric{name: name, quick: r.Quick,
				msg: fmt.Sprintf("test %s on %s gave no metric %q (it gave %s)", r.Test, r.GPU, name, strings.Join(r.MetricNames(), ", "))}
		}
		return v, nil
	}
	v, err := get(r, f.Metric)
	if err != nil {
		return 0, err
	}
	if f.Over == "" {
		return v, nil
	}
	d, err := get(over, f.Over)
	if err != nil {
		return 0, err
	}
	if d == 0 {
		return 0, fmt.Errorf("metric %q of %s on %s is zero", f.Over, over.Test, over.GPU)
	}
	return v / d, nil
}
