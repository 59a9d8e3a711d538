package timing

// Timeline: occupancy and pipe use over time, for the HTML report's charts.
// It is off unless EnableTimeline is called; the engine's loop then makes
// one call per step to the sampler, which reads the engine's running totals
// (resident warp-cycles per core, busy cycles per pipe, issue cycles) when
// simulated time crosses a sample boundary, so the hot paths (issue,
// memory) are untouched. Without it the cost is one nil check per step.
//
// The engine steps in global time order, so when the earliest engine's
// time reaches a boundary every group issued before it has been counted:
// a sample holds the groups issued in its interval (a group's pipe cycles
// are charged to the sample it issued in, as the pipe counters charge
// them). The number of samples is bounded: past maxSamples, neighbouring
// samples merge and the interval doubles, so a run of any length gives
// between maxSamples/2 and maxSamples samples (a short one fewer).

// maxSamples bounds a timeline's length.
const maxSamples = 256

// Timeline is a run's occupancy and pipe use per interval of cycles.
type Timeline struct {
	// Interval is the cycles per sample (the last may be shorter).
	Interval float64
	// Pipes names the ALU pipes, in the order of Sample.PipeBusy.
	Pipes []string
	// EnginesPerCore and MaxWarpsPerCore scale the samples to shares:
	// the warps a core can hold for the run's (first) kernel.
	Cores, EnginesPerCore, MaxWarpsPerCore int
	Samples                                []Sample
}

// Sample is one interval's totals.
type Sample struct {
	Start, Cycles float64
	// Resident is the average number of resident warps on each core.
	Resident []float64
	// PipeBusy is each pipe's busy cycles, summed over the engines;
	// Issue the issue ports' busy cycles.
	PipeBusy []float64
	Issue    float64
}

// Occupancy is the sample's resident warps over every core's slots, in
// percent.
func (t *Timeline) Occupancy(s *Sample) float64 {
	if s.Cycles <= 0 || t.MaxWarpsPerCore <= 0 || len(s.Resident) == 0 {
		return 0
	}
	var sum float64
	for _, r := range s.Resident {
		sum += r
	}
	return 100 * sum / float64(len(s.Resident)*t.MaxWarpsPerCore)
}

// Utilization is busy cycles (of a pipe or the issue ports) over the
// sample's engine-cycles, in percent.
func (t *Timeline) Utilization(s *Sample, busy float64) float64 {
	total := s.Cycles * float64(t.Cores*t.EnginesPerCore)
	if total <= 0 {
		return 0
	}
	return 100 * busy / total
}

// sampler accumulates the timeline.
type sampler struct {
	interval float64
	next     float64 // the next boundary
	tl       Timeline
	// The totals at the last boundary.
	area, pipes []float64
	issue       float64
	done        bool
}

// EnableTimeline makes the engine sample occupancy and pipe use every
// interval cycles (0: a default), widening the interval as the run grows
// (Timeline, after Run). Call it after the kernels are added.
func (e *Engine) EnableTimeline(interval float64) {
	if e.samp != nil {
		return
	}
	if interval <= 0 {
		interval = 64
	}
	s := &sampler{interval: interval, next: interval}
	s.tl.Cores, s.tl.EnginesPerCore = len(e.cores), e.g.EnginesPerCore
	if len(e.disp.kernels) > 0 {
		k0 := e.disp.kernels[0]
		s.tl.Pipes = k0.prog.Pipes
		s.tl.MaxWarpsPerCore = k0.occ.ResidentWarpsPerCore
		if len(e.disp.kernels) > 1 {
			s.tl.MaxWarpsPerCore = e.g.MaxWarpsPerEngine * e.g.EnginesPerCore
		}
	}
	s.area = make([]float64, len(e.cores))
	s.pipes = make([]float64, len(s.tl.Pipes))
	e.samp = s
}

// Timeline returns the samples taken (nil without EnableTimeline).
func (e *Engine) Timeline() *Timeline {
	if e.samp == nil {
		return nil
	}
	tl := e.samp.tl
	tl.Interval = e.samp.interval
	return &tl
}

// at is called before the engine steps at time t.
func (s *sampler) at(e *Engine, t float64) {
	for t >= s.next && !s.done {
		s.take(e, s.next)
	}
}

// finish closes the last, partial sample at the run's end.
func (s *sampler) finish(e *Engine, end float64) {
	if s.done {
		return
	}
	s.at(e, end)
	if start := s.next - s.interval; end > start {
		s.take(e, end)
	}
	s.done = true
}

// take records the interval ending at t from the engine's totals.
func (s *sampler) take(e *Engine, t float64) {
	start := s.next - s.interval
	smp := Sample{Start: start, Cycles: t - start, Resident: make([]float64, len(e.cores)), PipeBusy: make([]float64, len(s.pipes))}
	for i, c := range e.cores {
		area := c.snapshot(t).ResidentArea
		if smp.Cycles > 0 {
			smp.Resident[i] = (area - s.area[i]) / smp.Cycles
		}
		s.area[i] = area
	}
	var issue float64
	pipes := make([]float64, len(s.pipes))
	for _, en := range e.eng {
		issue += en.issuer.counts.IssueCycles
		for p := range pipes {
			pipes[p] += en.issuer.counts.PipeBusy[p]
		}
	}
	for p := range pipes {
		smp.PipeBusy[p] = pipes[p] - s.pipes[p]
	}
	smp.Issue = issue - s.issue
	s.pipes, s.issue = pipes, issue
	s.tl.Samples = append(s.tl.Samples, smp)
	s.next = t + s.interval
	if len(s.tl.Samples) > maxSamples {
		s.merge()
	}
}

// merge pairs neighbouring samples and doubles the interval. An odd
// last sample is taken back (its totals too), to be taken again on the
// doubled grid.
func (s *sampler) merge() {
	in := s.tl.Samples
	if len(in)%2 == 1 {
		odd := in[len(in)-1]
		in = in[:len(in)-1]
		for c, r := range odd.Resident {
			s.area[c] -= r * odd.Cycles
		}
		for p, b := range odd.PipeBusy {
			s.pipes[p] -= b
		}
		s.issue -= odd.Issue
	}
	out := in[:0]
	for i := 0; i+1 < len(in); i += 2 {
		a, b := in[i], in[i+1]
		for c := range a.Resident {
			a.Resident[c] = (a.Resident[c]*a.Cycles + b.Resident[c]*b.Cycles) / (a.Cycles + b.Cycles)
		}
		for p := range a.PipeBusy {
			a.PipeBusy[p] += b.PipeBusy[p]
		}
		a.Issue += b.Issue
		a.Cycles += b.Cycles
		out = append(out, a)
	}
	s.tl.Samples = out
	s.interval *= 2
	last := out[len(out)-1]
	s.next = last.Start + last.Cycles + s.interval
}
