package midgard

import (
	"sort"

	"github.com/pocketgpu/pocketgpu/isa"
)

// Midgard lowering: VLIW bundles per thread (seed 000 §Software APIs: VLIW4
// with 4×32-bit registers; the units from the ops table's pipes). A list
// scheduler fills an ALU bundle's units in pipeline order — each vector pipe
// (vmul, vadd, vlut), with midgard.scalar_alus_per_pipe scalar units after
// the first pipes taking single-component operations those pipes can run —
// and a later unit may read an earlier unit's result in the same bundle.
// Loads and stores go in separate load/store bundles of up to
// midgard.messages_per_bundle, a texture operation alone; their results are
// read by a later bundle. The terminator takes the branch slot of the last
// ALU bundle when it can. A bundle issues for as long as its slowest unit
// (IssueCycles: a 4-thread group takes 4 cycles, one thread a cycle).
func schedule(bc *isa.BlockCode) []isa.Group {
	ops, preds := bc.Ops, bc.Preds
	n := len(ops)
	prod := isa.Producers(ops)
	mp := bc.GPU.Midgard
	npipes := len(bc.GPU.Pipes)
	type unit struct {
		pipe   int
		scalar bool
	}
	var units []unit
	for p := 0; p < npipes; p++ {
		units = append(units, unit{p, false})
		if p < mp.ScalarALUsPerPipe && p < npipes-1 {
			units = append(units, unit{p, true})
		}
	}
	succs := make([][]int32, n)
	npred := make([]int32, n)
	for i := range ops {
		npred[i] = int32(len(preds[i]))
		for _, d := range preds[i] {
			succs[d.On] = append(succs[d.On], int32(i))
		}
	}
	prio := isa.Priorities(ops, succs, bc.MessageWeight())
	bundle := make([]int32, n) // bundle of each placed op, -1 unplaced
	pos := make([]int, n)      // unit position within an ALU bundle
	unitOf := make([]int, n)
	for i := range bundle {
		bundle[i] = -1
		unitOf[i] = -1
	}
	var ready []int32
	for i := range ops {
		if npred[i] == 0 {
			ready = append(ready, int32(i))
		}
	}
	better := func(a, b int32) bool {
		if b < 0 {
			return true
		}
		if prio[a] != prio[b] {
			return prio[a] > prio[b]
		}
		return a < b
	}
	var groups []isa.Group
	var members []int32
	cur := int32(0)
	place := func(m int32, at int) {
		bundle[m], pos[m] = cur, at
		members = append(members, m)
		for i, r := range ready {
			if r == m {
				ready = append(ready[:i], ready[i+1:]...)
				break
			}
		}
		for _, q := range succs[m] {
			npred[q]--
			if npred[q] == 0 {
				ready = append(ready, q)
			}
		}
	}
	depsOK := func(m int32, at int) bool {
		for _, d := range preds[m] {
			q := d.On
			if bundle[q] < 0 {
				return false
			}
			// In the same bundle: an earlier unit's ALU result, or an
			// earlier message in program order; never a message's result.
			if bundle[q] == cur && (d.Msg || pos[q] >= at) {
				return false
			}
		}
		return true
	}
	done := 0
	for done < n {
		cur = int32(len(groups))
		members = members[:0]
		// The bundle's kind follows the best ready operation.
		best := int32(-1)
		for _, m := range ready {
			if better(m, best) {
				best = m
			}
		}
		msgBundle := ops[best].Kind == isa.OpMessage || ops[best].Kind == isa.OpBarrier
		if msgBundle {
			place(best, 0)
			if ops[best].Kind == isa.OpMessage && isa.ClassNames[ops[best].Class] != isa.PseudoTexture {
				for len(members) < mp.MessagesPerBundle {
					next := int32(-1)
					for _, m := range ready {
						o := &ops[m]
						if o.Kind == isa.OpMessage && isa.ClassNames[o.Class] != isa.PseudoTexture && depsOK(m, len(members)) && better(m, next) {
							next = m
						}
					}
					if next < 0 {
						break
					}
					place(next, len(members))
				}
			}
		} else {
			for u, un := range units {
				pick := int32(-1)
				for _, m := range ready {
					o := &ops[m]
					if o.Kind != isa.OpALU || !depsOK(m, u) || !canRun(o, un.pipe) || (un.scalar && o.Comps > 1) {
						continue
					}
					if better(m, pick) {
						pick = m
					}
				}
				if pick >= 0 {
					place(pick, u)
					unitOf[pick] = u
				}
			}
			// The branch slot, after every unit.
			for _, m := range ready {
				if ops[m].Kind == isa.OpBranch && depsOK(m, len(units)) {
					place(m, len(units))
					break
				}
			}
			if len(members) == 0 {
				// Only a terminator waiting on a message bundle: alone.
				sort.Slice(ready, func(a, b int) bool { return ready[a] < ready[b] })
				place(ready[0], len(units))
			}
		}
		done += len(members)
		ms := append([]int32(nil), members...)
		sort.Slice(ms, func(a, b int) bool { return ms[a] < ms[b] })
		var gr isa.Group
		c := cur
		bc.Fill(&gr, prod, ms, func(q int32) bool { return bundle[q] == c }, func(q int32) int {
			if u := unitOf[q]; u >= 0 && !units[u].scalar {
				return units[u].pipe
			}
			return -1
		}, nil)
		issue := 1.0
		vec, scal := 0, 0
		for _, m := range ms {
			o := &ops[m]
			if o.Kind == isa.OpALU {
				issue = max(issue, o.Cost)
				if u := unitOf[m]; u >= 0 && units[u].scalar {
					scal++
				} else {
					vec++
				}
			} else if o.Kind == isa.OpBranch {
				scal++
			}
		}
		if msgBundle {
			issue = bc.IssueCycles()
			gr.CodeBytes = int32(mp.MessageBundleBits / 8)
		} else {
			bits := mp.BundleHeaderBits + vec*mp.VectorOpBits + scal*mp.ScalarOpBits
			bits = (bits + mp.BundleAlignBits - 1) / mp.BundleAlignBits * mp.BundleAlignBits
			gr.CodeBytes = int32(bits / 8)
		}
		lat := bc.GPU.Execution.ALULatencyCycles
		if gr.SFU {
			lat = max(lat, bc.GPU.Execution.SFULatencyCycles)
		}
		gr.Issue = float32(issue)
		gr.Latency = float32(max(issue-1+float64(lat), 1))
		groups = append(groups, gr)
	}
	isa.AssignInsts(groups, ops, func(q int32) int { return int(bundle[q]) })
	return groups
}

func canRun(o *isa.MachineOp, pipe int) bool {
	for _, p := range o.Pipes {
		if p == pipe {
			return true
		}
	}
	return false
}
