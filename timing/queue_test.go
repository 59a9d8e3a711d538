package timing

import (
	"math/rand/v2"
	"testing"
)

// The engine heap gives engines in order of time, ties by index, through
// pushes, pops, a top replaced in one sift and times brought forward.
func TestEngineHeap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 1))
	var h engineHeap
	var all []*engine
	for i := 0; i < 40; i++ {
		en := &engine{index: i, time: float64(rng.IntN(10)), heapIdx: -1}
		all = append(all, en)
		h.push(en)
	}
	// Bring some forward; swap the earliest for a late one.
	for _, en := range all[:10] {
		en.time -= 3
		h.fix(en)
	}
	late := &engine{index: 99, time: 100, heapIdx: -1}
	first := h.replaceTop(late)
	if first.heapIdx != -1 || late.heapIdx < 0 {
		t.Fatalf("replaceTop: the old top's index %d, the new one's %d", first.heapIdx, late.heapIdx)
	}
	prev := heapEntry{first.time, first.index, first}
	for h.Len() > 0 {
		en := h.pop()
		cur := heapEntry{en.time, en.index, en}
		if cur.before(prev) {
			t.Fatalf("engine %d at %v came after engine %d at %v", en.index, en.time, prev.index, prev.time)
		}
		if en.heapIdx != -1 {
			t.Fatalf("popped engine %d still has heap index %d", en.index, en.heapIdx)
		}
		prev = cur
	}
	if prev.en != late {
		t.Errorf("the last engine out is %d, want the late one", prev.index)
	}
}

// Events run in time order, and those due at the same time in the order
// they were scheduled; an event may schedule more.
func TestEventOrder(t *testing.T) {
	e := &Engine{}
	var got []int
	add := func(at float64, id int) {
		e.At(at, func(float64) { got = append(got, id) })
	}
	add(5, 1)
	add(2, 2)
	add(5, 3)
	e.At(2, func(now float64) { add(now, 4); add(1, 5) }) // runs after 2: 4 at 2, 5 at 1 (late)
	add(0, 6)
	for e.events.Len() > 0 {
		e.runEvent()
	}
	if want := []int{6, 2, 5, 4, 1, 3}; !equalInts(got, want) {
		t.Errorf("events ran in order %v, want %v", got, want)
	}
	if e.end != 5 {
		t.Errorf("end %v, want the last event's 5", e.end)
	}
}
