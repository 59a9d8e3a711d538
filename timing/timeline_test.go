package timing_test

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// A sampled run gives the same counters as one without the sampler, and
// its samples tile the run and add up to the counters: issue and pipe busy
// cycles to the engines' totals, resident warp-cycles to the average
// occupancy. A small interval on a long run exercises the merging, which
// keeps the samples within their bound.
func TestTimelineAddsUp(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250"} {
		for _, mk := range []func(*testing.T, string) *job{streamJob, aluJob} {
			j := mk(t, gpu)
			run := func(sample bool) (*timing.Result, *timing.Timeline) {
				e, err := timing.New(timing.Config{GPU: j.g, Dispatch: j.dispatch(t), Program: j.low, Occupancy: j.occ, Memory: mem.New(j.g)})
				if err != nil {
					t.Fatal(err)
				}
				if sample {
					e.EnableTimeline(1)
				}
				r, err := e.Run()
				if err != nil {
					t.Fatal(err)
				}
				return r, e.Timeline()
			}
			plain, none := run(false)
			r, tl := run(true)
			name := gpu + " " + j.low.IR.Entry
			if none != nil {
				t.Errorf("%s: a timeline without EnableTimeline", name)
			}
			if !plain.Counters.Equal(r.Counters) {
				t.Errorf("%s: sampling changed the counters", name)
			}
			n := len(tl.Samples)
			if n < 2 || n > 256 {
				t.Fatalf("%s: %d samples", name, n)
			}
			if tl.Interval <= 1 {
				t.Errorf("%s: interval %v: the samples never merged", name, tl.Interval)
			}
			var at, issue, area float64
			pipes := make([]float64, len(tl.Pipes))
			for i := range tl.Samples {
				s := &tl.Samples[i]
				if s.Start != at {
					t.Fatalf("%s: sample %d starts at %v, want %v", name, i, s.Start, at)
				}
				at += s.Cycles
				issue += s.Issue
				for p, b := range s.PipeBusy {
					pipes[p] += b
				}
				area += tl.Occupancy(s) * s.Cycles
			}
			c := r.Counters
			near(t, name+" end", at, r.Cycles)
			engines := float64(tl.Cores * tl.EnginesPerCore)
			near(t, name+" issue", issue, c.Value("issue_utilization_pct")/100*r.Cycles*engines)
			for p, pipe := range tl.Pipes {
				near(t, name+" pipe "+pipe, pipes[p], c.Value("pipe_"+pipe+"_busy_cycles"))
			}
			near(t, name+" occupancy", area/r.Cycles, c.Value("occupancy_avg_pct"))
		}
	}
}
