package timing

import "math"

// This file decides when a dispatch has reached a steady state, the
// condition for sampled simulation: once the work-groups retiring wave
// after wave cost the same cycles, instructions and DRAM bytes, the ones
// still to come are run functionally (results stay exact) and their time
// and counters are projected from the steady stretch, the way Principal
// Kernel Analysis (MICRO 2021) stops detailed simulation once a kernel's
// IPC is stable. The stretch's mean rate is trusted once its standard
// error is small, as SMARTS (ISCA 2003) sizes its samples. The engine
// feeds the detector one observation per wave of retired work-groups; the
// detector says when to skip, and how far to trust the projection.

// steadyObs is the state of a dispatch when a wave of its work-groups has
// retired: cumulative figures, differenced between observations.
type steadyObs struct {
	t     float64 // cycle the wave's last work-group retired
	wgs   float64 // work-groups retired by then
	insts float64 // warp instructions executed by then
	dram  float64 // DRAM bytes moved by then (read and written)
	// warm: every cache is full, or holds no more dirty lines than at
	// the observation before; the stretch starts at a warm observation (a
	// kernel whose dirty lines have not yet filled the L2 writes nothing
	// back yet, and would look cheaper than it is).
	warm bool
}

// steadyRule is the stated criterion.
type steadyRule struct {
	// Warmup observations are discarded: the first waves start cold.
	Warmup int
	// MinWaves is the fewest waves a steady stretch has.
	MinWaves int
	// MaxDev is how far (relative) any wave of the stretch may stray from
	// its mean, in cycles, warp instructions and DRAM bytes per
	// work-group.
	MaxDev float64
	// MaxSE is the largest relative standard error of the stretch's mean
	// rates allowed; the halves of the stretch must also agree within
	// three of their standard errors, or MaxSE (no drift).
	MaxSE float64
	// DRAMFloor: DRAM bytes per work-group below this are too few to
	// judge (a compute-bound kernel's stray write-backs).
	DRAMFloor float64
}

// defaultSteadyRule: after a wave of warm-up and from a warm wave on, at
// least three waves, none more than 5% from their mean, whose mean is
// known to 0.5% (one standard error) and does not drift.
var defaultSteadyRule = steadyRule{Warmup: 1, MinWaves: 8, MaxDev: 0.05, MaxSE: 0.005, DRAMFloor: 64}

// steadyDetector collects the waves of one dispatch.
type steadyDetector struct {
	rule steadyRule
	obs  []steadyObs // from the last restart: obs[0] is the baseline
	// from is the observation the stretch starts at (steady sets it).
	from int
}

// restart begins anew at o (after a fast-forward whose work-groups strayed
// from the stretch: the kernel changed phase, so the steady state must be
// found again; the machine is warm, no warm-up).
func (s *steadyDetector) restart(o steadyObs) {
	s.obs = append(s.obs[:0], o)
	s.rule.Warmup = 0
	s.from = 0
}

// add records a wave.
func (s *steadyDetector) add(o steadyObs) { s.obs = append(s.obs, o) }

// steady reports whether the waves from some warm observation after the
// warm-up to the last make a steady stretch (the earliest such start, so
// that a change of pace early in the run is left behind), and the
// relative standard error of its mean rates (the largest of the three).
func (s *steadyDetector) steady() (bool, float64) {
	r := s.rule
	for first := r.Warmup; first+max(r.MinWaves, 2) < len(s.obs); first++ {
		if !s.obs[first].warm {
			continue
		}
		if ok, se := s.steadyFrom(first); ok {
			s.from = first
			return true, se
		}
	}
	return false, 0
}

// steadyFrom judges the stretch from observation first to the last.
func (s *steadyDetector) steadyFrom(first int) (bool, float64) {
	win := s.obs[first:]
	for i := 1; i < len(win); i++ {
		if win[i].wgs <= win[i-1].wgs {
			return false, 0
		}
	}
	rates := []struct {
		of    func(steadyObs) float64
		floor float64 // means below this are not judged
	}{
		{func(o steadyObs) float64 { return o.t }, 0},
		{func(o steadyObs) float64 { return o.insts }, 0},
		{func(o steadyObs) float64 { return o.dram }, s.rule.DRAMFloor},
	}
	worst := 0.0
	for _, rt := range rates {
		ok, se := judge(win, rt.of, rt.floor, s.rule)
		if !ok {
			return false, 0
		}
		worst = math.Max(worst, se)
	}
	return true, worst
}

// judge checks one rate (of, per work-group) over the stretch win: every
// wave within MaxDev of the mean, the mean's relative standard error
// within MaxSE and its halves within three standard errors. It returns
// that standard error.
func judge(win []steadyObs, of func(steadyObs) float64, floor float64, r steadyRule) (bool, float64) {
	rate := func(a, b steadyObs) float64 { return (of(b) - of(a)) / (b.wgs - a.wgs) }
	mean := rate(win[0], win[len(win)-1])
	if mean <= floor {
		return true, 0 // nothing of this kind to judge
	}
	n := len(win) - 1
	var sum, sq float64
	for i := 1; i < len(win); i++ {
		v := rate(win[i-1], win[i])/mean - 1
		if math.Abs(v) > r.MaxDev {
			return false, 0
		}
		sum += v
		sq += v * v
	}
	m := sum / float64(n)
	sd := math.Sqrt(math.Max(sq/float64(n)-m*m, 0) * float64(n) / float64(n-1))
	se := sd / math.Sqrt(float64(n))
	if se > r.MaxSE {
		return false, 0
	}
	half := len(win) / 2
	a, b := rate(win[0], win[half]), rate(win[half], win[len(win)-1])
	if math.Abs(a-b)/mean > math.Max(3*math.Sqrt2*se, r.MaxSE) {
		return false, 0 // drifting (halves closer than MaxSE always agree)
	}
	return true, se
}

// window is the steady stretch steady found: its first and last
// observations, and their indices.
func (s *steadyDetector) window() (a, b steadyObs, ia, ib int) {
	ib = len(s.obs) - 1
	return s.obs[s.from], s.obs[ib], s.from, ib
}
