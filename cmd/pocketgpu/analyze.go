package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/kernel"
)

func init() { subcommands = append(subcommands, newAnalyzeCmd) }

// analyzeOpts are the analyze command's flags.
type analyzeOpts struct {
	gpus      []string
	entry     string
	defines   []string
	includes  []string
	specs     []string
	warpWidth int
	// warpWidthSet tells --warp-width 0 (refused) from no flag.
	warpWidthSet bool
	asJSON       bool
}

func newAnalyzeCmd() *cobra.Command {
	var o analyzeOpts
	cmd := &cobra.Command{
		Use:   "analyze --gpu GPU [--gpu GPU ...] KERNEL [--entry NAME] [--json]",
		Short: "Static report of a kernel on a GPU: registers, occupancy, pipes, bound",
		Long: `analyze lowers a kernel (.cl, .comp or .spv) for each GPU the way its family
issues work and reports, in the spirit of the Mali Offline Compiler:

  registers per thread, spilling, and the occupancy they allow
  machine operations per pipe, and the core cycles per warp each pipe spends
  on the shortest and longest paths through the kernel (loops counted once)
  and in total; the bounding pipe
  Bifrost: clauses and tuples    Midgard: bundles
  Adreno: the wave size chosen   Rogue: unified-store registers

Cycles are core cycles per warp: an ALU pipe's or the issue port's busy
cycles divided by the engines of a core, load/store and texture at hit
bandwidth (no cache misses). Several --gpu flags put the GPUs side by side.
GPU is ` + gpuArgHelp + `.
The JSON keys are described in docs/timing.md (Instruction lowering).`,
		Example: `  pocketgpu analyze --gpu mali-g52 examples/matmul.cl -D TILE=8
  pocketgpu analyze --gpu mali-g52 --gpu adreno-640 --gpu powervr-gx6250 internal/corpus/kernels/matmul.spv --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.warpWidthSet = cmd.Flags().Changed("warp-width")
			return runAnalyze(cmd.OutOrStdout(), cmd.ErrOrStderr(), args[0], &o)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&o.gpus, "gpu", nil, "the GPU (repeat to compare): "+gpuArgHelp)
	f.StringVar(&o.entry, "entry", "", "the entry point (default: the module's only one)")
	f.StringArrayVarP(&o.defines, "define", "D", nil, "a preprocessor definition for .cl/.comp sources")
	f.StringArrayVarP(&o.includes, "include", "I", nil, "a directory to search for #include in sources")
	f.StringArrayVar(&o.specs, "spec", nil, "set the specialization constant with SpecId ID")
	f.IntVar(&o.warpWidth, "warp-width", 0, "lower for this warp width instead of the one the occupancy rules choose")
	f.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	nameArgs(cmd, "gpu", "GPU", "entry", "NAME", "define", "NAME[=VALUE]", "include", "DIR", "spec", "ID=VALUE", "warp-width", "N")
	_ = cmd.MarkFlagRequired("gpu")
	return cmd
}

func runAnalyze(out, stderr io.Writer, path string, o *analyzeOpts) error {
	var gpus []*arch.GPU
	for _, name := range o.gpus {
		g, err := resolveGPU(name)
		if err != nil {
			return err
		}
		gpus = append(gpus, g)
	}
	if len(gpus) == 0 {
		return badInputf("no GPU: give --gpu (`pocketgpu gpus` lists them)")
	}
	if o.warpWidthSet && o.warpWidth <= 0 {
		return badInputf("--warp-width %d: want a positive width (leave it out for the GPU's choice)", o.warpWidth)
	}
	spec := map[uint32]string{}
	for _, s := range o.specs {
		id, v, err := parseSpecFlag(s)
		if err != nil {
			return err
		}
		spec[id] = v
	}
	// Compiled as each GPU's driver would: without cl_khr_fp64 where the
	// GPU has no double precision.
	spvFor := map[bool][]byte{}
	for _, g := range gpus {
		if _, done := spvFor[!g.HasFP64()]; done {
			continue
		}
		spv, err := kernel.Load(path, kernel.Options{Defines: o.defines, IncludeDirs: o.includes, NoFP64: !g.HasFP64(), Warnings: stderr})
		if err != nil {
			return kernelLoadError(err)
		}
		spvFor[!g.HasFP64()] = spv
	}
	var reports []*isa.Report
	for _, g := range gpus {
		dev := device.Open(g)
		k, err := dev.Load(spvFor[!g.HasFP64()], o.entry, device.LoadOptions{Spec: spec})
		if err != nil {
			return runError(err)
		}
		if err := checkWarpWidth(g, o.warpWidth); err != nil {
			return err
		}
		r, err := dev.Analyze(k, o.warpWidth)
		if err != nil {
			var ue *isa.UnsupportedError
			if errors.As(err, &ue) {
				return badInput(err)
			}
			return err
		}
		reports = append(reports, r)
	}
	if o.asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if len(reports) == 1 {
			return enc.Encode(reports[0])
		}
		return enc.Encode(map[string]any{"reports": reports})
	}
	return writeAnalyzeText(out, reports)
}

// writeAnalyzeText prints the reports side by side.
func writeAnalyzeText(out io.Writer, rs []*isa.Report) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	row := func(name string, f func(r *isa.Report) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for _, r := range rs {
			fmt.Fprintf(tw, "%s\t", f(r))
		}
		fmt.Fprintln(tw)
	}
	row("", func(r *isa.Report) string { return r.GPU })
	row("entry", func(r *isa.Report) string { return r.Entry })
	row("family", func(r *isa.Report) string { return r.Family })
	row("warp width", func(r *isa.Report) string { return fmt.Sprint(r.WarpWidth) })
	row("registers per thread", func(r *isa.Report) string { return fmt.Sprint(r.Registers) })
	row("spilled per thread", func(r *isa.Report) string { return fmt.Sprintf("%d B", r.SpillBytes) })
	row("occupancy", func(r *isa.Report) string {
		return fmt.Sprintf("%s (%d threads/core)", formatPct(r.Occupancy.Occupancy*100), r.Occupancy.ResidentThreadsPerCore)
	})
	row("limited by", func(r *isa.Report) string { return r.Occupancy.LimitedBy })
	row("code", func(r *isa.Report) string { return fmt.Sprintf("%d B", r.CodeBytes) })
	row("issue groups", func(r *isa.Report) string { return fmt.Sprint(r.Groups) })
	row("machine operations", func(r *isa.Report) string { return fmt.Sprint(r.Operations) })
	if anyReport(rs, func(r *isa.Report) bool { return r.Bifrost != nil }) {
		row("clauses / tuples", func(r *isa.Report) string {
			if r.Bifrost == nil {
				return "-"
			}
			return fmt.Sprintf("%d / %d (%s ops a tuple)", r.Bifrost.Clauses, r.Bifrost.Tuples, fmtFloat(r.Bifrost.OpsPerTuple))
		})
	}
	if anyReport(rs, func(r *isa.Report) bool { return r.Midgard != nil }) {
		row("bundles", func(r *isa.Report) string {
			if r.Midgard == nil {
				return "-"
			}
			return fmt.Sprintf("%d (%s ops a bundle)", r.Midgard.Bundles, fmtFloat(r.Midgard.OpsPerBundle))
		})
	}
	if anyReport(rs, func(r *isa.Report) bool { return r.Adreno != nil }) {
		row("wave size", func(r *isa.Report) string {
			if r.Adreno == nil {
				return "-"
			}
			return fmt.Sprintf("%d (%d waves/uSPTP)", r.Adreno.WaveSize, r.Adreno.WavesPerUSPTP)
		})
	}
	if anyReport(rs, func(r *isa.Report) bool { return r.Rogue != nil }) {
		row("unified store", func(r *isa.Report) string {
			if r.Rogue == nil {
				return "-"
			}
			return fmt.Sprintf("%d × %d-bit regs/thread, %d tasks/USC (%s)", r.Rogue.UnifiedStoreRegisters, r.Rogue.RegisterBits,
				r.Rogue.ResidentTasks, formatPct(r.Rogue.StoreShare*100))
		})
	}
	// Pipes: the union of every GPU's rows, in order of first appearance.
	var names []string
	seen := map[string]bool{}
	for _, r := range rs {
		for _, p := range r.Pipes {
			if !seen[p.Name] {
				seen[p.Name] = true
				names = append(names, p.Name)
			}
		}
	}
	pipe := func(r *isa.Report, name string) *isa.PipeReport {
		for k := range r.Pipes {
			if r.Pipes[k].Name == name {
				return &r.Pipes[k]
			}
		}
		return nil
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(out, "\ncore cycles per warp on each pipe: shortest / longest path (whole kernel), machine operations")
	row("", func(r *isa.Report) string { return r.GPU })
	for _, n := range names {
		row(n, func(r *isa.Report) string {
			p := pipe(r, n)
			if p == nil {
				return "-"
			}
			return fmt.Sprintf("%s / %s (%s), %d", fmtFloat(p.Shortest), fmtFloat(p.Longest), fmtFloat(p.Total), p.Instructions)
		})
	}
	row("bound", func(r *isa.Report) string { return r.ShortestBound + " / " + r.LongestBound })
	if err := tw.Flush(); err != nil {
		return err
	}
	var notes []string
	if anyReport(rs, func(r *isa.Report) bool { return r.HasLoops }) {
		notes = append(notes, "loops are counted once on the paths")
	}
	for _, r := range rs {
		if r.OccupancyNote != "" {
			notes = append(notes, r.GPU+": "+r.OccupancyNote)
		}
		if r.SpillBytes > 0 {
			notes = append(notes, fmt.Sprintf("%s: %d B per thread spill to private memory beyond %d registers", r.GPU, r.SpillBytes, r.Registers))
		}
	}
	if len(notes) > 0 {
		fmt.Fprintln(out)
		for _, n := range notes {
			fmt.Fprintf(out, "note: %s\n", n)
		}
	}
	return nil
}

func anyReport(rs []*isa.Report, f func(*isa.Report) bool) bool {
	for _, r := range rs {
		if f(r) {
			return true
		}
	}
	return false
}
