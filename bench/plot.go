package bench

import (
	"fmt"
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Chart sizes: wide enough for a footprint axis from 1 KB to 256 MB.
const (
	chartWidth  = 9 * vg.Inch
	chartHeight = 5 * vg.Inch
)

// palette gives each GPU of a chart its colour (colour-blind-safe, after
// Okabe and Ito).
var palette = []color.RGBA{
	{0, 114, 178, 255},   // blue
	{213, 94, 0, 255},    // vermillion
	{0, 158, 115, 255},   // green
	{204, 121, 167, 255}, // purple
	{230, 159, 0, 255},   // orange
	{86, 180, 233, 255},  // sky
	{0, 0, 0, 255},       // black
}

// dashes tells apart the series of one GPU (float4 and float loads).
var dashes = [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}}

// Plot draws the results of one test, one or several GPUs on one chart.
// It returns nil for tests drawn as tables.
func Plot(results []*Result) (*plot.Plot, error) {
	if len(results) == 0 {
		return nil, fmt.Errorf("no results to plot")
	}
	first := results[0]
	for _, r := range results[1:] {
		if r.Test != first.Test {
			return nil, fmt.Errorf("a chart shows one test: %s and %s given", first.Test, r.Test)
		}
	}
	switch first.Chart {
	case Curve:
		return plotCurve(results)
	case Bars:
		return plotBars(results)
	}
	return nil, nil
}

func newPlot(r *Result) *plot.Plot {
	p := plot.New()
	p.Title.Text = r.Title
	p.Title.TextStyle.Font.Size = vg.Points(14)
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.Padding = vg.Points(4)
	grid := plotter.NewGrid()
	if r.Chart == Bars {
		grid.Vertical.Color = nil
	}
	p.Add(grid)
	return p
}

func yLabel(r *Result) string {
	unit := r.Unit
	if r.PlotNS {
		unit = "ns"
	}
	if unit == "" {
		return r.YLabel
	}
	return fmt.Sprintf("%s (%s)", r.YLabel, unit)
}

func plotCurve(results []*Result) (*plot.Plot, error) {
	r0 := results[0]
	p := newPlot(r0)
	p.X.Label.Text = r0.XLabel
	if r0.XUnit == "B" {
		p.X.Label.Text = r0.XLabel + " (bytes)"
	}
	p.Y.Label.Text = yLabel(r0)
	lo, hi := math.Inf(1), math.Inf(-1)
	entries := 0
	for gi, r := range results {
		for si, s := range r.Series {
			xys := make(plotter.XYs, 0, len(s.Points))
			for _, pt := range s.Points {
				y := pt.Y
				if r.PlotNS && r.ClockMHz > 0 {
					y = pt.Y / r.ClockMHz * 1000
				}
				if r.LogY && y <= 0 {
					continue
				}
				xys = append(xys, plotter.XY{X: pt.X, Y: y})
				lo, hi = math.Min(lo, y), math.Max(hi, y)
			}
			if len(xys) == 0 {
				continue
			}
			line, pts, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			c := palette[gi%len(palette)]
			line.Color = c
			line.Width = vg.Points(2)
			line.Dashes = dashes[si%len(dashes)]
			pts.Color = c
			pts.Shape = draw.CircleGlyph{}
			pts.Radius = vg.Points(2.5)
			p.Add(line, pts)
			p.Legend.Add(s.Name, line, pts)
			entries++
		}
	}
	if r0.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = sizeTicks{bytes: r0.XUnit == "B"}
	} else {
		p.X.Tick.Marker = dataTicks(results)
	}
	// The legend goes where the curves are not: top left when they rise
	// (latency), top right when they fall (bandwidth).
	p.Legend.Left = rising(results)
	if r0.LogY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	} else if !math.IsInf(lo, 0) {
		p.Y.Min = math.Min(0, lo)
		p.Y.Max = headroom(hi, entries)
	}
	return p, nil
}

// headroom is the top of a linear y axis whose highest value is hi, leaving
// the band the legend's entries take at the top of the chart free.
func headroom(hi float64, entries int) float64 {
	const axisPts = 330.0 // the plotting area's height, about
	band := (float64(entries)*16 + 12) / axisPts
	return hi / math.Max(1-band, 0.5)
}

// rising reports whether the curves end higher than they start, on the
// whole.
func rising(results []*Result) bool {
	up := 0
	for _, r := range results {
		for _, s := range r.Series {
			if n := len(s.Points); n > 1 {
				if s.Points[n-1].Y > s.Points[0].Y {
					up++
				} else {
					up--
				}
			}
		}
	}
	return up > 0
}

// dataTicks marks a linear axis at the x values measured.
func dataTicks(results []*Result) plot.ConstantTicks {
	var xs []float64
	for _, r := range results {
		for _, s := range r.Series {
			for _, p := range s.Points {
				if !slices.Contains(xs, p.X) {
					xs = append(xs, p.X)
				}
			}
		}
	}
	slices.Sort(xs)
	var ticks plot.ConstantTicks
	for _, x := range xs {
		ticks = append(ticks, plot.Tick{Value: x, Label: trimFloat(x)})
	}
	return ticks
}

// sizeTicks marks a log axis at powers of two, labelled every second or
// fourth power so that they do not crowd: 1 KB, 4 KB, 16 KB ... for bytes.
type sizeTicks struct{ bytes bool }

func (t sizeTicks) Ticks(min, max float64) []plot.Tick {
	var ticks []plot.Tick
	lo := math.Floor(math.Log2(min))
	hi := math.Ceil(math.Log2(max))
	step := 1.0
	if hi-lo > 12 {
		step = 2
	}
	for e := lo; e <= hi; e++ {
		v := math.Exp2(e)
		if v < min*0.999 || v > max*1.001 {
			continue
		}
		label := ""
		if math.Mod(e-lo, step) == 0 {
			if t.bytes {
				label = sizeLabel(v)
			} else {
				label = trimFloat(v)
			}
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: label})
	}
	return ticks
}

func plotBars(results []*Result) (*plot.Plot, error) {
	r0 := results[0]
	p := newPlot(r0)
	p.Y.Label.Text = yLabel(r0)
	// Categories in the order they first appear.
	var labels []string
	for _, r := range results {
		for _, s := range r.Series {
			for _, pt := range s.Points {
				if !slices.Contains(labels, pt.Label) {
					labels = append(labels, pt.Label)
				}
			}
		}
	}
	var groups []Series
	for _, r := range results {
		groups = append(groups, r.Series...)
	}
	n := len(groups)
	if len(labels) == 1 && n > 1 {
		return plotOneBarEach(p, groups)
	}
	width := vg.Points(math.Min(36, 440/float64(max(1, len(labels)*n))))
	for gi, s := range groups {
		vals := make(plotter.Values, len(labels))
		for _, pt := range s.Points {
			vals[slices.Index(labels, pt.Label)] = pt.Y
		}
		b, err := plotter.NewBarChart(vals, width)
		if err != nil {
			return nil, err
		}
		c := palette[gi%len(palette)]
		b.Color = c
		b.LineStyle.Width = 0
		b.Offset = vg.Length(float64(gi)-float64(n-1)/2) * width
		p.Add(b)
		p.Legend.Add(s.Name, b)
	}
	top := 0.0
	for _, s := range groups {
		for _, pt := range s.Points {
			top = math.Max(top, pt.Y)
		}
	}
	p.Y.Max = headroom(top, n)
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.6, float64(len(labels))-0.4
	if len(labels) > 4 {
		p.X.Tick.Label.Rotation = math.Pi / 5
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YCenter
	}
	p.Y.Min = 0
	return p, nil
}

// plotOneBarEach draws a single measurement per series as one bar per
// series, named on the axis.
func plotOneBarEach(p *plot.Plot, groups []Series) (*plot.Plot, error) {
	var names []string
	top := 0.0
	for gi, s := range groups {
		vals := make(plotter.Values, len(groups))
		vals[gi] = s.Points[0].Y
		top = math.Max(top, s.Points[0].Y)
		b, err := plotter.NewBarChart(vals, vg.Points(60))
		if err != nil {
			return nil, err
		}
		b.Color = palette[gi%len(palette)]
		b.LineStyle.Width = 0
		p.Add(b)
		names = append(names, s.Name)
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4
	p.Y.Min, p.Y.Max = 0, top*1.1
	return p, nil
}
