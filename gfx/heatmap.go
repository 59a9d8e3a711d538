package gfx

import (
	"image"
	"image/color"
	"math"
)

// HeatmapKind is a per-tile figure drawn as a heatmap.
type HeatmapKind int

const (
	HeatPrims  HeatmapKind = iota // primitives handed to each tile (bin, cell)
	HeatCycles                    // fragment cycles spent on each tile
	HeatTE                        // tiles written (red) and eliminated by CRC (green)
)

// HeatmapNames are the file-name stems of the heatmaps.
var HeatmapNames = map[HeatmapKind]string{HeatPrims: "prims", HeatCycles: "cycles", HeatTE: "te"}

// ramp maps 0..1 to black, blue, red, yellow, white.
func ramp(v float64) color.NRGBA {
	stops := [][3]float64{{0, 0, 0}, {0.1, 0.2, 0.9}, {0.9, 0.1, 0.1}, {1, 0.85, 0.1}, {1, 1, 1}}
	v = math.Min(math.Max(v, 0), 1) * float64(len(stops)-1)
	i := min(int(v), len(stops)-2)
	f := v - float64(i)
	var c [3]uint8
	for k := 0; k < 3; k++ {
		c[k] = uint8(math.Round(255 * (stops[i][k] + f*(stops[i+1][k]-stops[i][k]))))
	}
	return color.NRGBA{c[0], c[1], c[2], 255}
}

// Heatmap draws a per-tile figure over a dimmed copy of the frame: each
// tile (bin, 16×16 cell) filled with its value on a black-blue-red-yellow-
// white scale from 0 to the frame's largest value; for HeatTE, written
// tiles red, eliminated ones green (grey when the path has no CRCs).
func (f *Frame) Heatmap(kind HeatmapKind) *image.NRGBA {
	b := f.Image.Bounds()
	out := image.NewNRGBA(b)
	g := f.Tiles
	if g.X == 0 || g.Y == 0 {
		return out
	}
	vals := make([]float64, g.X*g.Y)
	maxV := 0.0
	for i := range vals {
		switch kind {
		case HeatPrims:
			vals[i] = float64(g.Prims[i])
		case HeatCycles:
			vals[i] = g.Cycles[i]
		}
		maxV = math.Max(maxV, vals[i])
	}
	for y := 0; y < b.Dy(); y++ {
		ty := min(y/g.TileHeight, g.Y-1)
		for x := 0; x < b.Dx(); x++ {
			tx := min(x/g.TileWidth, g.X-1)
			i := ty*g.X + tx
			var c color.NRGBA
			switch kind {
			case HeatTE:
				switch g.State[i] {
				case TileWritten:
					c = color.NRGBA{220, 40, 40, 255}
				case TileEliminated:
					c = color.NRGBA{40, 200, 60, 255}
				default:
					c = color.NRGBA{128, 128, 128, 255}
				}
			default:
				v := 0.0
				if maxV > 0 {
					v = vals[i] / maxV
				}
				c = ramp(v)
			}
			// Tile borders a little darker; the frame shows through at 25%.
			border := x%g.TileWidth == 0 || y%g.TileHeight == 0
			p := f.Image.NRGBAAt(x, y)
			lum := (0.3*float64(p.R) + 0.59*float64(p.G) + 0.11*float64(p.B)) * 0.25
			mix := func(h uint8) uint8 {
				v := 0.75*float64(h) + lum
				if border {
					v *= 0.7
				}
				return uint8(math.Min(255, math.Round(v)))
			}
			out.SetNRGBA(x, y, color.NRGBA{mix(c.R), mix(c.G), mix(c.B), 255})
		}
	}
	return out
}
