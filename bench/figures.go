package bench

import (
	"bytes"
	_ "embed"
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

// Figure is one published measurement.
type Figure struct {
	// ID names the figure ("g52-fp32-fma").
	ID string `yaml:"id" json:"id"`
	// GPU is the preset it was measured on.
	GPU string `yaml:"gpu" json:"gpu"`
	// Test and Metric name the benchmark result that reproduces it; Over,
	// when set, is a metric of the same test the first is divided by (a
	// rate relative to another).
	Test   string `yaml:"test" json:"test"`
	Metric string `yaml:"metric" json:"metric"`
	Over   string `yaml:"over,omitempty" json:"over,omitempty"`
	// Published is the seed's value, in Unit.
	Published float64 `yaml:"published" json:"published"`
	Unit      string  `yaml:"unit" json:"unit"`
	// TolerancePct is how far the simulated value may be from Published
	// for the figure to count as reproduced; the seed's wording ("about",
	// "just over") sets it.
	TolerancePct float64 `yaml:"tolerance_pct" json:"tolerance_pct"`
	// Source is the seed file and section; Wording the seed's own words.
	Source  string `yaml:"source" json:"source"`
	Wording string `yaml:"wording" json:"wording"`
	// Note says how the benchmark reads the figure, where that needs saying.
	Note string `yaml:"note,omitempty" json:"note,omitempty"`
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
	seen := map[string]bool{}
	for i, f := range doc.Figures {
		where := fmt.Sprintf("figures.yaml: figure %d (%s)", i+1, f.ID)
		switch {
		case f.ID == "":
			return nil, fmt.Errorf("%s: no id", where)
		case seen[f.ID]:
			return nil, fmt.Errorf("%s: id used twice", where)
		case f.GPU == "" || f.Test == "" || f.Metric == "" || f.Unit == "" || f.Source == "" || f.Wording == "":
			return nil, fmt.Errorf("%s: gpu, test, metric, unit, source and wording are required", where)
		case f.Published <= 0 || math.IsInf(f.Published, 0) || math.IsNaN(f.Published):
			return nil, fmt.Errorf("%s: published value %v must be positive", where, f.Published)
		case f.TolerancePct <= 0:
			return nil, fmt.Errorf("%s: tolerance_pct must be positive", where)
		case !strings.HasPrefix(f.Source, "seed "):
			return nil, fmt.Errorf("%s: source %q must name a seed (\"seed NNN §Section\")", where, f.Source)
		}
		if _, err := Lookup(f.Test); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		seen[f.ID] = true
	}
	return doc.Figures, nil
}

// Check is one figure compared with the simulator.
type Check struct {
	Figure
	// On is the GPU the benchmark ran on (the preset, or a user's GPU built
	// on it).
	On        string  `json:"on"`
	Simulated float64 `json:"simulated"`
	// ErrorPct is (simulated − published) / published × 100.
	ErrorPct float64 `json:"error_pct"`
	Within   bool    `json:"within_tolerance"`
}

// Validation is every check and the mean absolute percentage error.
type Validation struct {
	Figures []Check `json:"figures"`
	MAPE    float64 `json:"mape_pct"`
	// MaxAbsErrorPct is the largest |error| of any figure.
	MaxAbsErrorPct float64 `json:"max_abs_error_pct"`
}

// FiguresFor returns the figures that apply to g: those of its own id, or,
// for a user's GPU built on a preset, the preset's.
func FiguresFor(g *arch.GPU, all []Figure) []Figure {
	id := g.ID
	if !slices.Contains(arch.PresetIDs(), id) && g.Base != "" {
		id = g.Base
	}
	var out []Figure
	for _, f := range all {
		if f.GPU == id {
			out = append(out, f)
		}
	}
	return out
}

// ValidationGPUs are the presets that have published figures, in file order.
func ValidationGPUs() ([]string, error) {
	figs, err := Figures()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range figs {
		if !slices.Contains(out, f.GPU) {
			out = append(out, f.GPU)
		}
	}
	return out, nil
}

// ValidationJobs lists the tests behind the figures of each GPU.
func ValidationJobs(gpus []*arch.GPU) ([]Job, error) {
	figs, err := Figures()
	if err != nil {
		return nil, err
	}
	var jobs []Job
	for _, g := range gpus {
		mine := FiguresFor(g, figs)
		if len(mine) == 0 {
			return nil, fmt.Errorf("no published figures for %s; the seeds publish figures for %s (a GPU file with base: one of them gets its figures)", g.ID, strings.Join(gpuList(figs), ", "))
		}
		for _, name := range testsOf(mine) {
			t, _ := Lookup(name)
			jobs = append(jobs, Job{Test: t, GPU: g})
		}
	}
	return jobs, nil
}

func testsOf(figs []Figure) []string {
	var names []string
	for _, f := range figs {
		if !slices.Contains(names, f.Test) {
			names = append(names, f.Test)
		}
	}
	// Run in suite order.
	order := map[string]int{}
	for i, t := range suite {
		order[t.Name] = i
	}
	sort.Slice(names, func(i, j int) bool { return order[names[i]] < order[names[j]] })
	return names
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
// the tests behind them, run on that GPU).
func Compare(gpus []*arch.GPU, results []*Result) (*Validation, error) {
	figs, err := Figures()
	if err != nil {
		return nil, err
	}
	v := &Validation{Figures: []Check{}}
	for _, g := range gpus {
		for _, f := range FiguresFor(g, figs) {
			var r *Result
			for _, x := range results {
				if x.GPU == g.ID && x.Test == f.Test {
					r = x
				}
			}
			if r == nil {
				return nil, fmt.Errorf("figure %s: test %s was not run on %s", f.ID, f.Test, g.ID)
			}
			sim, err := f.simulated(r)
			if err != nil {
				return nil, fmt.Errorf("figure %s on %s: %w", f.ID, g.ID, err)
			}
			e := 100 * (sim - f.Published) / f.Published
			v.Figures = append(v.Figures, Check{Figure: f, On: g.ID, Simulated: sim, ErrorPct: e, Within: math.Abs(e) <= f.TolerancePct})
		}
	}
	if len(v.Figures) > 0 {
		sum := 0.0
		for _, c := range v.Figures {
			sum += math.Abs(c.ErrorPct)
			v.MaxAbsErrorPct = math.Max(v.MaxAbsErrorPct, math.Abs(c.ErrorPct))
		}
		v.MAPE = sum / float64(len(v.Figures))
	}
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

// simulated reads the figure's metric (over another) from a test result.
func (f Figure) simulated(r *Result) (float64, error) {
	get := func(name string) (float64, error) {
		v, ok := r.Metrics[name]
		if !ok {
			return 0, fmt.Errorf("test %s gave no metric %q (it gave %s)", f.Test, name, strings.Join(r.MetricNames(), ", "))
		}
		return v, nil
	}
	v, err := get(f.Metric)
	if err != nil {
		return 0, err
	}
	if f.Over == "" {
		return v, nil
	}
	d, err := get(f.Over)
	if err != nil {
		return 0, err
	}
	if d == 0 {
		return 0, fmt.Errorf("metric %q is zero", f.Over)
	}
	return v / d, nil
}
