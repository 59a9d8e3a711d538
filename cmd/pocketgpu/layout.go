package main

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/pocketgpu/pocketgpu/gfx/layout"
)

func init() { subcommands = append(subcommands, newLayoutCmd) }

// layoutResult is what the layout command reports.
type layoutResult struct {
	Layout              string
	Width, Height, BPP  int
	Size                int
	Texel               [2]int
	Offset, ByteInTexel int
	Tile                *[2]int
	IndexInTile         *int
}

func newLayoutCmd() *cobra.Command {
	var (
		im     layout.Image
		texel  string
		offset int
		asJSON bool
	)
	cmd := &cobra.Command{
		Use:   "layout u-interleaved|linear --width W --height H --bpp B (--texel X,Y | --offset N) [--json]",
		Short: "Byte offset of a texel in a tiled (u-interleaved) or linear image, and back",
		Long: `layout gives the byte offset of texel X,Y in an image of W×H texels of B bytes,
or with --offset the texel holding byte N.

u-interleaved is Arm's 16x16 block layout (DRM_FORMAT_MOD_ARM_16X16_BLOCK_U_INTERLEAVED,
seed 002): 16x16 tiles in raster order, the texels of a tile along a curve
whose index bits are, most significant first,
y3 (x3^y3) y2 (x2^y2) y1 (x1^y1) y0 (x0^y0). The image is padded to whole
tiles. linear is row after row, W×B bytes apart.`,
		Example: `  pocketgpu layout u-interleaved --width 100 --height 50 --bpp 4 --texel 17,3
  pocketgpu layout u-interleaved --width 100 --height 50 --bpp 4 --offset 4684 --json
  pocketgpu layout linear --width 100 --height 50 --bpp 4 --texel 17,3`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			kind, err := layout.Parse(args[0])
			if err != nil {
				return badInput(err)
			}
			im.Kind = kind
			if err := im.Check(); err != nil {
				return badInput(err)
			}
			fl := cmd.Flags()
			hasTexel, hasOffset := fl.Changed("texel"), fl.Changed("offset")
			if hasTexel == hasOffset {
				return badInputf("give exactly one of --texel X,Y and --offset N")
			}
			res := layoutResult{Layout: kind.String(), Width: im.Width, Height: im.Height, BPP: im.BPP, Size: im.Size()}
			if hasTexel {
				x, y, err := parseTexel(texel)
				if err != nil {
					return err
				}
				if x >= im.Width || y >= im.Height {
					return badInputf("--texel %d,%d is outside the %dx%d image", x, y, im.Width, im.Height)
				}
				res.Texel, res.Offset = [2]int{x, y}, im.Offset(x, y)
			} else {
				x, y, b, ok := im.TexelAt(offset)
				switch {
				case offset < 0 || offset >= im.Size():
					return badInputf("--offset %d is outside the image's %d bytes", offset, im.Size())
				case !ok:
					return badInputf("--offset %d falls in the padding of a %s image: texel (%d,%d) of its tile grid is outside %dx%d", offset, kind, x, y, im.Width, im.Height)
				}
				res.Texel, res.Offset, res.ByteInTexel = [2]int{x, y}, offset, b
			}
			if kind == layout.UInterleaved {
				x, y := res.Texel[0], res.Texel[1]
				idx := layout.Index(x%layout.TileSize, y%layout.TileSize)
				res.Tile, res.IndexInTile = &[2]int{x / layout.TileSize, y / layout.TileSize}, &idx
			}
			out := cmd.OutOrStdout()
			if asJSON {
				m := map[string]any{"layout": res.Layout, "width": res.Width, "height": res.Height, "bpp": res.BPP,
					"size": res.Size, "texel": res.Texel, "offset": res.Offset}
				if !hasTexel {
					m["byte_in_texel"] = res.ByteInTexel
				}
				if res.Tile != nil {
					m["tile"], m["index_in_tile"] = res.Tile, *res.IndexInTile
				}
				return json.NewEncoder(out).Encode(m)
			}
			where := ""
			if res.Tile != nil {
				where = fmt.Sprintf(" (tile %d,%d of %dx%d, index %d in the tile)", res.Tile[0], res.Tile[1], im.TilesX(), im.TilesY(), *res.IndexInTile)
			}
			if hasTexel {
				_, err = fmt.Fprintf(out, "%s %dx%d, %d bytes per texel: texel (%d,%d) is at byte offset %d%s\n", kind, im.Width, im.Height, im.BPP, res.Texel[0], res.Texel[1], res.Offset, where)
			} else {
				_, err = fmt.Fprintf(out, "%s %dx%d, %d bytes per texel: byte offset %d is byte %d of texel (%d,%d)%s\n", kind, im.Width, im.Height, im.BPP, res.Offset, res.ByteInTexel, res.Texel[0], res.Texel[1], where)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.IntVar(&im.Width, "width", 0, "image width in texels")
	f.IntVar(&im.Height, "height", 0, "image height in texels")
	f.IntVar(&im.BPP, "bpp", 0, "bytes per texel")
	f.StringVar(&texel, "texel", "", "the texel at X,Y: where its bytes are")
	f.IntVar(&offset, "offset", 0, "a byte offset: which texel it belongs to")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	_ = cmd.MarkFlagRequired("width")
	_ = cmd.MarkFlagRequired("height")
	_ = cmd.MarkFlagRequired("bpp")
	nameArgs(cmd, "width", "TEXELS", "height", "TEXELS", "bpp", "BYTES", "texel", "X,Y", "offset", "BYTES")
	return cmd
}

func parseTexel(s string) (int, int, error) {
	xs, ys, ok := strings.Cut(s, ",")
	x, err1 := strconv.Atoi(strings.TrimSpace(xs))
	y, err2 := strconv.Atoi(strings.TrimSpace(ys))
	if !ok || err1 != nil || err2 != nil || x < 0 || y < 0 {
		return 0, 0, badInputf("--texel %q: give X,Y with non-negative integers, as in --texel 17,3", s)
	}
	return x, y, nil
}
