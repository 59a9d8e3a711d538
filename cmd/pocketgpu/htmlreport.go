package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"html/template"
	"image"
	"image/png"
	"runtime/debug"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/counters"
	"github.com/pocketgpu/pocketgpu/report"
	"github.com/pocketgpu/pocketgpu/roofline"
)

// run --html: the runs as one page (package report), a column per GPU.

// runReport is what the page is made from.
type runReport struct {
	command string
	job     *Job
	gpus    []*arch.GPU
	runs    []*gpuRun
	// spvFor is the module each GPU ran (by whether it lacks fp64), for
	// the static analysis.
	spvFor map[bool][]byte
}

// writeRunReport writes dir/index.html and returns its path.
func writeRunReport(dir string, rr *runReport) (string, error) {
	j := rr.job
	page := &report.Page{
		Title:   "pocketgpu run: " + j.Kernel,
		Intro:   "A kernel run on simulated GPUs: what it did, how busy the cores and pipes were over time, where it sits on each GPU's roofline, which source lines cost the cycles, what the static analysis predicted, and every counter.",
		Command: rr.command,
		Footer:  "Written by pocketgpu " + reportVersion() + ". Self-contained: this file needs nothing beside it.",
	}
	var sets []counters.Set
	for _, r := range rr.runs {
		page.Columns = append(page.Columns, r.GPU)
		sets = append(sets, r.Counters)
	}
	page.Summary = runSummary(rr.runs)
	for _, r := range rr.runs {
		if r.timeline != nil {
			c, err := timelineChart(r)
			if err != nil {
				return "", err
			}
			page.Timeline = append(page.Timeline, c)
		}
	}
	if len(page.Timeline) > 0 {
		page.TimelineNote = "Occupancy: resident warps over the warps the cores can hold for this kernel, averaged over the cores. Issue and pipes: busy cycles over the engines' cycles, each interval holding the groups issued in it."
	}
	for _, r := range rr.runs {
		if r.Roofline == nil {
			continue
		}
		pl, err := r.roofs.Chart([]roofline.Point{r.Roofline.Point})
		if err != nil {
			return "", err
		}
		svg, err := report.PlotSVG(pl, report.ChartWidth, report.ChartHeight+pl.KeyHeight())
		if err != nil {
			return "", err
		}
		page.Roofline = append(page.Roofline, report.Chart{Title: r.GPU, SVG: svg})
		var b bytes.Buffer
		writeRooflinePoint(&b, r)
		page.RooflineText = append(page.RooflineText, b.String())
	}
	for _, r := range rr.runs {
		if r.profile == nil {
			continue
		}
		p := r.profile
		h := report.Hotspots{Column: r.GPU, Summary: fmt.Sprintf("%s: %s engine cycles charged (issue %s, stalls %s), %s memory requests; %d lanes per warp.",
			p.Kernel, formatNumber(p.Total.Cycles()), formatNumber(p.Total.IssueCycles), formatNumber(p.Total.Stalls()), formatNumber(float64(p.Total.Requests)), r.WarpWidth)}
		if p.HasLines {
			h.Files = hotspotFiles(p, j.Kernel)
		} else {
			var b bytes.Buffer
			writeInstructionHotspots(&b, p, p.Total.Cycles())
			h.Plain = b.String()
		}
		page.Hotspots = append(page.Hotspots, h)
	}
	page.Analysis, page.AnalysisNote = staticAnalysis(rr)
	page.Counters = report.CounterGroups(counters.Kernel, sets, "cycles", "time_ns")
	return report.Write(dir, page)
}

// runSummary is the run table's rows, as `run` prints them, without the
// host's time (the page is the same for the same run).
func runSummary(runs []*gpuRun) []report.Row {
	var rows []report.Row
	row := func(label string, f func(r *gpuRun) string) {
		v := make([]string, len(runs))
		for i, r := range runs {
			v[i] = f(r)
		}
		rows = append(rows, report.Row{Label: label, Values: v})
	}
	row("kernel", func(r *gpuRun) string { return r.Entry })
	row("status", func(r *gpuRun) string {
		if r.Partial != "" {
			return "PARTIAL: " + r.Partial
		}
		return "complete"
	})
	row("global", func(r *gpuRun) string { return sizeString(dims3(r.Global), len(r.Global)) })
	row("local", func(r *gpuRun) string { return sizeString(dims3(r.Local), len(r.Local)) })
	row("warp width", func(r *gpuRun) string { return fmt.Sprint(r.WarpWidth) })
	row("registers/thread (est.)", func(r *gpuRun) string { return fmt.Sprint(r.RegistersPerThread) })
	row("work-groups", func(r *gpuRun) string { return fmt.Sprint(r.Workgroups) })
	row("warps", func(r *gpuRun) string { return fmt.Sprint(r.Warps) })
	row("warp instructions", func(r *gpuRun) string { return fmt.Sprint(r.WarpInstructions) })
	row("cycles", func(r *gpuRun) string { return fmt.Sprintf("%.0f", r.Cycles) })
	row("time", func(r *gpuRun) string { return fmt.Sprintf("%.3f us at %g MHz", r.TimeNS/1000, r.ClockMHz) })
	for _, name := range []string{"occupancy_avg_pct", "issue_utilization_pct", "alu_capacity_used_pct", "dram_read_bytes", "dram_write_bytes", "dram_utilization_pct"} {
		row(name, func(r *gpuRun) string {
			for _, it := range r.Counters {
				if it.Name == name {
					return counters.Format(it.Unit, it.Value)
				}
			}
			return "-"
		})
	}
	row("bound by (roofline)", func(r *gpuRun) string {
		if r.Roofline == nil {
			return "-"
		}
		p := r.Roofline.Point
		return fmt.Sprintf("%s (%s of its ceiling)", p.Bound, formatPct(100*p.Use))
	})
	return rows
}

// timelineChart draws one run's occupancy, issue and pipe use over time.
func timelineChart(r *gpuRun) (report.Chart, error) {
	tl := r.timeline
	x := make([]float64, len(tl.Samples))
	occ := report.Series{Name: "occupancy", Values: make([]float64, len(x))}
	issue := report.Series{Name: "issue", Values: make([]float64, len(x))}
	pipes := make([]report.Series, len(tl.Pipes))
	for p, name := range tl.Pipes {
		pipes[p] = report.Series{Name: "pipe " + name, Values: make([]float64, len(x))}
	}
	end := 0.0
	for i := range tl.Samples {
		s := &tl.Samples[i]
		x[i] = s.Start
		end = s.Start + s.Cycles
		occ.Values[i] = tl.Occupancy(s)
		issue.Values[i] = tl.Utilization(s, s.Issue)
		for p := range pipes {
			pipes[p].Values[i] = tl.Utilization(s, s.PipeBusy[p])
		}
	}
	title := fmt.Sprintf("%s: %d samples of %s cycles", r.GPU, len(x), formatNumber(tl.Interval))
	pl, key, err := report.TimeChart(title, x, end, append([]report.Series{occ, issue}, pipes...))
	if err != nil {
		return report.Chart{}, err
	}
	svg, err := report.PlotSVG(pl, report.ChartWidth, report.ChartHeight)
	if err != nil {
		return report.Chart{}, err
	}
	return report.Chart{Title: r.GPU, SVG: svg, Key: key}, nil
}

// staticAnalysis is `pocketgpu analyze`'s text for the module the runs
// ran, with a note; when the analysis fails the note says why.
func staticAnalysis(rr *runReport) (string, string) {
	j := rr.job
	text, err := analyzeText(rr.gpus[:len(rr.runs)], rr.spvFor, j.Entry, j.Spec, j.WarpWidth)
	if err != nil {
		return "", "The static analysis failed: " + err.Error()
	}
	return text, "What `pocketgpu analyze` predicts for the same module without running it: registers, occupancy, and each pipe's cycles per warp along the shortest and longest paths."
}

// reportVersion names the build in a report's footer: the module version
// and, when the toolchain stamped it, the revision.
func reportVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	v := info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

// render --html: the frames as one page, a column per frame.

// frameFigures are a frame's image and its cycles heatmap as PNG data
// URIs.
func frameFigures(frame int, img, heat image.Image) ([]report.Figure, error) {
	var out []report.Figure
	for _, f := range []struct {
		title string
		img   image.Image
	}{{fmt.Sprintf("frame %d", frame), img}, {fmt.Sprintf("frame %d: engine cycles per tile", frame), heat}} {
		var b bytes.Buffer
		if err := png.Encode(&b, f.img); err != nil {
			return nil, fmt.Errorf("--html: %w", err)
		}
		out = append(out, report.Figure{Title: f.title, Alt: f.title, Src: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes()))}) //nolint:gosec // our own PNG
	}
	return out, nil
}

// writeRenderReport writes the frames' page to dir/index.html.
func writeRenderReport(dir, command string, rep renderReport) (string, error) {
	page := &report.Page{
		Title:   fmt.Sprintf("pocketgpu render: %s on %s", rep.Scene, rep.GPU),
		Intro:   "A scene rendered on a simulated GPU: each frame with its engine cycles per tile, and every counter of the frame and of the timing engine that ran its shaders.",
		Command: command,
		Figures: rep.figures,
		Footer:  "Written by pocketgpu " + reportVersion() + ". Self-contained: this file needs nothing beside it.",
	}
	var frames, engine []counters.Set
	for _, f := range rep.Frames {
		page.Columns = append(page.Columns, fmt.Sprintf("frame %d", f.Frame))
		frames = append(frames, f.Counters)
		engine = append(engine, f.Engine)
	}
	same := func(label, v string) report.Row {
		r := report.Row{Label: label}
		for range rep.Frames {
			r.Values = append(r.Values, v)
		}
		return r
	}
	page.Summary = []report.Row{
		same("GPU", rep.GPU), same("scene", rep.Scene), same("size", fmt.Sprintf("%dx%d", rep.Width, rep.Height)),
		same("mode", rep.Mode), same("colour layout", rep.Layout), same("clock", fmt.Sprintf("%g MHz", rep.Clock)),
	}
	if rep.Partial != "" {
		page.Summary = append(page.Summary, same("status", "PARTIAL: "+rep.Partial))
	}
	page.Counters = report.CounterGroups(counters.Frame, frames)
	for _, g := range report.CounterGroups(counters.Kernel, engine) {
		g.Title = "Timing engine: " + g.Title
		page.Counters = append(page.Counters, g)
	}
	return report.Write(dir, page)
}
