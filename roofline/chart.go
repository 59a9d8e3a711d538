package roofline

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart size.
const (
	chartWidth  = 8 * vg.Inch
	chartHeight = 5.5 * vg.Inch
)

// colours (Okabe and Ito, colour-blind safe): compute roofs, memory roofs
// and points.
var (
	computeColour = color.RGBA{0, 114, 178, 255}
	memoryColours = []color.RGBA{{213, 94, 0, 255}, {230, 159, 0, 255}, {204, 121, 167, 255}, {0, 158, 115, 255}, {86, 180, 233, 255}, {0, 0, 0, 255}}
	pointColours  = []color.RGBA{{0, 0, 0, 255}, {0, 158, 115, 255}, {204, 121, 167, 255}, {230, 159, 0, 255}, {86, 180, 233, 255}}
)

// levelShapes tell the levels' points apart.
var levelShapes = map[string]draw.GlyphDrawer{
	Local: draw.RingGlyph{}, L1: draw.CircleGlyph{}, Texture: draw.PyramidGlyph{}, L2: draw.SquareGlyph{}, SLC: draw.CrossGlyph{}, DRAM: draw.TriangleGlyph{},
}

// levelLabel names a level beside its point.
var levelLabel = map[string]string{Local: "local", L1: "L1", Texture: "tex", L2: "L2", SLC: "SLC", DRAM: "DRAM"}

// Figure is a roofline plot with its key under it — the compute and the
// memory roofs side by side, the kernels under both: a key inside the plot
// covers roofs wherever it goes, since they cross the whole plot.
type Figure struct {
	Plot                    *plot.Plot
	Compute, Memory, Points plot.Legend
}

// keyGap is the space between the plot and its key, and around the key.
const keyGap = 8 * vg.Millimeter / 2

// KeyHeight is the height the key takes under the plot.
func (f *Figure) KeyHeight() vg.Length {
	return f.rooflines() + keyGap + height(&f.Points) + 2*keyGap
}

// rooflines is the height of the key's roof columns.
func (f *Figure) rooflines() vg.Length { return max(height(&f.Compute), height(&f.Memory)) }

func height(l *plot.Legend) vg.Length {
	r := l.Rectangle(draw.Canvas{})
	return r.Max.Y - r.Min.Y
}

// Draw draws the plot on top of c and the key below it.
func (f *Figure) Draw(c draw.Canvas) {
	kh := f.KeyHeight()
	top := c
	top.Min.Y += kh
	f.Plot.Draw(top)
	key := c
	key.Max.Y = c.Min.Y + kh - keyGap
	key.Min.X += keyGap
	half := (key.Max.X - key.Min.X) / 2
	left, right, below := key, key, key
	left.Max.X = key.Min.X + half
	right.Min.X = key.Min.X + half
	below.Max.Y = key.Max.Y - f.rooflines() - keyGap
	f.Compute.Draw(left)
	f.Memory.Draw(right)
	f.Points.Draw(below)
}

// Title is the plot's title.
func (f *Figure) Title() string { return f.Plot.Title.Text }

func newKey() plot.Legend {
	l := plot.NewLegend()
	l.Top, l.Left = true, true
	l.Padding = vg.Points(3)
	return l
}

// Chart draws the roofs of the points' type and each point at every memory
// level it touched (one marker shape per level). The points must be on
// r's GPU; they are drawn in the units of the first point's type.
func (r *Roofs) Chart(points []Point) (*Figure, error) {
	if len(points) == 0 {
		return nil, fmt.Errorf("roofline: no kernel to draw")
	}
	typ := points[0].Type
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Roofline: %s", r.GPU)
	p.X.Label.Text = fmt.Sprintf("arithmetic intensity (%s/byte)", Unit(typ))
	p.Y.Label.Text = fmt.Sprintf("performance (G%s/s)", Unit(typ))
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	f := &Figure{Plot: p, Compute: newKey(), Memory: newKey(), Points: newKey()}
	p.Add(plotter.NewGrid())

	// The x range covers the ridge points and the points, with margins.
	var top float64
	var roofs []Roof
	for _, c := range r.Compute {
		if c.Type == typ {
			roofs = append(roofs, c)
			top = math.Max(top, c.Giga)
		}
	}
	if top == 0 {
		return nil, fmt.Errorf("roofline: %s has no %s roof", r.GPU, typ)
	}
	xmin, xmax := math.Inf(1), 0.0
	for _, m := range r.Memory {
		ridge := top / m.Giga
		xmin, xmax = math.Min(xmin, ridge), math.Max(xmax, ridge)
	}
	for _, pt := range points {
		for _, l := range pt.Levels {
			if l.Intensity > 0 {
				xmin, xmax = math.Min(xmin, l.Intensity), math.Max(xmax, l.Intensity)
			}
		}
	}
	if math.IsInf(xmin, 1) {
		xmin, xmax = 0.01, 100
	}
	xmin, xmax = pow10Below(xmin/4), pow10Above(xmax*4)
	ymin := math.Inf(1)
	for _, m := range r.Memory {
		ymin = math.Min(ymin, m.Giga*xmin)
	}
	for _, pt := range points {
		if pt.Giga > 0 {
			ymin = math.Min(ymin, pt.Giga)
		}
	}
	p.X.Min, p.X.Max = xmin, xmax
	p.Y.Min, p.Y.Max = pow10Below(ymin/2), pow10Above(top*2)

	for i, c := range roofs {
		// A compute roof runs from where the fastest memory roof meets it.
		start := xmin
		if len(r.Memory) > 0 {
			start = c.Giga / r.Memory[0].Giga
		}
		l, err := plotter.NewLine(plotter.XYs{{X: math.Max(start, xmin), Y: c.Giga}, {X: xmax, Y: c.Giga}})
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = computeColour, vg.Points(2)
		if i > 0 {
			l.Dashes = []vg.Length{vg.Points(6), vg.Points(3)}
		}
		p.Add(l)
		f.Compute.Add(fmt.Sprintf("%s %.4g G%s/s", c.Label, c.Giga, Unit(typ)), l)
	}
	dashes := [][]vg.Length{nil, {vg.Points(6), vg.Points(3)}, {vg.Points(2), vg.Points(2)}, {vg.Points(8), vg.Points(2), vg.Points(2), vg.Points(2)}, {vg.Points(1), vg.Points(3)}}
	for i, m := range r.Memory {
		// A memory roof rises to the highest compute roof.
		l, err := plotter.NewLine(plotter.XYs{{X: xmin, Y: m.Giga * xmin}, {X: top / m.Giga, Y: top}})
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = memoryColours[i%len(memoryColours)], vg.Points(1.5)
		l.Dashes = dashes[i%len(dashes)]
		p.Add(l)
		f.Memory.Add(fmt.Sprintf("%s %.4g GB/s", m.Label, m.Giga), l)
	}
	for i, pt := range points {
		var xys, at plotter.XYs
		var shapes []draw.GlyphDrawer
		var names []string
		for _, l := range pt.Levels {
			if l.Intensity <= 0 || pt.Giga <= 0 {
				continue
			}
			xy := plotter.XY{X: l.Intensity, Y: pt.Giga}
			xys = append(xys, xy)
			shapes = append(shapes, levelShapes[l.Level])
			// Levels at (nearly) the same intensity share one label.
			if n := len(at); n > 0 && math.Abs(math.Log10(at[n-1].X/xy.X)) < 0.15 {
				names[n-1] += ", " + levelLabel[l.Level]
				continue
			}
			at = append(at, xy)
			names = append(names, levelLabel[l.Level])
		}
		if len(xys) == 0 {
			continue
		}
		labels, err := plotter.NewLabels(plotter.XYLabels{XYs: at, Labels: names})
		if err != nil {
			return nil, err
		}
		for i := range labels.TextStyle {
			// Above and below the markers in turn, so that the labels of
			// nearby levels do not run into each other.
			labels.TextStyle[i].XAlign, labels.TextStyle[i].YAlign = draw.XLeft, draw.YBottom
			if i%2 == 1 {
				labels.TextStyle[i].YAlign = draw.YTop
			}
		}
		labels.Offset = vg.Point{X: vg.Points(5)}
		p.Add(labels)
		s, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		col := pointColours[i%len(pointColours)]
		s.GlyphStyleFunc = func(k int) draw.GlyphStyle {
			return draw.GlyphStyle{Color: col, Radius: vg.Points(4), Shape: shapes[k]}
		}
		p.Add(s)
		what := "measured"
		if !pt.Measured {
			what = "predicted"
		}
		f.Points.Add(fmt.Sprintf("%s (%s, a marker at each level it used): %.4g G%s/s", pt.Kernel, what, pt.Giga, Unit(pt.Type)), s)
	}
	return f, nil
}

// Save writes the chart to path, PNG or SVG by its extension.
func (r *Roofs) Save(path string, points []Point) error {
	if err := CheckChartPath(path); err != nil {
		return err
	}
	f, err := r.Chart(points)
	if err != nil {
		return err
	}
	h := chartHeight + f.KeyHeight()
	var c vg.CanvasWriterTo
	if strings.EqualFold(filepath.Ext(path), ".svg") {
		c = vgsvg.New(chartWidth, h)
	} else {
		c = vgimg.PngCanvas{Canvas: vgimg.New(chartWidth, h)}
	}
	f.Draw(draw.New(c))
	out, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("roofline chart: %w", err)
	}
	if _, err := c.WriteTo(out); err != nil {
		out.Close()
		return fmt.Errorf("roofline chart: %w", err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("roofline chart: %w", err)
	}
	return nil
}

// CheckChartPath refuses a chart file name that is neither .png nor .svg,
// or whose directory does not exist.
func CheckChartPath(path string) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png", ".svg":
	default:
		return fmt.Errorf("roofline chart %q: the file must end in .png or .svg", path)
	}
	if dir := filepath.Dir(path); dir != "." {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fmt.Errorf("roofline chart %q: directory %s does not exist", path, dir)
		}
	}
	return nil
}

func pow10Below(v float64) float64 { return math.Pow(10, math.Floor(math.Log10(v))) }
func pow10Above(v float64) float64 { return math.Pow(10, math.Ceil(math.Log10(v))) }
