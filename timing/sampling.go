package timing

import (
	"fmt"
	"math"

	"github.com/pocketgpu/pocketgpu/emu"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// This file is sampled simulation of a compute dispatch: its work-groups
// run in detail until they retire at a steady rate (steady.go), then the
// ones that follow run only functionally — their results stay exact — and
// their time and counters are projected from the steady stretch; the last
// wave runs in detail again, so that the kernel's drain and the caches it
// leaves are simulated. The projection of a skipped chunk is the steady
// stretch's counts scaled by the chunk's warp instructions over the
// stretch's (the executor counts those exactly), and a chunk whose
// instructions per work-group stray from the stretch's sends the run back
// to detail until it is steady again.

// SamplingReport says how much of a sampled dispatch ran in detail.
type SamplingReport struct {
	// WorkGroups is the dispatch's size; Detailed how many of them the
	// engine simulated (the rest ran functionally, their time projected).
	WorkGroups, Detailed int
	// ErrorPct estimates the cycles' error, in percent: each skipped
	// chunk's projected time times the larger of twice the steady
	// stretch's relative standard error (a 95% interval of its mean rate)
	// and how far the chunk's instructions per work-group strayed from
	// the stretch's.
	ErrorPct float64
}

// sampling fast-forwards one compute dispatch (Engine.EnableSampling).
type sampling struct {
	e    *Engine
	k    *Kernel
	unit int // tasks a wave observation covers (≥ the tasks resident at once)
	tail int // the last tasks, always in detail
	det  steadyDetector
	// marks are the counts at det's observations (marks[i] at det.obs[i]).
	marks  []sampleMark
	lastAt int   // tasks retired at the last observation
	dirty  []int // dirty lines each cache held then (mem.Hierarchy.Fill)
	ready  bool  // steady: fast-forward at the next launch
	rebase bool  // a fast-forward moved the counts: the next observation starts anew
	terms  []projection
	// skipped tasks and work-groups, and the error estimate in cycles.
	skipped, skippedGroups int
	errCycles              float64
}

// sampleMark is what the engine and the hierarchy had counted at an
// observation.
type sampleMark struct {
	s Snapshot
	m mem.Counters
}

// projection adds f times a steady stretch (from a to b) to the run.
type projection struct {
	a, b sampleMark
	f    float64
}

// EnableSampling has the engine fast-forward its one compute dispatch once
// it is steady (see SamplingReport): only a dispatch whose work-groups may
// run in any order (emu.Dispatch.Independent), alone on the engine, and
// long enough to have a steady stretch, a chunk to skip and a tail; for
// the others it does nothing. It must be called before Run.
func (e *Engine) EnableSampling() {
	ks := e.disp.kernels
	if len(ks) != 1 || ks[0].d == nil || !ks[0].d.Independent() {
		return
	}
	k := ks[0]
	resident := e.disp.resident(k)
	// A wave observed is every task resident at once; the tail (the last
	// wave) runs in detail, so that the kernel's drain is simulated.
	unit := max(resident, minSampleUnit)
	rule := defaultSteadyRule
	if k.total < (rule.Warmup+rule.MinWaves+2)*unit {
		return
	}
	sp := &sampling{e: e, k: k, unit: unit, tail: unit, det: steadyDetector{rule: rule}}
	e.sampling, k.sampling = sp, sp
}

// chunkWaves is how many waves of tasks a fast-forward runs before it
// compares their instructions with the steady stretch's.
const chunkWaves = 4

// maxStray is how far a skipped chunk's warp instructions per task may
// stray from the stretch's before the run goes back to detail.
const maxStray = 0.02

// minSampleUnit is the fewest tasks an observation covers: enough that
// one work-group's early or late retirement moves a wave's rate little.
const minSampleUnit = 8

// observe takes the counts at t.
func (sp *sampling) observe(t float64) (steadyObs, sampleMark) {
	e, k := sp.e, sp.k
	mk := sampleMark{s: e.Snapshot(t), m: e.mem.Counters()}
	o := steadyObs{t: t, wgs: float64(k.done), insts: float64(k.d.Stats.WarpInsts),
		dram: float64(mk.m.DRAMReadBytes + mk.m.DRAMWriteBytes), warm: true}
	valid, dirty, capacity := e.mem.Fill()
	for i := range valid {
		if valid[i] < capacity[i] && (sp.dirty == nil || dirty[i] > sp.dirty[i]) {
			o.warm = false
		}
	}
	sp.dirty = dirty
	return o, mk
}

// retired is told of each of the dispatch's tasks retiring at end: every
// unit of them, it observes the run and asks whether it is steady.
func (sp *sampling) retired(end float64) {
	k := sp.k
	if k.next >= k.total-sp.tail || k.done-sp.lastAt < sp.unit {
		return
	}
	sp.lastAt = k.done
	o, mk := sp.observe(end)
	if sp.rebase || len(sp.marks) == 0 {
		sp.rebase = false
		if len(sp.marks) == 0 {
			sp.det.obs = append(sp.det.obs[:0], o)
		} else {
			sp.det.restart(o)
		}
		sp.marks = append(sp.marks[:0], mk)
		return
	}
	sp.det.add(o)
	sp.marks = append(sp.marks, mk)
	sp.ready, _ = sp.det.steady()

}

// beforeLaunch fast-forwards, if the run is steady, before the dispatch's
// next task launches: chunks of tasks run functionally, each projected,
// up to the tail or to a chunk that strays from the steady stretch.
func (sp *sampling) beforeLaunch() {
	if !sp.ready {
		return
	}
	sp.ready = false
	k, d := sp.k, sp.k.d
	if p := k.ahead; p != nil {
		// Tasks the producer has already run are taken over rather than
		// run again (runTasks); it goes on from where this stops.
		p.pause()
		defer func() { p.resume(k.next) }()
	}
	_, se := sp.det.steady()
	oa, ob, ia, ib := sp.det.window()
	a, b := sp.marks[ia], sp.marks[ib]
	insts := ob.insts - oa.insts
	perTask := insts / (ob.wgs - oa.wgs)
	chunk := chunkWaves * sp.unit
	warmFrom := sp.warmFrom(a, b, ob.wgs-oa.wgs)
	for k.next < k.total-sp.tail {
		lo, hi := k.next, min(k.next+chunk, k.total-sp.tail)
		before := d.Stats.WarpInsts
		if err := sp.run(lo, hi, warmFrom); err != nil {
			sp.e.fail(err)
			return
		}
		ran := float64(d.Stats.WarpInsts - before)
		f := ran / insts
		sp.terms = append(sp.terms, projection{a: a, b: b, f: f})
		stray := math.Abs(ran/float64(hi-lo)/perTask - 1)
		sp.errCycles += f * (ob.t - oa.t) * math.Max(2*se, stray)
		groups := d.GroupsIn(lo, hi)
		k.next, k.done = hi, k.done+hi-lo
		k.groupsDone += groups
		sp.skipped += hi - lo
		sp.skippedGroups += groups
		if stray > maxStray {
			break // a new phase: back to detail until steady again
		}
	}
	sp.rebase = true
	sp.lastAt = k.done
}

// warmFrom is the first skipped task whose accesses warm the caches:
// enough of the last ones before the tail to fill every cache twice over
// at the steady stretch's bytes a task (a to b, over tasks), so that the
// caches at the tail hold what they would after the whole kernel.
func (sp *sampling) warmFrom(a, b sampleMark, tasks float64) int {
	rw := func(c mem.CacheCounters) float64 { return float64(c.ReadBytes + c.WriteBytes) }
	bytes := max(rw(b.m.L1Total())-rw(a.m.L1Total()), rw(b.m.L2Total())-rw(a.m.L2Total()),
		rw(b.m.TextureTotal())-rw(a.m.TextureTotal())) / tasks
	end := sp.k.total - sp.tail
	if bytes <= 0 {
		return end
	}
	n := int(math.Ceil(2 * float64(sp.e.mem.CacheBytes()) / bytes))
	return max(end-n, 0)
}

// run runs tasks [lo, hi) functionally, those from warmFrom on warming
// the caches with their accesses, each as if on core task mod cores in
// work-group slot 0.
func (sp *sampling) run(lo, hi, warmFrom int) error {
	cold := min(max(lo, warmFrom), hi)
	if err := sp.runTasks(lo, cold, nil); err != nil || cold == hi {
		return err
	}
	h := sp.e.mem
	h.StartWarming()
	defer h.StopWarming()
	var r mem.Request
	cores := len(sp.e.cores)
	return sp.runTasks(cold, hi, func(task int, tr *emu.Trace) {
		for _, a := range tr.Accesses {
			if a.Space == ir.SpacePrivate {
				continue
			}
			sp.k.request(&r, tr, a, task%cores, task%cores, 0)
			h.Access(0, &r)
		}
	})
}

// runTasks runs tasks [lo, hi) functionally, warm (when set) seeing each
// one's accesses in task order: those the producer has already run
// (ahead.go; beforeLaunch paused it) are taken over from their records
// rather than run again (taskRecord.finish), the others run here.
func (sp *sampling) runTasks(lo, hi int, warm func(task int, tr *emu.Trace)) error {
	d, p := sp.k.d, sp.k.ahead
	for lo < hi {
		end := hi
		if p != nil {
			if r := p.takeReady(lo); r != nil {
				err := r.finish(d, warm)
				p.recycle(r)
				if err != nil {
					return err
				}
				lo++
				continue
			}
			if end = min(hi, p.firstReady()); end <= lo {
				return fmt.Errorf("internal: task %d of %s was recorded out of order", end, sp.k.Name)
			}
		}
		var err error
		if warm == nil {
			err = d.RunTasks(lo, end)
		} else {
			err = d.RunTasksWarming(lo, end, warm)
		}
		if err != nil {
			return err
		}
		lo = end
	}
	return nil
}

// project adds the skipped chunks' projected counts to a snapshot and
// the hierarchy's counts taken at the end. The executor's own counts
// (warp and thread instructions) and the work-groups done are already
// exact: the chunks ran.
func (sp *sampling) project(s Snapshot, m mem.Counters) (Snapshot, mem.Counters) {
	for _, p := range sp.terms {
		d := p.b.s.Sub(p.a.s).Scale(p.f)
		for i := range d.Kernels {
			d.Kernels[i].WarpInsts, d.Kernels[i].ThreadInsts, d.Kernels[i].WorkgroupsDone = 0, 0, 0
		}
		s = s.Add(d)
		m = m.Project(p.a.m, p.b.m, p.f)
	}
	return s, m
}

// report is the sampling's summary for a run of cycles.
func (sp *sampling) report(cycles float64) *SamplingReport {
	groups := sp.k.d.NumGroups()
	r := &SamplingReport{WorkGroups: groups, Detailed: groups - sp.skippedGroups}
	if cycles > 0 {
		r.ErrorPct = 100 * sp.errCycles / cycles
	}
	return r
}
