package gfx

import (
	"context"
	"errors"
	"testing"

	"github.com/pocketgpu/pocketgpu/emu"
)

// A render reports progress through every stage its family has, and a
// cancelled one stops with ErrStopped and the cause, in every family.
func TestRenderProgressAndCancel(t *testing.T) {
	for _, tc := range []struct {
		gpu   string
		mode  Mode
		stage string
	}{{"mali-g52", Tiled, "tiles"}, {"adreno-640", Tiled, "bins"}, {"mali-g52", Immediate, "primitives"}} {
		g := gpu(t, tc.gpu)
		s := builtin(t, "spheres")
		stages := map[string]Progress{}
		opt := Options{Width: 256, Height: 256, Mode: tc.mode, Progress: func(p Progress) { stages[p.Stage] = p }}
		render(t, g, s, opt, 1)
		if p, ok := stages[tc.stage]; !ok || p.Done != p.Total || p.Total == 0 {
			t.Errorf("%s %s: progress %+v, want %s to end", tc.gpu, tc.mode, stages, tc.stage)
		}
		if _, ok := stages["geometry"]; !ok {
			t.Errorf("%s %s: no geometry progress: %+v", tc.gpu, tc.mode, stages)
		}

		ctx, cancel := context.WithCancelCause(context.Background())
		cause := errors.New("interrupted")
		opt.Progress = func(Progress) { cancel(cause) }
		opt.Context = ctx
		_, err := RenderFrames(g, s, opt, 1)
		if !errors.Is(err, emu.ErrStopped) || !errors.Is(err, cause) || IsUserError(err) {
			t.Errorf("%s %s: cancelled render gave %v", tc.gpu, tc.mode, err)
		}
	}
}

// The memory estimate grows with the frame's pixels.
func TestEstimateMemory(t *testing.T) {
	small, big := EstimateMemory(Options{Width: 1024, Height: 1024}), EstimateMemory(Options{Width: 16384, Height: 16384})
	if small < 40<<20 || small > 80<<20 || big < 4<<30 {
		t.Errorf("estimates %d, %d", small, big)
	}
}
