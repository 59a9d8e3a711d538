package cp_test

import (
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/cp"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// fixed is a job whose GPU work takes d cycles.
func fixed(e *timing.Engine, name string, role cp.Role, draws int, d float64, deps ...*cp.Job) *cp.Job {
	return &cp.Job{Name: name, Role: role, Draws: draws, Deps: deps, Run: func(t float64, done func(float64)) {
		e.At(t+d, done)
	}}
}

func setup(t *testing.T, gpu string) (*arch.GPU, *timing.Engine, *cp.Processor) {
	t.Helper()
	g, err := arch.Lookup(gpu)
	if err != nil {
		t.Fatal(err)
	}
	m := mem.New(g)
	e := timing.NewEngine(g, m)
	p, err := cp.New(e, g, m)
	if err != nil {
		t.Fatal(err)
	}
	return g, e, p
}

// frames submits n frames of a geometry job of g cycles followed by a
// fragment job of f cycles (each depending on its frame's geometry), all
// at time 0, and returns when the last ends.
func frames(t *testing.T, gpu string, n int, geom, frag float64) (float64, *cp.Processor) {
	_, e, p := setup(t, gpu)
	var last *cp.Job
	for i := 0; i < n; i++ {
		gj := fixed(e, "geometry", cp.Geometry, 0, geom)
		fj := fixed(e, "fragment", cp.Fragment, 0, frag, gj)
		p.Submit(gj, 0)
		p.Submit(fj, 0)
		last = fj
	}
	if _, err := e.Run(); err != nil {
		t.Fatal(err)
	}
	if !last.Ended() {
		t.Fatal("the last job did not end")
	}
	return last.End, p
}

// Mali's job manager overlaps frame N's fragment job with frame N+1's
// vertex/tiler job (separate job slots); Adreno 6xx's single SQE runs them
// in turn; Adreno 7xx's BV bins the next pass while BR renders this one;
// PowerVR's geometry and 3D phases overlap like Mali's.
func TestQueuesOverlapAsDescribed(t *testing.T) {
	const n, g, f = 4, 1000.0, 3000.0
	for _, tc := range []struct {
		gpu  string
		want float64
	}{
		{"mali-g52", g + n*f},
		{"mali-t760", g + n*f},
		{"adreno-640", n * (g + f)},
		{"adreno-530", n * (g + f)},
		{"adreno-730", g + n*f},
		{"powervr-gx6250", g + n*f},
	} {
		end, _ := frames(t, tc.gpu, n, g, f)
		if end != tc.want {
			t.Errorf("%s: %d frames end at %v, want %v", tc.gpu, n, end, tc.want)
		}
	}
	// With geometry the longer, the lead limit shows: BV may be one pass
	// ahead of BR, Mali's slots have no limit.
	if end, _ := frames(t, "adreno-730", n, 3000, 1000); end != n*3000+1000 {
		t.Errorf("adreno-730 geometry-bound: end %v, want %v", end, n*3000+1000.0)
	}
	_, e, p := setup(t, "adreno-730")
	var bins []*cp.Job
	for i := 0; i < n; i++ {
		bj := fixed(e, "binning", cp.Geometry, 0, 1000)
		rj := fixed(e, "render", cp.Fragment, 0, 5000, bj)
		p.Submit(bj, 0)
		p.Submit(rj, 0)
		bins = append(bins, bj)
	}
	if _, err := e.Run(); err != nil {
		t.Fatal(err)
	}
	// Binning of pass 2 waits for pass 0's render to end (one ahead).
	if bins[2].Start < 1000+5000 {
		t.Errorf("adreno-730: pass 2's binning started at %v, before pass 0's render ended (6000)", bins[2].Start)
	}
}

// Low-priority compute runs beside graphics on LPAC (Adreno 6xx, 7xx) and
// after it where there is no LPAC (Adreno 5xx, Mali: the compute slot is
// the vertex slot).
func TestLowPriorityComputeOverlaps(t *testing.T) {
	for _, tc := range []struct {
		gpu     string
		overlap bool
	}{{"adreno-640", true}, {"adreno-730", true}, {"adreno-530", false}} {
		_, e, p := setup(t, tc.gpu)
		gj := fixed(e, "geometry", cp.Geometry, 0, 1000)
		fj := fixed(e, "fragment", cp.Fragment, 0, 4000, gj)
		cj := fixed(e, "compute", cp.LowPriorityCompute, 0, 3000)
		for _, j := range []*cp.Job{gj, fj, cj} {
			p.Submit(j, 0)
		}
		if _, err := e.Run(); err != nil {
			t.Fatal(err)
		}
		end := math.Max(fj.End, cj.End)
		if tc.overlap && end != 5000 || !tc.overlap && end != 8000 {
			t.Errorf("%s: render and compute end at %v (overlap %v)", tc.gpu, end, tc.overlap)
		}
	}
}

// Parsing costs cycles_per_draw per draw, or the command bytes' trip from
// memory if longer; the bytes are counted.
func TestParseCost(t *testing.T) {
	g, e, p := setup(t, "mali-g52")
	j := fixed(e, "draws", cp.Geometry, 100, 0)
	p.Submit(j, 0)
	if _, err := e.Run(); err != nil {
		t.Fatal(err)
	}
	cpp := g.CommandProcessor
	if j.Start < 100*cpp.CyclesPerDraw {
		t.Errorf("100 draws parsed in %v cycles, want at least %v", j.Start, 100*cpp.CyclesPerDraw)
	}
	c := p.Counters()
	if got := c.Value("cp_js1_command_bytes"); got != float64(100*cpp.CommandBytesPerDraw) {
		t.Errorf("command bytes %v, want %v", got, 100*cpp.CommandBytesPerDraw)
	}
	if got := c.Value("cp_js1_parse_cycles"); got != j.Start {
		t.Errorf("parse cycles %v, want %v", got, j.Start)
	}
}
