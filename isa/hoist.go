package isa

import "slices"

// hoistFetches reorders a block so that its memory fetches (messages that
// return results: loads, samples, atomics) issue as early as their
// operands allow: a list schedule that, among the groups whose dependences
// are met, takes first the fetches and the groups that compute their
// operands (an address, a coordinate), the rest after, each kind in program
// order. A compiler's scheduler does this so that fetch latency overlaps
// the independent work after it (Mesa's ir3 scheduler gives texture fetches
// and loads priority, ir3_sched.c): a wave with several independent fetches
// has them in flight together instead of waiting for each before issuing
// the next, so occupancy is not the only way their latency is hidden. A
// group (an IR instruction's operations, an expansion chain) moves whole;
// messages keep their order among themselves and barriers and the
// terminator stay put (buildDeps chains them), so the memory unit meets a
// warp's accesses in the order it recorded them.
func hoistFetches(bc *BlockCode) {
	ops := bc.Ops
	n := len(ops)
	if n < 3 {
		return
	}
	joined := func(a, b int) bool {
		x, y := &ops[a], &ops[b]
		if y.Inst >= 0 && x.Inst == y.Inst {
			return true
		}
		return y.Prev == int32(a)
	}
	// Units: runs of joined operations.
	unitOf := make([]int, n)
	var starts []int
	for i := range ops {
		if i == 0 || !joined(i-1, i) {
			starts = append(starts, i)
		}
		unitOf[i] = len(starts) - 1
	}
	u := len(starts)
	end := func(k int) int {
		if k+1 < u {
			return starts[k+1]
		}
		return n
	}
	deps := make([][]int, u)
	users := make([][]int, u)
	fetch := make([]bool, u)
	for k := range u {
		for i := starts[k]; i < end(k); i++ {
			o := &ops[i]
			if o.Kind == OpMessage && o.Inst >= 0 && len(o.Writes) > 0 {
				fetch[k] = true
			}
			for _, d := range bc.Preds[i] {
				if j := unitOf[d.On]; j != k {
					deps[k] = append(deps[k], j)
					users[j] = append(users[j], k)
				}
			}
		}
	}
	if !slices.Contains(fetch, true) {
		return
	}
	// Urgent: a fetch, or a unit a later fetch depends on.
	urgent := make([]bool, u)
	for k := u - 1; k >= 0; k-- {
		if fetch[k] {
			urgent[k] = true
		}
		if urgent[k] {
			for _, j := range deps[k] {
				urgent[j] = true
			}
		}
	}
	waiting := make([]int, u)
	for k := range u {
		waiting[k] = len(deps[k]) // duplicates count twice and are released twice
	}
	placed := make([]bool, u)
	order := make([]int, 0, u)
	for len(order) < u {
		pick := -1
		for k := range u {
			if placed[k] || waiting[k] > 0 {
				continue
			}
			if pick < 0 || (urgent[k] && !urgent[pick]) {
				pick = k
			}
			if urgent[pick] {
				break
			}
		}
		placed[pick] = true
		order = append(order, pick)
		for _, k := range users[pick] {
			waiting[k]--
		}
	}
	at := make([]int32, n)
	re := make([]MachineOp, 0, n)
	moved := false
	for p, k := range order {
		moved = moved || p != k
		for i := starts[k]; i < end(k); i++ {
			at[i] = int32(len(re))
			re = append(re, ops[i])
		}
	}
	if !moved {
		return
	}
	for i := range re {
		if re[i].Prev >= 0 {
			re[i].Prev = at[re[i].Prev]
		}
	}
	bc.Ops = re
	bc.Preds = buildDeps(re)
}
