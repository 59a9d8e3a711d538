// Package bench is pocketgpu's microbenchmark suite: the team's own OpenCL C
// kernels (with their SPIR-V prebuilt by `pocketgpu compile`), a harness that
// times them on any GPU description through the device package, the
// published measurements of the seed documents as data (figures.yaml), and
// the charts the seeds' authors drew (latency and bandwidth against
// footprint, instruction-rate bars).
//
// The methodology follows the seeds' authors: a random single-cycle pointer
// chase at a 64-byte stride for latency, many independent accumulators for
// instruction rates, large grids of streaming loads for bandwidth. Every
// measurement is a difference of two timed dispatches on warm caches (a run
// of n and of 2n steps, passes or iterations), so that launch, warm-up and
// the final store cancel out.
package bench

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// Chart is how a test's result is drawn.
type Chart int

const (
	// Curve: y against a numeric x (a footprint, a size), log-scaled x.
	Curve Chart = iota
	// Bars: y per labelled category (an operation, a case).
	Bars
	// Table: numbers only, no chart.
	Table
)

// Point is one measurement: at X (curves) or for Label (bars).
type Point struct {
	X     float64 `json:"x,omitempty"`
	Label string  `json:"label,omitempty"`
	Y     float64 `json:"y"`
	// Note says what the point means when it is not obvious (the level a
	// latency reached, the warp width used).
	Note string `json:"note,omitempty"`
}

// Series is one line of a curve or one set of bars.
type Series struct {
	Name   string  `json:"name"`
	Points []Point `json:"points"`
}

// Result is one test run on one GPU.
type Result struct {
	Test   string `json:"test"`
	GPU    string `json:"gpu"`
	Title  string `json:"title"`
	Chart  Chart  `json:"-"`
	XLabel string `json:"x_label,omitempty"`
	XUnit  string `json:"x_unit,omitempty"`
	YLabel string `json:"y_label"`
	Unit   string `json:"unit"`
	// ClockMHz is the GPU's clock (for converting cycles to time).
	ClockMHz float64 `json:"clock_mhz"`
	// LogX draws the x axis on a log scale; LogY the y axis. PlotNS draws
	// a curve of cycles as nanoseconds at each GPU's clock, so that GPUs
	// of different clocks compare as the seeds' charts do.
	LogX   bool     `json:"-"`
	LogY   bool     `json:"-"`
	PlotNS bool     `json:"-"`
	Series []Series `json:"series"`
	// Metrics are named scalars derived from the points (a latency step's
	// footprint, a rate per clock), which the published figures refer to.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Notes explain how to read the result.
	Notes []string `json:"notes,omitempty"`
	// Quick: the result of the short sweeps, which leave some points out.
	Quick bool `json:"quick,omitempty"`
}

// ChartKind names the chart kind for JSON and CSV.
func (c Chart) String() string { return [...]string{"curve", "bars", "table"}[c] }

// MarshalText lets JSON show the chart kind by name.
func (c Chart) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// series returns the named series, adding it if needed.
func (r *Result) series(name string) *Series {
	for i := range r.Series {
		if r.Series[i].Name == name {
			return &r.Series[i]
		}
	}
	r.Series = append(r.Series, Series{Name: name})
	return &r.Series[len(r.Series)-1]
}

func (r *Result) add(series string, p Point) { s := r.series(series); s.Points = append(s.Points, p) }

func (r *Result) metric(name string, v float64) {
	if r.Metrics == nil {
		r.Metrics = map[string]float64{}
	}
	r.Metrics[name] = v
}

// MetricNames lists the result's metrics in order.
func (r *Result) MetricNames() []string {
	names := make([]string, 0, len(r.Metrics))
	for k := range r.Metrics {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// Options tune a run.
type Options struct {
	// Quick trims sweeps to fewer, smaller points (the demo, tests).
	Quick bool
	// Tick is called once per measured point (for a progress bar); may be nil.
	Tick func()
	// Context, when set, stops the run: the kernel under way stops within
	// a fraction of a second and the run returns its error (wrapping
	// emu.ErrStopped and the context's cause).
	Context context.Context
	// Trace, when set, records every timed launch on it (timing/trace;
	// `bench --trace`): RunJobs gives each job a track group of its own,
	// named "TEST on GPU", whose launches follow one another.
	Trace *trace.Trace
	// Detail is how much of each launch runs in detail (device.Options):
	// by default repeats reuse their figures and long launches are sampled.
	Detail device.Detail
}

// Test is one benchmark of the suite.
type Test struct {
	Name  string
	Title string
	// Doc says what the test measures and how, in a sentence or two.
	Doc string
	// Points is how many measurements Run makes (for progress); it may
	// depend on the GPU and the options.
	Points func(g *arch.GPU, o Options) int
	// Applies reports whether the test means something on g (the Rogue
	// common-store sweep, the Bifrost instruction-cache sweep); nil: always.
	Applies func(g *arch.GPU) bool
	run     func(c *ctx) (*Result, error)
}

// Suite lists every test in the order they run and print.
func Suite() []*Test { return suite }

// Lookup finds a test by name.
func Lookup(name string) (*Test, error) {
	for _, t := range suite {
		if t.Name == name {
			return t, nil
		}
	}
	return nil, fmt.Errorf("unknown test %q; the tests are: %s", name, strings.Join(Names(), ", "))
}

// Names lists the tests' names.
func Names() []string {
	var out []string
	for _, t := range suite {
		out = append(out, t.Name)
	}
	return out
}

// AppliesTo reports whether t runs on g.
func (t *Test) AppliesTo(g *arch.GPU) bool { return t.Applies == nil || t.Applies(g) }

// Run runs the test on g.
func (t *Test) Run(g *arch.GPU, o Options) (*Result, error) {
	if !t.AppliesTo(g) {
		return nil, fmt.Errorf("test %s does not apply to %s (%s)", t.Name, g.ID, g.Family)
	}
	c := newCtx(g, o)
	defer c.close()
	r, err := t.run(c)
	if err != nil {
		return nil, fmt.Errorf("test %s on %s: %w", t.Name, g.ID, err)
	}
	r.Test, r.GPU, r.ClockMHz, r.Quick = t.Name, g.ID, g.ClockMHz, o.Quick
	if r.Title == "" {
		r.Title = t.Title
	}
	return r, nil
}
