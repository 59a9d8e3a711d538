package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/gfx"
)

func init() { subcommands = append(subcommands, newBinsCmd) }

func newBinsCmd() *cobra.Command {
	var (
		gpu    string
		q      gfx.BinQuery
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "bins --gpu GPU --width W --height H [--color FORMAT ...] [--depth FORMAT] [--msaa N] [--json]",
		Short: "The GMEM bin layout an Adreno GPU uses for a render pass",
		Long: `bins works out how a GPU that renders in GMEM bins (tiling.scheme gmem_bins:
the Adreno presets) splits a render pass into bins: bins as large as GMEM
holds the attachments (bytes per pixel times samples, each attachment on its
own GMEM page), aligned to the part's bin alignment and no larger than its
maximum bin size; bins grouped into visibility-stream pipes; the passes over
the command stream (one binning pass, when there are at least
tiling.hw_binning_min_bins bins, plus one per bin); and whether the GPU must
fall back to direct (system memory) rendering. Every size and limit comes
from the GPU's description. docs/rendering.md gives the rules and their
sources.

Colour formats: ` + gfx.FormatNames(gfx.ColorFormats) + `
Depth formats:  ` + gfx.FormatNames(gfx.DepthFormats) + `
GPU is ` + gpuArgHelp + `.`,
		Example: `  pocketgpu bins --gpu adreno-640 --width 1920 --height 1080
  pocketgpu bins --gpu adreno-730 --width 2400 --height 1080 --color rgba16f --color rgba8 --depth d32fs8 --msaa 4 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := refuseZero(cmd, "msaa"); err != nil {
				return err
			}
			g, err := resolveGPU(gpu)
			if err != nil {
				return err
			}
			if len(q.Colors) == 0 {
				q.Colors = []string{"rgba8"}
			}
			bl, err := gfx.AdrenoBins(g, q)
			if err != nil {
				return wrapGfx(err)
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(bl)
			}
			return writeBinsText(cmd.OutOrStdout(), bl)
		},
	}
	f := cmd.Flags()
	addGPUFlag(cmd, &gpu)
	f.IntVar(&q.Width, "width", 0, "render-pass width in pixels")
	f.IntVar(&q.Height, "height", 0, "render-pass height in pixels")
	f.StringArrayVar(&q.Colors, "color", nil, "a colour attachment's format (repeat for several; default rgba8)")
	f.StringVar(&q.Depth, "depth", "d24s8", "the depth/stencil format, or none")
	f.IntVar(&q.MSAA, "msaa", 1, "samples per pixel: 1, 2 or 4")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("width")
	_ = cmd.MarkFlagRequired("height")
	nameArgs(cmd, "gpu", "GPU", "width", "PIXELS", "height", "PIXELS", "color", "FORMAT", "depth", "FORMAT", "msaa", "SAMPLES")
	return cmd
}

func writeBinsText(out io.Writer, bl *gfx.BinLayout) error {
	var parts []string
	for _, a := range bl.Attachments {
		parts = append(parts, fmt.Sprintf("%s %d", a.Name, a.BytesPerPixel))
	}
	fmt.Fprintf(out, "%s: %dx%d, %d sample(s), %d bytes per pixel (%s), GMEM %d bytes\n",
		bl.GPU, bl.Width, bl.Height, bl.MSAA, bl.BytesPerPixel, strings.Join(parts, ", "), bl.GMEMBytes)
	if bl.DirectRendering {
		fmt.Fprintf(out, "direct rendering: %s\n", bl.Reason)
		if bl.Bins == 0 {
			return nil
		}
	}
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(w, "bins\t%d x %d = %d of %dx%d\n", bl.BinsX, bl.BinsY, bl.Bins, bl.BinWidth, bl.BinHeight)
	fmt.Fprintf(w, "GMEM used\t%d of %d bytes\n", bl.GMEMUsedBytes, bl.GMEMBytes)
	for _, a := range bl.Attachments {
		fmt.Fprintf(w, "  %s\toffset %d, %d bytes\n", a.Name, a.Offset, a.Bytes)
	}
	fmt.Fprintf(w, "pipes\t%d visibility-stream pipes of %dx%d bins (%d bins per pipe)\n", bl.Pipes, bl.PipeBinsX, bl.PipeBinsY, bl.BinsPerPipe)
	binning := fmt.Sprintf("no binning pass (fewer than %d bins: every bin walks every primitive)", bl.HWBinningMin)
	if bl.HWBinning {
		binning = "1 binning pass + 1 per bin"
	}
	if !bl.DirectRendering {
		fmt.Fprintf(w, "passes\t%d over the command stream: %s\n", bl.Passes, binning)
	}
	return w.Flush()
}
