package timing

import "container/heap"

// The engine loop's two queues: the engines by the time each next tries to
// issue, and events (a command processor starting a job, a shader warp's
// inputs arriving) by their time. The loop takes whichever is due first.

// engineHeap orders engines by the time they next try to issue (ties: the
// engine's index, for determinism). A typed binary heap whose entries carry
// their keys: the engine loop pops and pushes once per issued group, and
// comparing keys in place spares a visit to each engine's struct.
type engineHeap []heapEntry

type heapEntry struct {
	time  float64
	index int
	en    *engine
}

func (h engineHeap) Len() int { return len(h) }

func (a heapEntry) before(b heapEntry) bool {
	if a.time != b.time {
		return a.time < b.time
	}
	return a.index < b.index
}

func (h engineHeap) swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].en.heapIdx, h[j].en.heapIdx = i, j
}

func (h engineHeap) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !h[j].before(h[i]) {
			break
		}
		h.swap(i, j)
		j = i
	}
}

func (h engineHeap) down(i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && h[r].before(h[l]) {
			j = r
		}
		if !h[j].before(h[i]) {
			return
		}
		h.swap(i, j)
		i = j
	}
}

func (h *engineHeap) push(en *engine) {
	en.heapIdx = len(*h)
	*h = append(*h, heapEntry{en.time, en.index, en})
	h.up(en.heapIdx)
}

func (h *engineHeap) pop() *engine {
	old := *h
	n := len(old) - 1
	old.swap(0, n)
	en := old[n].en
	*h = old[:n]
	if n > 0 {
		h.down(0)
	}
	en.heapIdx = -1
	return en
}

// replaceTop puts en in the heap in place of its earliest engine, which it
// returns: a push and a pop in one sift.
func (h engineHeap) replaceTop(en *engine) *engine {
	old := h[0].en
	old.heapIdx = -1
	h[0] = heapEntry{en.time, en.index, en}
	en.heapIdx = 0
	h.down(0)
	return old
}

// fix restores the order after en's time decreased.
func (h engineHeap) fix(en *engine) {
	h[en.heapIdx].time = en.time
	h.up(en.heapIdx)
}

// At schedules f at time t of the simulation (after the work already due
// then). Sources use it to model fixed-function units and command
// processors: a tile's rasterisation finishing, a pass starting.
func (e *Engine) At(t float64, f func(t float64)) {
	e.eventSeq++
	heap.Push(&e.events, event{t: t, seq: e.eventSeq, f: f})
}

func (e *Engine) runEvent() {
	ev := heap.Pop(&e.events).(event)
	e.end = max(e.end, ev.t)
	if e.tr != nil && ev.t >= e.tr.next {
		e.tr.sample(ev.t)
	}
	ev.f(ev.t)
}

type event struct {
	t   float64
	seq uint64
	f   func(t float64)
}

// eventHeap orders events by time, then by when they were scheduled.
type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].t != h[j].t {
		return h[i].t < h[j].t
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	n := len(old)
	x := old[n-1]
	*h = old[:n-1]
	return x
}
