package isa

import (
	"errors"
	"fmt"
	"testing"

	"github.com/pocketgpu/pocketgpu/arch"
	"github.com/pocketgpu/pocketgpu/internal/corpus"
	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

func mustGPU(t testing.TB, name string) *arch.GPU {
	t.Helper()
	g, err := arch.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func buildSPIRV(t testing.TB, spv []byte, entry string) *ir.Program {
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

func corpusProgram(t testing.TB, name string) *ir.Program {
	t.Helper()
	c, ok := corpus.Lookup(name)
	if !ok || c.SPIRV == nil {
		t.Fatalf("corpus case %s missing", name)
	}
	return buildSPIRV(t, c.SPIRV, c.Entry)
}

// prog builds a one-block program by hand: nslots slots, the given
// instructions, then a return. Consts and args name slots holding
// constants and kernel arguments.
type progBuilder struct {
	p *ir.Program
}

func newProg(nslots int) *progBuilder {
	return &progBuilder{p: &ir.Program{
		Entry: "t", Regs: nslots, ConstDataSlot: -1,
		Sites:  []ir.Site{{Name: "test"}},
		Blocks: []ir.Block{{Term: ir.Term{Kind: ir.TermReturn}, IPDom: ir.NoBlock}},
	}}
}

func (b *progBuilder) konst(slots ...int32) *progBuilder {
	for _, s := range slots {
		b.p.Consts = append(b.p.Consts, ir.Const{Slot: s, Value: uint64(s)})
	}
	return b
}

func (b *progBuilder) arg(slots ...int32) *progBuilder {
	for _, s := range slots {
		b.p.Params = append(b.p.Params, ir.Param{Kind: ir.ParamValue, Slot: s, ByValOffset: -1,
			Type: &ir.Type{Kind: ir.KindFloat, Bits: 32, Slots: 1, Size: 4, Align: 4}})
	}
	return b
}

// op appends an instruction: dst, n components, sources.
func (b *progBuilder) op(o ir.Op, dst int32, n int, src ...int32) *progBuilder {
	in := ir.Inst{Op: o, N: uint16(n), Dst: dst, Src: [3]int32{-1, -1, -1}}
	copy(in.Src[:], src)
	return b.inst(in)
}

func (b *progBuilder) inst(in ir.Inst) *progBuilder {
	b.p.Code = append(b.p.Code, in)
	b.p.Blocks[len(b.p.Blocks)-1].End = int32(len(b.p.Code))
	return b
}

func lower(t testing.TB, p *ir.Program, gpu string, w int) *Program {
	t.Helper()
	lp, err := Lower(p, mustGPU(t, gpu), w)
	if err != nil {
		t.Fatal(err)
	}
	return lp
}

func lowerGPU(t testing.TB, p *ir.Program, g *arch.GPU, w int) *Program {
	t.Helper()
	lp, err := Lower(p, g, w)
	if err != nil {
		t.Fatal(err)
	}
	return lp
}

// classes counts the machine operations by class over a block, the
// terminator's branch left out.
func classes(lp *Program, b int) map[string]int {
	out := map[string]int{}
	for _, g := range lp.Blocks[b].Groups {
		for _, c := range g.Class {
			if ClassNames[c.Class] != PseudoBranch {
				out[ClassNames[c.Class]] += int(c.N)
			}
		}
	}
	return out
}

// groupOf finds the group that completes instruction i.
func groupOf(lp *Program, i int32) *Group {
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

func pipeIndex(lp *Program, name string) int {
	for i, p := range lp.Pipes {
		if p == name {
			return i
		}
	}
	return -1
}

func parseGPU(t testing.TB, src string) *arch.GPU {
	t.Helper()
	g, err := arch.Parse([]byte(src), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }

func occQuery(regs int) arch.OccupancyQuery { return arch.OccupancyQuery{Regs: regs} }

// tupleLayout lowers p and returns, per clause of block 0, per tuple, the
// instruction in each pipe's slot ("-" empty, "b" the branch, "i<N>").
func tupleLayout(t testing.TB, p *ir.Program, g *arch.GPU) [][][]string {
	t.Helper()
	var out [][][]string
	debugBifrost = func(s *bifrostSched, T int) {
		var cl [][]string
		for tt := 0; tt < T; tt++ {
			row := make([]string, s.npipes)
			for k := range row {
				row[k] = "-"
			}
			for _, m := range s.members {
				if int(s.first[m]) <= tt && int(s.last[m]) >= tt {
					name := "b"
					if in := s.ops[m].inst; in >= 0 {
						name = fmt.Sprintf("i%d", in)
					}
					row[s.slot[m]] = name
				}
			}
			cl = append(cl, row)
		}
		out = append(out, cl)
	}
	defer func() { debugBifrost = nil }()
	lowerGPU(t, p, g, 0)
	return out
}
