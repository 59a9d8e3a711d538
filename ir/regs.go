package ir

import (
	"math"
	"strings"
)

// Registers estimates the 32-bit registers a thread needs: the most slots
// live at once, counting 64-bit values twice, after a liveness analysis over
// the blocks; the 8- and 16-bit lanes of a vector pack into 32-bit
// registers. Constants and arguments are not counted (GPUs keep them in
// uniform or constant registers). It is an estimate of what a vendor
// compiler would allocate, not a register allocation.
func (p *Program) Registers() int {
	n := p.Regs
	if n == 0 {
		return 1
	}
	width := p.slotWidths()
	uniform := make([]bool, n)
	for _, c := range p.Consts {
		uniform[c.Slot] = true
	}
	for _, par := range p.Params {
		for k := 0; k < max(par.Type.Slots, 1) && int(par.Slot)+k < n; k++ {
			uniform[int(par.Slot)+k] = true
		}
	}
	if p.ConstDataSlot >= 0 {
		uniform[p.ConstDataSlot] = true
	}
	// A slot nothing writes holds an undefined value (the lanes a
	// shuffle leaves undef, read by the vector operation after it): it
	// needs no register, however long it would seem live.
	undef := p.unwritten()
	for s, u := range undef {
		if u {
			uniform[s] = true
		}
	}
	type set map[int32]bool
	nb := len(p.Blocks)
	liveIn := make([]set, nb)
	liveOut := make([]set, nb)
	for i := range liveIn {
		liveIn[i], liveOut[i] = set{}, set{}
	}
	uses := func(in *Inst, f func(s int32)) {
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
				if int(s+j) < n && !uniform[s+j] {
					f(s + j)
				}
			}
		}
		if in.Op == OpExt {
			c := &p.Ext[in.Aux]
			for k, a := range c.Args {
				for j := 0; j < c.ArgN[k]; j++ {
					if int(a)+j < n && !uniform[int(a)+j] {
						f(a + int32(j))
					}
				}
			}
		}
		if in.Op == OpImage {
			p.Images[in.Aux].Reads(func(s int32) {
				if int(s) < n && !uniform[s] {
					f(s)
				}
			})
		}
	}
	defs := func(in *Inst, f func(s int32)) {
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
	edgeUses := func(b *Block, f func(s int32)) {
		if b.Term.Kind == TermCond || b.Term.Kind == TermSwitch {
			if !uniform[b.Term.Cond] {
				f(b.Term.Cond)
			}
		}
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
						if !uniform[m.Src+j] {
							out[m.Src+j] = true
						}
					}
				}
			}
			in := set{}
			for s := range out {
				in[s] = true
			}
			edgeUses(b, func(s int32) { in[s] = true })
			for k := b.End - 1; k >= b.Start; k-- {
				defs(&p.Code[k], func(s int32) { delete(in, s) })
				uses(&p.Code[k], func(s int32) { in[s] = true })
			}
			if len(out) != len(liveOut[i]) || len(in) != len(liveIn[i]) {
				changed = true
			}
			liveOut[i], liveIn[i] = out, in
		}
	}
	best := 0
	count := func(s set) int {
		t := 0.0
		for x := range s {
			t += width[x]
		}
		return int(math.Ceil(t - 1e-9))
	}
	for i := range p.Blocks {
		b := &p.Blocks[i]
		live := set{}
		for s := range liveOut[i] {
			live[s] = true
		}
		edgeUses(b, func(s int32) { live[s] = true })
		best = max(best, count(live))
		for k := b.End - 1; k >= b.Start; k-- {
			in := &p.Code[k]
			defs(in, func(s int32) { live[s] = true })
			best = max(best, count(live))
			defs(in, func(s int32) { delete(live, s) })
			uses(in, func(s int32) { live[s] = true })
			best = max(best, count(live))
		}
	}
	return max(best, 1)
}

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
func (p *Program) slotWidths() []float64 {
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
		case in.Op.isAddr() || in.Op == OpLoadGlobal64 || in.Op == OpLoadLocal64 || in.Op == OpLoadPrivate64:
			width = 2
		case in.Op >= opFirstGenerated:
			// Results of 8 and 16 bits pack into 32-bit registers when
			// they are a vector's lanes (uchar4 in one, half2 in one), as
			// the vendors' compilers pack them; a scalar takes a whole
			// register.
			switch bits := in.Op.resultBits(); {
			case bits == 64:
				width = 2
			case bits > 0 && bits < 32 && in.N > 1:
				width = math.Ceil(float64(int(in.N)*bits)/32) / float64(in.N)
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
