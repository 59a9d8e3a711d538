package ir

import (
	"math"
	"slices"
	"strings"
)

// Registers estimates the 32-bit registers a thread needs: the most slots
// live at once, counting 64-bit values twice, after a liveness analysis over
// the blocks; the 8- and 16-bit lanes of a vector pack into 32-bit
// registers. Constants and arguments are not counted (GPUs keep them in
// uniform or constant registers). It is an estimate of what a vendor
// compiler would allocate, not a register allocation.
func (p *Program) Registers() int { return p.RegistersOn(false) }

// RegistersOn is Registers on a GPU that keeps scalar 8- and 16-bit values
// in half registers, two to a 32-bit one, when halfRegs (Adreno: its half
// registers alias the full ones, Mesa ir3's merged register file on
// a6xx); without it such a scalar takes a whole register.
func (p *Program) RegistersOn(halfRegs bool) int {
	if p.Regs == 0 {
		return 1
	}
	lv := p.LivenessOn(halfRegs)
	best := 0.0
	lv.Walk(p, nil, func(_ int32, _ int32, regs float64, _ func(func(int32))) {
		best = max(best, regs)
	})
	return max(int(math.Ceil(best-1e-9)), 1)
}

// Liveness is the register-pressure view of a program that Registers
// takes: which slots take a register, how many registers each takes, and
// the slots live out of each block (phi copies' sources included, as they
// are read on the edge). The lowering's spill choice (package isa) walks
// the same points with Walk.
type Liveness struct {
	// Width is each slot's size in 32-bit registers (2 for 64-bit
	// values, a fraction for a vector's packed 8- and 16-bit lanes).
	Width []float64
	// Counted marks the slots that take a register: not constants,
	// arguments, the constant-data address, or slots nothing writes.
	Counted []bool
	// LiveOut lists, per block, the counted slots live at its end, in
	// ascending order.
	LiveOut [][]int32
}

// Uses calls f for each counted slot instruction in reads (the
// components it reads of each operand, an extended instruction's
// arguments, an image operation's coordinates and operands).
func (lv *Liveness) Uses(p *Program, in *Inst, f func(s int32)) {
	n := len(lv.Counted)
	for k, s := range in.Src {
		if s < 0 {
			continue
		}
		cnt := int32(in.N)
		if (in.Op == OpSelect && k == 0 && in.Imm == 1) || in.Op == OpBroadcast || in.Op.isAddr() ||
			(in.Op.isMem() && k == 0) || in.Op == OpAtomic || in.Op == OpCopyMemory || (in.Op == OpExtractDyn && k == 1) ||
			(in.Op == OpInsertDyn && k > 0) {
			cnt = 1
		}
		if in.Op == OpExtractDyn && k == 0 {
			cnt = int32(in.Imm)
		}
		for j := int32(0); j < cnt; j++ {
			if int(s+j) < n && lv.Counted[s+j] {
				f(s + j)
			}
		}
	}
	if in.Op == OpExt && int(in.Aux) < len(p.Ext) {
		c := &p.Ext[in.Aux]
		for k, a := range c.Args {
			for j := 0; j < c.ArgN[k]; j++ {
				if a >= 0 && int(a)+j < n && lv.Counted[int(a)+j] {
					f(a + int32(j))
				}
			}
		}
	}
	if in.Op == OpImage && int(in.Aux) < len(p.Images) {
		p.Images[in.Aux].Reads(func(s int32) {
			if s >= 0 && int(s) < n && lv.Counted[s] {
				f(s)
			}
		})
	}
}

// Defs calls f for each slot instruction in writes (both results of an
// operation with two, such as a sum and its carry).
func (lv *Liveness) Defs(in *Inst, f func(s int32)) {
	if in.Dst < 0 {
		return
	}
	cnt := int32(in.N)
	switch in.Op {
	case OpIAddCarry32, OpIAddCarry64, OpISubBorrow32, OpISubBorrow64, OpUMulExtended32, OpUMulExtended64, OpSMulExtended32, OpSMulExtended64:
		cnt *= 2
	}
	for j := int32(0); j < cnt; j++ {
		f(in.Dst + j)
	}
}

// TermUses calls f with the counted slot a block's terminator reads (the
// condition of a conditional branch or switch), if any.
func (lv *Liveness) TermUses(b *Block, f func(s int32)) {
	if b.Term.Kind == TermCond || b.Term.Kind == TermSwitch {
		if s := b.Term.Cond; s >= 0 && int(s) < len(lv.Counted) && lv.Counted[s] {
			f(s)
		}
	}
}

// Liveness computes the program's liveness over its blocks.
func (p *Program) Liveness() *Liveness { return p.LivenessOn(false) }

// LivenessOn is Liveness with scalar 8- and 16-bit values taking half a
// register when halfRegs (RegistersOn).
func (p *Program) LivenessOn(halfRegs bool) *Liveness {
	n := p.Regs
	lv := &Liveness{Width: p.slotWidths(halfRegs), Counted: make([]bool, n), LiveOut: make([][]int32, len(p.Blocks))}
	for i := range lv.Counted {
		lv.Counted[i] = true
	}
	for _, c := range p.Consts {
		if c.Slot >= 0 && int(c.Slot) < n {
			lv.Counted[c.Slot] = false
		}
	}
	for _, par := range p.Params {
		slots := 1
		if par.Type != nil {
			slots = max(par.Type.Slots, 1)
		}
		for k := 0; k < slots && par.Slot >= 0 && int(par.Slot)+k < n; k++ {
			lv.Counted[int(par.Slot)+k] = false
		}
	}
	if p.ConstDataSlot >= 0 && int(p.ConstDataSlot) < n {
		lv.Counted[p.ConstDataSlot] = false
	}
	// A slot nothing writes holds an undefined value (the lanes a
	// shuffle leaves undef, read by the vector operation after it): it
	// needs no register, however long it would seem live.
	for s, u := range p.unwritten() {
		if u {
			lv.Counted[s] = false
		}
	}
	type set map[int32]bool
	nb := len(p.Blocks)
	liveIn := make([]set, nb)
	liveOut := make([]set, nb)
	for i := range liveIn {
		liveIn[i], liveOut[i] = set{}, set{}
	}
	for changed := true; changed; {
		changed = false
		for i := nb - 1; i >= 0; i-- {
			b := &p.Blocks[i]
			out := set{}
			for _, e := range b.Succs {
				for s := range liveIn[e.To] {
					out[s] = true
				}
				// Phi copies read their sources at the edge and define
				// their destinations there.
				for _, m := range e.Moves {
					for j := int32(0); j < int32(m.N); j++ {
						delete(out, m.Dst+j)
					}
				}
				for _, m := range e.Moves {
					for j := int32(0); j < int32(m.N); j++ {
						if s := m.Src + j; s >= 0 && int(s) < n && lv.Counted[s] {
							out[s] = true
						}
					}
				}
			}
			in := set{}
			for s := range out {
				in[s] = true
			}
			lv.TermUses(b, func(s int32) { in[s] = true })
			for k := b.End - 1; k >= b.Start; k-- {
				lv.Defs(&p.Code[k], func(s int32) { delete(in, s) })
				lv.Uses(p, &p.Code[k], func(s int32) { in[s] = true })
			}
			if len(out) != len(liveOut[i]) || len(in) != len(liveIn[i]) {
				changed = true
			}
			liveOut[i], liveIn[i] = out, in
		}
	}
	for i, s := range liveOut {
		l := make([]int32, 0, len(s))
		for x := range s {
			l = append(l, x)
		}
		slices.Sort(l)
		lv.LiveOut[i] = l
	}
	return lv
}

// Walk visits every point of every block where Registers counts the live
// registers, from each block's end backward: the block's end (its live-out
// slots and the terminator's condition, at instruction index End), and for
// each instruction the point where its results are written (the slots live
// after it and its results) and the point before it (the slots live before
// it). visit gets the block, the instruction (End for the block's end), the
// registers live and a function that lists the live slots.
//
// A slot spilled[s] (nil: none) lives in memory: it takes a register only
// where it is written (until its store) and where it is read (reloaded just
// before its reader, and at the block's end for the terminator and the phi
// copies on the block's edges).
func (lv *Liveness) Walk(p *Program, spilled []bool, visit func(block, inst int32, regs float64, live func(func(int32)))) {
	n := len(lv.Counted)
	isSpilled := func(s int32) bool { return spilled != nil && int(s) < len(spilled) && spilled[s] }
	live := make([]bool, n)
	var list []int32 // the live slots, unordered (with stale entries removed lazily)
	regs := 0.0
	add := func(s int32) {
		if s >= 0 && int(s) < n && !live[s] {
			live[s] = true
			list = append(list, s)
			regs += lv.Width[s]
		}
	}
	del := func(s int32) {
		if s >= 0 && int(s) < n && live[s] {
			live[s] = false
			regs -= lv.Width[s]
		}
	}
	each := func(f func(int32)) {
		k := 0
		for _, s := range list {
			if live[s] {
				list[k] = s
				k++
				f(s)
			}
		}
		list = list[:k]
	}
	var reloaded []int32
	for bi := range p.Blocks {
		b := &p.Blocks[bi]
		for _, s := range list {
			live[s] = false
		}
		list, regs = list[:0], 0
		// The block's end: what leaves the block in registers, and the
		// values its terminator and phi copies read (spilled ones
		// reloaded for them).
		edge := map[int32]bool{}
		for _, e := range b.Succs {
			for _, m := range e.Moves {
				for j := int32(0); j < int32(m.N); j++ {
					edge[m.Src+j] = true
				}
			}
		}
		lv.TermUses(b, func(s int32) { edge[s] = true })
		for _, s := range lv.LiveOut[bi] {
			if !isSpilled(s) || edge[s] {
				add(s)
			}
		}
		lv.TermUses(b, add)
		visit(int32(bi), b.End, clean(regs), each)
		for s := range edge {
			if isSpilled(s) {
				del(s)
			}
		}
		for k := b.End - 1; k >= b.Start; k-- {
			in := &p.Code[k]
			lv.Defs(in, add)
			visit(int32(bi), k, clean(regs), each)
			lv.Defs(in, del)
			reloaded = reloaded[:0]
			lv.Uses(p, in, func(s int32) {
				if isSpilled(s) && !live[s] {
					reloaded = append(reloaded, s)
				}
				add(s)
			})
			visit(int32(bi), k, clean(regs), each)
			for _, s := range reloaded {
				del(s)
			}
		}
	}
}

// clean drops the rounding error that adding and removing fractional
// widths leaves.
func clean(x float64) float64 { return math.Round(x*64) / 64 }

// unwritten marks the slots that no instruction, phi copy or dispatcher
// writes: the slots an operation's result covers, as Registers counts
// its definitions, phi copies' destinations and the dispatcher's
// built-ins; what the auxiliary tables write (extended instructions,
// atomics, images) errs towards written.
func (p *Program) unwritten() []bool {
	n := p.Regs
	u := make([]bool, n)
	for i := range u {
		u[i] = true
	}
	mark := func(dst int32, cnt int) {
		for j := 0; j < max(cnt, 1); j++ {
			if s := int(dst) + j; s >= 0 && s < n {
				u[s] = false
			}
		}
	}
	for i := range p.Code {
		in := &p.Code[i]
		if in.Dst >= 0 {
			cnt := int(in.N)
			switch in.Op {
			case OpIAddCarry32, OpIAddCarry64, OpISubBorrow32, OpISubBorrow64, OpUMulExtended32, OpUMulExtended64, OpSMulExtended32, OpSMulExtended64:
				cnt *= 2
			}
			mark(in.Dst, cnt)
		}
	}
	for i := range p.Ext {
		if p.Ext[i].Dst >= 0 {
			mark(p.Ext[i].Dst, 2*p.Ext[i].N)
		}
	}
	for i := range p.Atomics {
		if p.Atomics[i].Dst >= 0 {
			mark(p.Atomics[i].Dst, 2)
		}
	}
	for i := range p.Images {
		if p.Images[i].Dst >= 0 {
			mark(p.Images[i].Dst, max(p.Images[i].N, 4))
		}
	}
	for i := range p.Blocks {
		for _, e := range p.Blocks[i].Succs {
			for _, m := range e.Moves {
				mark(m.Dst, int(m.N))
			}
		}
	}
	for _, b := range p.Builtins {
		mark(b.Slot, b.N)
	}
	for _, c := range p.SpecConsts {
		mark(c.Slot, 1)
	}
	return u
}

// slotWidths gives each slot's size in 32-bit registers, from the
// operations that write it (64-bit types and addresses take two).
func (p *Program) slotWidths(halfRegs bool) []float64 {
	w := make([]float64, p.Regs)
	for i := range w {
		w[i] = -1 // not known yet
	}
	mark := func(s int32, n int, width float64) {
		for j := 0; j < n && s >= 0 && int(s)+j < len(w); j++ {
			w[int(s)+j] = max(w[int(s)+j], width)
		}
	}
	for i := range p.Code {
		in := &p.Code[i]
		if in.Dst < 0 {
			continue
		}
		width := 1.0
		switch {
		case in.Op.isAddr() && in.Space != SpaceGlobal:
			// Local and private addresses are 32-bit offsets into the
			// work-group's or the thread's window, as GPU compilers
			// address them (Mesa lowers shared and scratch memory with
			// nir_address_format_32bit_offset), though SPIR-V gives
			// every pointer 64 bits: one register.
			width = 1
		case in.Op.isAddr() || in.Op == OpLoadGlobal64 || in.Op == OpLoadLocal64 || in.Op == OpLoadPrivate64:
			width = 2
		case halfRegs && isNarrowLoad(in.Op):
			width = 0.5 // a half register a lane
		case in.Op >= opFirstGenerated:
			// Results of 8 and 16 bits pack into 32-bit registers when
			// they are a vector's lanes (uchar4 in one, half2 in one), as
			// the vendors' compilers pack them; a scalar takes a whole
			// register, or half of one where the GPU has half registers.
			switch bits := in.Op.resultBits(); {
			case bits == 64:
				width = 2
			case bits > 0 && bits < 32 && in.N > 1:
				width = math.Ceil(float64(int(in.N)*bits)/32) / float64(in.N)
				if halfRegs {
					width = math.Min(width, 0.5)
				}
			case bits > 0 && bits < 32 && halfRegs:
				width = 0.5
			}
		}
		mark(in.Dst, int(in.N), width)
	}
	// Phi copies give their destinations their sources' widths (a loop's
	// accumulators are phi destinations).
	for changed := true; changed; {
		changed = false
		for i := range p.Blocks {
			for _, e := range p.Blocks[i].Succs {
				for _, m := range e.Moves {
					for j := int32(0); j < int32(m.N); j++ {
						src, dst := m.Src+j, m.Dst+j
						if int(src) < len(w) && int(dst) < len(w) && w[src] > w[dst] {
							w[dst], changed = w[src], true
						}
					}
				}
			}
		}
	}
	for i := range w {
		if w[i] < 0 {
			w[i] = 1
		}
	}
	return w
}

// isNarrowLoad reports whether op loads 8- or 16-bit values.
func isNarrowLoad(op Op) bool {
	switch op {
	case OpLoadGlobal8, OpLoadGlobal16, OpLoadLocal8, OpLoadLocal16, OpLoadPrivate8, OpLoadPrivate16:
		return true
	}
	return false
}

// resultBits is the width of a generated operation's result lanes: 0 for
// a comparison or test (a boolean), else 8, 16, 32 or 64.
func (o Op) resultBits() int {
	name := o.String()
	if strings.Contains(name, "Equal") || strings.Contains(name, "Than") || strings.HasPrefix(name, "Is") {
		return 0
	}
	t := name
	if rest, ok := strings.CutPrefix(name, "Cvt"); ok {
		// CvtDstSrc: the destination's type (a letter, its bits) first.
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		t = rest[:i]
	}
	end := len(t)
	for end > 0 && t[end-1] >= '0' && t[end-1] <= '9' {
		end--
	}
	switch t[end:] {
	case "8":
		return 8
	case "16":
		return 16
	case "64":
		return 64
	}
	return 32
}

func (o Op) isAddr() bool { return o == OpAddrImm || o == OpAddrIdx32 || o == OpAddrIdx64 }
func (o Op) isMem() bool  { _, _, _, ok := o.MemInfo(); return ok }
