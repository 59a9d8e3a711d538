package timing

import (
	"math"
	"sort"
)

// Result is a timed kernel run: its duration and counters. Counters is a
// flat map (names documented in docs/counters.md) so that reports, JSON and
// comparisons treat every counter alike; PerCore holds the per-core ones.
type Result struct {
	Cycles   float64
	TimeNS   float64
	Counters map[string]float64
	PerCore  []map[string]float64
}

// Names returns the counter names in order.
func (r *Result) Names() []string {
	names := make([]string, 0, len(r.Counters))
	for k := range r.Counters {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func (e *Engine) result(cycles float64) *Result {
	g := e.g
	r := &Result{Cycles: cycles, TimeNS: cycles / g.ClockMHz * 1000, Counters: map[string]float64{}}
	c := r.Counters
	c["cycles"] = cycles
	c["time_ns"] = r.TimeNS
	c["workgroups"] = float64(e.totalWG)
	c["warp_instructions"] = float64(e.d.Stats.WarpInsts)
	c["thread_instructions"] = float64(e.d.Stats.ThreadInsts)
	if e.d.Stats.WarpInsts > 0 {
		avg := float64(e.d.Stats.ThreadInsts) / float64(e.d.Stats.WarpInsts)
		c["active_lanes_avg"] = avg
		c["simd_efficiency_pct"] = 100 * avg / float64(e.d.Width)
	}
	c["warp_width"] = float64(e.d.Width)
	maxWarps := float64(e.cfg.Occupancy.ResidentWarpsPerCore)
	engines := float64(len(e.eng))
	var launched, peak, area float64
	pipeBusy := make([]float64, len(e.prog.Pipes))
	var stall [numCauses]float64
	var groups, ops, issueBusy float64
	for _, co := range e.cores {
		pc := map[string]float64{}
		co.residentArea += float64(co.resident) * (cycles - co.lastChange)
		co.lastChange = cycles
		active := 0.0
		if co.lastActive > co.firstActive {
			active = co.lastActive - co.firstActive
		}
		pc["active_cycles"] = active
		pc["warps_launched"] = float64(co.warpsLaunched)
		launched += float64(co.warpsLaunched)
		area += co.residentArea
		peak = math.Max(peak, float64(co.peakResident))
		if cycles > 0 && maxWarps > 0 {
			pc["occupancy_avg_pct"] = 100 * co.residentArea / cycles / maxWarps
			pc["occupancy_peak_pct"] = 100 * float64(co.peakResident) / maxWarps
		}
		var cgroups, cissue float64
		var cstall [numCauses]float64
		for _, en := range co.engines {
			for p, b := range en.pipeBusy {
				pipeBusy[p] += b
			}
			cgroups += float64(en.groups)
			ops += float64(en.ops)
			for k, s := range en.stall {
				cstall[k] += s
			}
		}
		for _, en := range co.engines {
			cissue += en.issueCycles
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
		for k := range cstall {
			noWarp -= cstall[k]
		}
		cstall[StallNoWarp] += math.Max(noWarp, 0)
		stall[StallNoWarp] += math.Max(noWarp, 0)
		if perEngine > 0 {
			pc["issue_utilization_pct"] = 100 * cissue / perEngine
			for k := StallMemory; k < numCauses; k++ {
				pc["stall_"+k.String()+"_pct"] = 100 * cstall[k] / perEngine
			}
		}
		r.PerCore = append(r.PerCore, pc)
	}
	c["warps_launched"] = launched
	c["groups_issued"] = groups
	c["machine_ops"] = ops
	if cycles > 0 && maxWarps > 0 {
		c["occupancy_avg_pct"] = 100 * area / cycles / maxWarps / float64(len(e.cores))
		c["occupancy_peak_pct"] = 100 * peak / maxWarps
	}
	total := cycles * engines
	if total > 0 {
		c["issue_utilization_pct"] = 100 * issueBusy / total
		var alu float64
		for p, name := range e.prog.Pipes {
			c["pipe_"+name+"_busy_cycles"] = pipeBusy[p]
			c["pipe_"+name+"_utilization_pct"] = 100 * pipeBusy[p] / total
			alu += pipeBusy[p]
		}
		if len(e.prog.Pipes) > 0 {
			c["alu_capacity_used_pct"] = 100 * alu / total / float64(len(e.prog.Pipes))
		}
		for k := StallMemory; k < numCauses; k++ {
			c["stall_"+k.String()+"_cycles"] = stall[k]
			c["stall_"+k.String()+"_pct"] = 100 * stall[k] / total
		}
	}
	if f := e.fetch; f != nil {
		c["icache_hits"] = float64(f.hits)
		c["icache_buffer_misses"] = float64(f.bufMisses)
		c["icache_misses"] = float64(f.misses)
	}
	e.memoryCounters(c, r.PerCore, cycles)
	return r
}
