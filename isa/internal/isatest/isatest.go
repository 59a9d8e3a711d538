// Package isatest holds the helpers the lowering tests of isa and of the
// family packages share: GPUs by name, hand-built IR programs, lowering
// through the family registry, and views of a lowered program.
package isatest

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/isa"
	"github.com/pocketgpu/pocketgpu/isa/families"
	"github.com/pocketgpu/pocketgpu/spirv"
)

func MustGPU(t testing.TB, name string) *arch.GPU {
	t.Helper()
	g, err := arch.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func BuildSPIRV(t testing.TB, spv []byte, entry string) *ir.Program {
	t.Helper()
	m, err := spirv.Decode(spv)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ir.Build(m, entry, ir.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func CorpusProgram(t testing.TB, name string) *ir.Program {
	t.Helper()
	c, ok := corpus.Lookup(name)
	if !ok || c.SPIRV == nil {
		t.Fatalf("corpus case %s missing", name)
	}
	return BuildSPIRV(t, c.SPIRV, c.Entry)
}

// ProgBuilder builds a one-block program by hand: nslots slots, the given
// instructions, then a return. Consts and args name slots holding
// constants and kernel arguments.
type ProgBuilder struct {
	P *ir.Program
}

func NewProg(nslots int) *ProgBuilder {
	return &ProgBuilder{P: &ir.Program{
		Entry: "t", Regs: nslots, ConstDataSlot: -1,
		Sites:  []ir.Site{{Name: "test"}},
		Blocks: []ir.Block{{Term: ir.Term{Kind: ir.TermReturn}, IPDom: ir.NoBlock}},
	}}
}

func (b *ProgBuilder) Konst(slots ...int32) *ProgBuilder {
	for _, s := range slots {
		b.P.Consts = append(b.P.Consts, ir.Const{Slot: s, Value: uint64(s)})
	}
	return b
}

func (b *ProgBuilder) Arg(slots ...int32) *ProgBuilder {
	for _, s := range slots {
		b.P.Params = append(b.P.Params, ir.Param{Kind: ir.ParamValue, Slot: s, ByValOffset: -1,
			Type: &ir.Type{Kind: ir.KindFloat, Bits: 32, Slots: 1, Size: 4, Align: 4}})
	}
	return b
}

// Op appends an instruction: dst, n components, sources.
func (b *ProgBuilder) Op(o ir.Op, dst int32, n int, src ...int32) *ProgBuilder {
	in := ir.Inst{Op: o, N: uint16(n), Dst: dst, Src: [3]int32{-1, -1, -1}}
	copy(in.Src[:], src)
	return b.Inst(in)
}

func (b *ProgBuilder) Inst(in ir.Inst) *ProgBuilder {
	b.P.Code = append(b.P.Code, in)
	b.P.Blocks[len(b.P.Blocks)-1].End = int32(len(b.P.Code))
	return b
}

func Lower(t testing.TB, p *ir.Program, gpu string, w int) *isa.Program {
	t.Helper()
	lp, err := families.Lower(p, MustGPU(t, gpu), w)
	if err != nil {
		t.Fatal(err)
	}
	return lp
}

func LowerGPU(t testing.TB, p *ir.Program, g *arch.GPU, w int) *isa.Program {
	t.Helper()
	lp, err := families.Lower(p, g, w)
	if err != nil {
		t.Fatal(err)
	}
	return lp
}

// Classes counts the machine operations by class over a block, the
// terminator's branch left out.
func Classes(lp *isa.Program, b int) map[string]int {
	out := map[string]int{}
	for _, g := range lp.Blocks[b].Groups {
		for _, c := range g.Class {
			if isa.ClassNames[c.Class] != isa.PseudoBranch {
				out[isa.ClassNames[c.Class]] += int(c.N)
			}
		}
	}
	return out
}

// GroupOf finds the group that completes instruction i.
func GroupOf(lp *isa.Program, i int32) *isa.Group {
	for b := range lp.Blocks {
		for k := range lp.Blocks[b].Groups {
			for _, x := range lp.Blocks[b].Groups[k].Insts {
				if x == i {
					return &lp.Blocks[b].Groups[k]
				}
			}
		}
	}
	return nil
}

func PipeIndex(lp *isa.Program, name string) int {
	for i, p := range lp.Pipes {
		if p == name {
			return i
		}
	}
	return -1
}

func ParseGPU(t testing.TB, src string) *arch.GPU {
	t.Helper()
	g, err := arch.Parse([]byte(src), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func OccQuery(regs int) arch.OccupancyQuery { return arch.OccupancyQuery{Regs: regs} }

// CheckInvariants checks that a lowered program keeps the contract the
// timing engine relies on: every IR instruction in exactly one group of its
// block, the terminator in the block's last group, messages in program
// order, code laid out without gaps, costs positive, and on Bifrost the
// clause rules.
func CheckInvariants(t *testing.T, what string, lp *isa.Program) {
	t.Helper()
	p, g := lp.IR, lp.GPU
	if len(lp.Blocks) != len(p.Blocks) {
		t.Fatalf("%s: %d blocks, want %d", what, len(lp.Blocks), len(p.Blocks))
	}
	if len(lp.Pipes) != len(g.Pipes) {
		t.Errorf("%s: pipes %v", what, lp.Pipes)
	}
	seen := make([]int, len(p.Code))
	var offset int32
	for b, blk := range lp.Blocks {
		ib := &p.Blocks[b]
		if len(blk.Groups) == 0 {
			// Only a block that just jumps (no instructions, no phi
			// copies on its edge) is threaded away.
			if ib.Start != ib.End || ib.Term.Kind != ir.TermBranch || len(ib.Succs) != 1 || len(ib.Succs[0].Moves) > 0 {
				t.Errorf("%s: block %d has no groups (its terminator costs an issue slot)", what, b)
			}
			continue
		}
		lastMem := int32(-1)
		for gi, gr := range blk.Groups {
			if gr.CodeOffset != offset || gr.CodeBytes <= 0 {
				t.Errorf("%s: block %d group %d at %d+%d, want offset %d", what, b, gi, gr.CodeOffset, gr.CodeBytes, offset)
			}
			offset = gr.CodeOffset + gr.CodeBytes
			if gr.Issue < 1 || gr.Latency < 1 || len(gr.Pipe) != len(lp.Pipes) || gr.Ops < 1 {
				t.Errorf("%s: block %d group %d: issue %v latency %v pipes %v ops %d", what, b, gi, gr.Issue, gr.Latency, gr.Pipe, gr.Ops)
			}
			if gr.Branch != (gi == len(blk.Groups)-1) {
				t.Errorf("%s: block %d group %d of %d has Branch=%v; the terminator goes last", what, b, gi, len(blk.Groups), gr.Branch)
			}
			for _, i := range gr.Insts {
				if i < ib.Start || i >= ib.End {
					t.Errorf("%s: block %d lists instruction %d outside [%d,%d)", what, b, i, ib.Start, ib.End)
					continue
				}
				seen[i]++
			}
			for _, m := range gr.Mem {
				if m <= lastMem {
					t.Errorf("%s: block %d: message %d after %d, out of program order", what, b, m, lastMem)
				}
				lastMem = m
				if !isMessage(p, m) {
					t.Errorf("%s: %s listed in Mem", what, p.Code[m].Op)
				}
			}
			for _, m := range gr.Spill {
				// A spill message stays inside its lane's part of its
				// run, and the run inside the thread's scratch bytes.
				if m.Bytes <= 0 || m.Sub < 0 || m.Sub+m.Bytes > m.Stride || int(m.Run+m.Stride) > lp.SpillBytes || m.Store == (len(m.Slots) > 0) {
					t.Errorf("%s: block %d group %d: spill message %+v outside %d B of scratch", what, b, gi, m, lp.SpillBytes)
				}
			}
			var ops int32
			for _, c := range gr.Class {
				ops += c.N
			}
			if ops != gr.Ops {
				t.Errorf("%s: class counts add to %d, Ops %d", what, ops, gr.Ops)
			}
			if g.Bifrost != nil {
				if gr.Tuples != int32(gr.Issue) {
					t.Errorf("%s: clause of %d tuples issues %v", what, gr.Tuples, gr.Issue)
				}
				if gr.Tuples > int32(g.Bifrost.ClauseMaxTuples) && gr.Ops > 1 {
					t.Errorf("%s: clause of %d tuples holds %d operations", what, gr.Tuples, gr.Ops)
				}
				if n := len(gr.Mem) + len(gr.Spill); n > g.Bifrost.MessageInstructionsPerClause {
					t.Errorf("%s: clause with %d messages", what, n)
				}
			}
		}
	}
	if offset != int32(lp.CodeBytes) {
		t.Errorf("%s: code ends at %d, CodeBytes %d", what, offset, lp.CodeBytes)
	}
	for i, n := range seen {
		if n != 1 {
			t.Errorf("%s: instruction %d (%s) is in %d groups", what, i, p.Code[i].Op, n)
		}
	}
}

// isMessage reports whether an instruction is a memory, atomic or image
// message (private accesses and image queries are not).
func isMessage(p *ir.Program, i int32) bool {
	in := &p.Code[i]
	if sp, _, _, ok := in.Op.MemInfo(); ok {
		return sp != ir.SpacePrivate
	}
	switch in.Op {
	case ir.OpAtomic, ir.OpCopyMemory:
		return true
	case ir.OpImage:
		k := p.Images[in.Aux].Kind
		return k != ir.ImageQuerySize && k != ir.ImageQueryFormat && k != ir.ImageQueryOrder
	case ir.OpExt:
		return isa.ExtIsMessage(&p.Ext[in.Aux])
	}
	return false
}
