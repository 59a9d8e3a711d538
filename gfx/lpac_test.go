package gfx_test

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/device"
	"github.com/pocketgpu/pocketgpu/gfx"
	"github.com/pocketgpu/pocketgpu/gfx/scene"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
)

// chasePlan is a latency-bound dispatch (corpus chase): a few warps each
// following a long chain of dependent loads through a large ring, so that
// it uses little of the GPU for a long time.
func chasePlan(t *testing.T, g *arch.GPU, items int) *device.Plan {
	t.Helper()
	c, ok := corpus.Lookup("chase")
	if !ok || c.SPIRV == nil {
		t.Fatal("corpus chase missing")
	}
	dev := device.Open(g)
	k, err := dev.Load(c.SPIRV, c.Entry, device.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const ring, stride = 1 << 20, 4099 * 4 // 4 MiB of links, lines far apart
	le := binary.LittleEndian
	next := make([]byte, 4*ring)
	for j := 0; j < ring; j++ {
		le.PutUint32(next[4*j:], uint32((j+stride)%ring))
	}
	args := []device.Arg{device.BufferArg(dev.AllocFrom(next, "next")), device.BufferArg(dev.Alloc(8*items, "out")),
		device.ValueArg(le.AppendUint32(nil, 48)), device.ValueArg(le.AppendUint32(nil, 64))}
	p, err := dev.Prepare(k, device.NDRange{Dims: 1, Global: [3]int{items, 1, 1}}, args, device.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func lookup(t *testing.T, src string) *arch.GPU {
	t.Helper()
	if filepath.Ext(src) != ".yaml" {
		g, err := arch.Lookup(src)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	p := filepath.Join(t.TempDir(), "gpu.yaml")
	if err := os.WriteFile(p, []byte(src[:len(src)-len(".yaml")]), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := arch.Lookup(p)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// frameWith renders one frame with a compute dispatch submitted beside it
// and returns when the last of the two ended.
func frameWith(t *testing.T, g *arch.GPU, sc *scene.Scene, n int, low bool) (total, frame float64) {
	t.Helper()
	opt := gfx.Options{Width: 256, Height: 160}
	if n > 0 {
		opt.Compute = []gfx.ComputeJob{{Name: "chase", Work: chasePlan(t, g, n), LowPriority: low}}
	}
	fs, err := gfx.RenderFrames(g, sc, opt, 1)
	if err != nil {
		t.Fatal(err)
	}
	st := fs[0].Stats
	for _, p := range st.PassCycles {
		if p.Name == "compute: chase" {
			return st.Cycles, p.Cycles
		}
	}
	if n > 0 {
		t.Fatalf("no compute job in %v", st.PassCycles)
	}
	return st.Cycles, st.Cycles
}

// LPAC: a low-priority compute dispatch runs beside the frame on Adreno
// 6xx and 7xx (seed 004 §Command Processor), so render and compute
// together end well before the two one after the other — as they must on
// the same GPU described without LPAC, where the SQE runs the dispatch
// after the frame.
func TestLPACOverlapsRenderAndCompute(t *testing.T) {
	sc, err := scene.Builtin("spheres:2000")
	if err != nil {
		t.Fatal(err)
	}
	for _, gpu := range []string{"adreno-640", "adreno-730"} {
		g := lookup(t, gpu)
		noLPAC := lookup(t, "base: "+gpu+"\nid: nolpac\nname: no LPAC\ncommand_processor: {low_priority_compute: false, low_priority_compute_queue: null}\n.yaml")
		const n = 256
		alone, _ := frameWith(t, g, sc, 0, true)
		lpac, _ := frameWith(t, g, sc, n, true)
		serial, _ := frameWith(t, noLPAC, sc, n, true)
		t.Logf("%s: frame alone %.0f cycles, with compute on LPAC %.0f, without LPAC %.0f", gpu, alone, lpac, serial)
		if !(lpac < serial*0.9) || !(lpac >= alone) {
			t.Errorf("%s: frame alone %.0f cycles, with compute on LPAC %.0f, without LPAC %.0f", gpu, alone, lpac, serial)
		}
	}
}
