package isa

import (
	"github.com/pocketgpu/pocketgpu/ir"
)

// prepare lowers every block's instructions and computes the liveness the
// phi-copy coalescing needs.
func (l *lowerer) prepare() ([][]MachineOp, error) {
	insts := make([][]MachineOp, len(l.p.Blocks))
	for b := range l.p.Blocks {
		blk := &l.p.Blocks[b]
		l.ops = nil
		for i := blk.Start; i < blk.End; i++ {
			if l.spill != nil {
				l.spillOps(l.instUses(i), false)
			}
			if err := l.instOps(i); err != nil {
				return nil, err
			}
			if l.spill != nil {
				l.spillOps(l.instDefs(i), true)
			}
		}
		insts[b] = l.ops
	}
	l.live = l.liveIn(insts)
	return insts, nil
}

// blockOps completes block b: phi copies (coalesced where the register
// allocator would give source and destination one register) and the
// terminator, then the dependences.
func (l *lowerer) blockOps(b int32, insts []MachineOp) (*BlockCode, error) {
	l.ops = append([]MachineOp(nil), insts...)
	blk := &l.p.Blocks[b]
	if l.spill != nil {
		l.spillOps(l.edgeUses(blk), false)
	}
	l.phiCopies(blk)
	if err := l.terminator(blk); err != nil {
		return nil, err
	}
	bc := &BlockCode{GPU: l.g, Width: l.w, Ops: l.ops, l: l}
	bc.Preds = buildDeps(bc.Ops)
	return bc, nil
}

// phiCopies lowers the block's out-edge copies to moves. A copy dst ← src is
// free (coalesced) when src is computed in this block by an ALU operation,
// nothing in the block reads dst after that, no other copy reads dst, and
// dst is not live into another successor: then the allocator gives both one
// register, and the producing operation writes dst too. Copies on every
// out-edge are charged to the block (the engine runs groups per block, not
// per edge); an edge whose copies overlap goes through scratch registers,
// two moves a copy.
func (l *lowerer) phiCopies(blk *ir.Block) {
	type cp struct {
		dst, src int32
		overlap  bool
		to       int32
	}
	var copies []cp
	seen := map[int32]bool{}
	readByCopy := map[int32]bool{}
	for _, e := range blk.Succs {
		for _, m := range e.Moves {
			for j := int32(0); j < int32(m.N); j++ {
				readByCopy[m.Src+j] = true
				if seen[m.Dst+j] {
					continue
				}
				seen[m.Dst+j] = true
				copies = append(copies, cp{m.Dst + j, m.Src + j, e.Overlap, e.To})
			}
		}
	}
	if len(copies) == 0 {
		return
	}
	n := len(l.ops)
	lastW := map[int32]int{}
	lastR := map[int32]int{}
	for i := 0; i < n; i++ {
		for _, s := range l.ops[i].Writes {
			lastW[s] = i
		}
		for _, r := range l.ops[i].Reads {
			lastR[r.Slot] = i
		}
	}
	cond := int32(-1)
	if blk.Term.Kind == ir.TermCond || blk.Term.Kind == ir.TermSwitch {
		cond = blk.Term.Cond
	}
	// A source coalesces with one destination per successor: the copies
	// of a loop's back edge and of its exit edge (LCSSA phis) take the
	// same value to two places that are never live together, so an
	// allocator gives all three one register.
	type use struct{ src, to int32 }
	used := map[use]bool{}
	for _, c := range copies {
		w, ok := lastW[c.src]
		coalesce := ok && !c.overlap && l.ops[w].Kind == OpALU && !used[use{c.src, c.to}] && !readByCopy[c.dst] && c.dst != cond
		if coalesce {
			if r, read := lastR[c.dst]; read && r > w {
				coalesce = false
			}
		}
		if coalesce {
			for _, e := range blk.Succs {
				if e.To != c.to && l.live[e.To].has(c.dst) && !writesOnEdge(e, c.dst) {
					coalesce = false
				}
			}
		}
		if coalesce {
			used[use{c.src, c.to}] = true
			l.ops[w].Writes = append(l.ops[w].Writes, c.dst)
			continue
		}
		moves := 1
		if c.overlap {
			moves = 2
		}
		for k := 0; k < moves; k++ {
			v, err := l.classCost("move", 1)
			if err != nil {
				continue
			}
			m := MachineOp{Inst: -1, Class: classIndex["move"], Kind: OpALU, Pipes: v.pipes, Cost: v.cost, Comps: 1, Prev: -1, WWords: 1}
			if k == 0 {
				m.Reads = l.span(c.src, 1, 32)
			} else {
				m.Prev = int32(len(l.ops) - 1)
			}
			if k == moves-1 {
				m.Writes = []int32{c.dst}
			}
			l.ops = append(l.ops, m)
		}
	}
}

func writesOnEdge(e ir.Edge, s int32) bool {
	for _, m := range e.Moves {
		if s >= m.Dst && s < m.Dst+int32(m.N) {
			return true
		}
	}
	return false
}

// terminator appends the block's terminator: a branch (switches compare each
// case first), a return, or a barrier. Branches cost an issue slot, except
// the jump of a block that does nothing else (a loop's continue block, an
// entry or merge block with no code): compilers thread such jumps, so
// the predecessors branch straight on and the block issues nothing.
func (l *lowerer) terminator(blk *ir.Block) error {
	t := blk.Term
	if t.Kind == ir.TermBranch && len(l.ops) == 0 {
		return nil
	}
	var reads []Operand
	if t.Kind == ir.TermCond || t.Kind == ir.TermSwitch {
		reads = l.span(t.Cond, 1, 32)
	}
	if t.Kind == ir.TermSwitch && len(t.Cases) > 0 {
		if err := l.chain(-2, repeat("int32_cmp", len(t.Cases)), 1, reads, nil, 1); err != nil {
			return err
		}
	}
	kind, class := OpBranch, PseudoBranch
	if t.Kind == ir.TermBarrier {
		kind, class = OpBarrier, PseudoBarrier
	}
	l.ops = append(l.ops, MachineOp{Inst: -2, Class: classIndex[class], Kind: kind, Cost: 1, Reads: reads, Prev: -1})
	return nil
}

// buildDeps finds each operation's dependences: data (read after write),
// order (write after read or write), the chain of an expansion, program
// order among messages and among private-frame moves, and the terminator
// after everything.
func buildDeps(ops []MachineOp) [][]Dep {
	preds := make([][]Dep, len(ops))
	lastW := map[int32]int32{}
	readers := map[int32][]int32{}
	lastMsg, lastPriv := int32(-1), int32(-1)
	for i := range ops {
		o := &ops[i]
		var ds []Dep
		add := func(on int32, msg bool) {
			if on < 0 || on == int32(i) {
				return
			}
			for k := range ds {
				if ds[k].On == on {
					ds[k].Msg = ds[k].Msg || msg
					return
				}
			}
			ds = append(ds, Dep{on, msg})
		}
		if o.Inst == -2 {
			for j := 0; j < i; j++ {
				add(int32(j), false)
			}
		}
		add(o.Prev, false)
		for _, r := range o.Reads {
			if w, ok := lastW[r.Slot]; ok {
				add(w, ops[w].Kind == OpMessage)
			}
		}
		for _, s := range o.Writes {
			if w, ok := lastW[s]; ok {
				add(w, ops[w].Kind == OpMessage)
			}
			for _, r := range readers[s] {
				add(r, false)
			}
		}
		if o.Kind == OpMessage || o.Kind == OpBarrier {
			add(lastMsg, false)
			lastMsg = int32(i)
		}
		if o.Priv {
			add(lastPriv, false)
			lastPriv = int32(i)
		}
		preds[i] = ds
		for _, r := range o.Reads {
			readers[r.Slot] = append(readers[r.Slot], int32(i))
		}
		for _, s := range o.Writes {
			lastW[s] = int32(i)
			readers[s] = readers[s][:0]
		}
	}
	return preds
}

// bitset is a set of slots.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }
func (b bitset) has(s int32) bool {
	return s >= 0 && int(s>>6) < len(b) && b[s>>6]&(1<<(uint(s)&63)) != 0
}
func (b bitset) set(s int32)   { b[s>>6] |= 1 << (uint(s) & 63) }
func (b bitset) clear(s int32) { b[s>>6] &^= 1 << (uint(s) & 63) }
func (b bitset) equal(o bitset) bool {
	for k := range b {
		if b[k] != o[k] {
			return false
		}
	}
	return true
}

// liveIn computes the slots live on entry to each block from the lowered
// instructions, the terminators' conditions and the edge copies.
func (l *lowerer) liveIn(insts [][]MachineOp) []bitset {
	p := l.p
	n := max(p.Regs, 1)
	nb := len(p.Blocks)
	use := make([]bitset, nb)
	def := make([]bitset, nb)
	in := make([]bitset, nb)
	for b := range p.Blocks {
		use[b], def[b], in[b] = newBitset(n), newBitset(n), newBitset(n)
		for _, o := range insts[b] {
			for _, r := range o.Reads {
				if int(r.Slot) < n && l.fromOf(r.Slot) == FromReg && !def[b].has(r.Slot) {
					use[b].set(r.Slot)
				}
			}
			for _, s := range o.Writes {
				if int(s) < n {
					def[b].set(s)
				}
			}
		}
		t := p.Blocks[b].Term
		if (t.Kind == ir.TermCond || t.Kind == ir.TermSwitch) && int(t.Cond) < n && t.Cond >= 0 && !def[b].has(t.Cond) {
			use[b].set(t.Cond)
		}
	}
	for changed := true; changed; {
		changed = false
		for b := nb - 1; b >= 0; b-- {
			out := newBitset(n)
			for _, e := range p.Blocks[b].Succs {
				s := in[e.To]
				for k := range out {
					out[k] |= s[k]
				}
				for _, m := range e.Moves {
					for j := int32(0); j < int32(m.N); j++ {
						if int(m.Dst+j) < n {
							out.clear(m.Dst + j)
						}
					}
				}
				for _, m := range e.Moves {
					for j := int32(0); j < int32(m.N); j++ {
						if int(m.Src+j) < n && l.fromOf(m.Src+j) == FromReg {
							out.set(m.Src + j)
						}
					}
				}
			}
			nw := newBitset(n)
			for k := range nw {
				nw[k] = use[b][k] | (out[k] &^ def[b][k])
			}
			if !nw.equal(in[b]) {
				in[b] = nw
				changed = true
			}
		}
	}
	return in
}
