package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/bench"
)

func init() { subcommands = append(subcommands, newDemoCmd) }

// demoGPUs are one GPU of each family the seeds measure in depth.
var demoGPUs = []string{"mali-g52", "adreno-640", "powervr-gx6250"}

func newDemoCmd() *cobra.Command {
	var (
		out      string
		gpus     []string
		progress bool
		workers  int
		tf       traceFlags
	)
	cmd := &cobra.Command{
		Use:   "demo [--out DIR]",
		Short: "Run a short benchmark suite on three GPUs and write the charts and an index page",
		Long: `demo runs the microbenchmark suite with short sweeps on the Mali-G52, the
Adreno 640 and the PowerVR GX6250 (one GPU of each family the seed documents
measure), compares the results with the figures those documents publish, and
writes the charts (PNG and SVG), results.csv, results.json and index.html to
DIR (default pocketgpu-demo). It also runs the global-bandwidth kernel on
the same GPUs and writes its report page (run --html) to DIR/run/index.html,
which the index links. It prints the comparison.`,
		Example: `  pocketgpu demo
  pocketgpu demo --out /tmp/demo --gpu mali-g52 --gpu adreno-615`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkWorkers(workers); err != nil {
				return err
			}
			if err := tf.check(cmd); err != nil {
				return err
			}
			if len(gpus) == 0 {
				gpus = demoGPUs
			}
			gs, err := resolveGPUs(gpus)
			if err != nil {
				return err
			}
			if err := checkOutputDir("--out", out); err != nil {
				return err
			}
			start := time.Now()
			jobs, err := bench.Plan(gs, nil)
			if err != nil {
				return badInput(err)
			}
			tr, err := tf.create("pocketgpu demo")
			if err != nil {
				return err
			}
			defer tr.abort() // unless finished below
			opt := bench.Options{Quick: true, Context: cmd.Context()}
			if tr != nil {
				opt.Trace = tr.Trace
			}
			bar := newProgress(cmd.ErrOrStderr(), progress, bench.Points(jobs, opt), "demo")
			opt.Tick = bar.tick
			results, err := bench.RunJobs(jobs, opt, workers)
			bar.finish()
			if err != nil {
				return err
			}
			if err := tr.finish(cmd.ErrOrStderr()); err != nil {
				return err
			}
			files, err := bench.WriteAll(out, results)
			if err != nil {
				return err
			}
			// The short sweeps hold every point the published figures use.
			figs, err := bench.Figures()
			if err != nil {
				return err
			}
			var withFigures []*arch.GPU
			for _, g := range gs {
				if len(bench.FiguresFor(g, figs)) > 0 {
					withFigures = append(withFigures, g)
				}
			}
			var v *bench.Validation
			if len(withFigures) > 0 {
				if v, err = bench.Compare(withFigures, results); err != nil {
					return err
				}
			}
			report, err := demoRunReport(cmd, out, gpus)
			if err != nil {
				return err
			}
			index, err := bench.WriteIndex(out, bench.IndexPage{
				Title:      "pocketgpu microbenchmarks",
				Intro:      "The team's microbenchmarks (pointer chases, bandwidth, instruction rates, atomics, occupancy) run on simulated GPUs, with short sweeps, and the figures the seed documents publish for these GPUs against the simulator.",
				Command:    "pocketgpu demo --out " + out,
				GPUs:       gpus,
				Results:    results,
				Validation: v,
				Links: []bench.Link{{Title: "A kernel run, reported", Href: "run/index.html",
					Doc: "the suite's global-bandwidth kernel run on these GPUs side by side: occupancy and pipes over time, the roofline, its costliest instructions, the static analysis and every counter (what run --html writes)"}},
			})
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "pocketgpu demo: %d tests on %s in %.0f s\n\n", len(bench.ByTest(results)), strings.Join(gpus, ", "), time.Since(start).Seconds())
			if v != nil {
				if err := writeValidation(w, v); err != nil {
					return err
				}
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "wrote %d files to %s; open %s (the run's report: %s)\n", len(files)+2, out, filepath.ToSlash(index), filepath.ToSlash(report))
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&out, "out", "pocketgpu-demo", "write the charts, data and index.html to DIR")
	f.StringArrayVar(&gpus, "gpu", nil, "GPUs to run (repeatable; default mali-g52, adreno-640, powervr-gx6250): "+gpuArgHelp)
	f.BoolVar(&progress, "progress", false, "show a progress bar even when stderr is not a terminal")
	f.IntVar(&workers, "jobs", runtime.GOMAXPROCS(0), "tests to run at once (each on its own simulated device)")
	addTraceFlags(cmd, &tf, suiteInterval)
	nameArgs(cmd, "gpu", "GPU", "out", "DIR", "jobs", "N")
	return cmd
}

// demoRunReport runs the suite's global-bandwidth kernel (a stream of
// float4 loads through the caches to DRAM) on the GPUs, from the SPIR-V
// the binary carries, and writes its report to out/run.
func demoRunReport(cmd *cobra.Command, out string, gpus []string) (string, error) {
	spv, err := bench.SPIRV("bandwidth")
	if err != nil {
		return "", err
	}
	const items, elems = 16384, 1 << 16 // 1 MiB of float4, past every GPU's L2
	j := &Job{
		GPUs: gpus, Kernel: "bench/kernels/bandwidth.cl (bw_global, prebuilt)", Entry: "bw_global", spv: spv,
		Global: []int{items}, Local: []int{64},
		Args:  []string{fmt.Sprintf("buf:f32x4:%d=random", elems), fmt.Sprintf("buf:f32x4:%d", items), fmt.Sprintf("u32:%d", elems-1), "u32:4"},
		quiet: true, html: filepath.Join(out, "run"), command: commandLine(cmd.Context()),
	}
	if err := checkOutputDir("--out", j.html); err != nil {
		return "", err
	}
	if err := runJob(cmd.Context(), io.Discard, cmd.ErrOrStderr(), j, false); err != nil {
		return "", fmt.Errorf("demo's kernel run: %w", err)
	}
	return filepath.Join(j.html, "index.html"), nil
}
