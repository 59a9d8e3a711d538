package timing

import (
	"math"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/counters"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// Result is a timed kernel run: its duration and counters (the engine's
// and the memory hierarchy's, docs/counters.md), GPU-wide and per core.
type Result struct {
	Cycles   float64
	TimeNS   float64
	Counters counters.Set
	PerCore  []counters.Set
	// Sampling says how much ran in detail when EnableSampling
	// fast-forwarded the dispatch (nil: every work-group did).
	Sampling *SamplingReport
}

// Names returns the counter names in order.
func (r *Result) Names() []string { return r.Counters.Names() }

// result is the run's counters at its end, cycles.
func (e *Engine) result(cycles float64) *Result {
	if e.samp != nil {
		e.samp.finish(e, cycles)
	}
	s, m := e.Snapshot(cycles), e.mem.Counters()
	sp := e.sampling
	if sp == nil || sp.skipped == 0 {
		return e.report(s, m)
	}
	s, m = sp.project(s, m)
	r := e.report(s, m)
	r.Sampling = sp.report(r.Cycles)
	return r
}

// report computes the counters of docs/counters.md, GPU-wide and per core,
// from a snapshot of the engine's counts and the memory hierarchy's, m:
// what the units counted, set against the run's length (s.Cycles) and the
// GPU's size.
func (e *Engine) report(s Snapshot, m mem.Counters) *Result {
	cycles := s.Cycles
	r := &Result{Cycles: cycles, TimeNS: cycles / e.g.ClockMHz * 1000}
	ec, pcDefs := engineCounters, engineCoreCounters
	kernels := e.disp.kernels
	if len(kernels) == 0 {
		// Only events ran (a command processor's own work).
		r.Counters = append(counters.Set{ec.Of("cycles", cycles), ec.Of("time_ns", r.TimeNS)}, m.Items(cycles)...)
		return r
	}
	// Occupancy is measured against the first kernel's residency (the
	// only one of a compute run); warp figures add up the kernels'.
	k0 := kernels[0]
	maxWarps := float64(k0.occ.ResidentWarpsPerCore)
	if len(kernels) > 1 {
		// Kernels with different residencies share the cores: measure
		// against every warp slot a core has.
		maxWarps = float64(e.g.MaxWarpsPerEngine * e.g.EnginesPerCore)
	}
	pipes := k0.prog.Pipes
	engines := float64(len(e.eng))
	var launched, peak, area float64
	pipeBusy := make([]float64, len(pipes))
	var stall StallCounts
	var groups, ops, issueBusy float64
	for i, co := range e.cores {
		var pc counters.Set
		cc := nth(s.Cores, i)
		pc = append(pc, pcDefs.Of("active_cycles", cc.ActiveCycles), pcDefs.Of("warps_launched", cc.WarpsLaunched))
		launched += cc.WarpsLaunched
		area += cc.ResidentArea
		peak = math.Max(peak, cc.PeakResident)
		if cycles > 0 && maxWarps > 0 {
			pc = append(pc, pcDefs.Of("occupancy_avg_pct", 100*cc.ResidentArea/cycles/maxWarps),
				pcDefs.Of("occupancy_peak_pct", 100*cc.PeakResident/maxWarps))
		}
		var cgroups, cissue float64
		var cstall StallCounts
		for _, en := range co.engines {
			x := nth(s.Engines, en.index)
			for p := range pipeBusy {
				pipeBusy[p] += x.Issue.PipeBusy[p]
			}
			cgroups += x.Issue.Groups
			ops += x.Issue.Ops
			for k, v := range x.Stall {
				cstall[k] += v
			}
		}
		for _, en := range co.engines {
			cissue += nth(s.Engines, en.index).Issue.IssueCycles
		}
		groups += cgroups
		issueBusy += cissue
		for k := range cstall {
			stall[k] += cstall[k]
		}
		// What is neither issuing nor an attributed stall is time with no
		// warp to run.
		perEngine := cycles * float64(len(co.engines))
		noWarp := perEngine - cissue
		for k := StallMemory; k < numCauses; k++ {
			// (Waits charged to no cause are not reported: they are
			// left to no-warp with the rest, so the causes and issue
			// add up to the engines' time.)
			noWarp -= cstall[k]
		}
		cstall[StallNoWarp] += math.Max(noWarp, 0)
		stall[StallNoWarp] += math.Max(noWarp, 0)
		if perEngine > 0 {
			pc = append(pc, pcDefs.Of("issue_utilization_pct", 100*cissue/perEngine))
			for k := StallMemory; k < numCauses; k++ {
				pc = append(pc, pcDefs.Def("stall_<cause>_pct").With(k.String(), 100*cstall[k]/perEngine))
			}
		}
		r.PerCore = append(r.PerCore, pc)
	}

	c := counters.Set{ec.Of("cycles", cycles), ec.Of("time_ns", r.TimeNS)}
	if cycles > 0 && maxWarps > 0 {
		c = append(c, ec.Of("occupancy_avg_pct", 100*area/cycles/maxWarps/float64(len(e.cores))),
			ec.Of("occupancy_peak_pct", 100*peak/maxWarps))
	}
	if total := cycles * engines; total > 0 {
		c = append(c, ec.Of("issue_utilization_pct", 100*issueBusy/total))
		var alu float64
		for _, b := range pipeBusy {
			alu += b
		}
		if len(pipes) > 0 {
			c = append(c, ec.Of("alu_capacity_used_pct", 100*alu/total/float64(len(pipes))))
		}
		for p, name := range pipes {
			c = append(c, ec.Def("pipe_<name>_busy_cycles").With(name, pipeBusy[p]),
				ec.Def("pipe_<name>_utilization_pct").With(name, 100*pipeBusy[p]/total))
		}
		for k := StallMemory; k < numCauses; k++ {
			c = append(c, ec.Def("stall_<cause>_cycles").With(k.String(), stall[k]),
				ec.Def("stall_<cause>_pct").With(k.String(), 100*stall[k]/total))
		}
	}
	var warpInsts, threadInsts, wgs float64
	threadOps := make([]float64, len(arch.OpClasses))
	for i, k := range kernels {
		kc := nth(s.Kernels, i)
		warpInsts += kc.WarpInsts
		threadInsts += kc.ThreadInsts
		if k.d != nil {
			wgs += float64(k.d.NumGroups()) // a dispatch's size, a stopped run's too
		} else {
			wgs += kc.WorkgroupsDone
		}
		for op, v := range kc.ThreadOps {
			if op < len(threadOps) {
				threadOps[op] += v
			}
		}
	}
	width := float64(k0.prog.WarpWidth)
	if k0.d != nil {
		width = float64(k0.d.Width)
	}
	if warpInsts > 0 {
		avg := threadInsts / warpInsts
		c = append(c, ec.Of("active_lanes_avg", avg), ec.Of("simd_efficiency_pct", 100*avg/width))
	}
	c = append(c,
		ec.Of("warp_width", width),
		ec.Of("warp_instructions", warpInsts),
		ec.Of("warps_launched", launched),
		ec.Of("thread_instructions", threadInsts),
		ec.Of("groups_issued", groups),
		ec.Of("machine_ops", ops),
		ec.Of("spill_load_messages", s.Spills.Loads),
		ec.Of("spill_store_messages", s.Spills.Stores),
		ec.Of("spill_load_bytes", s.Spills.LoadBytes),
		ec.Of("spill_store_bytes", s.Spills.StoreBytes),
		ec.Of("workgroups", wgs),
	)
	// Operations by class, of the classes that ran.
	d := ec.Def("thread_ops_<class>")
	for op, v := range threadOps {
		if v > 0 {
			c = append(c, d.With(isa.ClassNames[op], v))
		}
	}
	if e.fetch != nil {
		c = append(c, ec.Of("icache_hits", s.Fetch.Hits),
			ec.Of("icache_buffer_misses", s.Fetch.BufferMisses),
			ec.Of("icache_misses", s.Fetch.Misses))
	}
	r.Counters = append(c, m.Items(cycles)...)
	for core := range r.PerCore {
		r.PerCore[core] = append(r.PerCore[core], m.CoreItems(core)...)
	}
	return r
}

// nth is xs[i], or the zero value past its end (a snapshot of another
// shape).
func nth[T any](xs []T, i int) T {
	if i < len(xs) {
		return xs[i]
	}
	var zero T
	return zero
}
