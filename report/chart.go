package report

import (
	"bytes"
	"fmt"
	"html/template"
	"image/color"
	"regexp"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart is a drawing placed in the page.
type Chart struct {
	Title string
	// SVG is an <svg> element, written inline so that the page needs no
	// other file.
	SVG template.HTML
	// Key names the chart's lines under it, when the chart has no legend
	// of its own (a legend drawn inside would cover the lines).
	Key []KeyEntry
}

// KeyEntry is one line's name and colour (#rrggbb).
type KeyEntry struct {
	Name   string
	Colour template.CSS
}

// Chart sizes: wide enough to read one alone, scaled down by the page's
// CSS when several stand side by side.
const (
	ChartWidth  = 7 * vg.Inch
	ChartHeight = 4.2 * vg.Inch
)

// svgProlog is what an SVG file has before its element and an HTML page
// must not: the XML declaration and the generator's comment.
var svgProlog = regexp.MustCompile(`(?s)^.*?(<svg\b)`)

// Drawing is what draws itself on a canvas: a *plot.Plot, or a plot with
// more around it (a roofline with its key).
type Drawing interface {
	Draw(draw.Canvas)
}

// PlotSVG draws d as an <svg> element of the given size. Text is set in
// the fonts gonum measured it with where the reader has them, else in the
// browser's sans-serif.
func PlotSVG(d Drawing, w, h vg.Length) (template.HTML, error) {
	c := vgsvg.New(w, h)
	d.Draw(draw.New(c))
	var b bytes.Buffer
	if _, err := c.WriteTo(&b); err != nil {
		return "", fmt.Errorf("report: drawing a chart: %w", err)
	}
	s := svgProlog.ReplaceAllString(b.String(), "$1")
	s = fontFamily.ReplaceAllString(s, "font-family:'$1',Arial,sans-serif;")
	// The page sizes the chart; the viewBox keeps its proportions.
	s = svgSize.ReplaceAllLiteralString(s, `<svg class="chart"`)
	return template.HTML(s), nil //nolint:gosec // made here from gonum's SVG, no user markup
}

var svgSize = regexp.MustCompile(`^<svg width="[0-9.]+pt" height="[0-9.]+pt"`)

var fontFamily = regexp.MustCompile(`font-family:([^;'"]+);`)

// Series is one line of a chart over time.
type Series struct {
	Name   string
	Values []float64
}

// lineColours (Okabe and Ito, colour-blind safe), the first for occupancy.
var lineColours = []color.RGBA{{0, 0, 0, 255}, {0, 114, 178, 255}, {213, 94, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255}, {230, 159, 0, 255}, {86, 180, 233, 255}, {240, 228, 66, 255}}

// TimeChart draws percentages over time: x is each sample's start cycle
// (the last sample ends at end), one line per series, a step per sample.
// The key, for under the chart, gives each series' colour.
func TimeChart(title string, x []float64, end float64, series []Series) (*plot.Plot, []KeyEntry, error) {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "cycle"
	p.Y.Label.Text = "% of capacity"
	p.Y.Min, p.Y.Max = 0, 100
	p.X.Min, p.X.Max = 0, end
	p.X.Tick.Marker = plot.TickerFunc(plainTicks)
	p.Add(plotter.NewGrid())
	var key []KeyEntry
	if len(x) == 0 {
		return p, key, nil
	}
	for i, s := range series {
		// Steps: each sample's value holds over its interval.
		xys := make(plotter.XYs, 0, 2*len(x))
		for k := range x {
			right := end
			if k+1 < len(x) {
				right = x[k+1]
			}
			v := min(max(s.Values[k], 0), 100)
			xys = append(xys, plotter.XY{X: x[k], Y: v}, plotter.XY{X: right, Y: v})
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, nil, fmt.Errorf("report: %s: %w", s.Name, err)
		}
		l.Color = lineColours[i%len(lineColours)]
		l.Width = vg.Points(1.2)
		if i == 0 {
			l.Width = vg.Points(2)
		}
		p.Add(l)
		c := lineColours[i%len(lineColours)]
		key = append(key, KeyEntry{Name: s.Name, Colour: template.CSS(fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B))})
	}
	return p, key, nil
}

// plainTicks marks the cycle axis in whole numbers with k and M suffixes
// (gonum's default writes 1e+06).
func plainTicks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = shortNumber(ticks[i].Value)
		}
	}
	return ticks
}

func shortNumber(v float64) string {
	switch a := max(v, -v); {
	case a >= 1e6:
		return trimZeros(fmt.Sprintf("%.2f", v/1e6)) + "M"
	case a >= 1e3:
		return trimZeros(fmt.Sprintf("%.2f", v/1e3)) + "k"
	}
	return trimZeros(fmt.Sprintf("%.2f", v))
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
