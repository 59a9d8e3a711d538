package isa

import (
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/ir"
)

// Every corpus kernel lowers on every preset, and the result keeps the
// contract the timing engine relies on: every IR instruction in exactly one
// group of its block, the terminator in the block's last group, messages in
// program order, code laid out without gaps, costs positive, and on Bifrost
// the clause rules.
func TestCorpusInvariants(t *testing.T) {
	for _, c := range corpus.Cases() {
		if c.SPIRV == nil {
			continue
		}
		p := buildSPIRV(t, c.SPIRV, c.Entry)
		for _, g := range arch.Presets() {
			lp, err := Lower(p, g, 0)
			if err != nil {
				t.Errorf("%s on %s: %v", c.Name, g.ID, err)
				continue
			}
			checkInvariants(t, c.Name+" on "+g.ID, lp)
		}
	}
}

func checkInvariants(t *testing.T, what string, lp *Program) {
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
			var ops int32
			for _, c := range gr.Class {
				ops += c.N
			}
			if ops != gr.Ops {
				t.Errorf("%s: class counts add to %d, Ops %d", what, ops, gr.Ops)
			}
			if g.Family == arch.Bifrost {
				if gr.Tuples != int32(gr.Issue) {
					t.Errorf("%s: clause of %d tuples issues %v", what, gr.Tuples, gr.Issue)
				}
				if gr.Tuples > int32(g.Bifrost.ClauseMaxTuples) && gr.Ops > 1 {
					t.Errorf("%s: clause of %d tuples holds %d operations", what, gr.Tuples, gr.Ops)
				}
				if len(gr.Mem) > g.Bifrost.MessageInstructionsPerClause {
					t.Errorf("%s: clause with %d messages", what, len(gr.Mem))
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
		e, _ := extLookup(&p.Ext[in.Aux])
		return e.msg != ""
	}
	return false
}
