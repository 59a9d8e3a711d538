package probe

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
)

// A ring is the chase's buffer: footprint bytes of u32 words, in which the
// slots (one every stride bytes) each hold the word index of the next slot.
// The slots are visited in a random order, fixed by a seed, so that no
// prefetcher can guess the next address; the order is random within
// windows of ringWindow bytes, and the windows follow each other, so that a
// CPU's TLB sees few new pages per step (a TLB's reach would otherwise add
// a knee that is no cache). Every lap visits the slots in the same order,
// so an LRU cache misses on every step once the ring outgrows it.
const ringWindow = 64 << 10

func ring(footprint, stride int, seed uint64) []byte {
	slots := max(footprint/stride, 1)
	order := make([]int, 0, slots)
	perWindow := max(ringWindow/stride, 1)
	r := rand.New(rand.NewPCG(seed, uint64(footprint)^uint64(stride)<<32))
	for w := 0; w < slots; w += perWindow {
		n := min(perWindow, slots-w)
		for _, i := range r.Perm(n) {
			order = append(order, w+i)
		}
	}
	buf := make([]byte, max(footprint, stride))
	word := stride / 4
	for k, s := range order {
		next := order[(k+1)%len(order)]
		binary.LittleEndian.PutUint32(buf[s*stride:], uint32(next*word))
	}
	return buf
}

// conflictRing is k slots stride bytes apart, visited in order: with the
// stride a multiple of a cache's way size every slot falls in one set.
func conflictRing(k, stride int) []byte {
	buf := make([]byte, k*stride)
	word := stride / 4
	for i := range k {
		binary.LittleEndian.PutUint32(buf[i*stride:], uint32((i+1)%k*word))
	}
	return buf
}

// chaser follows a ring (buf, of slots slots) and returns the cycles of
// one step: the buffer path (chase) or the texture path (chaseImage).
type chaser func(buf []byte, slots int) (float64, error)

// chase returns the cycles of one step through buf (a ring of slots
// slots): a warm-up lap, then the difference of steps and 2×steps.
func (p *prober) chase(buf []byte, slots int) (float64, error) {
	b, err := p.t.b.Buffer(buf)
	if err != nil {
		return 0, fmt.Errorf("a %d-byte buffer: %w", len(buf), err)
	}
	out, err := p.t.b.Buffer(make([]byte, 4))
	if err != nil {
		return 0, err
	}
	k, err := p.t.kernel("chase")
	if err != nil {
		return 0, err
	}
	// The warm-up lap brings the ring into whatever holds it.
	if _, err := p.t.b.Run(k, []Arg{{Buf: b}, {Buf: out}, U32(uint32(slots))}, 1, 1); err != nil {
		return 0, err
	}
	n := p.o.ChaseSteps
	c, err := p.t.diffCycles("chase", func(n int) []Arg { return []Arg{{Buf: b}, {Buf: out}, U32(uint32(n))} }, n, 1, 1)
	if err != nil {
		return 0, err
	}
	p.tick()
	return c / float64(n), nil
}

// Point is one measurement of a sweep.
type Point struct {
	X, Y float64
}

// Level is a cache level (or, the last one, memory) found by the chase.
type Level struct {
	SizeBytes  int     `json:"size_bytes,omitempty"` // 0 for the last level (memory)
	LineBytes  int     `json:"line_bytes,omitempty"`
	Ways       int     `json:"ways,omitempty"`
	Latency    float64 `json:"latency_cycles"` // cycles per dependent load that hits here
	LatencyNS  float64 `json:"latency_ns"`
	lastInside float64 // the largest footprint of the sweep held here
	firstAfter float64 // the first footprint of the sweep past it
}

// footprints are the sweep's coarse points: four per octave.
func footprints(lo, hi int) []int {
	var out []int
	for e := math.Log2(float64(lo)); ; e += 0.25 {
		f := int(math.Round(math.Pow(2, e)/64)) * 64
		if f > hi {
			break
		}
		if len(out) == 0 || f != out[len(out)-1] {
			out = append(out, f)
		}
	}
	return out
}

// levels reads the levels off a latency sweep: a level is a run of points
// within plateauTol of the run's first point, and a knee is a rise of more
// than kneeTol from one run to the next that is itself a run of two or more
// points. A rise that never settles (the TLB's reach past the last cache,
// DRAM pages) makes no level.
func levels(pts []Point, plateauTol, kneeTol float64) []Level {
	type run struct{ from, to int }
	var runs []run
	for i := 0; i < len(pts); {
		j := i
		for j+1 < len(pts) && math.Abs(pts[j+1].Y-pts[i].Y) <= plateauTol*pts[i].Y {
			j++
		}
		runs = append(runs, run{i, j})
		i = j + 1
	}
	var out []Level
	cur := -1
	for r, ru := range runs {
		if ru.to == ru.from && r != 0 {
			continue // a transition point
		}
		lat := median(yOf(pts[ru.from : ru.to+1]))
		if cur >= 0 && lat < out[cur].Latency*(1+kneeTol) {
			// Not a new level: extend the current one.
			out[cur].lastInside = pts[ru.to].X
			continue
		}
		if cur >= 0 {
			out[cur].firstAfter = pts[lastIndexBefore(pts, ru.from, out[cur].lastInside)+1].X
		}
		out = append(out, Level{Latency: lat, lastInside: pts[ru.to].X})
		cur++
	}
	return out
}

func lastIndexBefore(pts []Point, limit int, x float64) int {
	i := 0
	for j := 0; j < limit; j++ {
		if pts[j].X <= x {
			i = j
		}
	}
	return i
}

func yOf(pts []Point) []float64 {
	out := make([]float64, len(pts))
	for i, p := range pts {
		out[i] = p.Y
	}
	return out
}

// CacheSweep is the chase's result: the sweep, its refinement points, and
// the levels.
type CacheSweep struct {
	Footprint []Point             `json:"footprint"` // bytes -> cycles per load
	Line      map[int][]Point     `json:"line"`      // per level: stride bytes -> cycles
	Ways      map[int][]Point     `json:"ways"`      // per level: slots in one set -> cycles
	Levels    []Level             `json:"levels"`
	Refine    []Point             `json:"refine,omitempty"` // the knees' bisection points, in order
	extra     map[float64]float64 // refinement points
}

const chaseStride = 64

// caches runs the footprint sweep, finds the levels, refines each knee by
// bisection, then measures each cache level's line size and ways.
func (p *prober) caches() (*CacheSweep, error) {
	return p.cachesWith(p.chase, p.o.MinFootprint, p.o.MaxFootprint)
}

// cachesWith is caches over the footprints lo to hi, following rings
// with chase.
func (p *prober) cachesWith(chase chaser, lo, hi int) (*CacheSweep, error) {
	cs := &CacheSweep{Line: map[int][]Point{}, Ways: map[int][]Point{}, extra: map[float64]float64{}}
	refining := false
	at := func(f int) (float64, error) {
		if y, ok := cs.extra[float64(f)]; ok {
			return y, nil
		}
		y, err := chase(ring(f, chaseStride, 1), max(f/chaseStride, 1))
		if err != nil {
			return 0, fmt.Errorf("pointer chase over %d bytes: %w", f, err)
		}
		// On a real device other work only ever slows a run down (and a
		// neighbour on the same core takes cache from the chase): each
		// point is the fastest of ChaseRepeats chases, taken some time
		// apart, which estimates the quiet machine's curve.
		for r := 1; r < p.o.ChaseRepeats; r++ {
			y2, err := chase(ring(f, chaseStride, 1), max(f/chaseStride, 1))
			if err != nil {
				return 0, fmt.Errorf("pointer chase over %d bytes: %w", f, err)
			}
			y = min(y, y2)
		}
		cs.extra[float64(f)] = y
		if refining {
			cs.Refine = append(cs.Refine, Point{float64(f), y})
		}
		return y, nil
	}
	// The sweep runs ChaseRepeats times over and keeps each point's
	// fastest: passes seconds apart are likelier than back-to-back chases
	// to find a moment when a neighbour is not sharing the core's caches.
	fps := footprints(lo, hi)
	ys := make([]float64, len(fps))
	for pass := range max(p.o.ChaseRepeats, 1) {
		for i, f := range fps {
			y, err := chase(ring(f, chaseStride, 1), max(f/chaseStride, 1))
			if err != nil {
				return nil, fmt.Errorf("pointer chase over %d bytes: %w", f, err)
			}
			if pass == 0 || y < ys[i] {
				ys[i] = y
			}
		}
	}
	for i, f := range fps {
		cs.extra[float64(f)] = ys[i]
		cs.Footprint = append(cs.Footprint, Point{float64(f), ys[i]})
	}
	lv := levels(smooth(cs.Footprint), p.o.PlateauTol, p.o.KneeTol)
	if len(lv) == 0 {
		return nil, fmt.Errorf("the pointer chase found no level")
	}
	// Refine each knee, to 1/64 of the footprint: the largest footprint
	// whose latency has risen less than KneeFrac of the way to the next
	// level's. The threshold sits low because a set-associative cache
	// starts missing as soon as its first sets overflow: one line in 64
	// past a 4-way cache's size already misses in five lines of those sets.
	refining = true
	for i := 0; i+1 < len(lv); i++ {
		// The threshold is also capped at twice the level's latency, so
		// that a next level far away (memory, where a busy machine hid the
		// level between) does not push it up the knee.
		mid := min(lv[i].Latency+p.o.KneeFrac*(lv[i+1].Latency-lv[i].Latency), 2*lv[i].Latency)
		// The bracket: the first point of the sweep past the level that
		// reaches the threshold, and the point before it. (A physically
		// indexed cache starts missing gradually, before its size, where
		// pages of the same colour overflow their sets.)
		lo, hi := int(lv[i].lastInside), int(lv[i].firstAfter) // the knee's bracket
		sm := smooth(cs.Footprint)
		for j, pt := range sm {
			if pt.X > lv[i].lastInside && pt.Y >= mid {
				hi, lo = int(pt.X), int(sm[j-1].X)
				break
			}
		}
		for hi-lo > max(lo/64, chaseStride) {
			m := (lo + hi) / 2 / chaseStride * chaseStride
			y, err := at(m)
			if err != nil {
				return nil, err
			}
			if y < mid {
				lo = m
			} else {
				hi = m
			}
		}
		lv[i].SizeBytes = lo
	}
	for i := range lv {
		lv[i].LatencyNS = lv[i].Latency * 1000 / float64(p.t.info.ClockMHz)
	}
	// Line size and ways of each cache level (not the last, memory).
	for i := 0; i+1 < len(lv); i++ {
		if lv[i].SizeBytes > p.o.MaxDetailBytes {
			continue // the line and ways sweeps would cost more than they are worth here
		}
		line, pts, err := p.lineSize(chase, lv, i)
		if err != nil {
			return nil, err
		}
		lv[i].LineBytes, cs.Line[i] = line, pts
		ways, wpts, err := p.ways(chase, lv, i)
		if err != nil {
			return nil, err
		}
		lv[i].Ways, cs.Ways[i] = ways, wpts
	}
	cs.Levels = lv
	return cs, nil
}

// lineSize chases a ring 1.5 times level i's size at strides from 16 to 512
// bytes, in random order. At a stride below the line, the other slots of a
// line hit while it is still held; from the line size on, every step
// misses. The line is the smallest stride within 15% of the full miss.
func (p *prober) lineSize(chase chaser, lv []Level, i int) (int, []Point, error) {
	f := lv[i].SizeBytes * 3 / 2
	if next := lv[i+1].SizeBytes; next > 0 && f > next*3/4 {
		f = int(math.Sqrt(float64(lv[i].SizeBytes) * float64(next)))
	}
	f = max(f/512*512, 1024)
	var pts []Point
	for s := 16; s <= 512; s *= 2 {
		y, err := chase(ring(f, s, 2), f/s)
		if err != nil {
			return 0, nil, fmt.Errorf("line-size chase over %d bytes at stride %d: %w", f, s, err)
		}
		pts = append(pts, Point{float64(s), y})
	}
	// Strides that leave fewer than 8 slots in the ring may all fit in
	// the cache (a 1 KiB texture cache): the full miss is the widest
	// stride with 8 slots or more, and the line is looked for among those.
	use := pts
	for len(use) > 1 && f/int(use[len(use)-1].X) < 8 {
		use = use[:len(use)-1]
	}
	miss, hit := use[len(use)-1].Y, lv[i].Latency
	for _, pt := range use {
		if pt.Y >= miss-0.15*(miss-hit) {
			return int(pt.X), pts, nil
		}
	}
	return 0, pts, nil
}

// ways chases k slots a level's size apart (one set of that level, and of
// every smaller power-of-two level) for k = 1, 2, ...: they hit while k is
// at most the associativity. A physically indexed cache cannot be measured
// this way (virtual strides do not keep to one set): 0, not measured.
func (p *prober) ways(chase chaser, lv []Level, i int) (int, []Point, error) {
	size := roundSize(lv[i].SizeBytes)
	pow2 := pow2Floor(size)
	mid := (lv[i].Latency + lv[i+1].Latency) / 2
	var pts []Point
	// The size, rounded as cache sizes are made, is a multiple of the way
	// size; so is the power of two below it if the way size is a power of
	// two (4 KiB pages of a CPU's L1, say).
	for _, stride := range []int{size, pow2} {
		pts = pts[:0]
		for k := 1; k <= p.o.MaxWays+1; k++ {
			y, err := chase(conflictRing(k, stride), k)
			if err != nil {
				return 0, nil, fmt.Errorf("associativity chase of %d slots %d bytes apart: %w", k, stride, err)
			}
			pts = append(pts, Point{float64(k), y})
			if y > mid {
				return k - 1, pts, nil
			}
		}
		if stride == pow2 {
			break
		}
	}
	return 0, pts, nil // more ways than the sweep tries, fully associative, or physically indexed
}

// smooth is the sweep through a running median of three, which removes a
// single point a busy moment raised and keeps every step of a staircase.
func smooth(pts []Point) []Point {
	out := append([]Point(nil), pts...)
	for i := 1; i+1 < len(pts); i++ {
		out[i].Y = median([]float64{pts[i-1].Y, pts[i].Y, pts[i+1].Y})
	}
	return out
}

// roundSize is the nearest size of the form m × 2^k with m odd and below
// 16 (16 KiB, 48 KiB, 96 KiB, 640 KiB, 1152 KiB ...): a knee found by
// bisection lies a little off the size, and the associativity test needs
// a stride that is a whole number of ways.
func roundSize(n int) int {
	best := n
	bestD := math.Inf(1)
	for m := 1; m < 16; m += 2 {
		for k := 0; m<<k <= 2*n; k++ {
			if d := math.Abs(float64(m<<k - n)); d < bestD {
				best, bestD = m<<k, d
			}
		}
	}
	return best
}
