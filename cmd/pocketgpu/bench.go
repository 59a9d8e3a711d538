package main

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/bench"
	"github.com/pocketgpu/pocketgpu/device"
)

func init() { subcommands = append(subcommands, newBenchCmd) }

type benchOpts struct {
	gpus     []string
	tests    []string
	out      string
	asJSON   bool
	quick    bool
	progress bool
	workers  int
	trace    traceFlags
	detail   device.Detail
}

func newBenchCmd() *cobra.Command {
	var o benchOpts
	cmd := &cobra.Command{
		Use:   "bench --gpu GPU [--gpu GPU ...] [--test NAME ...] [--out DIR] [--json]",
		Short: "Run the microbenchmark suite on simulated GPUs and draw the charts",
		Long: `bench runs pocketgpu's microbenchmarks (OpenCL C kernels of its own, timed on
the simulator) on one or more GPUs and prints a table per test:

` + testList() + `
Several --gpu flags put the GPUs side by side in the tables and on one chart.
With --out DIR it writes results.csv, results.json and, per test, a chart as
PNG and SVG (latency and bandwidth against footprint on a log axis, rates as
bars). A progress bar goes to stderr when it is a terminal (--progress forces
it). --quick runs shorter sweeps. See docs/validation.md for the methodology.`,
		Example: `  pocketgpu bench --gpu mali-g52 --test latency-global
  pocketgpu bench --gpu mali-g52 --gpu adreno-640 --test rates --test bandwidth-global --out charts
  pocketgpu bench --gpu examples/my-g52.yaml --quick --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := o.trace.check(cmd); err != nil {
				return err
			}
			return runBench(cmd, o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.gpus, "gpu", nil, "the GPU (repeat to compare): "+gpuArgHelp)
	f.StringArrayVar(&o.tests, "test", nil, "a test to run (repeat or comma-separate; default: all that apply)")
	f.StringVar(&o.out, "out", "", "write CSV, JSON and charts (PNG, SVG) to DIR")
	f.BoolVar(&o.asJSON, "json", false, "print the results as JSON")
	f.BoolVar(&o.quick, "quick", false, "shorter sweeps (fewer, smaller footprints)")
	f.BoolVar(&o.progress, "progress", false, "show a progress bar even when stderr is not a terminal")
	addDetailFlag(cmd, &o.detail)
	f.IntVar(&o.workers, "jobs", runtime.GOMAXPROCS(0), "tests to run at once (each on its own simulated device)")
	addTraceFlags(cmd, &o.trace, suiteInterval)
	_ = cmd.MarkFlagRequired("gpu")
	nameArgs(cmd, "gpu", "GPU", "test", "NAME", "out", "DIR", "jobs", "N")
	return cmd
}

func testList() string {
	var b strings.Builder
	for _, t := range bench.Suite() {
		fmt.Fprintf(&b, "  %-20s %s\n", t.Name, t.Title)
	}
	return b.String()
}

// resolveGPUs resolves every --gpu value, refusing repeats.
func resolveGPUs(names []string) ([]*arch.GPU, error) {
	var gpus []*arch.GPU
	seen := map[string]bool{}
	for _, n := range names {
		g, err := resolveGPU(n)
		if err != nil {
			return nil, err
		}
		if seen[g.ID] {
			return nil, badInputf("GPU %s is given twice", g.ID)
		}
		seen[g.ID] = true
		gpus = append(gpus, g)
	}
	return gpus, nil
}

// resolveTests turns --test values (repeated or comma-separated) into tests.
func resolveTests(names []string) ([]*bench.Test, error) {
	var tests []*bench.Test
	for _, n := range names {
		for _, part := range strings.Split(n, ",") {
			part = strings.TrimSpace(part)
			if part == "" {
				continue
			}
			t, err := bench.Lookup(part)
			if err != nil {
				return nil, badInput(err)
			}
			tests = append(tests, t)
		}
	}
	return tests, nil
}

func checkWorkers(n int) error {
	if n < 1 {
		return badInputf("--jobs %d: run at least 1 test at a time", n)
	}
	return nil
}

func runBench(cmd *cobra.Command, o benchOpts) error {
	if err := checkWorkers(o.workers); err != nil {
		return err
	}
	gpus, err := resolveGPUs(o.gpus)
	if err != nil {
		return err
	}
	tests, err := resolveTests(o.tests)
	if err != nil {
		return err
	}
	jobs, err := bench.Plan(gpus, tests)
	if err != nil {
		return badInput(err)
	}
	if o.out != "" {
		if err := checkOutputDir("--out", o.out); err != nil {
			return err
		}
	}
	tr, err := o.trace.create("pocketgpu bench")
	if err != nil {
		return err
	}
	defer tr.abort() // unless finished below
	opt := bench.Options{Quick: o.quick, Context: cmd.Context(), Detail: o.detail}
	if tr != nil {
		opt.Trace = tr.Trace
	}
	bar := newProgress(cmd.ErrOrStderr(), o.progress, bench.Points(jobs, opt), "benchmarks")
	opt.Tick = bar.tick
	results, err := bench.RunJobs(jobs, opt, o.workers)
	bar.finish()
	if err != nil {
		return err
	}
	if err := tr.finish(cmd.ErrOrStderr()); err != nil {
		return err
	}
	stdout := cmd.OutOrStdout()
	if o.out != "" {
		files, err := bench.WriteAll(o.out, results)
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %d files to %s\n", len(files), o.out)
	}
	if o.asJSON {
		return bench.WriteJSON(stdout, results)
	}
	for i, group := range bench.ByTest(results) {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if err := bench.WriteTable(stdout, group); err != nil {
			return err
		}
	}
	return nil
}
