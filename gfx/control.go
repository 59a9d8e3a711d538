package gfx

import (
	"context"
	"fmt"
	"time"

	"github.com/pocketgpu/pocketgpu/emu"
)

// Progress is how far a frame has got, as Options.Progress sees it.
type Progress struct {
	Frame int
	// Stage is "geometry" (vertex shading and binning), "tiles", "bins" or
	// "primitives" (immediate mode); Done of Total counts its units.
	Stage       string
	Done, Total int
}

// progressEvery is the least time between two Progress calls.
const progressEvery = 100 * time.Millisecond

// checkpoint stops the frame when the context is done and reports
// progress at most every 100 ms; the tile, bin and primitive loops call it.
func (fr *frameRun) checkpoint(stage string, done, total int) error {
	r := fr.r
	if ctx := r.opt.Context; ctx != nil {
		select {
		case <-ctx.Done():
			return fmt.Errorf("frame %d %w at %s %d of %d: %w", fr.index, emu.ErrStopped, stage, done, total, context.Cause(ctx))
		default:
		}
	}
	if r.opt.Progress != nil {
		if stage != fr.stage {
			fr.endStage()
			fr.stage, fr.stageTotal = stage, total
		}
		now := time.Now()
		if done == total || now.Sub(r.lastProgress) >= progressEvery {
			r.lastProgress = now
			r.opt.Progress(Progress{Frame: fr.index, Stage: stage, Done: done, Total: total})
		}
	}
	return nil
}

// endStage reports the stage under way as complete: the loops check in
// before each unit, so the last report would otherwise be one short.
func (fr *frameRun) endStage() {
	if fr.stage != "" && fr.r.opt.Progress != nil {
		fr.r.opt.Progress(Progress{Frame: fr.index, Stage: fr.stage, Done: fr.stageTotal, Total: fr.stageTotal})
	}
	fr.stage = ""
}

// Host memory a render takes, fitted to the peak RSS of `pocketgpu render`
// of the spheres scene at 1024², 2048² and 4096² on the Mali-G52 and the
// Adreno 640 (56 to 60 MB, 131 to 134 MB, 428 to 439 MB): colour, depth
// and tile buffers, the read-back image and the heatmaps, with the Go
// heap's headroom.
const (
	renderBaseBytes     = 30 << 20
	renderBytesPerPixel = 25
)

// EstimateMemory is the host memory a render of opt's size will take, to
// refuse or warn before starting one that cannot fit: with MSAA, each
// further sample of a pixel holds colour and depth (in memory in
// immediate mode, the depth attachment's samples otherwise).
func EstimateMemory(opt Options) uint64 {
	perPixel := uint64(renderBytesPerPixel)
	if opt.MSAA > 1 {
		perPixel += uint64(opt.MSAA-1) * (colorBytes + depthBytes)
	}
	return renderBaseBytes + perPixel*uint64(max(opt.Width, 0))*uint64(max(opt.Height, 0))
}
