package device

import (
	"errors"
	"time"

	"github.com/pocketgpu/pocketgpu/counters"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/timing"
	"github.com/pocketgpu/pocketgpu/timing/mem"
)

// hierarchy is the device's memory-hierarchy model. Its caches stay warm
// from one dispatch to the next, as on hardware; ResetCaches empties them.
func (d *Device) hierarchy() *mem.Hierarchy {
	if d.hier == nil {
		d.hier = mem.New(d.GPU)
	}
	return d.hier
}

// ResetCaches empties every cache and zeroes the memory counters.
func (d *Device) ResetCaches() {
	d.hierarchy().Reset()
	d.memo.stateKnown = false
}

// Timing is what the timing model measured of a dispatch.
type Timing struct {
	Cycles float64
	TimeNS float64
	// Counters are the counters of docs/counters.md, the engine's then
	// the memory hierarchy's; PerCore the per-core ones, a set per core.
	Counters counters.Set
	PerCore  []counters.Set
}

// Names returns the counter names in order.
func (t *Timing) Names() []string { return t.Counters.Names() }

// TimedResult is a dispatch run under the timing model.
type TimedResult struct {
	Result
	Timing *Timing
	// Profile is the cost per instruction and source line, with
	// Options.Profile.
	Profile *Profile
	// Timeline is occupancy and pipe use over time, with
	// Options.Timeline.
	Timeline *Timeline
	// Detail says how the figures were made: simulated in detail, or
	// reused from an identical earlier launch.
	Detail DetailReport
}

// Timeline is a timed run's occupancy and pipe use per interval.
type Timeline = timing.Timeline

// Time runs a kernel under the timing model: the same results as Dispatch,
// plus cycles and counters. Memory counters cover this dispatch only.
// Unless opt.Detail is DetailFull, a launch that repeats an earlier one
// from the same cache state reuses its figures (reuse.go; the result's
// Detail says so).
func (d *Device) Time(k *Kernel, nd NDRange, args []Arg, opt Options) (*TimedResult, error) {
	plan, err := d.Prepare(k, nd, args, opt)
	if err != nil {
		return nil, err
	}
	defer plan.Close()
	d.memo.launches++
	launch := d.memo.launches
	h := d.hierarchy()
	// Profiles, timelines and traces are views of a detailed run.
	memo := opt.Detail != DetailFull && !opt.Profile && !opt.Timeline && opt.Trace == nil
	var rec *launchRecord
	if memo {
		rec = &launchRecord{key: keyOf(k, plan.dispatch), pre: contentsOf(args), start: d.memo.startState(h), launch: launch}
		if r := d.memo.find(rec.key, rec.pre, rec.start); r != nil {
			return d.reuse(k, plan, r, launch, opt)
		}
	}
	d.memo.stateKnown = false // the run changes the caches
	res, err := d.timeDetailed(k, plan, opt, memo)
	if err != nil || !memo {
		return res, err
	}
	rec.post, rec.end = contentsOf(args), h.State()
	d.memo.state, d.memo.stateKnown = rec.end, true
	rec.result = *res
	d.memo.add(rec)
	return res, nil
}

// reuse answers a launch with record r's figures. The kernel still runs
// functionally unless r's launch changed no buffer and printed nothing:
// the contents are then already what this launch would leave.
func (d *Device) reuse(k *Kernel, plan *Plan, r *launchRecord, launch int, opt Options) (*TimedResult, error) {
	start := time.Now()
	res := r.reused(launch)
	if r.post == r.pre && !k.prints() {
		res.Detail.FunctionalSkipped = true
	} else if err := plan.dispatch.Run(); err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	if opt.Progress != nil {
		n := int(res.Stats.WorkGroups)
		opt.Progress(Progress{GroupsDone: n, Groups: n, WarpInsts: res.Stats.WarpInsts, Cycles: res.Timing.Cycles})
	}
	return res, nil
}

// timeDetailed simulates a prepared launch, in detail or (sample) sampled.
func (d *Device) timeDetailed(k *Kernel, plan *Plan, opt Options, sample bool) (*TimedResult, error) {
	ip, err := k.lowered(d.GPU, plan.dispatch.Width)
	if err != nil {
		return nil, err
	}
	h := d.hierarchy()
	h.ResetCounters()
	start := time.Now()
	eng, err := timing.New(timing.Config{GPU: d.GPU, Dispatch: plan.dispatch, Program: ip, Occupancy: plan.Occupancy, Memory: h})
	if err != nil {
		return nil, err
	}
	if opt.Profile {
		eng.EnableProfile()
	}
	if opt.Timeline {
		eng.EnableTimeline(0)
	}
	if opt.Trace != nil {
		eng.EnableTrace(opt.Trace)
	}
	if sample {
		eng.EnableSampling()
	}
	tr, err := eng.Run()
	res := plan.result()
	res.Seconds = time.Since(start).Seconds()
	full := DetailReport{Mode: "full", Launch: d.memo.launches}
	if tr != nil && tr.Sampling != nil {
		s := tr.Sampling
		full.Mode, full.WorkGroups, full.Detailed, full.ErrorPct = "sampled", s.WorkGroups, s.Detailed, s.ErrorPct
	}
	if errors.Is(err, ErrStopped) && tr != nil {
		res.Partial = true
		return &TimedResult{Result: *res, Timing: timingOf(tr), Profile: profileFrom(eng), Timeline: eng.Timeline(), Detail: full}, err
	}
	if err != nil {
		return nil, err
	}
	return &TimedResult{Result: *res, Timing: timingOf(tr), Profile: profileFrom(eng), Timeline: eng.Timeline(), Detail: full}, nil
}

// profileFrom is the engine's profile of its one kernel, or nil.
func profileFrom(eng *timing.Engine) *Profile {
	if ps := eng.Profiles(); len(ps) == 1 {
		return profileOf(ps[0])
	}
	return nil
}

func timingOf(r *timing.Result) *Timing {
	return &Timing{Cycles: r.Cycles, TimeNS: r.TimeNS, Counters: r.Counters, PerCore: r.PerCore}
}

// CopyCycles is the time, in GPU cycles, of copying bytes between host
// memory and a device buffer (map/unmap, enqueue read/write).
func (d *Device) CopyCycles(bytes int64, toGPU bool) float64 {
	return d.hierarchy().CopyTime(bytes, toGPU)
}

// CopyCounters are the counters of such a copy (docs/counters.md,
// "Copies").
func (d *Device) CopyCounters(bytes int64, toGPU bool) counters.Set {
	return d.hierarchy().CopyCounters(bytes, toGPU)
}

// Analyze lowers the kernel for the device's GPU and sums its issue groups
// statically, without running it (pocketgpu analyze). warpWidth 0 lets the
// occupancy rules choose.
func (d *Device) Analyze(k *Kernel, warpWidth int) (*isa.Report, error) {
	return families.Analyze(k.program(), d.GPU, warpWidth)
}

// AddTo adds the planned dispatch to a timing engine as a compute kernel,
// so that it runs beside other work on the same GPU — a frame's shaders
// (gfx.Options.Compute: render and compute overlapping on Adreno's LPAC).
// The dispatch runs once; the plan is spent after the engine runs.
func (p *Plan) AddTo(e *timing.Engine) (*timing.Kernel, error) {
	ip, err := p.Kernel.lowered(p.dev.GPU, p.dispatch.Width)
	if err != nil {
		return nil, err
	}
	return e.AddCompute(p.dispatch, ip, p.Occupancy)
}
