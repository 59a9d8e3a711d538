package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/kernel"
	"github.com/pocketgpu/pocketgpu/roofline"
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
	var points []roofline.Point
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
		points = append(points, predictRoofline(g, r))
	}
	if o.asJSON {
		withRoofline := make([]json.RawMessage, len(reports))
		for i, r := range reports {
			b, err := reportJSON(r, points[i])
			if err != nil {
				return err
			}
			withRoofline[i] = b
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if len(reports) == 1 {
			return enc.Encode(withRoofline[0])
		}
		return enc.Encode(map[string]any{"reports": withRoofline})
	}
	if err := writeAnalyzeText(out, reports); err != nil {
		return err
	}
	return writeAnalyzeRoofline(out, gpus, reports, points)
}

// analyzeText is analyze's text report of a module on the GPUs (spvFor:
// the module by whether the GPU lacks fp64), for run --html.
func analyzeText(gpus []*arch.GPU, spvFor map[bool][]byte, entry string, spec map[uint32]string, warpWidth int) (string, error) {
	var reports []*isa.Report
	var points []roofline.Point
	for _, g := range gpus {
		dev := device.Open(g)
		k, err := dev.Load(spvFor[!g.HasFP64()], entry, device.LoadOptions{Spec: spec})
		if err != nil {
			return "", err
		}
		r, err := dev.Analyze(k, warpWidth)
		if err != nil {
			return "", err
		}
		reports = append(reports, r)
		points = append(points, predictRoofline(g, r))
	}
	var b bytes.Buffer
	if err := writeAnalyzeText(&b, reports); err != nil {
		return "", err
	}
	if err := writeAnalyzeRoofline(&b, gpus, reports, points); err != nil {
		return "", err
	}
	return b.String(), nil
}

// predictRoofline places the kernel on g's roofline from the report alone:
// one work-item's operations and bytes along the longest path, its
// compute ceiling from the busiest pipe's cycles there.
func predictRoofline(g *arch.GPU, r *isa.Report) roofline.Point {
	wk := r.Work
	w := roofline.StaticWork(g, wk.Ops, wk.GlobalBytes, wk.TextureBytes, wk.LocalBytes)
	if wk.PipeCycles > 0 && r.WarpWidth > 0 {
		// Core cycles per warp: per work-item, over the GPU's cores.
		w.PipeTime = wk.PipeCycles / float64(r.WarpWidth) / float64(g.Cores)
	}
	return roofline.For(g).Predict(r.Entry, w)
}

// reportJSON is a report with its predicted point under "roofline".
func reportJSON(r *isa.Report, p roofline.Point) (json.RawMessage, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	pb, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	out := append(b[:len(b)-1:len(b)-1], []byte(`,"roofline":`)...)
	out = append(append(out, pb...), '}')
	return out, nil
}

// writeAnalyzeRoofline prints the predicted points side by side.
func writeAnalyzeRoofline(out io.Writer, gpus []*arch.GPU, rs []*isa.Report, ps []roofline.Point) error {
	fmt.Fprintln(out, "\nroofline (predicted: one work-item along the longest path, loops once; each level as if no cache before it hit)")
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	row := func(name string, f func(i int) string) {
		fmt.Fprintf(tw, "%s\t", name)
		for i := range rs {
			fmt.Fprintf(tw, "%s\t", f(i))
		}
		fmt.Fprintln(tw)
	}
	row("", func(i int) string { return rs[i].GPU })
	row("work per item", func(i int) string {
		p := ps[i]
		return fmt.Sprintf("%s %s (%s), %s B", formatNumber(p.Ops), roofline.Unit(p.Type), p.Type, formatNumber(rs[i].Work.GlobalBytes+rs[i].Work.TextureBytes+rs[i].Work.LocalBytes))
	})
	row("compute ceiling", func(i int) string {
		p := ps[i]
		return fmt.Sprintf("%s G%s/s (busiest pipe)", formatNumber(p.Ceiling*gpus[i].ClockMHz/1000), roofline.Unit(p.Type))
	})
	seen := map[string]bool{}
	for _, p := range ps {
		for _, l := range p.Levels {
			seen[l.Level] = true
		}
	}
	for _, lv := range roofline.Levels {
		if !seen[lv] {
			continue
		}
		row("from "+lv, func(i int) string {
			for _, l := range ps[i].Levels {
				if l.Level == lv {
					ghz := gpus[i].ClockMHz / 1000
					return fmt.Sprintf("%s %s/B: %s G%s/s", formatNumber(l.Intensity), roofline.Unit(ps[i].Type), formatNumber(l.Attainable*ghz), roofline.Unit(ps[i].Type))
				}
			}
			return "-"
		})
	}
	row("predicted", func(i int) string {
		return fmt.Sprintf("%s G%s/s, bound by %s", formatNumber(ps[i].Giga), roofline.Unit(ps[i].Type), ps[i].Bound)
	})
	return tw.Flush()
}

// familyRowLabels lists the family rows of the reports, ordered by family
// (the registry's order) and then as each family gives them.
func familyRowLabels(rs []*isa.Report) []string {
	type entry struct {
		label      string
		family, at int
	}
	var es []entry
	seen := map[string]bool{}
	for _, r := range rs {
		for i, fr := range r.Details.Rows {
			if !seen[fr.Label] {
				seen[fr.Label] = true
				es = append(es, entry{fr.Label, families.Order(arch.Family(r.Family)), i})
			}
		}
	}
	sort.SliceStable(es, func(a, b int) bool {
		if es[a].family != es[b].family {
			return es[a].family < es[b].family
		}
		return es[a].at < es[b].at
	})
	labels := make([]string, len(es))
	for i, e := range es {
		labels[i] = e.label
	}
	return labels
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
	// The families' own rows: the union over the GPUs, in the registry's
	// family order, "-" where a GPU's family has no such row.
	for _, label := range familyRowLabels(rs) {
		row(label, func(r *isa.Report) string {
			for _, fr := range r.Details.Rows {
				if fr.Label == label {
					return fr.Value
				}
			}
			return "-"
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
