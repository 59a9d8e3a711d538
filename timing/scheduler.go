package timing

// scheduler is an engine's warp scheduler: the warps resident on the
// engine, when each one's next group can start (its ready queue), and the
// rule that picks the next to issue. Latency is hidden by switching warps
// at group boundaries (seed 000 §Shader Frontend: warps switched at clause
// boundaries; seed 003 §Unified Shading Cluster: zero-cost task switching).
//
// It also books the engine's stalls: the time the engine waited with
// nothing to issue, by what the warp it chose was waiting for.
type scheduler struct {
	warps []*warpState // in round-robin order; warpState.pos is the index
	ready readyQueue
	last  int // the warp that issued last
	// cand is the warp pick chose to issue at the engine's next step;
	// nothing but a wake (new warps, a barrier release) can change that
	// choice meanwhile.
	cand *warpState
	// An open stall: from stallFrom the engine waits for stallW (for
	// stallWhy). It is booked when the engine next steps, up to then: a
	// wake may bring that step forward and the choice change, so booking
	// the whole predicted wait at once would count the overlap twice.
	stallFrom float64
	stallWhy  Cause
	stallW    *warpState
	stalls    StallCounts
}

// StallCounts are an engine's stall cycles by cause (index Cause).
type StallCounts [NumCauses]float64

// add makes w resident, last in round-robin order, with nothing to issue
// yet.
func (s *scheduler) add(w *warpState) {
	w.pos = len(s.warps)
	s.warps = append(s.warps, w)
	s.ready.add()
}

// remove drops a retired warp; the others keep their round-robin order,
// and the next pick starts after the same warp as it would have.
func (s *scheduler) remove(w *warpState) {
	i := w.pos
	s.warps = append(s.warps[:i], s.warps[i+1:]...)
	s.ready.remove(i)
	for _, x := range s.warps[i:] {
		x.pos--
	}
	if s.last >= i && s.last > 0 {
		s.last--
	}
}

// set records when w's next group's inputs are ready (+Inf: it has
// nothing to issue) and the pipes it uses (bit p: pipe p).
func (s *scheduler) set(w *warpState, at float64, pipes uint32) {
	s.ready.set(w.pos, at, pipes)
}

// pick finds the warp that can issue earliest at or after t, given when
// the issue port and each pipe are next free: of the warps that can start
// soonest, the first after the one that issued last (round-robin). It
// returns the start and, when that is later than t, what the warp waits
// for; no warp and StallNoWarp when none has anything to issue.
func (s *scheduler) pick(t, portFree float64, pipeFree []float64) (*warpState, float64, Cause) {
	n := len(s.warps)
	from := s.last + 1
	if from >= n {
		from = 0
	}
	// Most picks find a warp that can issue at t.
	if portFree <= t {
		if i := s.ready.first(from, t, pipeFree); i >= 0 {
			s.last = i
			return s.warps[i], t, StallNone
		}
	}
	best, bestStart := s.ready.earliest(from, portFree, pipeFree)
	if best < 0 {
		return nil, 0, StallNoWarp
	}
	s.last = best
	w := s.warps[best]
	if bestStart <= t {
		return w, t, StallNone
	}
	return w, bestStart, s.ready.waitsFor(best, w.nextWhy, pipeFree)
}

// stall opens a stall at t: the engine waits for w, for why.
func (s *scheduler) stall(t float64, why Cause, w *warpState) {
	s.stallFrom, s.stallWhy, s.stallW = t, why, w
}

// closeStall books the open stall up to t and returns what it booked: the
// warp waited for, the cause and the cycles (0 when nothing).
func (s *scheduler) closeStall(t float64) (*warpState, Cause, float64) {
	w := s.stallW
	if w == nil {
		return nil, StallNone, 0
	}
	s.stallW = nil
	d := t - s.stallFrom
	if d <= 0 {
		return nil, StallNone, 0
	}
	s.stalls[s.stallWhy] += d
	return w, s.stallWhy, d
}
