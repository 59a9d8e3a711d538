package timing

import (
	"math"
	"math/bits"
)

// readyQueue is an engine's resident warps ordered by when their next
// group's inputs are ready: a binary min-heap of warp indices (positions in
// engine.warps) keyed by nextReady, so pick visits only the warps that can
// matter instead of every resident one (Rogue keeps about 48 a USC).
//
// pick's rule is the round-robin one: of the warps that can start
// earliest, the first after the one that issued last. The heap only finds
// candidates; ties are broken by round-robin rank, so the choice does not
// depend on the heap's layout.
type readyQueue struct {
	// flat: plain scans in round-robin order, without keeping the heap.
	// They win with few warps, or when most warps are ready (ALU-bound
	// code: the next warp in order can issue); the heap wins with many
	// warps mostly waiting (memory-bound code). The queue switches by what
	// it measures over windows of picks; both choose the same warp.
	flat    bool
	adapt   bool      // may switch (many resident warps)
	picks   int       // in this window
	visited int       // flat: warps scanned; heap: picks the probe answered
	key     []float64 // per warp: nextReady, +Inf with nothing to issue
	pipes   []uint32  // per warp: bit p, its next group uses pipe p
	heap    []int32   // warp indices
	at      []int32   // per warp: its index in heap
	stack   []int32   // scratch for bounded heap walks
}

// add appends a warp with nothing to issue yet.
func (q *readyQueue) add() {
	i := int32(len(q.key))
	q.key = append(q.key, math.Inf(1))
	q.pipes = append(q.pipes, 0)
	q.at = append(q.at, int32(len(q.heap)))
	q.heap = append(q.heap, i)
	if !q.flat {
		q.up(len(q.heap) - 1)
	}
}

// remove drops warp i; later warps move down one index, as in
// engine.warps. With i < 0 it only rebuilds the heap.
func (q *readyQueue) remove(i int) {
	if i >= 0 {
		q.key = append(q.key[:i], q.key[i+1:]...)
		q.pipes = append(q.pipes[:i], q.pipes[i+1:]...)
	}
	q.heap, q.at = q.heap[:len(q.key)], q.at[:len(q.key)]
	for k := range q.heap {
		q.heap[k] = int32(k)
		q.at[k] = int32(k)
	}
	if !q.flat {
		for k := len(q.heap)/2 - 1; k >= 0; k-- {
			q.down(k)
		}
	}
}

// set records warp i's next readiness and pipes.
func (q *readyQueue) set(i int, key float64, pipes uint32) {
	old := q.key[i]
	q.key[i], q.pipes[i] = key, pipes
	if q.flat {
		return
	}
	if key < old {
		q.up(int(q.at[i]))
	} else if key > old {
		q.down(int(q.at[i]))
	}
}

func (q *readyQueue) less(a, b int) bool { return q.key[q.heap[a]] < q.key[q.heap[b]] }

func (q *readyQueue) swap(a, b int) {
	q.heap[a], q.heap[b] = q.heap[b], q.heap[a]
	q.at[q.heap[a]], q.at[q.heap[b]] = int32(a), int32(b)
}

func (q *readyQueue) up(k int) {
	for k > 0 {
		p := (k - 1) / 2
		if !q.less(k, p) {
			return
		}
		q.swap(k, p)
		k = p
	}
}

func (q *readyQueue) down(k int) {
	n := len(q.heap)
	for {
		c := 2*k + 1
		if c >= n {
			return
		}
		if c+1 < n && q.less(c+1, c) {
			c++
		}
		if !q.less(c, k) {
			return
		}
		q.swap(k, c)
		k = c
	}
}

// start is when warp i's next group could start as far as its inputs and
// pipes go (pipeFree: each pipe's next free cycle).
func (q *readyQueue) start(i int, pipeFree []float64) float64 {
	s := q.key[i]
	for m := q.pipes[i]; m != 0; m &= m - 1 {
		if f := pipeFree[bits.TrailingZeros32(m)]; f > s {
			s = f
		}
	}
	return s
}

// waitsFor is what keeps warp i from starting: inputs (what its inputs
// wait for), unless one of its pipes is busy later than they are ready.
func (q *readyQueue) waitsFor(i int, inputs Cause, pipeFree []float64) Cause {
	s, why := q.key[i], inputs
	for m := q.pipes[i]; m != 0; m &= m - 1 {
		if f := pipeFree[bits.TrailingZeros32(m)]; f > s {
			s, why = f, StallPipe
		}
	}
	return why
}

// first returns the warp that can start at t (inputs ready, pipes free)
// with the lowest round-robin rank counted from warp from, or -1. It walks
// only the heap's nodes ready by t and their children.
func (q *readyQueue) first(from int, t float64, pipeFree []float64) int {
	if q.flat && !q.adapt {
		if i := q.scanFirst(from, len(q.key), t, pipeFree); i >= 0 {
			return i
		}
		return q.scanFirst(0, from, t, pipeFree)
	}
	return q.firstAdaptive(from, t, pipeFree)
}

// firstAdaptive is first where the form may change, or is the heap.
func (q *readyQueue) firstAdaptive(from int, t float64, pipeFree []float64) int {
	n := len(q.heap)
	if q.adapt {
		q.review()
	}
	if q.flat {
		i := q.scanFirst(from, n, t, pipeFree)
		if i < 0 {
			i = q.scanFirst(0, from, t, pipeFree)
		}
		if i < 0 {
			q.visited += n
		} else {
			q.visited += rank(i, from, n) + 1
		}
		return i
	}
	if n == 0 || q.key[q.heap[0]] > t {
		return -1
	}
	// When many warps are ready (ALU-bound code) the next few in
	// round-robin order hold the answer; look there before walking the
	// heap, which would visit every ready warp.
	const probe = 8
	if n > probe {
		for k, i := 0, from; k < probe; k, i = k+1, i+1 {
			if i >= n {
				i = 0
			}
			if q.key[i] <= t && q.start(i, pipeFree) <= t {
				q.visited++
				return i
			}
		}
	}
	best, bestRank := -1, n
	st := append(q.stack[:0], 0)
	for len(st) > 0 {
		k := st[len(st)-1]
		st = st[:len(st)-1]
		i := int(q.heap[k])
		if q.key[i] > t {
			continue
		}
		if r := rank(i, from, n); r < bestRank && q.start(i, pipeFree) <= t {
			best, bestRank = i, r
		}
		st = q.children(st, k)
	}
	q.stack = st
	return best
}

// earliest returns the warp that can start soonest, no sooner than floor
// (the engine's issue port), ties to the lowest round-robin rank from
// warp from, and that start; -1 when no warp has anything to issue. A
// warp's start is at least its key, so subtrees keyed past the best start
// so far are skipped.
func (q *readyQueue) earliest(from int, floor float64, pipeFree []float64) (int, float64) {
	n := len(q.heap)
	if q.flat {
		return q.scanEarliest(from, floor, pipeFree)
	}
	if n == 0 || math.IsInf(q.key[q.heap[0]], 1) {
		return -1, 0
	}
	best, bestStart, bestRank := -1, math.Inf(1), n
	st := append(q.stack[:0], 0)
	for len(st) > 0 {
		k := st[len(st)-1]
		st = st[:len(st)-1]
		i := int(q.heap[k])
		if q.key[i] > bestStart {
			continue
		}
		s := max(q.start(i, pipeFree), floor)
		if r := rank(i, from, n); s < bestStart || s == bestStart && r < bestRank {
			best, bestStart, bestRank = i, s, r
		}
		st = q.children(st, k)
	}
	q.stack = st
	return best, bestStart
}

// review switches between the flat and heap forms every window of picks:
// to the heap when flat scans average more than a probe's length, back to
// flat when the probe answered most picks.
func (q *readyQueue) review() {
	const window, probe = 1024, 8
	if q.picks++; q.picks < window {
		return
	}
	switch {
	case q.flat && q.visited > window*probe:
		q.flat = false
		q.remove(-1) // rebuild the heap
	case !q.flat && q.visited > window/2:
		q.flat = true
	}
	q.picks, q.visited = 0, 0
}

// scanFirst is first for warps [lo, hi), in index order.
func (q *readyQueue) scanFirst(lo, hi int, t float64, pipeFree []float64) int {
	for k, r := range q.key[lo:hi] {
		if r <= t && q.start(lo+k, pipeFree) <= t {
			return lo + k
		}
	}
	return -1
}

// scanEarliest is earliest by a scan in round-robin order.
func (q *readyQueue) scanEarliest(from int, floor float64, pipeFree []float64) (int, float64) {
	best, bestStart := q.scanMin(from, len(q.key), -1, math.Inf(1), floor, pipeFree)
	return q.scanMin(0, from, best, bestStart, floor, pipeFree)
}

// scanMin continues scanEarliest over warps [lo, hi) in index order.
func (q *readyQueue) scanMin(lo, hi, best int, bestStart, floor float64, pipeFree []float64) (int, float64) {
	for k, key := range q.key[lo:hi] {
		// Keys no sooner than the best start cannot win (this also skips
		// warps with nothing to issue, at +Inf).
		if key >= bestStart {
			continue
		}
		if s := max(q.start(lo+k, pipeFree), floor); s < bestStart {
			best, bestStart = lo+k, s
		}
	}
	return best, bestStart
}

// children pushes heap node k's children onto a walk's stack.
func (q *readyQueue) children(st []int32, k int32) []int32 {
	n := int32(len(q.heap))
	if c := 2*k + 1; c < n {
		st = append(st, c)
		if c+1 < n {
			st = append(st, c+1)
		}
	}
	return st
}

// rank is warp i's place in round-robin order starting at warp from.
func rank(i, from, n int) int {
	if r := i - from; r >= 0 {
		return r
	}
	return i - from + n
}
