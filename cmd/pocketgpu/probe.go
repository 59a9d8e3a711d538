package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/internal/oclref"
	"github.com/pocketgpu/pocketgpu/probe"
	"github.com/pocketgpu/pocketgpu/probe/describe"
	"github.com/pocketgpu/pocketgpu/probe/report"
)

func init() { subcommands = append(subcommands, newProbeCmd) }

type probeOpts struct {
	gpu              string
	opencl           bool
	platform, device string
	out, reportDir   string
	asJSON, progress bool
	base             string
}

func newProbeCmd() *cobra.Command {
	var o probeOpts
	cmd := &cobra.Command{
		Use:   "probe (--gpu GPU | --opencl [--platform NAME] [--device NAME]) [--out FILE.yaml] [--report DIR]",
		Short: "Characterise an OpenCL device from timings alone and write a GPU description",
		Long: `probe measures an OpenCL device as ArchProbe does, from kernel timings: the
cache levels (size, line, ways, latency) from pointer chases, the warp width
from a divergence test, and ALU rates per clock from throughput kernels. It
reads only the clock, compute units and work-group and local-memory limits
from the device; everything else is measured.

--gpu probes a simulated GPU in process (no compiler needed); --opencl probes
a device behind the OpenCL ICD loader (PoCL on this CPU, a real GPU), built
from OpenCL C source by its driver. --out writes a GPU description (base: the
closest preset, overrides for what was measured) that spec, validate and
--gpu take; --report writes report.txt, probe.json and the charts (PNG, SVG).
docs/probe.md says how each quantity is measured and what cannot be.`,
		Example: `  pocketgpu probe --gpu mali-g52 --out g52.yaml
  pocketgpu probe --gpu adreno-640 --report a640-probe
  pocketgpu probe --opencl --platform pocl --out cpu.yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runProbe(cmd, o) },
	}
	f := cmd.Flags()
	f.StringVar(&o.gpu, "gpu", "", "probe a simulated GPU: "+gpuArgHelp)
	f.BoolVar(&o.opencl, "opencl", false, "probe a device through the OpenCL ICD loader (libOpenCL.so.1)")
	f.StringVar(&o.platform, "platform", "", "with --opencl: the first platform whose name or vendor contains NAME (case-insensitive)")
	f.StringVar(&o.device, "device", "", "with --opencl: the first device whose name contains NAME (case-insensitive)")
	f.StringVar(&o.out, "out", "", "write the GPU description (YAML) to FILE")
	f.StringVar(&o.reportDir, "report", "", "write report.txt, probe.json and the charts (PNG, SVG) to DIR")
	f.StringVar(&o.base, "base", "", "the preset the description starts from (default: chosen from the device name and warp width)")
	f.BoolVar(&o.asJSON, "json", false, "print the measurements as JSON")
	f.BoolVar(&o.progress, "progress", false, "show a progress bar even when stderr is not a terminal")
	nameArgs(cmd, "gpu", "GPU", "platform", "NAME", "device", "NAME", "out", "FILE", "report", "DIR", "base", "PRESET")
	return cmd
}

func runProbe(cmd *cobra.Command, o probeOpts) error {
	switch {
	case o.gpu == "" && !o.opencl:
		return badInputf("name the device: --gpu GPU (a simulated GPU) or --opencl (a device through the ICD loader)")
	case o.gpu != "" && o.opencl:
		return badInputf("--gpu and --opencl both given: probe one device at a time")
	case !o.opencl && (o.platform != "" || o.device != ""):
		return badInputf("--platform and --device choose an OpenCL device: they go with --opencl")
	}
	if o.out != "" {
		if err := checkOutputFile("--out", o.out); err != nil {
			return err
		}
	}
	if o.reportDir != "" {
		if err := checkOutputDir("--report", o.reportDir); err != nil {
			return err
		}
	}
	if o.base != "" {
		if _, err := resolveGPU(o.base); err != nil {
			return err
		}
	}
	var b probe.Backend
	opt := probe.SimOptions()
	if o.opencl {
		icd, err := probe.OpenICD(o.platform, o.device)
		if err != nil {
			if errors.Is(err, oclref.ErrUnavailable) || errors.Is(err, oclref.ErrNoMatch) {
				return badInput(fmt.Errorf("--opencl: %w", err))
			}
			return err
		}
		b, opt = icd, probe.DeviceOptions()
	} else {
		if _, err := resolveGPU(o.gpu); err != nil {
			return err
		}
		sim, err := probe.OpenSim(o.gpu)
		if err != nil {
			return badInput(err)
		}
		b = sim
	}
	defer b.Close()
	bar := newProgress(cmd.ErrOrStderr(), o.progress, probe.Steps(opt), "probe")
	opt.Tick = bar.tick
	res, err := probe.Run(b, opt)
	bar.finish()
	if err != nil {
		return err
	}
	stdout := cmd.OutOrStdout()
	if o.out != "" {
		base, why := o.base, "given with --base"
		if base == "" {
			base, why = describe.Base(res.Device, res.WarpWidth)
		} else if g, err := resolveGPU(base); err == nil {
			base = g.ID
		}
		y, err := describe.YAML(res, base, why)
		if err != nil {
			return err
		}
		if err := os.WriteFile(o.out, y, 0o644); err != nil {
			return fmt.Errorf("--out %s: %w", o.out, err)
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %s (base: %s)\n", o.out, base)
	}
	if o.reportDir != "" {
		files, err := report.Write(o.reportDir, res)
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %d files to %s\n", len(files), o.reportDir)
	}
	if o.asJSON {
		return report.JSON(stdout, res)
	}
	return report.Text(stdout, res)
}
