package timing

import "math"

// This file decides when a dispatch has reached a steady state, the
// condition for sampled simulation: once the work-groups retiring wave
// after wave cost the same cycles, instructions and DRAM bytes, the ones
// still to come are run functionally (results stay exact) and their time
// and counters are projected from the steady stretch, the way Principal
// Kernel Analysis (MICRO 2021) stops detailed simulation once a kernel's
// IPC is stable. The engine feeds the detector one observation per wave
// of retired work-groups; the detector says when to skip, and by how much
// to trust the projection.

// steadyObs is the state of a dispatch when a wave of its work-groups has
// retired: cumulative figures, differenced between observations.
type steadyObs struct {
	t     float64 // cycle the wave's last work-group retired
	wgs   float64 // work-groups retired by then
	insts float64 // warp instructions executed by then
	dram  float64 // DRAM bytes moved by then (read and written)
}

// steadyRule is the stated criterion.
type steadyRule struct {
	// Warmup observations are discarded: the first waves start cold.
	Warmup int
	// Window is how many consecutive waves must agree.
	Window int
	// Tol is how far (relative) any wave of the window may stray from the
	// window's mean, in cycles per work-group, warp instructions per
	// work-group and DRAM bytes per work-group.
	Tol float64
	// DRAMFloor: DRAM bytes per work-group below this are too few to
	// judge (a compute-bound kernel's stray write-backs).
	DRAMFloor float64
}

// defaultSteadyRule: three waves within 2% after one of warm-up.
var defaultSteadyRule = steadyRule{Warmup: 1, Window: 3, Tol: 0.02, DRAMFloor: 64}

// steadyDetector collects the waves of one dispatch.
type steadyDetector struct {
	rule steadyRule
	obs  []steadyObs // from the last restart: obs[0] is the baseline
}

// restart begins a new window at o (after a fast-forward whose
// work-groups strayed from the window: the kernel changed phase, so the
// steady state must be found again; the machine is warm, no warm-up).
func (s *steadyDetector) restart(o steadyObs) {
	s.obs = append(s.obs[:0], o)
	s.rule.Warmup = 0
}

// add records a wave.
func (s *steadyDetector) add(o steadyObs) { s.obs = append(s.obs, o) }

// steady reports whether the last Window waves agree, with the window's
// spread: the largest relative deviation of a wave from the window mean
// over the three rates. It needs Warmup + Window waves after the first
// observation.
func (s *steadyDetector) steady() (bool, float64) {
	r := s.rule
	n := len(s.obs) - 1 // waves observed
	if n < r.Warmup+r.Window || r.Window < 1 {
		return false, 0
	}
	win := s.obs[len(s.obs)-1-r.Window:]
	for i := 1; i < len(win); i++ {
		if win[i].wgs <= win[i-1].wgs {
			return false, 0
		}
	}
	perWG := func(a, b steadyObs, f func(steadyObs) float64) float64 { return (f(b) - f(a)) / (b.wgs - a.wgs) }
	rates := []struct {
		of    func(steadyObs) float64
		floor float64 // means below this are not judged
	}{
		{func(o steadyObs) float64 { return o.t }, 0},
		{func(o steadyObs) float64 { return o.insts }, 0},
		{func(o steadyObs) float64 { return o.dram }, r.DRAMFloor},
	}
	spread := 0.0
	for _, rt := range rates {
		mean := perWG(win[0], win[len(win)-1], rt.of)
		if mean <= rt.floor {
			continue
		}
		for i := 1; i < len(win); i++ {
			d := math.Abs(perWG(win[i-1], win[i], rt.of)/mean - 1)
			if d > r.Tol {
				return false, 0
			}
			spread = math.Max(spread, d)
		}
	}
	return true, spread
}

// window is the steady stretch: its first and last observations.
func (s *steadyDetector) window() (a, b steadyObs) {
	return s.obs[len(s.obs)-1-s.rule.Window], s.obs[len(s.obs)-1]
}
