package timing_test

import (
	"math"
	"testing"

	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// A profiled run gives the same counters as an unprofiled one, and its
// per-instruction figures add up to them: issue cycles to the engines'
// issue time, stall cycles by cause to stall_<cause>_cycles (no_warp
// aside), requests to the memory requests, L1 and L2 lookups and misses to
// the hierarchy's (the end-of-kernel write-back aside: it looks up nothing
// in L1 and only writes to DRAM), on every family, for a memory-bound and
// an ALU-bound kernel.
func TestProfileAddsUp(t *testing.T) {
	for _, gpu := range []string{"mali-g52", "adreno-640", "powervr-gx6250", "mali-t760"} {
		for _, mk := range []func(*testing.T, string) *job{streamJob, aluJob} {
			j := mk(t, gpu)
			run := func(profile bool) (*timing.Result, []*timing.Profile) {
				e, err := timing.New(timing.Config{GPU: j.g, Dispatch: j.dispatch(t), Program: j.low, Occupancy: j.occ, Memory: mem.New(j.g)})
				if err != nil {
					t.Fatal(err)
				}
				if profile {
					e.EnableProfile()
				}
				r, err := e.Run()
				if err != nil {
					t.Fatal(err)
				}
				return r, e.Profiles()
			}
			plain, none := run(false)
			r, profs := run(true)
			if none != nil {
				t.Errorf("%s: profiles without EnableProfile", gpu)
			}
			name := gpu + " " + j.low.IR.Entry
			if !plain.Counters.Equal(r.Counters) {
				t.Errorf("%s: profiling changed the counters", name)
			}
			if len(profs) != 1 {
				t.Fatalf("%s: %d profiles", name, len(profs))
			}
			p := profs[0]
			var issue, wait float64
			var stall [timing.NumCauses]float64
			var reqs uint64
			var tally mem.Tally
			for _, e := range p.Entries {
				issue += e.Issue
				wait += e.Wait
				for c, v := range e.Stall {
					stall[c] += v
				}
				reqs += e.Requests
				tally.L1Accesses += e.Mem.L1Accesses
				tally.L1Misses += e.Mem.L1Misses
				tally.L2Misses += e.Mem.L2Misses
			}
			c := r.Counters
			engines := float64(j.g.Cores * j.g.EnginesPerCore)
			near(t, name+" issue cycles", issue, c.Value("issue_utilization_pct")/100*r.Cycles*engines)
			var stalls float64
			for k := timing.StallMemory; int(k) < timing.NumCauses; k++ {
				if k == timing.StallNoWarp {
					continue
				}
				near(t, name+" stall "+k.String(), stall[k], c.Value("stall_"+k.String()+"_cycles"))
			}
			for _, v := range stall {
				stalls += v
			}
			near(t, name+" waits", wait, stalls)
			near(t, name+" requests", float64(reqs), c.Value("mem_loads")+c.Value("mem_stores")+c.Value("mem_atomics")+c.Value("texture_requests"))
			near(t, name+" L1 misses", float64(tally.L1Misses), c.Value("l1_misses"))
			near(t, name+" L1 accesses", float64(tally.L1Accesses), c.Value("l1_accesses"))
			if tally.L2Misses > int64(c.Value("l2_misses")) {
				t.Errorf("%s: %d L2 misses charged, the counters have %v", name, tally.L2Misses, c.Value("l2_misses"))
			}
			if issue <= 0 || reqs == 0 {
				t.Errorf("%s: nothing charged (issue %v, requests %d)", name, issue, reqs)
			}
		}
	}
}

func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
		t.Errorf("%s: charged %v, counted %v", what, got, want)
	}
}
