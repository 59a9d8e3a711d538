// Package report writes what a probe measured: a text summary, the
// measurements as JSON, and the charts of the sweeps with the levels fitted
// to them (drawn by bench's chart code, so that they look like bench's).
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"gonum.org/v1/plot/vg"

	"github.com/pocketgpu/pocketgpu/bench"
	"github.com/pocketgpu/pocketgpu/probe"
)

// levelName names the i-th level of n (the last is memory).
func levelName(i, n int) string {
	if i == n-1 {
		return "beyond"
	}
	return fmt.Sprintf("level %d", i+1)
}

func size(b int) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(b)/(1<<20))
	case b%1024 == 0:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%.1f KiB", float64(b)/1024)
}

// Text writes the summary: the device, the warp width, each level, the
// rates, and what could not be measured.
func Text(w io.Writer, res *probe.Result) error {
	in := res.Device
	fmt.Fprintf(w, "device        %s (%s, %s)\n", in.Name, in.Vendor, in.Platform)
	fmt.Fprintf(w, "reported      %d MHz, %d compute units, work-groups up to %d, %s of local memory\n", in.ClockMHz, in.ComputeUnits, in.MaxWorkGroup, size(in.LocalMemBytes))
	if res.WarpWidth > 0 {
		fmt.Fprintf(w, "warp width    %d (divergence test)\n", res.WarpWidth)
	}
	if cs := res.Caches; cs != nil {
		fmt.Fprintf(w, "\n%-9s %12s %6s %6s %10s\n", "LEVEL", "SIZE", "LINE", "WAYS", "LATENCY")
		for i, lv := range cs.Levels {
			sz, line, ways := "-", "-", "-"
			if lv.SizeBytes > 0 {
				sz = size(lv.SizeBytes)
			}
			if lv.LineBytes > 0 {
				line = fmt.Sprintf("%d B", lv.LineBytes)
			}
			if lv.Ways > 0 {
				ways = fmt.Sprint(lv.Ways)
			} else if i < len(cs.Levels)-1 {
				ways = "?"
			}
			fmt.Fprintf(w, "%-9s %12s %6s %6s %6.1f clk %7.1f ns\n", levelName(i, len(cs.Levels)), sz, line, ways, lv.Latency, lv.LatencyNS)
		}
	}
	if len(res.Rates) > 0 {
		fmt.Fprintf(w, "\n%-10s %10s  %s\n", "RATE", "PER CLOCK", "KERNEL")
		for _, r := range res.Rates {
			v := "-"
			if r.PerClock > 0 {
				v = fmt.Sprintf("%.1f", r.PerClock)
			}
			fmt.Fprintf(w, "%-10s %10s  %s\n", r.Name, v, r.Note)
		}
	}
	if len(res.Bandwidth) > 0 {
		fmt.Fprintf(w, "\n%-16s %12s %12s %10s\n", "READ BANDWIDTH", "FOOTPRINT", "BYTES/CLK", "GB/S")
		for _, bw := range res.Bandwidth {
			fmt.Fprintf(w, "%-16s %12s %12.1f %10.2f\n", bw.Level, size(bw.Footprint), bw.BytesPerClock, bw.BytesPerClock*float64(in.ClockMHz)/1000)
		}
	}
	if lm := res.Local; lm != nil {
		fmt.Fprintf(w, "\nlocal memory  %.1f bytes/clk (stride 1); time at word strides:", lm.BytesPerClock)
		for _, pt := range lm.Strides {
			fmt.Fprintf(w, " %g:%.2f×", pt.X, pt.Y)
		}
		fmt.Fprintln(w)
	}
	if cs := res.Texture; cs != nil {
		if len(cs.Levels) > 1 {
			lv := cs.Levels[0]
			fmt.Fprintf(w, "\ntexture cache %s, %d B lines, %d ways, %.1f clk (read_imageui chase); beyond it %.1f clk\n", size(lv.SizeBytes), lv.LineBytes, lv.Ways, lv.Latency, cs.Levels[1].Latency)
		} else {
			fmt.Fprintf(w, "\ntexture cache not found: the read_imageui chase shows no knee\n")
		}
	}
	if sw := res.Registers; sw != nil && len(sw.Points) > 0 {
		first, last := sw.Points[0], sw.Points[len(sw.Points)-1]
		if len(sw.Steps) == 0 {
			fmt.Fprintf(w, "\nregisters     no occupancy steps from %d to %d live values per work-item: %d to %d work-items resident (registers do not limit residency here)\n", first.Values, last.Values, first.Resident, last.Resident)
		} else {
			fmt.Fprintf(w, "\nregisters     work-items resident (work-groups of %d): %d up to %d live values", sw.WorkGroup, first.Resident, probe.BeforeFirstStep(sw))
			for _, st := range sw.Steps {
				fmt.Fprintf(w, ", %d from %d", st.Resident, st.Values)
			}
			fmt.Fprintln(w)
		}
	}
	fmt.Fprintf(w, "\nnot measured: write bandwidth, atomics, instruction cache (docs/probe.md says why)\n")
	return nil
}

// JSON writes the measurements.
func JSON(w io.Writer, res *probe.Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// Charts builds the charts as bench results: latency against footprint
// with the fitted levels, line and ways sweeps, the warp test, the rates
// and the grid search.
func Charts(res *probe.Result) []*bench.Result {
	gpu := res.Device.Name
	clk := float64(res.Device.ClockMHz)
	var out []*bench.Result
	curve := func(test, title, xl, xu, yl, unit string, logX bool) *bench.Result {
		r := &bench.Result{Test: test, GPU: gpu, Title: title, Chart: bench.Curve, XLabel: xl, XUnit: xu, YLabel: yl, Unit: unit, ClockMHz: clk, LogX: logX}
		out = append(out, r)
		return r
	}
	pts := func(ps []probe.Point) []bench.Point {
		o := make([]bench.Point, len(ps))
		for i, p := range ps {
			o[i] = bench.Point{X: p.X, Y: p.Y}
		}
		return o
	}
	if cs := res.Caches; cs != nil && len(cs.Footprint) > 0 {
		r := curve("probe-latency", "Pointer-chase latency and the levels fitted to it — "+gpu, "footprint", "B", "latency", "cycles", true)
		r.Series = append(r.Series, bench.Series{Name: "measured", Points: pts(cs.Footprint)})
		r.Series = append(r.Series, bench.Series{Name: "fitted levels", Points: fitted(cs)})
		for i := range cs.Levels[:len(cs.Levels)-1] {
			if len(cs.Line[i]) > 0 {
				rl := curve(fmt.Sprintf("probe-line-%d", i+1), fmt.Sprintf("Line size of level %d: latency against stride — %s", i+1, gpu), "stride", "B", "latency", "cycles", true)
				rl.Series = []bench.Series{{Name: fmt.Sprintf("level %d (line %d B)", i+1, cs.Levels[i].LineBytes), Points: pts(cs.Line[i])}}
			}
			if len(cs.Ways[i]) > 0 {
				rw := curve(fmt.Sprintf("probe-ways-%d", i+1), fmt.Sprintf("Associativity of level %d: lines in one set — %s", i+1, gpu), "lines one way-size apart", "", "latency", "cycles", false)
				rw.Series = []bench.Series{{Name: fmt.Sprintf("level %d (%d ways)", i+1, cs.Levels[i].Ways), Points: pts(cs.Ways[i])}}
			}
		}
	}
	if len(res.Warp) > 0 {
		r := curve("probe-warp", "Divergence: cycles against the width of uniform runs — "+gpu, "work-items per run", "", "cycles", "cycles", true)
		r.Series = []bench.Series{{Name: fmt.Sprintf("warp width %d", res.WarpWidth), Points: pts(res.Warp)}}
	}
	if len(res.RateGrid) > 0 {
		r := curve("probe-grid", "FP32 multiply-add rate against the grid — "+gpu, "work-items", "", "rate", "ops/clk", true)
		r.Series = []bench.Series{{Name: "fp32_mad", Points: pts(res.RateGrid)}}
	}
	if len(res.Bandwidth) > 0 {
		r := &bench.Result{Test: "probe-bandwidth", GPU: gpu, Title: "Read bandwidth per level — " + gpu, Chart: bench.Bars, YLabel: "bytes per clock", Unit: "B/clk", ClockMHz: clk}
		var bp []bench.Point
		for _, bw := range res.Bandwidth {
			bp = append(bp, bench.Point{Label: fmt.Sprintf("%s (%s)", bw.Level, size(bw.Footprint)), Y: bw.BytesPerClock})
		}
		r.Series = []bench.Series{{Name: gpu, Points: bp}}
		out = append(out, r)
	}
	if lm := res.Local; lm != nil && len(lm.Strides) > 0 {
		r := curve("probe-local", "Local memory: time against the words a warp's lanes are apart — "+gpu, "stride (32-bit words)", "", "time relative to stride 1", "", true)
		r.Series = []bench.Series{{Name: fmt.Sprintf("%.1f B/clk at stride 1", lm.BytesPerClock), Points: pts(lm.Strides)}}
	}
	if cs := res.Texture; cs != nil && len(cs.Footprint) > 0 {
		r := curve("probe-texture", "Texture-path chase (read_imageui) and the levels fitted to it — "+gpu, "footprint", "B", "latency", "cycles", true)
		r.Series = append(r.Series, bench.Series{Name: "measured", Points: pts(cs.Footprint)})
		r.Series = append(r.Series, bench.Series{Name: "fitted levels", Points: fitted(cs)})
	}
	if sw := res.Registers; sw != nil && len(sw.Points) > 0 {
		r := curve("probe-registers", "Register occupancy: work-items resident against the values each keeps live — "+gpu, "live 32-bit values per work-item", "", "work-items resident", "", false)
		var rp, wp []bench.Point
		for _, p := range sw.Points {
			rp = append(rp, bench.Point{X: float64(p.Values), Y: float64(p.Resident)})
			wp = append(wp, bench.Point{X: float64(p.Values), Y: float64(p.KernelWorkSize)})
		}
		r.Series = []bench.Series{{Name: fmt.Sprintf("resident, device-wide (work-groups of %d)", sw.WorkGroup), Points: rp}, {Name: "CL_KERNEL_WORK_GROUP_SIZE", Points: wp}}
	}
	if len(res.Rates) > 0 {
		r := &bench.Result{Test: "probe-rates", GPU: gpu, Title: "ALU rates per clock — " + gpu, Chart: bench.Bars, YLabel: "operations per clock", Unit: "ops/clk", ClockMHz: clk}
		var bp []bench.Point
		for _, x := range res.Rates {
			if x.PerClock > 0 {
				bp = append(bp, bench.Point{Label: x.Name, Y: x.PerClock})
			}
		}
		r.Series = []bench.Series{{Name: gpu, Points: bp}}
		out = append(out, r)
	}
	return out
}

// fitted is the levels as a step curve over the sweep's footprints.
func fitted(cs *probe.CacheSweep) []bench.Point {
	lo, hi := cs.Footprint[0].X, cs.Footprint[len(cs.Footprint)-1].X
	var o []bench.Point
	x := lo
	for i, lv := range cs.Levels {
		end := hi
		if i < len(cs.Levels)-1 && lv.SizeBytes > 0 {
			end = math.Min(float64(lv.SizeBytes), hi)
		}
		o = append(o, bench.Point{X: x, Y: lv.Latency}, bench.Point{X: end, Y: lv.Latency})
		x = end
	}
	return o
}

// Write writes report.txt, probe.json and the charts (PNG and SVG) to dir
// and returns the files written.
func Write(dir string, res *probe.Result) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	var files []string
	for _, out := range []struct {
		name string
		fn   func(io.Writer, *probe.Result) error
	}{{"report.txt", Text}, {"probe.json", JSON}} {
		name, fn := out.name, out.fn
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			return files, err
		}
		err = fn(f, res)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return files, fmt.Errorf("%s: %w", path, err)
		}
		files = append(files, path)
	}
	for _, r := range Charts(res) {
		p, err := bench.Plot([]*bench.Result{r})
		if err != nil {
			return files, fmt.Errorf("chart %s: %w", r.Test, err)
		}
		for _, ext := range []string{".png", ".svg"} {
			f := filepath.Join(dir, r.Test+ext)
			if err := p.Save(9*vg.Inch, 5*vg.Inch, f); err != nil {
				return files, fmt.Errorf("chart %s: %w", r.Test, err)
			}
			files = append(files, f)
		}
	}
	return files, nil
}
