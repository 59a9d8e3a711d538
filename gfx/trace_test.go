package gfx

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/timing/trace"
)

// A rendered frame's trace has the command processor's queues, the
// render passes and their tiles or bins, the engines' issue slices
// adding up to the frame's groups_issued, and is the same bytes twice.
func TestTraceOfFrame(t *testing.T) {
	for _, tc := range []struct {
		gpu  string
		want []string
	}{
		{"mali-g52", []string{"Command processor/js0", "Command processor/js1", "Render/passes", "Render/tiles, core 0", "Render/vertex", "Render/tiler", "Frames",
			"Fixed function/vertex fetch", "Fixed function/primitive assembly", "Fixed function/tiler",
			"Fixed function/rasteriser, core 0", "Fixed function/ZS, core 1", "Fixed function/blender, core 0"}},
		{"adreno-640", []string{"Command processor/sqe", "Render/passes", "Render/bins", "Frames", "Fixed function/GMEM resolve", "Fixed function/blender, core 5"}},
		{"powervr-gx6250", []string{"Render/passes", "Render/tiles, core 0", "Frames"}},
	} {
		t.Run(tc.gpu, func(t *testing.T) {
			g := gpu(t, tc.gpu)
			once := func() ([]*Frame, []byte) {
				tr := trace.New(g.ID, 2000)
				fs := render(t, g, builtin(t, "spheres:200"), Options{Width: 128, Height: 96, Trace: tr}, 2)
				var b bytes.Buffer
				if _, err := tr.WriteTo(&b); err != nil {
					t.Fatal(err)
				}
				return fs, b.Bytes()
			}
			fs, data := once()
			d, slices, err := trace.DecodeSlices(data)
			if err != nil {
				t.Fatal(err)
			}
			paths := map[string]int{}
			var groups uint64
			var blendBusy float64
			for _, s := range slices {
				p := d.Path(s.Track)
				paths[p]++
				if strings.HasPrefix(p, "Fixed function/blender") {
					blendBusy += s.Args["busy_cycles"].(float64)
				}
				if strings.HasPrefix(p, "Core ") && strings.Contains(p, "/engine ") {
					groups += s.Args["groups"].(uint64)
				}
			}
			for _, p := range tc.want {
				if paths[p] == 0 {
					t.Errorf("no slices on %q; have %v", p, paths)
				}
			}
			if paths["Frames"] != 2 {
				t.Errorf("%d frame slices, want 2", paths["Frames"])
			}
			var want, blend float64
			for _, f := range fs {
				want += f.Stats.Engine.Value("groups_issued")
				blend += f.Stats.BlendBusyCycles
			}
			// The blenders' slices hold their busy cycles.
			if math.Abs(blendBusy-blend) > 1e-6*blend {
				t.Errorf("blender slices hold %.0f busy cycles, the frames' blend_busy_cycles %.0f", blendBusy, blend)
			}
			if _, again := once(); !bytes.Equal(data, again) {
				t.Error("the same frames gave a different trace")
			}
		})
	}
}
