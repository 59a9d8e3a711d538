package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/counters"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/kernel"
	"github.com/pocketgpu/pocketgpu/roofline"
	"github.com/pocketgpu/pocketgpu/timing/trace"
)

func init() { subcommands = append(subcommands, newRunCmd) }

func newRunCmd() *cobra.Command {
	var (
		j                     Job
		global, local, offset string
		dumps, prints, specs  []string
		asJSON                bool
		csvFile               string
		hotspots              bool
		tf                    traceFlags
		rooflineFile          string
		htmlDir               string
	)
	cmd := &cobra.Command{
		Use:   "run [--gpu GPU] KERNEL|JOB.yaml [flags]",
		Short: "Run a kernel on a simulated GPU",
		Long: `run executes an OpenCL C (.cl), GLSL compute (.comp) or SPIR-V (.spv) kernel
on a GPU, warp by warp as that GPU groups threads, and reports what it did.
With --functional it computes the results only.

Arguments are given in kernel-argument order with --arg (for Vulkan shaders:
resources in (set, binding) order, then one scalar per push-constant member):

  buf:TYPE:COUNT[=INIT]        a buffer; TYPE i8 u8 i16 u16 i32 u32 i64 u64 f16 f32 f64,
                               optionally xN (f32x4); INIT zero, fill:V, iota,
                               random[:SEED], file:PATH, chase:STRIDE_BYTES[:SEED]
  TYPE:VALUE                   a scalar (u32:1000, f32:0.5, f32x4:1,2,3,4)
  bytes:HEX                    a by-value argument of any type (a struct) as its
                               raw little-endian bytes in hex (bytes:0300_0000)
  local:BYTES                  a __local pointer argument
  image1d_buffer:CHAN:COUNT    an RGBA image of COUNT texels
  image2d:CHAN:WxH             an RGBA 2D image

A job file holds the same fields as YAML (see docs/run.md).`,
		Example: `  pocketgpu run --gpu mali-g52 --functional examples/saxpy.cl --global 4096 \
      --arg buf:f32:4096=random --arg buf:f32:4096=iota --arg f32:2.0 --print 1:8
  pocketgpu run examples/job.yaml --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			if fl.Changed("warp-width") && j.WarpWidth <= 0 {
				return badInputf("--warp-width %d: want a positive width (leave it out for the GPU's choice)", j.WarpWidth)
			}
			job := &j
			if ext := strings.ToLower(filepath.Ext(args[0])); ext == ".yaml" || ext == ".yml" {
				loaded, err := loadJob(args[0])
				if err != nil {
					return err
				}
				job = loaded
				// Flags given on the command line override the file.
				if fl.Changed("gpu") {
					job.GPUs = j.GPUs
				}
				if fl.Changed("functional") {
					job.Functional = j.Functional
				}
				if fl.Changed("max-instructions") {
					job.MaxInstructions = j.MaxInstructions
				}
				if fl.Changed("warp-width") {
					job.WarpWidth = j.WarpWidth
				}
				if fl.Changed("detail") {
					job.Detail = j.Detail
				}
				if fl.Changed("strict") {
					job.Strict = j.Strict
				}
				if fl.Changed("entry") {
					job.Entry = j.Entry
				}
				if fl.Changed("arg") {
					job.Args = j.Args
				}
				job.Defines = append(job.Defines, j.Defines...)
				job.Includes = append(job.Includes, j.Includes...)
			} else {
				job.Kernel = args[0]
			}
			var err error
			if global != "" {
				if job.Global, err = parseSize("global", global); err != nil {
					return err
				}
			}
			if local != "" {
				if job.Local, err = parseSize("local", local); err != nil {
					return err
				}
			}
			if offset != "" {
				if job.Offset, err = parseSize("offset", offset); err != nil {
					return err
				}
			}
			for _, d := range dumps {
				n, f, err := parseDump(d)
				if err != nil {
					return err
				}
				if job.Dump == nil {
					job.Dump = map[int]string{}
				}
				job.Dump[n] = f
			}
			job.Print = append(job.Print, prints...)
			for _, s := range specs {
				id, v, err := parseSpecFlag(s)
				if err != nil {
					return err
				}
				if job.Spec == nil {
					job.Spec = map[uint32]string{}
				}
				job.Spec[id] = v
			}
			job.quiet = asJSON
			job.csv = csvFile
			job.hotspots = hotspots
			job.roofline = rooflineFile
			job.html = htmlDir
			job.command = commandLine(cmd.Context())
			if err := tf.check(cmd); err != nil {
				return err
			}
			job.trace = &tf
			return runJob(cmd.Context(), cmd.OutOrStdout(), cmd.ErrOrStderr(), job, asJSON)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar((*[]string)(&j.GPUs), "gpu", nil, "the GPU (repeat to compare): "+gpuArgHelp)
	f.StringVar(&j.Entry, "entry", "", "the entry point (default: the module's only one)")
	f.StringArrayVarP(&j.Defines, "define", "D", nil, "a preprocessor definition for .cl/.comp sources")
	f.StringArrayVarP(&j.Includes, "include", "I", nil, "a directory to search for #include in sources")
	f.StringVar(&global, "global", "", "the global size in work-items")
	f.StringVar(&local, "local", "", "the work-group size (default: the kernel's, else chosen)")
	f.StringVar(&offset, "offset", "", "the global offset")
	f.StringArrayVar(&j.Args, "arg", nil, "a kernel argument (repeat, in order; see above)")
	f.StringArrayVar(&dumps, "dump", nil, "write argument N's final contents, raw, to FILE")
	f.StringArrayVar(&prints, "print", nil, "print the first COUNT (default 16) elements of argument N")
	f.StringArrayVar(&specs, "spec", nil, "set the specialization constant with SpecId ID")
	f.BoolVar(&j.Functional, "functional", false, "compute results only, without the timing model")
	f.Var((*budgetValue)(&j.MaxInstructions), "max-instructions",
		"stop a kernel after N warp instructions, or never with unlimited (default 2^28, or 2^14 per warp launched if more)")
	f.IntVar(&j.WarpWidth, "warp-width", 0, "override the warp width the GPU's occupancy rules choose")
	f.Var(&j.Detail, "detail", "auto: a long launch runs in detail until steady, the rest functionally with its time projected (its error printed); full: every work-group in detail")
	f.BoolVar(&j.Strict, "strict", false, "fault a kernel that reaches local memory outside its work-group's (by default it runs on, as a GPU does, with a warning naming the source line)")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	f.StringVar(&csvFile, "csv", "", "also write the counters to FILE as CSV (a row per counter, a column per GPU)")
	f.BoolVar(&hotspots, "hotspots", false, "charge cycles, stalls and memory work to source lines and print the annotated source (sources are compiled with -g)")
	f.StringVar(&rooflineFile, "roofline", "", "draw the kernel on the GPU's roofline to FILE (.png or .svg; one file per GPU, named FILE-GPU.EXT, when several)")
	f.StringVar(&htmlDir, "html", "", "write a self-contained report page to DIR/index.html: summary, occupancy and pipes over time, roofline, hotspots, static analysis and counters, a column per GPU")
	addTraceFlags(cmd, &tf, runInterval)
	nameArgs(cmd, "html", "DIR", "roofline", "FILE", "gpu", "GPU", "entry", "NAME", "define", "NAME[=VALUE]", "include", "DIR", "global", "X[,Y[,Z]]", "local", "X[,Y[,Z]]",
		"offset", "X[,Y[,Z]]", "arg", "SPEC", "dump", "N=FILE", "print", "N[:COUNT]", "spec", "ID=VALUE", "max-instructions", "N", "warp-width", "N")
	return cmd
}

// runResult is one GPU's run, as --json prints it.
type runResult struct {
	GPU                string           `json:"gpu"`
	Kernel             string           `json:"kernel"`
	Entry              string           `json:"entry"`
	Mode               string           `json:"mode"`
	Global             []int            `json:"global"`
	Local              []int            `json:"local"`
	WarpWidth          int              `json:"warp_width"`
	RegistersPerThread int              `json:"registers_per_thread"`
	Workgroups         uint64           `json:"workgroups"`
	Warps              uint64           `json:"warps"`
	ThreadInstructions uint64           `json:"thread_instructions"`
	WarpInstructions   uint64           `json:"warp_instructions"`
	HostSeconds        float64          `json:"host_seconds"`
	Cycles             float64          `json:"cycles,omitempty"`
	TimeNS             float64          `json:"time_ns,omitempty"`
	ClockMHz           float64          `json:"clock_mhz,omitempty"`
	Counters           counters.Set     `json:"counters,omitempty"`
	PerCore            []counters.Set   `json:"per_core,omitempty"`
	Printed            map[int][]string `json:"printed,omitempty"`
	Dumped             map[int]string   `json:"dumped,omitempty"`
	// Roofline places the run against the GPU's roofs (timed runs).
	Roofline *rooflineJSON `json:"roofline,omitempty"`
	// Hotspots is the cost per instruction and source line (--hotspots).
	Hotspots *hotspotsJSON `json:"hotspots,omitempty"`
	// Partial says why the run stopped early (Ctrl-C, the memory cap);
	// its counters cover the work done until then.
	Partial string `json:"partial,omitempty"`
	// Detail says how much of a timed run the model simulated in detail.
	Detail *detailJSON `json:"detail,omitempty"`
	// Warnings are what went wrong without stopping the kernel (local
	// memory out of bounds, with its source line).
	Warnings []string `json:"warnings,omitempty"`
}

// detailJSON is a timed run's device.DetailReport.
type detailJSON struct {
	// Mode is "full", "sampled" or "reused".
	Mode string `json:"mode"`
	// WorkgroupsDetailed of a sampled run's work-groups ran in detail;
	// ErrorPct estimates its cycles' error.
	WorkgroupsDetailed int     `json:"workgroups_detailed,omitempty"`
	ErrorPct           float64 `json:"error_pct,omitempty"`
}

// detailOf is a run's detail as --json and the table show it.
func detailOf(d device.DetailReport) *detailJSON {
	return &detailJSON{Mode: d.Mode, WorkgroupsDetailed: d.Detailed, ErrorPct: d.ErrorPct}
}

// describe is the table's "detail" row for a run of workgroups.
func (d *detailJSON) describe(workgroups uint64) string {
	switch {
	case d == nil:
		return "-"
	case d.Mode == "sampled":
		return fmt.Sprintf("sampled: %d of %d work-groups in detail, cycles ±%.2f%%", d.WorkgroupsDetailed, workgroups, d.ErrorPct)
	}
	return d.Mode
}

func runJob(ctx context.Context, stdout, stderr io.Writer, j *Job, asJSON bool) error {
	if len(j.GPUs) == 0 {
		return badInputf("no GPU: give --gpu (or gpu: in the job file); `pocketgpu gpus` lists them")
	}
	if len(j.Global) == 0 {
		return badInputf("no global size: give --global X[,Y[,Z]]")
	}
	dir := j.dir
	if dir == "" {
		dir = "."
	}
	specs := make([]kernel.Arg, len(j.Args))
	var err error
	for i, s := range j.Args {
		if specs[i], err = kernel.ParseArg(s); err != nil {
			return badInputf("argument %d: %v", i, err)
		}
	}
	// Arguments live twice for a moment: as materialized, and in the
	// simulated device's memory.
	var argBytes uint64
	for i := range specs {
		argBytes += 2 * uint64(max(specs[i].ByteSize(), 0))
	}
	if err := checkMemory(ctx, stderr, "the arguments", argBytes); err != nil {
		return err
	}
	type printReq struct{ arg, count int }
	var prints []printReq
	for _, p := range j.Print {
		a, c, err := parsePrint(p)
		if err != nil {
			return err
		}
		if a >= len(specs) {
			return badInputf("--print %s: there are %d arguments", p, len(specs))
		}
		prints = append(prints, printReq{a, c})
	}
	for n, file := range j.Dump {
		if n >= len(specs) {
			return badInputf("--dump %d: there are %d arguments", n, len(specs))
		}
		if err := checkOutputFile(fmt.Sprintf("--dump %d=%s", n, file), file); err != nil {
			return err
		}
	}
	if j.hotspots && j.Functional {
		return badInputf("--hotspots charges the timing model's cycles to lines; --functional has none")
	}
	if j.trace != nil && j.trace.file != "" && j.Functional {
		return badInputf("--trace records the timing model's run; --functional has none")
	}
	if j.roofline != "" && j.Functional {
		return badInputf("--roofline places the timed run; --functional has no timing")
	}
	if j.html != "" {
		if j.Functional {
			return badInputf("--html reports the timed run; --functional has no timing")
		}
		if err := checkOutputDir("--html", j.html); err != nil {
			return err
		}
	}
	if j.csv != "" {
		if j.Functional {
			return badInputf("--csv writes the timing counters; --functional has none")
		}
		if err := checkOutputFile("--csv "+j.csv, j.csv); err != nil {
			return err
		}
	}
	// Every GPU is resolved and checked before the first one runs.
	var gpus []*arch.GPU
	for _, name := range j.GPUs {
		g, err := resolveGPU(name)
		if err != nil {
			return err
		}
		if err := checkWarpWidth(g, j.WarpWidth); err != nil {
			return err
		}
		gpus = append(gpus, g)
	}
	if j.roofline != "" {
		for _, g := range gpus {
			f := rooflineFileFor(j.roofline, g.ID, len(gpus))
			if err := roofline.CheckChartPath(f); err != nil {
				return badInput(err)
			}
			if err := checkOutputFile("--roofline "+f, f); err != nil {
				return err
			}
		}
	}
	// A source is compiled as each GPU's driver would: without cl_khr_fp64
	// where the GPU has no double precision.
	spvFor := map[bool][]byte{}
	for _, g := range gpus {
		noFP64 := !g.HasFP64()
		if _, done := spvFor[noFP64]; done {
			continue
		}
		spv := j.spv
		if spv == nil {
			var err error
			if spv, err = kernel.Load(j.Kernel, kernel.Options{Defines: j.Defines, IncludeDirs: j.Includes, NoFP64: noFP64, Debug: j.profiled(), Warnings: stderr}); err != nil {
				return kernelLoadError(err)
			}
		}
		spvFor[noFP64] = spv
	}
	var results []runResult
	var runs []*gpuRun
	var stopped error
	tr, err := j.trace.create("pocketgpu run " + filepath.Base(j.Kernel))
	if err != nil {
		return err
	}
	defer tr.abort() // unless finished below
	for _, g := range gpus {
		res, err := runOnGPU(ctx, stdout, stderr, g, spvFor[!g.HasFP64()], j, specs, dir, tr.sub(g.ID))
		if errors.Is(err, device.ErrStopped) && res != nil {
			// Interrupted: print what ran, marked partial, then stop.
			stopped = err
		} else if err != nil {
			return err
		}
		for _, p := range prints {
			b := res.bound.Buffers[p.arg]
			if b == nil {
				return badInputf("--print %d: argument %d (%s) has no contents to print", p.arg, p.arg, specs[p.arg].Spec)
			}
			n := min(p.count, specs[p.arg].Count)
			if res.Printed == nil {
				res.Printed = map[int][]string{}
			}
			res.Printed[p.arg] = kernel.FormatElements(b.Bytes(), specs[p.arg].Elem, n)
		}
		for n, file := range j.Dump {
			b := res.bound.Buffers[n]
			if b == nil {
				return badInputf("--dump %d: argument %d (%s) has no contents to write", n, n, specs[n].Spec)
			}
			if err := os.WriteFile(file, b.Bytes(), 0o644); err != nil {
				return fmt.Errorf("--dump %d: %w", n, err)
			}
			if res.Dumped == nil {
				res.Dumped = map[int]string{}
			}
			res.Dumped[n] = file
		}
		if j.roofline != "" && res.Roofline != nil {
			f := rooflineFileFor(j.roofline, g.ID, len(gpus))
			if err := res.roofs.Save(f, []roofline.Point{res.Roofline.Point}); err != nil {
				return err
			}
			res.chart = f
		}
		results = append(results, res.runResult)
		runs = append(runs, res)
		if stopped != nil {
			break
		}
	}
	if err := tr.finish(stderr); err != nil {
		return err
	}
	if j.csv != "" {
		if err := writeRunCSV(j.csv, results); err != nil {
			return err
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if len(results) == 1 {
			if err := enc.Encode(results[0]); err != nil {
				return err
			}
			return stopped
		}
		if err := enc.Encode(map[string]any{"runs": results}); err != nil {
			return err
		}
		return stopped
	}
	var page string
	if j.html != "" {
		if page, err = writeRunReport(j.html, &runReport{command: j.command, job: j, gpus: gpus, runs: runs, spvFor: spvFor}); err != nil {
			return err
		}
	}
	printRuns(stdout, results, specs)
	for _, r := range runs {
		if r.chart != "" {
			writeRooflineText(stdout, r)
		}
	}
	for _, r := range runs {
		if r.profile != nil && j.hotspots {
			writeHotspots(stdout, r.GPU, r.profile, j.Kernel, r.WarpWidth)
		}
	}
	if page != "" {
		fmt.Fprintf(stdout, "\nreport: %s\n", page)
	}
	return stopped
}

// writeRunCSV writes the runs' counters as CSV, a column per GPU.
func writeRunCSV(path string, runs []runResult) error {
	var b bytes.Buffer
	headers := make([]string, len(runs))
	sets := make([]counters.Set, len(runs))
	for i, r := range runs {
		headers[i], sets[i] = r.GPU, r.Counters
	}
	if err := counters.WriteCSV(&b, counters.Kernel, headers, sets); err != nil {
		return err
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		return fmt.Errorf("--csv: %w", err)
	}
	return nil
}

type gpuRun struct {
	runResult
	bound   *device.Bound
	profile *device.Profile
	roofs   *roofline.Roofs
	chart   string // the roofline chart written, if any
	// timeline is occupancy and pipe use over time (--html).
	timeline *device.Timeline
}

// runOnGPU runs the job on one GPU. Interrupted, it returns the partial
// run with the error.
func runOnGPU(ctx context.Context, stdout, stderr io.Writer, g *arch.GPU, spv []byte, j *Job, specs []kernel.Arg, dir string, tr *trace.Trace) (*gpuRun, error) {
	dev := device.Open(g)
	if !j.quiet {
		dev.Printf = stdout
	}
	k, err := dev.Load(spv, j.Entry, device.LoadOptions{Spec: j.Spec})
	if err != nil {
		return nil, runError(err)
	}
	data := make([][]byte, len(specs))
	for i := range specs {
		if data[i], err = specs[i].Materialize(dir); err != nil {
			return nil, badInputf("argument %d: %v", i, err)
		}
	}
	bound, err := dev.BindSpecs(k, specs, data)
	if err != nil {
		return nil, runError(err)
	}
	nd := device.NDRange{Dims: len(j.Global), Global: dims3(j.Global), Local: dims3(j.Local), Offset: dims3(j.Offset)}
	opt := device.Options{WarpWidth: j.WarpWidth, MaxWarpInsts: j.MaxInstructions, Context: ctx, Profile: j.profiled(), Timeline: j.html != "", Trace: tr,
		Detail: device.Detail(j.Detail), Strict: j.Strict}
	est, err := dev.Estimate(k, nd, bound.Args, opt)
	if err != nil {
		return nil, runError(err)
	}
	if err := checkEstimate(stderr, g, est, j.Functional); err != nil {
		return nil, err
	}
	bar := newProgress(stderr, false, int(min(est.WorkGroups, math.MaxInt)), "run "+g.ID+" work-groups")
	opt.Progress = func(p device.Progress) {
		detail := ""
		if p.Cycles > 0 {
			detail = formatNumber(p.Cycles) + " cycles"
		}
		bar.set(int64(p.GroupsDone), detail)
	}
	var res *device.Result
	var timed *device.TimedResult
	if j.Functional {
		res, err = dev.Dispatch(k, nd, bound.Args, opt)
	} else {
		timed, err = dev.Time(k, nd, bound.Args, opt)
		if timed != nil {
			res = &timed.Result
		}
	}
	bar.finish()
	partial := errors.Is(err, device.ErrStopped) && res != nil
	if err != nil && !partial {
		return nil, runError(err)
	}
	dims := len(j.Global)
	gl := dims3(j.Global)
	r := runResult{
		GPU: g.ID, Kernel: j.Kernel, Entry: k.Name, Mode: "functional",
		Global: gl[:dims], Local: res.Local[:dims], WarpWidth: res.WarpWidth, RegistersPerThread: k.Regs,
		Workgroups: res.Stats.WorkGroups, Warps: res.Stats.Warps,
		ThreadInstructions: res.Stats.ThreadInsts, WarpInstructions: res.Stats.WarpInsts, HostSeconds: res.Seconds,
	}
	run := &gpuRun{bound: bound}
	if timed != nil {
		r.Mode = "timing"
		r.Cycles, r.TimeNS, r.ClockMHz = timed.Timing.Cycles, timed.Timing.TimeNS, g.ClockMHz
		r.Counters, r.PerCore = timed.Timing.Counters, timed.Timing.PerCore
		r.Detail = detailOf(timed.Detail)
		run.roofs = roofline.For(g)
		r.Roofline = &rooflineJSON{Roofs: run.roofs,
			Point: run.roofs.Measure(k.Name, run.roofs.FromCounters(timed.Timing.Counters), timed.Timing.Cycles)}
		if p := timed.Profile; p != nil {
			run.profile = p
			if j.hotspots {
				r.Hotspots = &hotspotsJSON{Profile: p, Lines: p.Lines()}
			}
		}
		run.timeline = timed.Timeline
	}
	if partial {
		r.Partial = fmt.Sprintf("interrupted after %d of %d work-groups", res.Stats.WorkGroups, est.WorkGroups)
	}
	r.Warnings = res.Warnings
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "pocketgpu: %s: warning: %s\n", g.ID, w)
	}
	run.runResult = r
	return run, err
}

// checkEstimate refuses a launch that cannot finish within its budget and
// warns before one that will take minutes.
func checkEstimate(stderr io.Writer, g *arch.GPU, e *device.Estimate, functional bool) error {
	if e.OverBudget() {
		return badInputf("%s: this launch needs at least %d warp instructions (%d warps), over its budget of %d; raise --max-instructions (or unlimited) to run it",
			g.ID, e.MinWarpInsts, e.Warps, e.Budget)
	}
	secs := e.MinSeconds[1]
	if functional {
		secs = e.MinSeconds[0]
	}
	if secs >= 60 {
		fmt.Fprintf(stderr, "pocketgpu: %s: %d work-items in %d warps need at least %d warp instructions: %s or more here. Progress follows; Ctrl-C stops and prints the counters so far.\n",
			g.ID, e.WorkItems, e.Warps, e.MinWarpInsts, formatDuration(secs))
	}
	return nil
}

// formatDuration is a wait in words: "45 s", "12 minutes", "3.5 hours".
func formatDuration(secs float64) string {
	switch {
	case secs < 120:
		return fmt.Sprintf("%.0f s", secs)
	case secs < 2*3600:
		return fmt.Sprintf("%.0f minutes", secs/60)
	case secs < 2*86400:
		return fmt.Sprintf("%.1f hours", secs/3600)
	}
	return fmt.Sprintf("%.0f days", secs/86400)
}

// runError classifies a failure: the kernel's or the user's (exit 2) or the
// simulator's (exit 1).
func runError(err error) error {
	if device.IsUserError(err) {
		return badInput(err)
	}
	return err
}

// kernelLoadError classifies a compile failure: diagnostics and unreadable
// files are the user's to fix; a missing or crashing compiler is not.
func kernelLoadError(err error) error {
	var missing *kernel.ToolMissingError
	var crash *kernel.ToolCrashError
	if errors.As(err, &missing) || errors.As(err, &crash) {
		return err
	}
	return badInput(err)
}

func printRuns(w io.Writer, runs []runResult, specs []kernel.Arg) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "\t")
	for _, r := range runs {
		fmt.Fprintf(tw, "%s\t", r.GPU)
	}
	fmt.Fprintln(tw)
	row := func(name string, f func(r runResult) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, r := range runs {
			fmt.Fprintf(tw, "%s\t", f(r))
		}
		fmt.Fprintln(tw)
	}
	row("kernel", func(r runResult) string { return r.Entry })
	for _, r := range runs {
		if r.Partial != "" {
			row("status", func(r runResult) string {
				if r.Partial != "" {
					return "PARTIAL: " + r.Partial
				}
				return "complete"
			})
			break
		}
	}
	row("mode", func(r runResult) string { return r.Mode })
	if runs[0].Detail != nil {
		row("detail", func(r runResult) string { return r.Detail.describe(r.Workgroups) })
	}
	row("global", func(r runResult) string { return sizeString(dims3(r.Global), len(r.Global)) })
	row("local", func(r runResult) string { return sizeString(dims3(r.Local), len(r.Local)) })
	row("warp width", func(r runResult) string { return fmt.Sprint(r.WarpWidth) })
	row("registers/thread (est.)", func(r runResult) string { return fmt.Sprint(r.RegistersPerThread) })
	row("work-groups", func(r runResult) string { return fmt.Sprint(r.Workgroups) })
	row("warps", func(r runResult) string { return fmt.Sprint(r.Warps) })
	row("warp instructions", func(r runResult) string { return fmt.Sprint(r.WarpInstructions) })
	row("thread instructions", func(r runResult) string { return fmt.Sprint(r.ThreadInstructions) })
	row("host seconds", func(r runResult) string { return fmt.Sprintf("%.3f", r.HostSeconds) })
	if runs[0].Counters != nil {
		row("cycles", func(r runResult) string { return fmt.Sprintf("%.0f", r.Cycles) })
		row("time", func(r runResult) string { return fmt.Sprintf("%.3f us at %g MHz", r.TimeNS/1000, r.ClockMHz) })
		sets := make([]counters.Set, len(runs))
		for i, r := range runs {
			sets[i] = r.Counters
		}
		counters.WriteRows(tw, counters.Kernel, sets, "cycles", "time_ns")
	}
	tw.Flush()
	for _, r := range runs {
		keys := make([]int, 0, len(r.Printed))
		for a := range r.Printed {
			keys = append(keys, a)
		}
		sort.Ints(keys)
		for _, a := range keys {
			vals := r.Printed[a]
			prefix := ""
			if len(runs) > 1 {
				prefix = r.GPU + " "
			}
			fmt.Fprintf(w, "%sarg %d (%s): %s\n", prefix, a, specs[a].Spec, strings.Join(vals, " "))
		}
	}
}
