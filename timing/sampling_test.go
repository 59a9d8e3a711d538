package timing_test

import (
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// run times a job on a fresh hierarchy, sampled or not.
func (j *job) run(t *testing.T, sampled bool) *timing.Result {
	t.Helper()
	e, err := timing.New(timing.Config{GPU: j.g, Dispatch: j.dispatch(t), Program: j.low, Occupancy: j.occ, Memory: mem.New(j.g)})
	if err != nil {
		t.Fatal(err)
	}
	if sampled {
		e.EnableSampling()
	}
	r, err := e.Run()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A long steady dispatch is sampled: few of its work-groups run in detail,
// and its cycles and counts stay within 2% of the full run's, its
// instructions exact.
func TestSamplingProjects(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		for _, j := range []*job{streamJobN(t, gpu, 1<<20), fmaJob(t, gpu, 1<<19, 4)} {
			full, sampled := j.run(t, false), j.run(t, true)
			s := sampled.Sampling
			if full.Sampling != nil || s == nil {
				t.Fatalf("%s: sampling reports %+v (full) and %+v (sampled)", gpu, full.Sampling, s)
			}
			if s.Detailed*3 > s.WorkGroups || s.ErrorPct < 0 || s.ErrorPct > 2 {
				t.Errorf("%s: %+v: want a third or fewer in detail and an error estimate under 2%%", gpu, s)
			}
			if e := sampled.Cycles/full.Cycles - 1; math.Abs(e) > 0.02 {
				t.Errorf("%s: sampled %v cycles, full %v (%+.2f%%)", gpu, sampled.Cycles, full.Cycles, 100*e)
			}
			for _, name := range []string{"warp_instructions", "thread_instructions", "workgroups", "warps_launched", "groups_issued", "dram_read_bytes", "l2_accesses"} {
				w, g := full.Counters.Value(name), sampled.Counters.Value(name)
				exact := name == "warp_instructions" || name == "thread_instructions" || name == "workgroups"
				if exact && g != w || !exact && math.Abs(g-w) > 0.02*w {
					t.Errorf("%s: %s %v sampled, %v full", gpu, name, g, w)
				}
			}
		}
	}
}

// A dispatch too short to find a steady stretch, a chunk and a tail in
// runs in full.
func TestSamplingShortRunsInFull(t *testing.T) {
	if r := streamJobN(t, "mali-g52", 4096).run(t, true); r.Sampling != nil {
		t.Errorf("a 4096-item vecadd was sampled: %+v", r.Sampling)
	}
}
