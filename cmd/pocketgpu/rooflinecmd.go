package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/pocketgpu/pocketgpu/roofline"
)

// rooflineJSON is run --json's "roofline" section: the GPU's roofs and the
// run's point.
type rooflineJSON struct {
	*roofline.Roofs
	Point roofline.Point `json:"point"`
}

// rooflineFileFor is the chart file of one GPU: the name given, or with
// "-GPU" before the extension when several GPUs run.
func rooflineFileFor(name, gpu string, gpus int) string {
	if gpus <= 1 {
		return name
	}
	ext := filepath.Ext(name)
	return strings.TrimSuffix(name, ext) + "-" + gpu + ext
}

// writeRooflineText summarises a run's point under its chart's name.
func writeRooflineText(w io.Writer, r *gpuRun) {
	fmt.Fprintf(w, "\nroofline: %s on %s, written to %s\n", r.Roofline.Point.Kernel, r.GPU, r.chart)
	writeRooflinePoint(w, r)
}

// writeRooflinePoint says where the run's point is against its roofs.
func writeRooflinePoint(w io.Writer, r *gpuRun) {
	p := r.Roofline.Point
	unit := roofline.Unit(p.Type)
	fmt.Fprintf(w, "  %s: %s %s/clk (%s G%s/s), %s of its compute ceiling %s %s/clk (busiest pipe)",
		p.Type, formatNumber(p.PerClock), unit, formatNumber(p.Giga), unit, formatPct(100*p.ComputeUse), formatNumber(p.Ceiling), unit)
	for _, c := range r.roofs.Compute {
		if c.Name == p.Roof {
			fmt.Fprintf(w, ", %s of the %s roof (%s %s/clk)", formatPct(100*p.RoofUse), c.Label, formatNumber(c.PerClock), unit)
		}
	}
	fmt.Fprintln(w)
	for _, l := range p.Levels {
		fmt.Fprintf(w, "  %-8s %s %s/B, %s B/clk: %s of its ceiling %s B/clk\n", l.Level, formatNumber(l.Intensity), unit,
			formatNumber(l.BytesPerClock), formatPct(100*l.Use), formatNumber(l.Ceiling))
	}
	fmt.Fprintf(w, "  bound by %s (%s of its ceiling)\n", p.Bound, formatPct(100*p.Use))
}
