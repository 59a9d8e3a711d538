package main

import (
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/arch"
)

func init() { subcommands = append(subcommands, newGPUsCmd) }

// gpuSummary is one line of `pocketgpu gpus --json`.
type gpuSummary struct {
	ID             string  `json:"id"`
	Name           string  `json:"name"`
	Family         string  `json:"family"`
	Vendor         string  `json:"vendor"`
	SoC            string  `json:"soc,omitempty"`
	PanfrostGPUID  string  `json:"panfrost_gpu_id,omitempty"`
	AdrenoGPUID    int     `json:"adreno_gpu_id,omitempty"`
	Base           string  `json:"base,omitempty"`
	Cores          int     `json:"cores"`
	ClockMHz       float64 `json:"clock_mhz"`
	PeakFP32GFLOPS float64 `json:"peak_fp32_gflops"`
}

func summarize(g *arch.GPU) gpuSummary {
	s := gpuSummary{
		ID: g.ID, Name: g.Name, Family: string(g.Family), Vendor: g.Vendor, SoC: g.SoC, Base: g.Base,
		Cores: g.Cores, ClockMHz: g.ClockMHz, PeakFP32GFLOPS: g.Derived().PeakFP32GFLOPS,
	}
	if g.GPUID != 0 {
		s.PanfrostGPUID = fmt.Sprintf("0x%x", g.GPUID)
	}
	if g.Adreno != nil {
		s.AdrenoGPUID = g.Adreno.GPUID
	}
	return s
}

func newGPUsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "gpus",
		Short: "List the GPU presets",
		Long: `gpus lists the GPU presets pocketgpu knows, with the numbers they can also be
called by (Panfrost GPU IDs as drm-shim's PAN_GPU_ID takes them, Adreno numbers).
Anywhere a GPU is taken you may also give a YAML file that starts from a preset
(base: mali-g52) and changes some parameters; see docs/config.md.`,
		Example: `  pocketgpu gpus
  pocketgpu gpus --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var list []gpuSummary
			for _, g := range arch.Presets() {
				list = append(list, summarize(g))
			}
			if len(list) != len(arch.PresetIDs()) {
				// A preset failed to load: a defect, not the user's doing.
				for _, id := range arch.PresetIDs() {
					if _, err := arch.Lookup(id); err != nil {
						return fmt.Errorf("preset %s does not load: %w", id, err)
					}
				}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(list)
			}
			w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(w, "ID\tFAMILY\tVENDOR\tALSO\tCORES\tCLOCK\tFP32 GFLOPS\tNAME")
			for _, s := range list {
				also := s.PanfrostGPUID
				if s.AdrenoGPUID != 0 {
					also = fmt.Sprint(s.AdrenoGPUID)
				}
				if also == "" {
					also = "-"
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%d\t%s MHz\t%s\t%s\n", s.ID, s.Family, s.Vendor, also, s.Cores, fmtFloat(s.ClockMHz), fmtFloat(s.PeakFP32GFLOPS), s.Name)
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print a JSON list")
	return cmd
}

// fmtFloat prints a number without trailing zeros (10.56, 768, 0.426667).
func fmtFloat(x float64) string {
	return trimFloat(fmt.Sprintf("%.6f", x))
}

func trimFloat(s string) string {
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] == '.' {
		s = s[:len(s)-1]
	}
	if s == "" || s == "-" {
		return "0"
	}
	return s
}
