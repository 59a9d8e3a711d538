package isa

import (
	"math"
	"sort"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/ir"
)

// Spilling. When the values live at some point of a kernel need more
// registers than a thread may have (max_registers_per_thread, less the
// private frame the model keeps in registers), the lowering keeps some
// values in the thread's scratch memory instead, as vendor compilers do
// (the Mali Offline Compiler reports "spilling"; Bifrost spills to
// thread-local storage through the load/store cache; ir3 spills to private
// memory; seed 003 §Unified Stores: spilling goes to main memory): a store
// after the value's definition, a reload just before each instruction that
// reads it (and at the end of a block for its terminator and phi copies).
//
// The choice is Chaitin's spill cost: a value's cost is its definition and
// uses, each weighted 10^(loop depth) of its block (capped at 10^6), and its
// benefit the points of excess pressure it is live across without being
// defined or read there; the values with the lowest cost per benefit go
// first. A value used in the innermost loop is thus spilled only when
// nothing live across the loop but used outside it can make room. Each
// round walks the program, spills at each point still over the budget the
// cheapest live values until it fits, and walks again with the reloads'
// registers counted, until no point is over or nothing more can go.
//
// Only values one instruction defines are candidates: phi destinations (a
// loop's accumulators), built-ins and what a dispatcher writes stay in
// registers. What the rounds cannot remove (the private frame alone over the
// budget, one instruction reading more than the budget) stays unmodelled
// excess, counted in SpillBytes as before.

// SpillMsg is one spill message of a group: a store of spilled values to
// the thread's scratch memory, or their reload. The executor never sees
// them (the values stay in its slots): the engine makes their addresses.
// A warp's scratch area holds Program.SpillBytes per lane; a run of values
// one instruction defines sits at Run × warp width bytes in it, each lane's
// values together (Stride bytes a lane), so that a warp's accesses to one
// run are contiguous, as drivers lay out thread-local storage.
type SpillMsg struct {
	Store bool
	// Run is the run's place: bytes per lane before it in the area.
	Run int32
	// Stride is the run's bytes per lane; Sub where this message starts
	// in a lane's part of the run, Bytes how many it moves.
	Stride, Sub, Bytes int32
	// Slots are the IR slots a reload writes (its readers wait for it).
	Slots []int32
}

// Addr is the byte offset of lane's access in a warp's scratch area of
// width lanes.
func (m *SpillMsg) Addr(width, lane int) uint64 {
	return uint64(m.Run)*uint64(width) + uint64(lane)*uint64(m.Stride) + uint64(m.Sub)
}

// spillPlan is the spill choice for one program on one GPU.
type spillPlan struct {
	regs   int // registers kept per thread (values and private frame), capped
	bytes  int // SpillBytes: scratch bytes per thread, plus unmodelled excess
	slots  []spillSlot
	active bool // some value is spilled
}

// spillSlot is where a spilled slot lives: its run's offset and size, its
// own offset and bytes in the run; run < 0 when the slot is not spilled.
type spillSlot struct {
	run, stride, sub, bytes int32
}

// maxSpillRounds bounds the rounds of the choice: each either brings every
// point under the budget or spills more values, and the last ones converge
// in a few.
const maxSpillRounds = 32

// minSpillBudget is the fewest registers left for values under which the
// model does not spill (the private frame takes the rest): such a kernel's
// frame would live in memory on hardware, which the model does not follow.
// assumed: the four registers one vec4 operation and its operands need.
const minSpillBudget = 4

// planSpills chooses the values to spill for g.
func planSpills(p *ir.Program, g *arch.GPU) *spillPlan {
	priv := 0
	if usesPrivate(p) {
		priv = (p.PrivateBytes + 3) / 4
	}
	need := p.RegistersOn(g.HalfRegisters)
	plan := &spillPlan{regs: max(need+priv, 1)}
	if need+priv <= g.MaxRegistersPerThread {
		return plan
	}
	plan.regs = g.MaxRegistersPerThread
	budget := float64(g.MaxRegistersPerThread - priv)
	if budget < minSpillBudget || p.Regs == 0 {
		plan.bytes = (need + priv - g.MaxRegistersPerThread) * 4
		return plan
	}
	lv := p.LivenessOn(g.HalfRegisters)
	n := p.Regs
	cand, cost := spillCandidates(p, lv)
	spilled := make([]bool, n)
	pinned := func(b, k int32, f func(int32)) {
		blk := &p.Blocks[b]
		if k == blk.End {
			for _, e := range blk.Succs {
				for _, m := range e.Moves {
					for j := int32(0); j < int32(m.N); j++ {
						f(m.Src + j)
					}
				}
			}
			lv.TermUses(blk, f)
			return
		}
		lv.Defs(&p.Code[k], f)
		lv.Uses(p, &p.Code[k], f)
	}
	isPinned := make([]bool, n)
	var pins []int32
	withPins := func(b, k int32, f func()) {
		pins = pins[:0]
		pinned(b, k, func(s int32) {
			if s >= 0 && int(s) < n && !isPinned[s] {
				isPinned[s] = true
				pins = append(pins, s)
			}
		})
		f()
		for _, s := range pins {
			isPinned[s] = false
		}
	}
	over := func(regs float64) bool { return regs > budget+1e-9 }
	for round := 0; round < maxSpillRounds; round++ {
		benefit := make([]float64, n)
		excess := false
		lv.Walk(p, spilled, func(b, k int32, regs float64, live func(func(int32))) {
			if !over(regs) {
				return
			}
			excess = true
			withPins(b, k, func() {
				live(func(s int32) {
					if cand[s] && !spilled[s] && !isPinned[s] {
						benefit[s]++
					}
				})
			})
		})
		if !excess {
			break
		}
		ratio := func(s int32) float64 { return cost[s] / benefit[s] }
		progress := false
		var pick []int32
		lv.Walk(p, spilled, func(b, k int32, regs float64, live func(func(int32))) {
			if !over(regs) {
				return
			}
			withPins(b, k, func() {
				pick = pick[:0]
				live(func(s int32) {
					switch {
					case spilled[s] && !isPinned[s]:
						regs -= lv.Width[s] // spilled earlier in this round
					case cand[s] && !spilled[s] && !isPinned[s] && benefit[s] > 0:
						pick = append(pick, s)
					}
				})
				sort.Slice(pick, func(i, j int) bool {
					ri, rj := ratio(pick[i]), ratio(pick[j])
					if ri != rj {
						return ri < rj
					}
					return pick[i] < pick[j]
				})
				for _, s := range pick {
					if !over(regs) {
						break
					}
					spilled[s], progress = true, true
					regs -= lv.Width[s]
				}
			})
		})
		if !progress {
			break
		}
	}
	left := 0.0
	lv.Walk(p, spilled, func(_, _ int32, regs float64, _ func(func(int32))) { left = max(left, regs) })
	kept := int(math.Ceil(left - 1e-9))
	plan.regs = min(max(kept+priv, 1), g.MaxRegistersPerThread)
	plan.bytes = max(kept+priv-g.MaxRegistersPerThread, 0) * 4
	plan.layout(p, lv, spilled)
	return plan
}

// spillCandidates marks the slots the choice may spill — counted slots one
// instruction defines, not phi destinations or what the dispatcher writes
// — and gives each its spill cost: its definition and uses, each 10^(loop
// depth) of its block.
func spillCandidates(p *ir.Program, lv *ir.Liveness) (cand []bool, cost []float64) {
	n := p.Regs
	cand = make([]bool, n)
	cost = make([]float64, n)
	defs := make([]int, n)
	weight := func(b int) float64 { return math.Pow(10, float64(min(p.Blocks[b].LoopDepth, 6))) }
	for b := range p.Blocks {
		blk := &p.Blocks[b]
		w := weight(b)
		for k := blk.Start; k < blk.End; k++ {
			in := &p.Code[k]
			lv.Defs(in, func(s int32) {
				if s >= 0 && int(s) < n {
					defs[s]++
					cost[s] += w
				}
			})
			lv.Uses(p, in, func(s int32) { cost[s] += w })
		}
		for _, e := range blk.Succs {
			for _, m := range e.Moves {
				for j := int32(0); j < int32(m.N); j++ {
					if s := m.Src + j; s >= 0 && int(s) < n {
						cost[s] += w
					}
					if s := m.Dst + j; s >= 0 && int(s) < n {
						defs[s] += 2 // never a candidate
					}
				}
			}
		}
		lv.TermUses(blk, func(s int32) { cost[s] += w })
	}
	for _, bs := range p.Builtins {
		for j := 0; j < max(bs.N, 1); j++ {
			if s := int(bs.Slot) + j; s >= 0 && s < n {
				defs[s] += 2
			}
		}
	}
	for _, c := range p.SpecConsts {
		if c.Slot >= 0 && int(c.Slot) < n {
			defs[c.Slot] += 2
		}
	}
	for s := range cand {
		cand[s] = lv.Counted[s] && defs[s] == 1
	}
	return cand, cost
}

// layout places the spilled slots in the scratch area: the spilled slots of
// one instruction's result that follow each other form a run, in program
// order; each slot takes its registers' 4-byte words.
func (sp *spillPlan) layout(p *ir.Program, lv *ir.Liveness, spilled []bool) {
	sp.slots = make([]spillSlot, p.Regs)
	for i := range sp.slots {
		sp.slots[i].run = -1
	}
	area := int32(0)
	words := func(s int32) int32 { return int32(max(math.Ceil(lv.Width[s]-1e-9), 1)) }
	for k := range p.Code {
		var run []int32
		flush := func() {
			if len(run) == 0 {
				return
			}
			var sub int32
			for _, s := range run {
				b := 4 * words(s)
				sp.slots[s] = spillSlot{run: area, sub: sub, bytes: b}
				sub += b
			}
			for _, s := range run {
				sp.slots[s].stride = sub
			}
			area += sub
			run = run[:0]
		}
		last := int32(-2)
		lv.Defs(&p.Code[k], func(s int32) {
			if s < 0 || int(s) >= len(spilled) || !spilled[s] || sp.slots[s].run >= 0 {
				flush()
				last = -2
				return
			}
			if s != last+1 {
				flush()
			}
			run = append(run, s)
			last = s
		})
		flush()
	}
	sp.active = area > 0
	sp.bytes += int(area)
}

// spilledRuns groups the spilled slots among slots (in order) by run, in
// first-appearance order, each group's slots ascending and unique.
func (sp *spillPlan) spilledRuns(slots []int32) [][]int32 {
	var out [][]int32
	for _, s := range slots {
		if s < 0 || int(s) >= len(sp.slots) || sp.slots[s].run < 0 {
			continue
		}
		placed := false
		for i, g := range out {
			if sp.slots[g[0]].run == sp.slots[s].run {
				dup := false
				for _, x := range g {
					dup = dup || x == s
				}
				if !dup {
					out[i] = append(g, s)
				}
				placed = true
				break
			}
		}
		if !placed {
			out = append(out, []int32{s})
		}
	}
	for _, g := range out {
		sort.Slice(g, func(i, j int) bool { return g[i] < g[j] })
	}
	return out
}

// spillOps appends the spill messages for the spilled slots among slots: one
// message per run, from the run's first slot among them to its last
// (reloads write them back; stores read them).
func (l *lowerer) spillOps(slots []int32, store bool) {
	sp := l.spill
	if sp == nil || !sp.active {
		return
	}
	for _, g := range sp.spilledRuns(slots) {
		first, last := sp.slots[g[0]], sp.slots[g[len(g)-1]]
		msg := &SpillMsg{Store: store, Run: first.run, Stride: first.stride, Sub: first.sub, Bytes: last.sub + last.bytes - first.sub}
		m := MachineOp{Inst: InstSpill, Kind: OpMessage, Cost: 1, Prev: -1, Space: ir.SpacePrivate, Bytes: int(msg.Bytes), Spill: msg}
		if store {
			m.Class = classIndex[PseudoStore]
			for _, s := range g {
				m.Reads = append(m.Reads, Operand{Slot: s, From: FromReg}) // staging registers: no read port
			}
		} else {
			m.Class = classIndex[PseudoLoad]
			msg.Slots = append([]int32(nil), g...)
			m.Writes = msg.Slots
		}
		l.ops = append(l.ops, m)
	}
}

// instUses and instDefs list the counted slots an IR instruction reads and
// writes, as the liveness counts them.
func (l *lowerer) instUses(i int32) []int32 {
	var out []int32
	l.lv.Uses(l.p, &l.p.Code[i], func(s int32) { out = append(out, s) })
	return out
}

func (l *lowerer) instDefs(i int32) []int32 {
	var out []int32
	l.lv.Defs(&l.p.Code[i], func(s int32) { out = append(out, s) })
	return out
}

// edgeUses lists what a block's terminator and the phi copies on its edges
// read.
func (l *lowerer) edgeUses(blk *ir.Block) []int32 {
	var out []int32
	for _, e := range blk.Succs {
		for _, m := range e.Moves {
			for j := int32(0); j < int32(m.N); j++ {
				out = append(out, m.Src+j)
			}
		}
	}
	l.lv.TermUses(blk, func(s int32) { out = append(out, s) })
	return out
}
