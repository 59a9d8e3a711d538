package main

import (
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/bench"
	"github.com/pocketgpu/pocketgpu/device"
)

func init() { subcommands = append(subcommands, newValidateCmd) }

func newValidateCmd() *cobra.Command {
	var (
		gpus     []string
		asJSON   bool
		progress bool
		workers  int
		detail   device.Detail
	)
	cmd := &cobra.Command{
		Use:   "validate [--gpu GPU ...] [--json]",
		Short: "Compare the simulator with the measurements the seed documents publish",
		Long: `validate runs the benchmarks behind every published figure of the seed
documents (bench/figures.yaml) on the GPUs they were measured on and prints,
per figure, the seed section it comes from, the published and the simulated
value and the error; then the mean absolute percentage error (MAPE), first
of the predicted figures, then of the calibrated ones, then of all.

KIND says which a figure is: calibrated when a parameter of the GPU's
description was fitted to it (its value written in from the figure or backed
out of it: fitted: [ID] beside the parameter's source), predicted otherwise.
The predicted MAPE says how well the model predicts; the calibrated one only
that the description was written down right (docs/validation.md).

--gpu limits the run to some GPUs; a GPU file built on a preset (base:
mali-g52) is checked against that preset's figures, which shows how a change
to the description moves them. Comparative figures (a claim that one GPU or test is faster, "about
doubled", "barely increases") print the relation they ask for and whether it
holds; they are not in the MAPE. A figure that compares with a GPU not in the
run is skipped, with a note. Rate and bandwidth figures are also measured by
a second kernel written another way (2ND KERNEL: its difference from the
figure's kernel; "reason stated" where the two differ by more than 10% and
docs/validation.md says why). --json prints {"figures": [...] (each with
"calibrated" and "fitted_by"), "mape_pct": N, "predicted": {"mape_pct": N,
"numeric": N, ...}, "calibrated": {...},
"comparative_held": N, "second_kernels": N, "second_agree": N, "skipped": [...]}.
docs/validation.md explains every figure and the remaining errors.`,
		Example: `  pocketgpu validate
  pocketgpu validate --gpu adreno-640 --json
  pocketgpu validate --gpu examples/my-g52.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkWorkers(workers); err != nil {
				return err
			}
			if len(gpus) == 0 {
				ids, err := bench.ValidationGPUs()
				if err != nil {
					return err
				}
				gpus = ids
			}
			gs, err := resolveGPUs(gpus)
			if err != nil {
				return err
			}
			v, err := runValidation(cmd, gs, progress, workers, detail)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(v)
			}
			return writeValidation(cmd.OutOrStdout(), v)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&gpus, "gpu", nil, "check only this GPU (repeatable; default: every GPU with figures): "+gpuArgHelp)
	f.BoolVar(&asJSON, "json", false, "print the figures and the MAPE as JSON")
	f.BoolVar(&progress, "progress", false, "show a progress bar even when stderr is not a terminal")
	f.IntVar(&workers, "jobs", runtime.GOMAXPROCS(0), "tests to run at once (each on its own simulated device)")
	addDetailFlag(cmd, &detail)
	nameArgs(cmd, "gpu", "GPU", "jobs", "N")
	return cmd
}

func runValidation(cmd *cobra.Command, gpus []*arch.GPU, forceBar bool, workers int, detail device.Detail) (*bench.Validation, error) {
	jobs, err := bench.ValidationJobs(gpus)
	if err != nil {
		return nil, badInput(err)
	}
	opt := bench.Options{Context: cmd.Context(), Detail: detail}
	bar := newProgress(cmd.ErrOrStderr(), forceBar, bench.Points(jobs, opt), "validation")
	opt.Tick = bar.tick
	results, err := bench.RunJobs(jobs, opt, workers)
	bar.finish()
	if err != nil {
		return nil, err
	}
	return bench.Compare(gpus, results)
}

// secondColumn is the second kernel's measurement as its difference from
// the figure's kernel: "+3.1%", "-18.0% (reason stated)", "-18.0% !" when
// no reason is given; empty for a figure with no second kernel.
func secondColumn(s *bench.SecondCheck) string {
	switch {
	case s == nil:
		return ""
	case s.Agrees:
		return fmt.Sprintf("%+.1f%%", s.DiffPct)
	case s.Note != "":
		return fmt.Sprintf("%+.1f%% (reason stated)", s.DiffPct)
	}
	return fmt.Sprintf("%+.1f%% !", s.DiffPct)
}

// writeValidation prints the figure table, the MAPE of the numeric
// figures, how many comparative ones hold, and the figures skipped.
func writeValidation(w io.Writer, v *bench.Validation) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "FIGURE\tGPU\tKIND\tSOURCE\tPUBLISHED\tSIMULATED\tUNIT\tERROR\t2ND KERNEL")
	outside := 0
	for _, c := range v.Figures {
		mark := ""
		if !c.Within {
			mark = " *"
			if !c.Comparative() {
				outside++
			}
		}
		gpu := c.On
		if c.On != c.GPU {
			gpu = fmt.Sprintf("%s (as %s)", c.On, c.GPU)
		}
		if c.OverOn != "" {
			gpu += " / " + c.OverOn
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s%s\t%s\n", c.ID, gpu, c.Kind(), c.Source, c.Expected(), num(c.Simulated), c.Unit, c.Verdict(), mark, secondColumn(c.Second))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, s := range []struct {
		kind string
		s    bench.Subset
	}{{"predicted", v.Predicted}, {"held-out (predicted)", v.HeldOut}, {"seed-predicted", v.SeedPredicted}, {"calibrated", v.Calibrated}} {
		fmt.Fprintf(w, "\n%s", subsetLine(s.kind, s.s))
	}
	fmt.Fprintf(w, "\nMAPE %.1f%% over %d figures; largest error %.1f%%", v.MAPE, v.Numeric, v.MaxAbsErrorPct)
	if outside > 0 {
		fmt.Fprintf(w, "; %d outside their tolerance (*)", outside)
	}
	if v.Comparative > 0 {
		fmt.Fprintf(w, "\n%d of %d comparative figures hold (not in the MAPE)", v.Held, v.Comparative)
	}
	if v.SecondKernels > 0 {
		fmt.Fprintf(w, "\n%d figures measured by a second kernel too: %d agree within 10%%, %d differ for a stated reason (docs/validation.md)", v.SecondKernels, v.SecondAgree, v.SecondExplained)
		if rest := v.SecondKernels - v.SecondAgree - v.SecondExplained; rest > 0 {
			fmt.Fprintf(w, ", %d differ unexplained (!)", rest)
		}
	}
	fmt.Fprintln(w)
	// One line per reason: a run without the 530 skips a dozen figures
	// for the same one.
	var reasons []string
	ids := map[string][]string{}
	for _, s := range v.Skipped {
		key := s.On + ": " + s.Reason
		if ids[key] == nil {
			reasons = append(reasons, key)
		}
		ids[key] = append(ids[key], s.ID)
	}
	for _, key := range reasons {
		fmt.Fprintf(w, "skipped on %s: %s\n", key, strings.Join(ids[key], ", "))
	}
	return nil
}

// subsetLine is one kind's summary: "Predicted MAPE 2.0% over 5 figures;
// largest error 4.1% (rogue-cs-stride2); 14 of 16 comparative hold".
func subsetLine(kind string, s bench.Subset) string {
	if s.Numeric == 0 && s.Comparative == 0 {
		return kind + ": no figures"
	}
	line := fmt.Sprintf("%s%s MAPE %.1f%% over %d figures", strings.ToUpper(kind[:1]), kind[1:], s.MAPE, s.Numeric)
	if s.Largest != "" {
		line += fmt.Sprintf("; largest error %.1f%% (%s)", s.MaxAbsErrorPct, s.Largest)
	}
	if s.Comparative > 0 {
		line += fmt.Sprintf("; %d of %d comparative hold", s.Held, s.Comparative)
	}
	return line
}

// num prints a figure with up to four significant digits.
func num(v float64) string { return fmt.Sprintf("%.4g", v) }
