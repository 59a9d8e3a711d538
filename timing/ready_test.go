package timing

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestReadyQueueHeapMatchesScan drives a heap-kept queue and a flat one
// through the same random adds, removals and updates, and asks both for
// the warp to issue at random times: the heap must pick exactly as the
// round-robin scan does (issue-now candidates, and otherwise the earliest
// start, ties to the lowest round-robin rank), busy pipes included.
func TestReadyQueueHeapMatchesScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	heap, flat := &readyQueue{}, &readyQueue{flat: true}
	adaptive := &readyQueue{flat: true, adapt: true} // switches form as it goes
	switches, wasFlat := 0, true
	pipeFree := make([]float64, 3)
	picks := 0
	for step := 0; step < 200000; step++ {
		n := len(flat.key)
		switch op := rng.IntN(20); {
		case op == 0 && n < 64:
			heap.add()
			flat.add()
			adaptive.add()
		case op == 1 && n > 0:
			i := rng.IntN(n)
			heap.remove(i)
			flat.remove(i)
			adaptive.remove(i)
		case op < 10 && n > 0:
			i := rng.IntN(n)
			key := math.Inf(1)
			if rng.IntN(8) > 0 {
				key = float64(rng.IntN(40)) // small range: many ties
			}
			pipes := uint32(rng.IntN(8))
			heap.set(i, key, pipes)
			flat.set(i, key, pipes)
			adaptive.set(i, key, pipes)
		case op < 12:
			pipeFree[rng.IntN(3)] = float64(rng.IntN(40))
		default:
			if n == 0 {
				continue
			}
			from, now, floor := rng.IntN(n), float64(rng.IntN(40)), float64(rng.IntN(40))
			if a, b := heap.first(from, now, pipeFree), flat.first(from, now, pipeFree); a != b {
				t.Fatalf("step %d: first(from %d, t %g) heap %d, scan %d", step, from, now, a, b)
			}
			if a, b := adaptive.first(from, now, pipeFree), flat.first(from, now, pipeFree); a != b {
				t.Fatalf("step %d: first(from %d, t %g) adaptive (flat %v) %d, scan %d", step, from, now, adaptive.flat, a, b)
			}
			if adaptive.flat != wasFlat {
				switches, wasFlat = switches+1, adaptive.flat
			}
			ai, as := heap.earliest(from, floor, pipeFree)
			bi, bs := flat.earliest(from, floor, pipeFree)
			if ai != bi || (ai >= 0 && as != bs) {
				t.Fatalf("step %d: earliest(from %d, floor %g) heap %d@%g, scan %d@%g", step, from, floor, ai, as, bi, bs)
			}
			ci, cs := adaptive.earliest(from, floor, pipeFree)
			if ci != bi || (ci >= 0 && cs != bs) {
				t.Fatalf("step %d: earliest(from %d, floor %g) adaptive %d@%g, scan %d@%g", step, from, floor, ci, cs, bi, bs)
			}
			picks++
		}
	}
	if switches < 2 {
		t.Errorf("the adaptive queue switched form %d times; the test means to cover both", switches)
	}
	if picks < 10000 {
		t.Fatalf("only %d picks compared", picks)
	}
}
